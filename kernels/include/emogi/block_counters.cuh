// A block's share of the iteration loop's counters (iteration_loop.cuh), summed in shared memory and added to the
// global counters once per block. One atomic per warp on the same global address queues: a pass over kron-24's
// 16.7M vertices with most of them active spent 1.3–2.8 ms on it, 12% of a `frontier` SSSP run (Nsight Compute,
// launch by launch). Every thread of the block must construct it, call reserve() and flush() together; add() may
// be called by any thread, warp_add() by a whole warp. One per kernel: all instances share the same shared memory.
// Not CUB: cub::BlockScan needs a __syncthreads before its storage is reused, a third barrier per reserve() (untimed).
#pragma once
#include <cstdint>

#include "emogi/iteration_loop.cuh"
#include "emogi/vertex_schedule.cuh"
#include "emogi/warp_ops.cuh"

namespace emogi {

class BlockCounters {
 public:
  __device__ BlockCounters() {
    __shared__ unsigned long long sums[kNumCounters];
    __shared__ unsigned long long warp_offsets[kBlockThreads / kWarpSize + 1];  // the last: the block's base slot
    sums_ = sums;
    offsets_ = warp_offsets;
    if (threadIdx.x < kNumCounters) sums_[threadIdx.x] = 0;
    __syncthreads();
  }

  __device__ void add(Counter c, unsigned long long value) {
    if (value) atomicAdd_block(&sums_[c], value);
  }
  __device__ void warp_add(Counter c, unsigned long long value) {
    value = warp_sum(value);
    if (lane_id() == 0) add(c, value);
  }

  // Reserves `count` consecutive slots of a list whose global length is *length (one atomic for the block);
  // returns this thread's first slot.
  __device__ unsigned long long reserve(unsigned long long* length, unsigned long long count) {
    constexpr unsigned kWarps = kBlockThreads / kWarpSize;
    const unsigned warp = threadIdx.x / kWarpSize;
    const unsigned long long inclusive = warp_inclusive_sum(count);
    if (lane_id() == kWarpSize - 1) offsets_[warp] = inclusive;
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned long long total = 0;
      for (unsigned w = 0; w < kWarps; ++w) {
        const unsigned long long t = offsets_[w];
        offsets_[w] = total;
        total += t;
      }
      offsets_[kWarps] = total ? atomicAdd(length, total) : 0;
    }
    __syncthreads();
    return offsets_[kWarps] + offsets_[warp] + inclusive - count;
  }

  // Adds the block's sums to the global counters.
  __device__ void flush(unsigned long long* counters) {
    __syncthreads();
    if (threadIdx.x < kNumCounters && sums_[threadIdx.x]) atomicAdd(&counters[threadIdx.x], sums_[threadIdx.x]);
  }

 private:
  unsigned long long* sums_;
  unsigned long long* offsets_;
};

}  // namespace emogi
