// Repeated timings of one kernel: warm-up runs first (not kept), then the median and range of the kept ones.
#pragma once
#include <vector>

namespace emogi::cpu {

struct TimingSummary {
  double median = 0, min = 0, max = 0;  // of the kept runs, in the unit given
  unsigned runs = 0;
};

// The median of an even count is the mean of the middle two. Throws on no runs.
TimingSummary summarize(std::vector<double> values);

}  // namespace emogi::cpu
