// The paper's schedule: every iteration launches a thread (or warp, or warp per chunk) for every vertex, and
// the active ones do work. A grid smaller than that (max_warps) walks the vertices grid-stride, which caps the
// reads in flight (how the model emulates a longer latency).
#pragma once
#include <cstdint>

#include "emogi/gpu_constants.hpp"

namespace emogi {

// Threads per block of every vertex-parallel kernel (a multiple of 32); -DEMOGI_BLOCK_THREADS=N overrides it for
// experiments.
#ifndef EMOGI_BLOCK_THREADS
#define EMOGI_BLOCK_THREADS 256
#endif
constexpr unsigned kBlockThreads = EMOGI_BLOCK_THREADS;
static_assert(kBlockThreads % 32 == 0 && kBlockThreads <= 1024,
              "EMOGI_BLOCK_THREADS must be a multiple of 32, at most 1024");

// Calls body(v, lane) for each vertex v this thread's group owns.
template <class Access, class Body>
__device__ __forceinline__ void for_each_vertex(uint64_t num_vertices, Body body) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;  // a multiple of 32: lanes of a warp stay together
  for (uint64_t thread = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;; thread += stride) {
    const uint64_t first = thread / Access::kLanes * Access::kChunk;
    if (first >= num_vertices) return;
    const uint64_t last = first + Access::kChunk < num_vertices ? first + Access::kChunk : num_vertices;
    for (uint64_t v = first; v < last; ++v) body(v, unsigned(thread % Access::kLanes));
  }
}

// Blocks for a scan: enough for every vertex, or at most max_warps warps (rounded up to whole blocks).
template <class Access>
uint64_t scan_blocks(uint64_t num_vertices, uint64_t max_warps) {
  const uint64_t groups = (num_vertices + Access::kChunk - 1) / Access::kChunk;
  const uint64_t all = (groups * Access::kLanes + kBlockThreads - 1) / kBlockThreads;
  if (max_warps == 0) return all;
  const uint64_t capped = (max_warps * kWarpSize + kBlockThreads - 1) / kBlockThreads;
  return capped < all ? capped : all;
}

// Blocks for a plain thread-per-vertex pass (updates, queue building).
inline uint64_t vertex_blocks(uint64_t num_vertices) { return (num_vertices + kBlockThreads - 1) / kBlockThreads; }

}  // namespace emogi
