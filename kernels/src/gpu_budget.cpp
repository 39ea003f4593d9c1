#include "emogi/gpu_budget.hpp"

#include <cstdio>
#include <stdexcept>

namespace emogi {

void GpuBudget::take(size_t bytes, const std::string& what) {
  if (bytes > left())
    throw std::runtime_error("--gpu-memory-budget " + format_bytes(limit_) + " is smaller than " + what + ": " +
                             format_bytes(bytes) + " more asked for with " + format_bytes(used_) +
                             " of the budget in use");
  used_ += bytes;
}

GpuBudget& gpu_budget() {
  static GpuBudget budget;
  return budget;
}

std::string format_bytes(size_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) value /= 1024, ++unit;
  char buf[32];
  if (unit == 0)
    std::snprintf(buf, sizeof buf, "%zu B", bytes);
  else
    std::snprintf(buf, sizeof buf, "%.2f %s", value, kUnits[unit]);
  return buf;
}

}  // namespace emogi
