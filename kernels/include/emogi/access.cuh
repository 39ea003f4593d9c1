// How the threads assigned to one vertex walk its neighbour list: the paper's access patterns (EMOGI §4.3) as
// policies, written once and combined with every algorithm and edge width.
//
// A policy says how many consecutive threads share a vertex (kLanes), how many consecutive vertices one such
// group handles in turn (kChunk), and, for one thread (`lane`), which positions of [begin, end) it reads.
// Algorithms call Access::walk with a reader (graph_view.cuh: what one position holds) and a visitor, which
// receives what was read. A new access pattern is one policy struct plus its entry in AccessPolicies (bottom).
#pragma once
#include <cstdint>

#include "emogi/added_latency.cuh"
#include "emogi/gpu_constants.hpp"
#include "emogi/names.hpp"

// Warp-wide steps a lane reads before it visits any of them. With 1 (the artifact's loop) a warp on a hub list
// has one request per lane on the link at a time and the hub's list takes latency x length / 256 B; with 4 the
// same lines, with the same alignment, are requested four at a time. Set at build time (-DEMOGI_LOADS_IN_FLIGHT).
#ifndef EMOGI_LOADS_IN_FLIGHT
#define EMOGI_LOADS_IN_FLIGHT 4
#endif

namespace emogi {

constexpr unsigned kLoadsInFlight = EMOGI_LOADS_IN_FLIGHT;
static_assert(kLoadsInFlight >= 1 && kLoadsInFlight <= 16, "EMOGI_LOADS_IN_FLIGHT must be 1..16");

// Entries of Index in one 128-byte line, and the first entry of the line that holds entry `i`: where a
// line-aligned walk of a list starting at i begins (the edge array itself is 128-byte aligned).
template <class Index>
constexpr uint64_t kEntriesPerLine = kCacheLineBytes / sizeof(Index);
template <class Index>
__host__ __device__ constexpr uint64_t line_start(uint64_t i) {
  return i & ~(kEntriesPerLine<Index> - 1);
}

// Visits read(j) for j = first, first + stride, ... below end, skipping j < begin; reads kDepth positions
// before visiting them, and calls wait(x) on the kDepth values in between (NoWait: nothing, no code).
template <unsigned kDepth, class Read, class Visit, class Wait = NoWait>
__device__ __forceinline__ void strided_walk(uint64_t first, uint64_t begin, uint64_t end, uint64_t stride, Read read,
                                             Visit visit, Wait wait = {}) {
  using Value = decltype(read(first));
  for (uint64_t i = first; i < end; i += kDepth * stride) {
    Value x[kDepth]{};
#pragma unroll
    for (unsigned k = 0; k < kDepth; ++k) {
      const uint64_t j = i + k * stride;
      if (j >= begin && j < end) x[k] = read(j);
    }
    wait(x);
#pragma unroll
    for (unsigned k = 0; k < kDepth; ++k) {
      const uint64_t j = i + k * stride;
      if (j >= begin && j < end) visit(x[k]);
    }
  }
}

// Thread per vertex: each thread reads its list alone, one 32-byte sector request at a time (Listing 1). Kept as
// the artifact's plain loop (strided_walk's bounds checks cost naive 44% on kron-23 in GPU memory, measured).
struct NaiveAccess {
  static constexpr Variant kVariant = Variant::Naive;
  static constexpr unsigned kLanes = 1;
  static constexpr unsigned kChunk = 1;
  template <class Index, class Read, class Visit, class Wait = NoWait>
  __device__ static void walk(uint64_t begin, uint64_t end, unsigned /*lane*/, Read read, Visit visit, Wait wait = {}) {
    for (uint64_t i = begin; i < end; ++i) {
      const auto x = read(i);
      wait(x);
      visit(x);
    }
  }
};

// Warp per vertex: the 32 lanes read 32 consecutive entries, which the coalescer merges into large requests.
struct MergedAccess {
  static constexpr Variant kVariant = Variant::Merged;
  static constexpr unsigned kLanes = kWarpSize;
  static constexpr unsigned kChunk = 1;
  template <class Index, class Read, class Visit, class Wait = NoWait>
  __device__ static void walk(uint64_t begin, uint64_t end, unsigned lane, Read read, Visit visit, Wait wait = {}) {
    strided_walk<kLoadsInFlight>(begin + lane, begin, end, kWarpSize, read, visit, wait);
  }
};

// Warp per vertex, the start rounded down to a 128-byte boundary so every request is line-aligned; lanes that
// fall before the true start sit out the first step (Listing 2). Assumes the edge array is 128-byte aligned,
// which every allocation and the file format guarantee.
struct MergedAlignedAccess {
  static constexpr Variant kVariant = Variant::MergedAligned;
  static constexpr unsigned kLanes = kWarpSize;
  static constexpr unsigned kChunk = 1;
  template <class Index, class Read, class Visit, class Wait = NoWait>
  __device__ static void walk(uint64_t begin, uint64_t end, unsigned lane, Read read, Visit visit, Wait wait = {}) {
    strided_walk<kLoadsInFlight>(line_start<Index>(begin) + lane, begin, end, kWarpSize, read, visit, wait);
  }
};

// The artifact's chunked form: merged+aligned reads, but a warp walks 8 consecutive vertices one after the
// other (fewer warps, each with more work).
struct ChunkedAccess : MergedAlignedAccess {
  static constexpr Variant kVariant = Variant::Chunked;
  static constexpr unsigned kChunk = 8;
};

// Added-latency emulation as a policy adaptor: Access's walk, with each batch of reads waiting the reader's added
// cycles once it has arrived (added_latency.cuh). Only runs that ask for added latency instantiate it
// (run_variant), so every other run times exactly the plain policy's code.
template <class Access>
struct Delayed : Access {
  template <class Index, class Read, class Visit>
  __device__ static void walk(uint64_t begin, uint64_t end, unsigned lane, Read read, Visit visit) {
    Access::template walk<Index>(begin, end, lane, read, visit, ArrivalWait{added_cycles_of(read)});
  }
};

// Every policy, so that a runtime Variant finds its policy type in one place (with_access).
template <class... Policies>
struct AccessList {};
using AccessPolicies = AccessList<NaiveAccess, MergedAccess, MergedAlignedAccess, ChunkedAccess>;

// The list agrees with emogi/registry.yaml (names.hpp's is_access_variant): each policy is an access variant there,
// and each access variant there has one policy here.
template <class... Policies>
constexpr bool agrees_with_registry(AccessList<Policies...>) {
  size_t access_variants = 0;
  for (size_t v = 0; v < kVariantNames.size(); ++v) access_variants += is_access_variant(static_cast<Variant>(v));
  return (is_access_variant(Policies::kVariant) && ...) && access_variants == sizeof...(Policies);
}
static_assert(agrees_with_registry(AccessPolicies{}),
              "AccessPolicies and the variants emogi/registry.yaml marks `access: true` differ");

template <class F, class... Policies>
bool with_access(Variant v, F&& f, AccessList<Policies...>) {
  return ((v == Policies::kVariant && (f(Policies{}), true)) || ...);
}
// Calls f(Access{}) with the policy whose kVariant is v; false (f not called) when v names no access policy.
template <class F>
bool with_access(Variant v, F&& f) {
  return with_access(v, f, AccessPolicies{});
}

}  // namespace emogi
