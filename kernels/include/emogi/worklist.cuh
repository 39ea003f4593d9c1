// Work lists of edge segments (this project's `frontier` variants). An active vertex contributes one entry per
// kSegmentBytes-aligned piece of its list, so a hub's list is read by many warps at once instead of one warp
// walking 400,000 edges while the others idle (the paper's warp-per-vertex critical path). Segment borders sit
// at absolute multiples of the segment size, so no 128-byte line is fetched by two segments.
#pragma once
#include <cstdint>

#include "emogi/access.cuh"
#include "emogi/block_counters.cuh"
#include "emogi/cuda_check.hpp"
#include "emogi/device_array.cuh"
#include "emogi/graph_view.cuh"
#include "emogi/iteration_loop.cuh"
#include "emogi/vertex_schedule.cuh"
#include "emogi/warp_ops.cuh"

namespace emogi {

constexpr uint64_t kSegmentBytes = 4096;
constexpr unsigned kPartBits = 24;  // an entry is vertex << 24 | segment number within the list

template <class Index>
constexpr uint64_t segment_edges() {
  return kSegmentBytes / sizeof(Index);
}

template <class Index>
__device__ __forceinline__ uint64_t segments_of(uint64_t begin, uint64_t end) {
  constexpr uint64_t S = segment_edges<Index>();
  return end > begin ? (end - 1) / S - begin / S + 1 : 0;
}

// Appends the segments of every vertex for which take(v) is true (take may update vertex state); counts the
// vertices (kActive), their list entries (kEdges) and the entries written (kSegments).
template <class Index, class Take>
__global__ void __launch_bounds__(kBlockThreads)
    build_worklist(DeviceGraph<Index> g, Take take, uint64_t* __restrict__ list, unsigned long long* counters) {
  BlockCounters tally;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t base = uint64_t(blockIdx.x) * blockDim.x; base < g.num_vertices; base += stride) {
    const uint64_t v = base + threadIdx.x;
    const bool active = v < g.num_vertices && take(v);
    const uint64_t begin = active ? g.list_begin(v) : 0, end = active ? g.list_end(v) : 0;
    const uint64_t parts = segments_of<Index>(begin, end);
    tally.warp_add(kActive, active);
    tally.warp_add(kEdges, end - begin);
    const uint64_t slot = tally.reserve(&counters[kSegments], parts);
    for (uint64_t p = 0; p < parts; ++p) list[slot + p] = v << kPartBits | p;
  }
  tally.flush(counters);
}

// Upper bound on the entries a list can need: one per vertex plus one per full segment of edges.
template <class Index>
uint64_t worklist_capacity(uint64_t num_vertices, uint64_t num_edges) {
  return num_vertices + num_edges / segment_edges<Index>() + 1;
}

// A reader may depend on whose list it reads (SSSP's skips weights by the source's distance); most do not.
template <class Read>
__device__ __forceinline__ const Read& reader_for(const Read& read, uint64_t /*source*/) {
  return read;
}

// Warp per entry: op(v, read(i)) for every position i of the entry's piece of v's list, merged+aligned reads.
// Entries of vertices outside the sweep are left to another launch (uvm-capped's sub-launches).
template <class Index, class Sweep, class Read, class Op>
__global__ void __launch_bounds__(kBlockThreads)
    expand_worklist(DeviceGraph<Index> g, Sweep sweep, const uint64_t* __restrict__ list, uint64_t count, Read read,
                    Op op) {
  constexpr uint64_t S = segment_edges<Index>();
  const uint64_t warps = uint64_t(gridDim.x) * blockDim.x / kWarpSize;
  for (uint64_t k = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize; k < count; k += warps) {
    const uint64_t v = list[k] >> kPartBits, part = list[k] & ((1u << kPartBits) - 1);
    if (!sweep.holds(v)) continue;
    if (part == 0) sweep.note_read(v, lane_id());
    const uint64_t first = g.list_begin(v), last = g.list_end(v);
    const uint64_t piece = (first / S + part) * S;
    const uint64_t begin = piece > first ? piece : first;
    const uint64_t end = piece + S < last ? piece + S : last;
    MergedAlignedAccess::walk<Index>(begin, end, lane_id(), reader_for(read, v), [&](auto x) { op(v, x); });
  }
}

// Grid for expanding `count` entries: a warp each, or at most max_warps warps (0: no cap).
inline uint64_t expand_blocks(uint64_t count, uint64_t max_warps) {
  uint64_t warps = count;
  if (max_warps && max_warps < warps) warps = max_warps;
  const uint64_t blocks = (warps * kWarpSize + kBlockThreads - 1) / kBlockThreads;
  return blocks < (uint64_t(1) << 30) ? blocks : (uint64_t(1) << 30);
}

// A work list's storage, reused by every run on the same graph.
template <class Index>
class Worklist {
 public:
  Worklist(uint64_t num_vertices, uint64_t num_edges)
      : bytes_(worklist_capacity<Index>(num_vertices, num_edges) * sizeof(uint64_t)),
        entries_(static_cast<uint64_t*>(budgeted_malloc(bytes_, "the vertex data (work lists)"))) {}
  ~Worklist() { budgeted_free(entries_, bytes_); }
  Worklist(const Worklist&) = delete;
  Worklist& operator=(const Worklist&) = delete;
  uint64_t* entries() const { return entries_; }

  // Appends the segments of every vertex `take` accepts; the loop's counters then hold the totals.
  template <class Take>
  void build(const DeviceGraph<Index>& g, Take take, IterationLoop& loop) {
    build_worklist<Index><<<dim3(unsigned(vertex_blocks(g.num_vertices))), kBlockThreads, 0, loop.stream()>>>(
        g, take, entries_, loop.counters());
    EMOGI_CHECK_LAUNCH();
  }
  // Expands the entries of the vertices the sweep holds (all of them but in uvm-capped's sub-launches).
  template <class Sweep, class Read, class Op>
  void expand(const DeviceGraph<Index>& g, Sweep sweep, uint64_t count, uint64_t max_warps, Read read, Op op,
              IterationLoop& loop) {
    // Active vertices may all have empty lists (a directed graph's sinks): no entry, and a grid of 0 blocks is an
    // invalid launch.
    if (count == 0) return;
    expand_worklist<Index, Sweep><<<dim3(unsigned(expand_blocks(count, max_warps))), kBlockThreads, 0, loop.stream()>>>(
        g, sweep, entries_, count, read, op);
    EMOGI_CHECK_LAUNCH();
  }

 private:
  size_t bytes_;
  uint64_t* entries_ = nullptr;
};

}  // namespace emogi
