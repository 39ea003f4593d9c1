// How the threads assigned to one vertex walk its neighbour list: the paper's access patterns (EMOGI §4.3) as
// policies, written once and combined with every algorithm and edge width.
//
// A policy says how many consecutive threads share a vertex (kLanes), how many consecutive vertices one such
// group handles in turn (kChunk), and, for one thread (`lane`), which positions of [begin, end) it visits.
// Algorithms call Access::walk with their per-edge operator, which receives the edge's position in the list.
#pragma once
#include <cstdint>

#include "emogi/gpu_constants.hpp"
#include "emogi/names.hpp"

namespace emogi {

// Thread per vertex: each thread reads its list alone, one 32-byte sector request at a time (Listing 1).
struct NaiveAccess {
  static constexpr Variant kVariant = Variant::Naive;
  static constexpr unsigned kLanes = 1;
  static constexpr unsigned kChunk = 1;
  template <class Index, class Visit>
  __device__ static void walk(uint64_t begin, uint64_t end, unsigned /*lane*/, Visit visit) {
    for (uint64_t i = begin; i < end; ++i) visit(i);
  }
};

// Warp per vertex: the 32 lanes read 32 consecutive entries, which the coalescer merges into large requests.
struct MergedAccess {
  static constexpr Variant kVariant = Variant::Merged;
  static constexpr unsigned kLanes = kWarpSize;
  static constexpr unsigned kChunk = 1;
  template <class Index, class Visit>
  __device__ static void walk(uint64_t begin, uint64_t end, unsigned lane, Visit visit) {
    for (uint64_t i = begin + lane; i < end; i += kWarpSize) visit(i);
  }
};

// Warp per vertex, the start rounded down to a 128-byte boundary so every request is line-aligned; lanes that
// fall before the true start sit out the first step (Listing 2). Assumes the edge array is 128-byte aligned,
// which every allocation and the file format guarantee.
struct MergedAlignedAccess {
  static constexpr Variant kVariant = Variant::MergedAligned;
  static constexpr unsigned kLanes = kWarpSize;
  static constexpr unsigned kChunk = 1;
  template <class Index, class Visit>
  __device__ static void walk(uint64_t begin, uint64_t end, unsigned lane, Visit visit) {
    constexpr uint64_t kPerLine = kCacheLineBytes / sizeof(Index);
    for (uint64_t i = (begin & ~(kPerLine - 1)) + lane; i < end; i += kWarpSize)
      if (i >= begin) visit(i);
  }
};

// The artifact's chunked form: merged+aligned reads, but a warp walks 8 consecutive vertices one after the
// other (fewer warps, each with more work).
struct ChunkedAccess : MergedAlignedAccess {
  static constexpr Variant kVariant = Variant::Chunked;
  static constexpr unsigned kChunk = 8;
};

}  // namespace emogi
