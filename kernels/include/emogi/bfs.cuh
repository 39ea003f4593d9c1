// BFS in EMOGI's level-synchronous, vertex-centric form (paper §4.2, Algorithm 1): each launch scans every
// vertex; the ones at the current level walk their neighbour lists (with the Access policy) and mark unvisited
// neighbours with the next level. The traversal ends when a launch marks nothing.
#pragma once
#include <cstdint>
#include <string>

#include "emogi/access.cuh"
#include "emogi/device_array.cuh"
#include "emogi/graph_view.cuh"
#include "emogi/iteration_loop.cuh"
#include "emogi/list_reads.cuh"
#include "emogi/vertex_schedule.cuh"

namespace emogi {

constexpr uint32_t kUnvisited = 0xFFFFFFFFu;

template <class Access, class Index, class Sweep>
__global__ void __launch_bounds__(kBlockThreads)
    bfs_scan_level(DeviceGraph<Index> g, Sweep sweep, uint32_t* __restrict__ depth, uint32_t level,
                   unsigned long long* __restrict__ counters) {
  for_each_vertex<Access>(sweep, [&](uint64_t v, unsigned lane) {
    if (depth[v] != level) return;
    sweep.note_read(v, lane);
    Access::template walk<Index>(g.list_begin(v), g.list_end(v), lane, g.neighbors(), [&](uint64_t u) {
      // Racing writers all store the same value, so no atomic is needed.
      if (depth[u] == kUnvisited) {
        depth[u] = level + 1;
        counters[kActive] = 1;
      }
    });
  });
}

// The depths of one traversal, reused by every run on the same graph.
struct BfsState {
  explicit BfsState(uint64_t num_vertices) : depth(num_vertices) {}
  DeviceArray<uint32_t> depth;
  IterationLoop loop;
};

inline void bfs_start(BfsState& s, uint64_t root) {
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.depth.data(), 0xFF, s.depth.size() * sizeof(uint32_t), s.loop.stream()));
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.depth.data() + root, 0, sizeof(uint32_t), s.loop.stream()));
}

// One timed traversal with the paper's schedule. The timed region is the level loop (launches and the
// per-level flag read), as in the artifact; resetting the depths is outside it.
template <class Access, class Index>
RunStats bfs_scan(const DeviceGraph<Index>& g, uint64_t root, uint64_t max_warps, ListReads& reads, BfsState& s) {
  bfs_start(s, root);
  s.loop.start();
  uint32_t level = 0;
  for (;; ++level) {
    s.loop.reset();
    reads.launch(
        g.num_vertices, [&] { return "level " + std::to_string(level); },
        [&](auto r) {
          bfs_scan_level<Access, Index, decltype(r)>
              <<<dim3(unsigned(scan_blocks<Access>(r.size(), max_warps))), kBlockThreads, 0, s.loop.stream()>>>(
                  g, r, s.depth.data(), level, s.loop.counters());
          EMOGI_CHECK_LAUNCH();
        });
    if (s.loop.read()[kActive] == 0) break;
  }
  RunStats r;
  r.time_ms = s.loop.stop();
  r.iterations = level + 1;
  return r;
}

}  // namespace emogi
