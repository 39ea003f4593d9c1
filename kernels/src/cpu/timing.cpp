#include "emogi/cpu/timing.hpp"

#include <algorithm>
#include <stdexcept>

namespace emogi::cpu {

TimingSummary summarize(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("no timed runs (--reps must be at least 1)");
  std::sort(values.begin(), values.end());
  const size_t k = values.size();
  TimingSummary t;
  t.median = k % 2 ? values[k / 2] : (values[k / 2 - 1] + values[k / 2]) / 2;
  t.min = values.front();
  t.max = values.back();
  t.runs = unsigned(k);
  return t;
}

}  // namespace emogi::cpu
