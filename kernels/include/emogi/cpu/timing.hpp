// Repeated timings of one kernel: warm-up runs first (not kept), then the median and range of the kept ones.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace emogi::cpu {

struct TimingSummary {
  double median = 0, min = 0, max = 0;  // of the kept runs, in the unit given
  unsigned runs = 0;
};

// The median of an even count is the mean of the middle two. Throws on no runs.
TimingSummary summarize(std::vector<double> values);

// Runs `kernel` (returning a result with `seconds`, its own timing) `warmup` times untimed, then `reps` times:
// the last run's result and the summary of the kept runs, in milliseconds.
template <class Kernel>
auto timed_runs(uint64_t warmup, uint64_t reps, Kernel&& kernel) {
  std::vector<double> ms;
  decltype(kernel()) last;
  for (uint64_t i = 0; i < warmup + reps; ++i) {
    last = kernel();
    if (i >= warmup) ms.push_back(last.seconds * 1e3);
  }
  return std::make_pair(std::move(last), summarize(std::move(ms)));
}

}  // namespace emogi::cpu
