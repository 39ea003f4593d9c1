// Small pieces the microbenchmark commands share: the list of memory modes to sweep and a median.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "emogi/cli_args.hpp"
#include "emogi/gpu_constants.hpp"
#include "emogi/names.hpp"

namespace emogi {

// Microbenchmarks place their array in device memory or by the two zero-copy allocations the model is fitted to
// (a migrating buffer measures the driver, not the link).
inline OptionSpec micro_modes_option() {
  return option("modes", "LIST", "device, zerocopy and/or zerocopy-pinned", "device,zerocopy,zerocopy-pinned");
}
inline std::vector<MemoryMode> micro_modes(const CliArgs& args) {
  std::vector<MemoryMode> modes;
  for (const auto& m : args.get_list("modes")) {
    modes.push_back(parse_mode(m));
    const MemoryMode mode = modes.back();
    if (mode != MemoryMode::Device && mode != MemoryMode::ZeroCopy && mode != MemoryMode::ZeroCopyPinned)
      throw std::invalid_argument("microbenchmarks take device, zerocopy or zerocopy-pinned");
  }
  return modes;
}

inline std::vector<uint64_t> byte_list(const CliArgs& args, const std::string& name) {
  std::vector<uint64_t> values;
  for (const auto& s : args.get_list(name)) values.push_back(parse_bytes(s));
  return values;
}

inline double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : (v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]));
}

}  // namespace emogi
