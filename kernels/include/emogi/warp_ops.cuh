// Warp-wide sums and slot allocation, so that thousands of threads adding to one counter cost one atomic per
// warp. Every lane of the warp must call these together (the callers' loops are warp-uniform).
#pragma once
#include <cstdint>

namespace emogi {

constexpr unsigned kFullMask = 0xFFFFFFFFu;

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

// Adds the warp's total of `value` to *counter (one atomic, from lane 0).
__device__ __forceinline__ void warp_add(unsigned long long* counter, unsigned long long value) {
  for (int offset = 16; offset > 0; offset >>= 1) value += __shfl_down_sync(kFullMask, value, offset);
  if (lane_id() == 0 && value) atomicAdd(counter, value);
}

// Reserves `count` consecutive slots of a list whose length is *length; returns this lane's first slot.
__device__ __forceinline__ unsigned long long warp_reserve(unsigned long long* length, unsigned long long count) {
  unsigned long long inclusive = count;
  for (int offset = 1; offset < 32; offset <<= 1) {
    const unsigned long long below = __shfl_up_sync(kFullMask, inclusive, offset);
    if (lane_id() >= unsigned(offset)) inclusive += below;
  }
  const unsigned long long total = __shfl_sync(kFullMask, inclusive, 31);
  unsigned long long base = 0;
  if (lane_id() == 31 && total) base = atomicAdd(length, total);
  base = __shfl_sync(kFullMask, base, 31);
  return base + inclusive - count;
}

}  // namespace emogi
