// Warp-wide sums and prefix sums (every lane of the warp must call these together; the callers' loops are
// warp-uniform), by CUB's shuffle-based WarpReduce and WarpScan. block_counters.cuh builds the block-wide counting
// on them.
#pragma once
#include <cstdint>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

#include "emogi/gpu_constants.hpp"

namespace emogi {

constexpr unsigned kFullMask = 0xFFFFFFFFu;

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

// The warp's total of `value`, in lane 0.
__device__ __forceinline__ unsigned long long warp_sum(unsigned long long value) {
  using Reduce = cub::WarpReduce<unsigned long long>;
  __shared__ typename Reduce::TempStorage storage[kMaxWarpsPerBlock];  // empty for a full warp (shuffles only)
  return Reduce(storage[threadIdx.x / kWarpSize]).Sum(value);
}

__device__ __forceinline__ double warp_sum(double value) {
  using Reduce = cub::WarpReduce<double>;
  __shared__ typename Reduce::TempStorage storage[kMaxWarpsPerBlock];
  return Reduce(storage[threadIdx.x / kWarpSize]).Sum(value);
}

// The sum of `value` over this lane and the lanes below it.
__device__ __forceinline__ unsigned long long warp_inclusive_sum(unsigned long long value) {
  using Scan = cub::WarpScan<unsigned long long>;
  __shared__ typename Scan::TempStorage storage[kMaxWarpsPerBlock];  // empty for a full warp (shuffles only)
  Scan(storage[threadIdx.x / kWarpSize]).InclusiveSum(value, value);
  return value;
}

}  // namespace emogi
