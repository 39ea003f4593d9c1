#include "emogi/cli_args.hpp"

#include <cctype>
#include <sstream>
#include <stdexcept>

namespace emogi {

CliArgs::CliArgs(int argc, char** argv, const std::set<std::string>& options, const std::set<std::string>& flags) {
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) throw std::invalid_argument("unexpected argument '" + arg + "'");
    const std::string name = arg.substr(2);
    if (flags.count(name)) {
      flags_.insert(name);
    } else if (options.count(name)) {
      if (i + 1 >= argc) throw std::invalid_argument("option --" + name + " needs a value");
      values_[name] = argv[++i];
    } else {
      throw std::invalid_argument("unknown option --" + name);
    }
  }
}

std::string CliArgs::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::invalid_argument("missing required option --" + name);
  return it->second;
}

std::string CliArgs::get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

uint64_t CliArgs::get_u64(const std::string& name, uint64_t fallback) const {
  if (!has(name)) return fallback;
  const std::string text = get(name);
  size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || text[0] == '-')
    throw std::invalid_argument("--" + name + " expects a non-negative integer, got '" + text + "'");
  return value;
}

std::vector<std::string> CliArgs::get_list(const std::string& name, const std::string& fallback) const {
  std::vector<std::string> items;
  std::stringstream in(get(name, fallback));
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

uint64_t parse_bytes(const std::string& text) {
  size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    throw std::invalid_argument("not a size: '" + text + "'");
  }
  const std::string unit = text.substr(used);
  if (unit.empty()) return value;
  if (unit == "K") return value << 10;
  if (unit == "M") return value << 20;
  if (unit == "G") return value << 30;
  throw std::invalid_argument("not a size: '" + text + "' (use a number with K, M or G)");
}

}  // namespace emogi
