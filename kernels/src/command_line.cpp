// The command line: CLI11 parses argv against the commands' declared options (cli_args.hpp), answers --help and
// reports what is wrong as one line; the named command then runs on the values.
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>

#include "CLI/CLI.hpp"
#include "emogi/cli_args.hpp"

namespace emogi {
namespace {

void add_command(CLI::App& app, const CommandSpec& command) {
  CLI::App* sub = app.add_subcommand(command.name, command.about);
  sub->allow_extras();  // collect() names what is left over in the words the tests and scripts know
  for (const OptionSpec& o : command.options) {
    std::string help = o.help + (o.required ? " (required)" : "");
    if (o.type.empty()) {
      sub->add_flag("--" + o.name)->description(help);  // add_flag(name, string&) would bind the string
      continue;
    }
    CLI::Option* opt = sub->add_option("--" + o.name, CLI::callback_t{}, help);
    opt->type_name(o.type)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // the last one given wins
    if (o.fallback && !o.fallback->empty()) opt->default_str(*o.fallback);
  }
}

// The values a parsed sub-command got, after the checks left to us: first anything CLI11 did not take (it would
// report required options before these), then the required options.
CliArgs collect(const CLI::App& sub, const CommandSpec& command) {
  const std::vector<std::string> extra = sub.remaining();
  if (!extra.empty()) {
    const std::string& arg = extra.front();
    if (arg.rfind("--", 0) == 0) throw std::invalid_argument("unknown option " + arg.substr(0, arg.find('=')));
    throw std::invalid_argument("unexpected argument '" + arg + "'");
  }
  std::map<std::string, std::string> given;
  std::set<std::string> flags;
  for (const OptionSpec& o : command.options) {
    const CLI::Option* opt = sub.get_option("--" + o.name);
    if (opt->count() == 0) {
      if (o.required) throw std::invalid_argument("missing required option --" + o.name);
    } else if (o.type.empty()) {
      flags.insert(o.name);
    } else {
      given[o.name] = opt->results().back();
    }
  }
  return CliArgs(command.options, std::move(given), std::move(flags));
}

}  // namespace

int run_cli(int argc, char** argv, const std::vector<CommandSpec>& commands, const std::string& program,
            const std::string& about) {
  CLI::App app{about, program};
  app.require_subcommand(1, 1);
  const std::string first = argc > 1 ? argv[1] : "";
  bool known = first == "--help" || first == "-h";
  std::string names;
  for (const CommandSpec& c : commands) {
    add_command(app, c);
    names += (names.empty() ? "" : "|") + c.name;
    known = known || first == c.name;
  }
  if (!known) {
    std::fprintf(stderr, "usage: %s {%s} [--option value ...]; %s --help or %s COMMAND --help says more\n",
                 program.c_str(), names.c_str(), program.c_str(), program.c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e, std::cout, std::cerr);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s %s: error: %s\n", program.c_str(), first.c_str(), e.what());
    return 1;
  }
  for (const CommandSpec& c : commands) {
    const CLI::App* sub = app.get_subcommand(c.name);
    if (!sub->parsed()) continue;
    try {
      return c.run(collect(*sub, c));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s %s: error: %s\n", program.c_str(), c.name.c_str(), e.what());
      return 1;
    }
  }
  return 2;  // not reached: require_subcommand(1, 1)
}

}  // namespace emogi
