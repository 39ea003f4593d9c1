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

// Which vertices one launch sweeps, and whether it records the lists it reads (list_reads.cuh). Kernels that read
// lists take the sweep as a template parameter, so timed runs compile to the kernels they always were:
// - AllVertices: every vertex, nothing recorded (timed runs of every mode but uvm-capped);
// - RecordedRange: vertices [begin, end) (uvm-capped splits a sweep into consecutive ranges), each list read marked
//   in a bitmap over the vertices (trace runs and uvm-capped), or nothing marked without one (streamed blocks);
// - ColumnBlockRows (column_sweep.cuh): the non-empty rows of one column block (streamed, --stream-layout columns).
// A matrix kernel (SpMV) also asks the sweep which row list v is (row_of) and where x's entry of a column is
// (vector_at): v itself and x[column] here; a column block's row ids and its slice of x there.
struct AllVertices {
  uint64_t num_vertices;
  __host__ __device__ uint64_t begin() const { return 0; }
  __host__ __device__ uint64_t end() const { return num_vertices; }
  __host__ __device__ uint64_t size() const { return num_vertices; }
  __device__ bool holds(uint64_t) const { return true; }
  __device__ void note_read(uint64_t, unsigned) const {}
  __device__ uint64_t row_of(uint64_t v) const { return v; }
  __device__ float vector_at(const float* x, uint64_t column) const { return x[column]; }
};

struct RecordedRange {
  uint64_t first, last;  // [first, last)
  uint32_t* bits;        // bit v % 32 of word v / 32: v's list was read; null: nothing recorded
  __host__ __device__ uint64_t begin() const { return first; }
  __host__ __device__ uint64_t end() const { return last; }
  __host__ __device__ uint64_t size() const { return last - first; }
  __device__ bool holds(uint64_t v) const { return v >= first && v < last; }
  // From one lane of the threads reading v's list (an empty list is marked too; readers of the bitmap skip it).
  __device__ void note_read(uint64_t v, unsigned lane) const {
    if (lane == 0 && bits) atomicOr(&bits[v / 32], 1u << (v % 32));
  }
  __device__ uint64_t row_of(uint64_t v) const { return v; }
  __device__ float vector_at(const float* x, uint64_t column) const { return x[column]; }
};

template <class Access, class Body>
__device__ __forceinline__ void for_each_vertex(AllVertices all, Body body) {
  for_each_vertex<Access>(all.num_vertices, body);
}
// Calls body(v, lane) for each vertex v of the range this thread's group owns.
template <class Access, class Body>
__device__ __forceinline__ void for_each_vertex(RecordedRange range, Body body) {
  const uint64_t thread = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned lane = unsigned(thread % Access::kLanes);  // the stride is a multiple of 32: lanes stay together
  const uint64_t step = uint64_t(gridDim.x) * blockDim.x / Access::kLanes * Access::kChunk;
  for (uint64_t first = range.first + thread / Access::kLanes * Access::kChunk; first < range.last; first += step) {
    const uint64_t last = first + Access::kChunk < range.last ? first + Access::kChunk : range.last;
    for (uint64_t v = first; v < last; ++v) body(v, lane);
  }
}

// A warp per 32 consecutive vertices of the sweep: lane i tests vertex base + i (one coalesced read of the
// test's data for 32 vertices), and the warp then calls body(v, i, lane) with all lanes for each vertex v that
// passed, in turn, i being the lane that tested it. Where few vertices pass (late rounds of an iterative
// algorithm) a launch costs a thread per vertex rather than a warp per vertex. `test(v, lane)` runs on every lane
// with a vertex of the sweep; a lane may keep what it found there for the body (a shuffle from lane i).
template <class Sweep, class Test, class Body>
__device__ __forceinline__ void for_each_passing_vertex(Sweep sweep, Test test, Body body) {
  const uint64_t thread = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned lane = unsigned(thread % kWarpSize);  // blocks are whole warps: the lanes of a warp stay together
  const uint64_t step = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t base = sweep.begin() + (thread - lane); base < sweep.end(); base += step) {
    const uint64_t v = base + lane;
    unsigned passed = __ballot_sync(0xFFFFFFFFu, v < sweep.end() && test(v, lane));
    while (passed) {
      const unsigned i = unsigned(__ffs(int(passed)) - 1);
      passed &= passed - 1;
      body(base + i, i, lane);
    }
  }
}

// Blocks for for_each_passing_vertex: a warp per 32 vertices, or at most max_warps warps.
inline uint64_t passing_vertex_blocks(uint64_t num_vertices, uint64_t max_warps) {
  const uint64_t warps = (num_vertices + kWarpSize - 1) / kWarpSize;
  const uint64_t capped = max_warps == 0 || max_warps > warps ? warps : max_warps;
  const uint64_t blocks = (capped * kWarpSize + kBlockThreads - 1) / kBlockThreads;
  return blocks ? blocks : 1;
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
