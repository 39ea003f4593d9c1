#include "emogi/cli_args.hpp"

#include <sstream>
#include <stdexcept>
#include <utility>

namespace emogi {

CliArgs::CliArgs(const std::vector<OptionSpec>& options, std::map<std::string, std::string> given,
                 std::set<std::string> flags)
    : values_(std::move(given)), flags_(std::move(flags)) {
  for (const OptionSpec& o : options)
    if (o.fallback && !values_.count(o.name)) values_[o.name] = *o.fallback;
}

std::string CliArgs::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::invalid_argument("missing required option --" + name);
  return it->second;
}

uint64_t CliArgs::get_u64(const std::string& name) const {
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

std::vector<std::string> CliArgs::get_list(const std::string& name) const {
  std::vector<std::string> items;
  if (!has(name)) return items;
  std::stringstream in(get(name));
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
