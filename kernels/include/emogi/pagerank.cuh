// PageRank as the paper's artifact computes it (push-style delta PageRank after Galois' PageRank-push): every
// vertex starts with residual 1 - alpha; a round moves each residual above `tolerance` into the vertex's value
// and pushes alpha * residual / out-degree to every out-neighbour's residual. The run ends in the first round
// where no residual exceeds the tolerance (or after max_iterations rounds). Values are not normalised: they solve
// x = (1 - alpha) + alpha * sum over in-neighbours u of x_u / deg(u), up to the residuals left behind.
//
// The paper's form scans every vertex each round; `frontier` lists only the vertices that push, with hub lists
// split across warps. Both do the same arithmetic in the same rounds (Jacobi order: a round pushes what the
// residuals held when it began). `gauss-seidel` takes each vertex's residual when its warp reaches it, so what
// arrived earlier in the same round moves on at once: about 1.8 times fewer list reads to the same tolerance
// (python -m model.pagerank_sweeps), with the same stopping rule: the run ends with a round that pushes nothing.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

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

struct PageRankParams {
  float alpha = 0.85f;
  float tolerance = 1e-3f;
  uint32_t max_iterations = 5000;
};

// --pr-hub-entries: a gauss-seidel round queues each taken list longer than `entries` here, and pagerank_push_hubs
// pushes them after the round over many warps, so that no round waits on one warp walking a hub's list. At most
// `capacity` lists (the graph's vertices with more than `entries` entries; 0: off, every list pushed by its own
// warp) in at most `slice_capacity` slices of kHubSlice entries, a block per slice. Each queued list claims as many
// slices as it has (slice_hub names the list of each, first_slice the first of each list), so the push grid covers
// the queued entries only, not every list at the longest list's length.
struct HubQueue {
  uint64_t* vertex = nullptr;
  float* delta = nullptr;
  uint64_t* first_slice = nullptr;
  uint32_t* slice_hub = nullptr;
  unsigned long long* count = nullptr;  // [0]: lists queued this round, [1]: their slices
  uint64_t capacity = 0, slice_capacity = 0, entries = 0;
};
constexpr uint64_t kHubSlice = kLoadsInFlight * kBlockThreads;  // entries per block of pagerank_push_hubs: one step
// A list's slices start at its first entry rounded down to a 128-byte line (as merged-aligned reads), so a list
// of `entries` has at most this many, whatever its start and width (a line holds at most 32 entries).
constexpr uint64_t hub_slices_at_most(uint64_t entries) {
  return (entries + kEntriesPerLine<uint32_t> - 1 + kHubSlice - 1) / kHubSlice;
}

template <class Index>
struct PageRankState {
  // hub_lists: how many lists are longer than hub_entries, and their kHubSlice slices ({0, 0}: no hub queue)
  PageRankState(uint64_t num_vertices, uint64_t num_edges, std::pair<uint64_t, uint64_t> hub_lists = {0, 0},
                uint64_t hub_entries = 0)
      : value(num_vertices), residual(num_vertices), delta(num_vertices), push(num_vertices),
        list(num_vertices, num_edges), hub_vertex(std::max<uint64_t>(hub_lists.first, 1)),
        hub_delta(std::max<uint64_t>(hub_lists.first, 1)), hub_first_slice(std::max<uint64_t>(hub_lists.first, 1)),
        hub_slice(std::max<uint64_t>(hub_lists.second, 1)), hub_count(2) {
    hubs_.vertex = hub_vertex.data(), hubs_.delta = hub_delta.data(), hubs_.first_slice = hub_first_slice.data();
    hubs_.slice_hub = hub_slice.data(), hubs_.count = hub_count.data();
    hubs_.capacity = hub_lists.first, hubs_.slice_capacity = hub_lists.second, hubs_.entries = hub_entries;
  }
  DeviceArray<float> value, residual, delta;
  DeviceArray<uint8_t> push;  // scan form: pushes this round
  Worklist<Index> list;
  IterationLoop loop;
  DeviceArray<uint64_t> hub_vertex;  // gauss-seidel with hub_entries: this round's deferred lists
  DeviceArray<float> hub_delta;
  DeviceArray<uint64_t> hub_first_slice;
  DeviceArray<uint32_t> hub_slice;
  DeviceArray<unsigned long long> hub_count;
  const HubQueue& hubs() const { return hubs_; }

 private:
  HubQueue hubs_;
};

__global__ void pagerank_init(float* __restrict__ value, float* __restrict__ residual, uint64_t n, float start) {
  const uint64_t v = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v < n) {
    value[v] = 0.0f;
    residual[v] = start;
  }
}

// Every run starts from value 0 and residual 1 - alpha at every vertex.
template <class Index>
void start_pagerank(uint64_t n, const PageRankParams& p, PageRankState<Index>& s) {
  pagerank_init<<<dim3(unsigned(vertex_blocks(n))), kBlockThreads, 0, s.loop.stream()>>>(
      s.value.data(), s.residual.data(), n, 1.0f - p.alpha);
  EMOGI_CHECK_LAUNCH();
}

// Absorbs a residual above the tolerance into the value and sets what the vertex pushes this round.
struct AbsorbResidual {
  const uint64_t* offsets;
  float* value;
  float* residual;
  float* delta;
  float alpha, tolerance;
  __device__ bool operator()(uint64_t v) const {
    const float r = residual[v];
    if (!(r > tolerance)) return false;
    value[v] += r;
    residual[v] = 0.0f;
    const uint64_t degree = offsets[v + 1] - offsets[v];
    delta[v] = degree ? r * alpha / float(degree) : 0.0f;
    return degree > 0;
  }
};

template <class Index>
__global__ void __launch_bounds__(kBlockThreads)
    pagerank_scan_absorb(DeviceGraph<Index> g, AbsorbResidual absorb, uint8_t* __restrict__ push,
                         unsigned long long* counters) {
  BlockCounters tally;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t base = uint64_t(blockIdx.x) * blockDim.x; base < g.num_vertices; base += stride) {
    const uint64_t v = base + threadIdx.x;
    const bool active = v < g.num_vertices && absorb(v);
    if (v < g.num_vertices) push[v] = active;
    tally.warp_add(kActive, active);
    tally.warp_add(kEdges, active ? g.degree(v) : 0);
  }
  tally.flush(counters);
}

template <class Access, class Index, class Sweep>
__global__ void __launch_bounds__(kBlockThreads)
    pagerank_scan_push(DeviceGraph<Index> g, Sweep sweep, const uint8_t* __restrict__ push,
                       const float* __restrict__ delta, float* __restrict__ residual) {
  for_each_vertex<Access>(sweep, [&](uint64_t v, unsigned lane) {
    if (!push[v]) return;
    sweep.note_read(v, lane);
    const float d = delta[v];
    Access::template walk<Index>(g.list_begin(v), g.list_end(v), lane, g.neighbors(),
                                 [&](uint64_t u) { atomicAdd(&residual[u], d); });
  });
}

struct PushOp {
  const float* delta;
  float* residual;
  __device__ void operator()(uint64_t v, uint64_t u) const { atomicAdd(&residual[u], delta[v]); }
};

// One Gauss-Seidel round: each lane takes the residual of one of 32 consecutive vertices if it exceeds the
// tolerance (residuals only grow between takes), and the warp then pushes each taken residual at once, list after
// list (for_each_passing_vertex: late rounds, where few residuals exceed it, cost a thread per vertex). Counts
// pushing vertices and their list entries per block first (BlockCounters).
//
// kDeferHubs: a list longer than hubs.entries is queued (vertex and share) instead, for pagerank_push_hubs after
// the round; its pushes then land at the round's end, as Jacobi's do.
template <class Access, class Index, class Sweep, bool kDeferHubs = false>
__global__ void __launch_bounds__(kBlockThreads)
    pagerank_gauss_seidel_round(DeviceGraph<Index> g, Sweep sweep, float* __restrict__ value,
                                float* __restrict__ residual, float alpha, float tolerance,
                                unsigned long long* counters, HubQueue hubs = {}) {
  static_assert(Access::kLanes == kWarpSize && Access::kChunk == 1, "gauss-seidel runs a warp per vertex");
  BlockCounters tally;
  float taken = 0.0f;  // this lane's vertex's residual, taken by its test
  const auto take = [&](uint64_t v, unsigned) {
    taken = __ldcg(&residual[v]) > tolerance ? atomicExch(&residual[v], 0.0f) : 0.0f;
    if (taken != 0.0f) value[v] += taken;
    return taken != 0.0f;
  };
  for_each_passing_vertex(sweep, take, [&](uint64_t v, unsigned tester, unsigned lane) {
    const float r = __shfl_sync(kFullMask, taken, tester);
    const uint64_t begin = g.list_begin(v), end = g.list_end(v);
    if (end == begin) return;
    sweep.note_read(v, lane);
    if (lane == 0) {
      tally.add(kActive, 1);
      tally.add(kEdges, end - begin);
    }
    const float d = r * alpha / float(end - begin);
    if (kDeferHubs && end - begin > hubs.entries) {
      const uint64_t slices = (end - line_start<Index>(begin) + kHubSlice - 1) / kHubSlice;
      unsigned long long i = 0, first = 0;
      if (lane == 0) {  // a vertex is taken once a round: i < capacity, first + slices <= slice_capacity
        i = atomicAdd(&hubs.count[0], 1ull), first = atomicAdd(&hubs.count[1], (unsigned long long)slices);
        hubs.vertex[i] = v, hubs.delta[i] = d, hubs.first_slice[i] = first;
      }
      i = __shfl_sync(kFullMask, i, 0), first = __shfl_sync(kFullMask, first, 0);
      for (uint64_t k = lane; k < slices; k += kWarpSize) hubs.slice_hub[first + k] = uint32_t(i);
      return;
    }
    Access::template walk<Index>(begin, end, lane, g.neighbors(), [&](uint64_t u) { atomicAdd(&residual[u], d); });
  });
  tally.flush(counters);
}

// Pushes the lists a gauss-seidel round deferred: a block per kHubSlice entries of one list, grid-stride over the
// round's slices. A slice is one line-aligned step of the block, each thread with kLoadsInFlight reads on the way
// at once, as a merged-aligned warp reads (one read at a time left a zero-copy hub waiting on the link's latency).
template <class Index>
__global__ void __launch_bounds__(kBlockThreads)
    pagerank_push_hubs(DeviceGraph<Index> g, HubQueue hubs, float* __restrict__ residual) {
  const uint64_t slices = hubs.count[1];
  const auto read = g.neighbors();
  for (uint64_t s = blockIdx.x; s < slices; s += gridDim.x) {
    const uint32_t i = hubs.slice_hub[s];
    const uint64_t begin = g.list_begin(hubs.vertex[i]), end = g.list_end(hubs.vertex[i]);
    const uint64_t first = line_start<Index>(begin) + (s - hubs.first_slice[i]) * kHubSlice;
    const float d = hubs.delta[i];
    strided_walk<kLoadsInFlight>(first + threadIdx.x, begin, first + kHubSlice < end ? first + kHubSlice : end,
                                 blockDim.x, read, [&](uint64_t u) { atomicAdd(&residual[u], d); });
  }
}

// Gauss-Seidel's activity test: a residual above the tolerance.
struct AboveTolerance {
  const float* residual;
  float tolerance;
  __device__ bool operator()(uint64_t v) const { return __ldcg(&residual[v]) > tolerance; }
};

template <class Index>
RunStats pagerank_gauss_seidel(const DeviceGraph<Index>& g, uint64_t max_warps, const PageRankParams& p,
                               ListReads& reads, PageRankState<Index>& s) {
  using Access = MergedAlignedAccess;
  constexpr uint64_t kHubGrid = 4096;  // blocks of pagerank_push_hubs at most (grid-stride beyond)
  IterationLoop& loop = s.loop;
  const uint64_t n = g.num_vertices;
  const HubQueue& hubs = s.hubs();
  const bool defer = hubs.capacity > 0;
  reads.set_stream(loop.stream());
  start_pagerank(n, p, s);
  RunStats r;
  loop.start();
  while (r.iterations < p.max_iterations) {
    loop.reset();
    // Streamed: blocks with no residual above the tolerance as the round begins are skipped (what arrives there
    // during the round waits for the next one; the run still ends with a round that pushes nothing).
    reads.only_active(AboveTolerance{s.residual.data(), p.tolerance});
    reads.launch(
        n, [&] { return "round " + std::to_string(r.iterations); },
        [&](auto range) {
          const dim3 grid(unsigned(passing_vertex_blocks(range.size(), max_warps)));
          if (!defer) {
            pagerank_gauss_seidel_round<Access, Index, decltype(range)><<<grid, kBlockThreads, 0, loop.stream()>>>(
                g, range, s.value.data(), s.residual.data(), p.alpha, p.tolerance, loop.counters());
            EMOGI_CHECK_LAUNCH();
            return;
          }
          EMOGI_CUDA_CHECK(cudaMemsetAsync(hubs.count, 0, 2 * sizeof(*hubs.count), loop.stream()));
          pagerank_gauss_seidel_round<Access, Index, decltype(range), true><<<grid, kBlockThreads, 0, loop.stream()>>>(
              g, range, s.value.data(), s.residual.data(), p.alpha, p.tolerance, loop.counters(), hubs);
          EMOGI_CHECK_LAUNCH();
          const uint64_t slices = hubs.slice_capacity;  // the most a round can queue
          pagerank_push_hubs<Index>
              <<<dim3(unsigned(slices < kHubGrid ? slices : kHubGrid)), kBlockThreads, 0, loop.stream()>>>(
                  g, hubs, s.residual.data());
          EMOGI_CHECK_LAUNCH();
        });
    const unsigned long long* c = loop.read();
    if (c[kActive] == 0) break;  // a whole round found no residual above the tolerance
    ++r.iterations;
    r.edges_traversed += c[kEdges];
  }
  r.time_ms = loop.stop();
  return r;
}

// scan = true: the paper's schedule with Access; false: work lists (Access unused).
template <class Access, class Index>
RunStats pagerank(const DeviceGraph<Index>& g, bool scan, uint64_t max_warps, const PageRankParams& p, ListReads& reads,
                  PageRankState<Index>& s) {
  IterationLoop& loop = s.loop;
  const uint64_t n = g.num_vertices;
  const dim3 grid(unsigned(vertex_blocks(n)));
  reads.set_stream(loop.stream());
  start_pagerank(n, p, s);
  const AbsorbResidual absorb{g.offsets, s.value.data(), s.residual.data(), s.delta.data(), p.alpha, p.tolerance};
  RunStats r;
  loop.start();
  while (r.iterations < p.max_iterations) {
    loop.reset();
    if (scan) {
      pagerank_scan_absorb<Index><<<grid, kBlockThreads, 0, loop.stream()>>>(g, absorb, s.push.data(), loop.counters());
      EMOGI_CHECK_LAUNCH();
    } else {
      s.list.build(g, absorb, loop);
    }
    const unsigned long long* c = loop.read();
    if (c[kActive] == 0) break;
    const uint64_t entries = c[kSegments];
    if (scan) reads.only_active(FlagSet{s.push.data()});  // streamed: blocks without a pushing vertex are skipped
    reads.launch(
        n, [&] { return "round " + std::to_string(r.iterations); },
        [&](auto range) {
          if (scan) {
            pagerank_scan_push<Access, Index, decltype(range)>
                <<<dim3(unsigned(scan_blocks<Access>(range.size(), max_warps))), kBlockThreads, 0, loop.stream()>>>(
                    g, range, s.push.data(), s.delta.data(), s.residual.data());
            EMOGI_CHECK_LAUNCH();
          } else {
            s.list.expand(g, range, entries, max_warps, g.neighbors(), PushOp{s.delta.data(), s.residual.data()}, loop);
          }
        });
    ++r.iterations;
    r.edges_traversed += c[kEdges];
  }
  r.time_ms = loop.stop();
  return r;
}

}  // namespace emogi
