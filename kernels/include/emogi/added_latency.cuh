// Added-latency emulation (CXL paper §4.2, Fig. 11): once a read's value has arrived, the reading thread waits a
// given number of clock cycles before it uses it, as if the round trip took that much longer. With 0, the default,
// nothing waits. How much latency this really adds is measured, not assumed: `emogi chase --added-latency-ns` runs
// the pointer chase under the same wait.
#pragma once
#include <cstdint>

#include "emogi/graph_view.cuh"

namespace emogi {

// A value standing for everything a read returned, so that waiting on it waits for the read. Readers other than
// graph_view.cuh's never wait (added_cycles_of below), so their values need no token.
template <class T>
__device__ __forceinline__ uint64_t arrival_token(const T&) {
  return 0;
}
__device__ __forceinline__ uint64_t arrival_token(uint64_t v) { return v; }
__device__ __forceinline__ uint64_t arrival_token(uint32_t v) { return v; }
__device__ __forceinline__ uint64_t arrival_token(const WeightedNeighbor& e) { return e.id ^ e.weight; }

// Waits `cycles` clock cycles counted from the arrival of `token`'s read (0: returns at once). The clock is read
// under a predicate computed from the token, so the count cannot start before the value is there.
__device__ __forceinline__ void wait_after_arrival(uint64_t token, uint32_t cycles) {
  if (cycles == 0) return;
  long long start;
  asm volatile(
      "{\n\t.reg .pred p;\n\tsetp.eq.u64 p, %1, 0;\n\t@p mov.u64 %0, %%clock64;\n\t@!p mov.u64 %0, %%clock64;\n\t}"
      : "=l"(start)
      : "l"(token));
  while (clock64() - start < cycles) {
  }
}

// What a walk calls between reading a batch and visiting it (access.cuh): nothing for the plain policies ...
struct NoWait {
  template <class X>
  __device__ __forceinline__ void operator()(const X&) const {}
};

// ... and, under emulation, a wait of `cycles` once every value of the batch has arrived.
struct ArrivalWait {
  uint32_t cycles;
  template <class Value>
  __device__ __forceinline__ void operator()(const Value& x) const {
    wait_after_arrival(arrival_token(x), cycles);
  }
  template <class Value, unsigned N>
  __device__ __forceinline__ void operator()(const Value (&x)[N]) const {
    uint64_t token = 0;
#pragma unroll
    for (unsigned k = 0; k < N; ++k) token ^= arrival_token(x[k]);
    wait_after_arrival(token, cycles);
  }
};

// The cycles a reader's reads wait (graph_view.cuh's readers carry them; any other reader waits none).
template <class Read>
__device__ __forceinline__ uint32_t added_cycles_of(const Read&) {
  return 0;
}
template <class Index>
__device__ __forceinline__ uint32_t added_cycles_of(const NeighborReader<Index>& r) {
  return r.added_cycles;
}
template <class Index>
__device__ __forceinline__ uint32_t added_cycles_of(const WeightedNeighborReader<Index>& r) {
  return r.added_cycles;
}

}  // namespace emogi
