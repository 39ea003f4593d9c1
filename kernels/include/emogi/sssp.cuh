// Single-source shortest paths with 4-byte integer weights that live beside the edge list.
//
// The paper's form (EMOGI §5, the artifact's Bellman-Ford): every launch scans all vertices; those whose distance
// fell in the last round relax their edges with atomicMin into a tentative array, and an update pass commits
// the improvements and flags those vertices for the next round.
//
// `frontier` (this project's): a work list of vertices whose distance fell, taken in distance order by buckets
// of width delta (delta-stepping lite): only vertices below the current bound are expanded, so most vertices
// relax their edges once instead of once per improvement. It also reads an edge's weight only where the weight
// can matter (SettledSkippingReader): in distance order, many targets are already near enough when it is read.
#pragma once
#include <cstdint>
#include <string>

#include "emogi/access.cuh"
#include "emogi/block_counters.cuh"
#include "emogi/device_array.cuh"
#include "emogi/graph_view.cuh"
#include "emogi/iteration_loop.cuh"
#include "emogi/list_reads.cuh"
#include "emogi/vertex_schedule.cuh"
#include "emogi/warp_ops.cuh"
#include "emogi/worklist.cuh"

namespace emogi {

constexpr uint32_t kInfinity = 0xFFFFFFFFu;

template <class Index>
struct SsspState {
  SsspState(uint64_t num_vertices, uint64_t num_edges)
      : dist(num_vertices), tentative(num_vertices), flag(num_vertices), list(num_vertices, num_edges) {}
  DeviceArray<uint32_t> dist, tentative;
  DeviceArray<uint8_t> flag;  // scan form: relax this round; frontier form: distance fell, not yet expanded
  Worklist<Index> list;
  IterationLoop loop;
};

template <class Index>
void sssp_start(SsspState<Index>& s, uint64_t root) {
  const cudaStream_t st = s.loop.stream();
  const uint64_t n = s.dist.size();
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.dist.data(), 0xFF, n * sizeof(uint32_t), st));
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.tentative.data(), 0xFF, n * sizeof(uint32_t), st));
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.flag.data(), 0, n, st));
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.dist.data() + root, 0, sizeof(uint32_t), st));
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.tentative.data() + root, 0, sizeof(uint32_t), st));
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.flag.data() + root, 1, 1, st));
}

template <class Access, class Index, class Sweep>
__global__ void __launch_bounds__(kBlockThreads)
    sssp_scan_relax(DeviceGraph<Index> g, Sweep sweep, const uint8_t* __restrict__ flag,
                    uint32_t* __restrict__ tentative) {
  for_each_vertex<Access>(sweep, [&](uint64_t v, unsigned lane) {
    if (!flag[v]) return;
    sweep.note_read(v, lane);
    const uint32_t d = tentative[v];
    Access::template walk<Index>(g.list_begin(v), g.list_end(v), lane, g.weighted_neighbors(), [&](WeightedNeighbor e) {
      const uint32_t nd = d + e.weight;
      if (nd < tentative[e.id]) atomicMin(&tentative[e.id], nd);
    });
  });
}

// Commits improvements and flags the improved vertices (and only them: the flags of the pass just relaxed are
// cleared here, not in the relax kernel, so that every part of a list split across streamed blocks sees its
// vertex's flag); counts them and their list entries.
template <class Index>
__global__ void __launch_bounds__(kBlockThreads)
    sssp_scan_commit(DeviceGraph<Index> g, uint32_t* __restrict__ dist, const uint32_t* __restrict__ tentative,
                     uint8_t* __restrict__ flag, unsigned long long* counters) {
  BlockCounters tally;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t base = uint64_t(blockIdx.x) * blockDim.x; base < g.num_vertices; base += stride) {
    const uint64_t v = base + threadIdx.x;
    const bool improved = v < g.num_vertices && tentative[v] < dist[v];
    if (improved) dist[v] = tentative[v];
    if (v < g.num_vertices) flag[v] = improved;
    tally.warp_add(kActive, improved);
    tally.warp_add(kEdges, improved ? g.degree(v) : 0);
  }
  tally.flush(counters);
}

template <class Access, class Index>
RunStats sssp_scan(const DeviceGraph<Index>& g, uint64_t root, uint64_t max_warps, ListReads& reads,
                   SsspState<Index>& s) {
  sssp_start(s, root);
  IterationLoop& loop = s.loop;
  uint64_t offsets[2];
  EMOGI_CUDA_CHECK(cudaMemcpy(offsets, g.offsets + root, sizeof offsets, cudaMemcpyDeviceToHost));
  RunStats r;
  r.edges_traversed = offsets[1] - offsets[0];  // the root's list, read in the first sweep
  reads.set_stream(loop.stream());
  loop.start();
  for (;;) {
    loop.reset();
    reads.only_active(FlagSet{s.flag.data()});  // streamed: blocks without a vertex whose distance fell are skipped
    reads.launch(
        g.num_vertices, [&] { return "iteration " + std::to_string(r.iterations); },
        [&](auto range) {
          sssp_scan_relax<Access, Index, decltype(range)>
              <<<dim3(unsigned(scan_blocks<Access>(range.size(), max_warps))), kBlockThreads, 0, loop.stream()>>>(
                  g, range, s.flag.data(), s.tentative.data());
          EMOGI_CHECK_LAUNCH();
        });
    sssp_scan_commit<Index><<<dim3(unsigned(vertex_blocks(g.num_vertices))), kBlockThreads, 0, loop.stream()>>>(
        g, s.dist.data(), s.tentative.data(), s.flag.data(), loop.counters());
    EMOGI_CHECK_LAUNCH();
    ++r.iterations;
    const unsigned long long* c = loop.read();
    if (c[kActive] == 0) break;
    r.edges_traversed += c[kEdges];
  }
  r.time_ms = loop.stop();
  return r;
}

// Takes the pending vertices below the bound (clearing their flag); the smallest distance among pending vertices
// left behind goes to kAux, so an empty bucket jumps straight to the next non-empty one.
struct BelowBound {
  const uint32_t* dist;
  uint8_t* pending;
  uint32_t bound;
  unsigned long long* smallest_left;
  __device__ bool operator()(uint64_t v) const {
    if (!pending[v]) return false;
    const uint32_t d = dist[v];
    if (d >= bound) {
      // Millions of pending vertices may lie above the bound; an atomic from each would queue on this one address
      // (21 ms of a 180-ms kron-24 run went to these builds, measured). The current least (read past L1, it
      // only falls) rules most of them out first.
      if (d < __ldcg(smallest_left)) atomicMin(smallest_left, (unsigned long long)d);
      return false;
    }
    pending[v] = 0;
    return true;
  }
};

// Reads a neighbour, and its edge's weight only if relaxing the edge could lower the neighbour's distance: when
// dist[u] <= dist[v] + (the least weight of any edge into u), no weight can, so the weight is not fetched (a warp
// step whose lanes all skip fetches no weight line) and the edge counts as infinitely heavy. Safe although dist[v]
// may fall after it was read: whoever lowers dist[v] marks v pending, and v's next expansion reads again.
template <class Index>
struct SettledSkippingReader {
  SplitArray<Index> edges;
  SplitArray<uint32_t> weights;
  const uint32_t* dist;
  const uint32_t* least_in;  // per vertex, GPU memory: the least weight of its in-edges
  uint64_t source_dist = 0;  // set per list by reader_for
  __device__ __forceinline__ WeightedNeighbor operator()(uint64_t i) const {
    const uint64_t u = edges[i];
    return {u, dist[u] > source_dist + least_in[u] ? weights[i] : kInfinity};
  }
};

template <class Index>
__device__ __forceinline__ SettledSkippingReader<Index> reader_for(const SettledSkippingReader<Index>& read,
                                                                   uint64_t source) {
  SettledSkippingReader<Index> r = read;
  r.source_dist = read.dist[source];
  return r;
}

struct RelaxOp {
  uint32_t* dist;
  uint8_t* pending;
  __device__ void operator()(uint64_t v, WeightedNeighbor e) const {
    const uint64_t nd = uint64_t(dist[v]) + e.weight;  // 64 bits: a skipped edge's weight is kInfinity
    if (nd < dist[e.id] && nd < atomicMin(&dist[e.id], uint32_t(nd))) pending[e.id] = 1;
  }
};

template <class Index>
RunStats sssp_frontier(const DeviceGraph<Index>& g, uint64_t root, uint64_t max_warps, uint32_t delta,
                       const uint32_t* least_in, ListReads& reads, SsspState<Index>& s) {
  const SettledSkippingReader<Index> read{g.edges, g.weights, s.dist.data(), least_in};
  sssp_start(s, root);
  IterationLoop& loop = s.loop;
  RunStats r;
  uint32_t bound = delta;
  loop.start();
  for (;;) {
    loop.reset(kInfinity);
    s.list.build(g, BelowBound{s.dist.data(), s.flag.data(), bound, loop.counters() + kAux}, loop);
    const unsigned long long* c = loop.read();
    if (c[kActive] == 0) {
      if (c[kAux] == kInfinity) break;  // nothing pending anywhere: done
      bound = uint32_t(c[kAux]) + delta;
      continue;
    }
    ++r.iterations;
    r.edges_traversed += c[kEdges];
    const uint64_t entries = c[kSegments];
    reads.launch(
        g.num_vertices, [&] { return "bound " + std::to_string(bound); },
        [&](auto range) {
          s.list.expand(g, range, entries, max_warps, read, RelaxOp{s.dist.data(), s.flag.data()}, loop);
        },
        {0, kWholeList, "frontier: a weight is read only where it can lower the target's distance"});
  }
  r.time_ms = loop.stop();
  return r;
}

}  // namespace emogi
