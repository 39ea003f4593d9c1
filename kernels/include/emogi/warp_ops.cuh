// Warp-wide sums and prefix sums (every lane of the warp must call these together; the callers' loops are
// warp-uniform). block_counters.cuh builds the block-wide counting on them.
#pragma once
#include <cstdint>

namespace emogi {

constexpr unsigned kFullMask = 0xFFFFFFFFu;

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

// The warp's total of `value`, in lane 0.
__device__ __forceinline__ unsigned long long warp_sum(unsigned long long value) {
  for (int offset = 16; offset > 0; offset >>= 1) value += __shfl_down_sync(kFullMask, value, offset);
  return value;
}

// The sum of `value` over this lane and the lanes below it.
__device__ __forceinline__ unsigned long long warp_inclusive_sum(unsigned long long value) {
  for (int offset = 1; offset < 32; offset <<= 1) {
    const unsigned long long below = __shfl_up_sync(kFullMask, value, offset);
    if (lane_id() >= unsigned(offset)) value += below;
  }
  return value;
}

}  // namespace emogi
