// A tiny command-line reader: `--key value` options and `--flag` switches. Every option a command reads must
// be declared; anything else on the line is an error that names it.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace emogi {

class CliArgs {
 public:
  // `flags` take no value; every other `--name` takes the next argument as its value.
  CliArgs(int argc, char** argv, const std::set<std::string>& options, const std::set<std::string>& flags);

  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string get(const std::string& name) const;                          // required option
  std::string get(const std::string& name, const std::string& fallback) const;
  uint64_t get_u64(const std::string& name, uint64_t fallback) const;
  std::vector<std::string> get_list(const std::string& name, const std::string& fallback) const;  // comma-separated

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
};

// "4K", "256M", "1G" (binary units) or plain bytes.
uint64_t parse_bytes(const std::string& text);

}  // namespace emogi
