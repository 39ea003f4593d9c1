// What a sub-command declares about its options (name, help, default) and how it reads their values. Parsing,
// `--help` and the errors are CLI11's (src/command_line.cpp); this header stays free of CLI11 so that the `.cu`
// commands, which nvcc compiles, can declare and read options.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace emogi {

struct OptionSpec {
  std::string name;  // without the leading --
  std::string type;  // shown in --help: PATH, INT, LIST, ...; empty for a flag
  std::string help;
  std::optional<std::string> fallback;  // the value when the option is not given
  bool required = false;                // checked once the line is parsed: "missing required option --name"
};

inline OptionSpec option(std::string name, std::string type, std::string help,
                         std::optional<std::string> fallback = std::nullopt) {
  return {std::move(name), std::move(type), std::move(help), std::move(fallback), false};
}
inline OptionSpec required(std::string name, std::string type, std::string help) {
  return {std::move(name), std::move(type), std::move(help), std::nullopt, true};
}
inline OptionSpec flag(std::string name, std::string help) {
  return {std::move(name), "", std::move(help), std::nullopt, false};
}

// The values of one parsed command line: what was given, else the option's fallback.
class CliArgs {
 public:
  CliArgs(const std::vector<OptionSpec>& options, std::map<std::string, std::string> given,
          std::set<std::string> flags);

  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string get(const std::string& name) const;  // throws "missing required option --name" without a value
  uint64_t get_u64(const std::string& name) const;
  std::vector<std::string> get_list(const std::string& name) const;  // comma-separated; none when absent

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
};

struct CommandSpec {
  std::string name, about;
  std::vector<OptionSpec> options;
  std::function<int(const CliArgs&)> run;  // returns the exit code
};

// Parses argv against the commands and runs the one named (src/command_line.cpp). Exit codes: the command's;
// 0 for --help; 1 for an error (one line on stderr); 2 for a missing or unknown command. `program` and `about`
// name the binary in --help and in the errors.
int run_cli(int argc, char** argv, const std::vector<CommandSpec>& commands, const std::string& program = "emogi",
            const std::string& about = "emogi: GPU graph traversal over edge lists in host memory (zero-copy) vs UVM");

// "4K", "256M", "1G" (binary units) or plain bytes.
uint64_t parse_bytes(const std::string& text);

}  // namespace emogi
