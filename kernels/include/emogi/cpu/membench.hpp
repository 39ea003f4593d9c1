// The GraphIt thesis' memory micro-benchmark (its Fig. 2-8 and Table 2.1): fill an array of int64 src[i] = i much
// larger than the LLC and an index array, then time one parallel pass that reads index[i] sequentially and
// src[index[i]]: index[i] = i (sequential) or a hash of i modulo the array length (random). Only the pass is timed;
// the random pattern's time includes its sequential index reads, as in the thesis.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

namespace emogi::cpu {

// index[i] of the pattern: i, or splitmix64(i) mod elements (a fixed hash, as the thesis' hashInt).
uint64_t membench_index(uint64_t i, uint64_t elements, bool random);

// What one timed pass's seconds mean: `accesses` reads of an 8-byte element (and of its 8-byte index).
struct MembenchRates {
  double seconds = 0;
  double ns_per_access = 0;  // wall time / accesses (all threads together)
  double array_gb_s = 0;     // 8 bytes of src per access, 1e9 bytes per GB
  double total_gb_s = 0;     // src and index bytes together
};
MembenchRates membench_rates(uint64_t accesses, double seconds);

class Membench {
 public:
  // Allocates and fills (in parallel, so each page is first touched by the threads that read it) src of
  // array_bytes / 8 elements and an index array of `accesses` entries (0: one per element).
  Membench(uint64_t array_bytes, uint64_t accesses, bool random);
  // One timed pass on `threads` threads; throws if the sum read is not the sum of the indices (a wrong read).
  double time_pass(int threads) const;
  uint64_t elements() const { return elements_; }
  uint64_t accesses() const { return accesses_; }

 private:
  uint64_t elements_, accesses_;
  std::unique_ptr<int64_t[]> src_;
  std::unique_ptr<uint64_t[]> index_;
  uint64_t expected_sum_ = 0;
};

}  // namespace emogi::cpu
