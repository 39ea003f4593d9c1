// BFS over work lists (variant `frontier`) and Beamer's direction-optimising BFS (`direction-optimizing`).
//
// Top-down step: only the frontier's lists are read, split into segments (worklist.cuh). Bottom-up step: every
// unvisited vertex reads its list one aligned 128-byte line at a time and stops at the first neighbour in the
// frontier, so most lists are read only in part: on an edge list behind a link this beats the link-bandwidth
// floor of any top-down traversal. Switching follows Beamer et al. (SC'12): go bottom-up when the frontier's
// edges exceed 1/alpha of the unvisited vertices' edges, back top-down when the frontier shrinks below V/beta.
// A bottom-up step reads in-lists: on a directed graph those of its transpose (graph_view.cuh, in_lists()), in the
// edge list's memory mode; the top-down steps and the edge counts of the switch use the out-lists.
#pragma once
#include <cstdint>
#include <string>

#include "emogi/bfs.cuh"
#include "emogi/worklist.cuh"

namespace emogi {

constexpr uint64_t kBeamerAlpha = 15, kBeamerBeta = 18;

struct AtLevel {
  const uint32_t* depth;
  uint32_t level;
  __device__ bool operator()(uint64_t v) const { return depth[v] == level; }
};

struct DiscoverOp {
  uint32_t* depth;
  uint32_t level;
  __device__ void operator()(uint64_t /*v*/, uint64_t u) const {
    if (depth[u] == kUnvisited) depth[u] = level + 1;
  }
};

// Warp per unvisited vertex: lanes test one line's worth of in-neighbours per step, the warp stops at a hit. `g`:
// the in-lists (DeviceGraph::in_lists: the lists themselves on an undirected graph, the transpose's on a directed
// one).
template <class Index, class Sweep>
__global__ void __launch_bounds__(kBlockThreads)
    bfs_bottom_up(DeviceGraph<Index> g, Sweep sweep, uint32_t* __restrict__ depth, uint32_t level) {
  constexpr uint64_t kPerLine = kEntriesPerLine<Index>;
  for_each_vertex<MergedAlignedAccess>(sweep, [&](uint64_t v, unsigned lane) {
    if (depth[v] != kUnvisited) return;
    sweep.note_read(v, lane);  // the whole list, although the walk may stop at the first parent
    const uint64_t begin = g.list_begin(v), end = g.list_end(v);
    for (uint64_t base = line_start<Index>(begin); base < end; base += kPerLine) {
      const uint64_t i = base + lane;
      const bool hit = lane < kPerLine && i >= begin && i < end && depth[g.edges[i]] == level;
      if (__ballot_sync(kFullMask, hit)) {
        if (lane == 0) depth[v] = level + 1;
        return;
      }
    }
  });
}

template <class Index>
struct BfsFrontierState : BfsState {
  BfsFrontierState(uint64_t num_vertices, uint64_t num_edges) : BfsState(num_vertices), list(num_vertices, num_edges) {}
  Worklist<Index> list;
};

// direction_optimizing = false: top-down work lists at every level.
template <class Index>
RunStats bfs_frontier(const DeviceGraph<Index>& g, uint64_t root, uint64_t max_warps, bool direction_optimizing,
                      ListReads& reads, BfsFrontierState<Index>& s) {
  bfs_start(s, root);
  const DeviceGraph<Index> in = g.in_lists();
  IterationLoop& loop = s.loop;
  loop.start();
  uint64_t unexplored_edges = g.num_edges;  // edges of vertices not yet reached (Beamer's m_u)
  bool bottom_up = false;
  uint64_t previous_frontier = 0;
  uint32_t level = 0;
  for (;; ++level) {
    loop.reset();
    s.list.build(g, AtLevel{s.depth.data(), level}, loop);
    const unsigned long long* c = loop.read();
    const uint64_t frontier = c[kActive], frontier_edges = c[kEdges], entries = c[kSegments];
    if (frontier == 0) break;
    unexplored_edges -= frontier_edges;
    if (direction_optimizing) {
      if (!bottom_up && frontier_edges > unexplored_edges / kBeamerAlpha && frontier > previous_frontier)
        bottom_up = true;
      else if (bottom_up && frontier < g.num_vertices / kBeamerBeta && frontier < previous_frontier)
        bottom_up = false;
    }
    previous_frontier = frontier;
    // Labels as emogi.trace_derive's: "level 3" (frontier), "level 3 top-down" / "level 3 bottom-up".
    const char* step = !direction_optimizing ? "" : bottom_up ? " bottom-up" : " top-down";
    auto label = [&] { return "level " + std::to_string(level) + step; };
    if (bottom_up) {
      reads.launch(g.num_vertices, label,
                   [&](auto r) {
                     bfs_bottom_up<Index, decltype(r)>
                         <<<dim3(unsigned(scan_blocks<MergedAlignedAccess>(r.size(), max_warps))), kBlockThreads, 0,
                            loop.stream()>>>(in, r, s.depth.data(), level);
                     EMOGI_CHECK_LAUNCH();
                   },
                   {0, kWholeList, "bottom-up: a list is read up to the line of the first parent"});
    } else {
      reads.launch(g.num_vertices, label, [&](auto r) {
        s.list.expand(g, r, entries, max_warps, g.neighbors(), DiscoverOp{s.depth.data(), level}, loop);
      });
    }
  }
  RunStats r;
  r.time_ms = loop.stop();
  r.iterations = level;  // the deepest depth + 1, as the scan form counts
  return r;
}

}  // namespace emogi
