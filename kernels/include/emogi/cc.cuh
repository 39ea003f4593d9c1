// Connected components of an undirected graph; every vertex ends labelled with the smallest vertex id of its
// component (so results compare with the CPU reference directly).
//
// The paper's form (the artifact's label propagation, from GARDENIA): vertices whose label changed push the
// smaller of two labels across each edge with atomicMin, until nothing changes. Every round scans all vertices.
//
// `afforest` (Sutton et al., IPDPS'18, as in the GAP suite): union-find over a sample of each list (its first two
// neighbours) already joins almost every vertex to the giant component; then only vertices outside the most
// common component read the rest of their lists. On an edge list behind a link that skips most of the bytes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "emogi/access.cuh"
#include "emogi/block_counters.cuh"
#include "emogi/device_array.cuh"
#include "emogi/graph_view.cuh"
#include "emogi/iteration_loop.cuh"
#include "emogi/list_reads.cuh"
#include "emogi/vertex_schedule.cuh"
#include "emogi/warp_ops.cuh"

namespace emogi {

using Label = unsigned long long;

constexpr unsigned kAfforestRounds = 2, kAfforestSamples = 1024;

// Afforest's sample positions for the giant-component vote: fixed, so every run does the same work.
inline std::vector<uint64_t> afforest_sample_positions(uint64_t n) {
  std::vector<uint64_t> at(kAfforestSamples);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& a : at) a = (x = x * 6364136223846793005ull + 1442695040888963407ull) % (n ? n : 1);
  return at;
}

// Everything a CC run keeps in GPU memory, allocated before the edge list is placed (so that a GPU-memory budget
// counts it before `auto` takes what is left).
struct CcState {
  explicit CcState(uint64_t num_vertices)
      : label(num_vertices), current(num_vertices), next(num_vertices),
        sample_at(afforest_sample_positions(num_vertices).data(), kAfforestSamples), votes(kAfforestSamples) {}
  DeviceArray<Label> label;
  DeviceArray<uint8_t> current, next;  // scan form: vertices to process this round and the next
  DeviceArray<uint64_t> sample_at;     // afforest: where the giant-component vote samples
  DeviceArray<Label> votes;            // afforest: the labels found there
  IterationLoop loop;
};

__global__ void cc_init(Label* __restrict__ label, uint64_t n) {
  const uint64_t v = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v < n) label[v] = v;
}

template <class Access, class Index, class Sweep>
__global__ void __launch_bounds__(kBlockThreads)
    cc_scan_propagate(DeviceGraph<Index> g, Sweep sweep, Label* __restrict__ label, const uint8_t* __restrict__ current,
                      uint8_t* __restrict__ next, unsigned long long* counters) {
  for_each_vertex<Access>(sweep, [&](uint64_t v, unsigned lane) {
    if (!current[v]) return;
    sweep.note_read(v, lane);
    Access::template walk<Index>(g.list_begin(v), g.list_end(v), lane, g.neighbors(), [&](uint64_t u) {
      const Label lv = label[v], lu = label[u];
      if (lv == lu) return;
      const uint64_t target = lv < lu ? u : v;  // the endpoint with the larger label takes the smaller
      atomicMin(&label[target], lv < lu ? lv : lu);
      next[target] = 1;
      counters[kActive] = 1;
    });
  });
}

// Clears this round's flags and counts the list entries the next round reads.
template <class Index>
__global__ void __launch_bounds__(kBlockThreads)
    cc_scan_advance(DeviceGraph<Index> g, uint8_t* __restrict__ current, const uint8_t* __restrict__ next,
                    unsigned long long* counters) {
  BlockCounters tally;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t base = uint64_t(blockIdx.x) * blockDim.x; base < g.num_vertices; base += stride) {
    const uint64_t v = base + threadIdx.x;
    const bool active = v < g.num_vertices && next[v];
    if (v < g.num_vertices) current[v] = 0;
    tally.warp_add(kEdges, active ? g.degree(v) : 0);
  }
  tally.flush(counters);
}

template <class Access, class Index>
RunStats cc_scan(const DeviceGraph<Index>& g, uint64_t max_warps, ListReads& reads, CcState& s) {
  IterationLoop& loop = s.loop;
  const uint64_t n = g.num_vertices;
  cc_init<<<dim3(unsigned(vertex_blocks(n))), kBlockThreads, 0, loop.stream()>>>(s.label.data(), n);
  EMOGI_CHECK_LAUNCH();
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.current.data(), 1, n, loop.stream()));
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.next.data(), 0, n, loop.stream()));
  RunStats r;
  r.edges_traversed = g.num_edges;  // the first round reads every list
  uint8_t* current = s.current.data();
  uint8_t* next = s.next.data();
  reads.set_stream(loop.stream());
  loop.start();
  for (;;) {
    loop.reset();
    reads.only_active(FlagSet{current});  // streamed: blocks without a vertex whose label changed are skipped
    reads.launch(
        n, [&] { return "round " + std::to_string(r.iterations); },
        [&](auto range) {
          cc_scan_propagate<Access, Index, decltype(range)>
              <<<dim3(unsigned(scan_blocks<Access>(range.size(), max_warps))), kBlockThreads, 0, loop.stream()>>>(
                  g, range, s.label.data(), current, next, loop.counters());
          EMOGI_CHECK_LAUNCH();
        });
    cc_scan_advance<Index>
        <<<dim3(unsigned(vertex_blocks(n))), kBlockThreads, 0, loop.stream()>>>(g, current, next, loop.counters());
    EMOGI_CHECK_LAUNCH();
    ++r.iterations;
    const unsigned long long* c = loop.read();
    if (c[kActive] == 0) break;
    r.edges_traversed += c[kEdges];
    std::swap(current, next);
  }
  r.time_ms = loop.stop();
  return r;
}

// ---- Afforest ----

__device__ __forceinline__ void cc_link(uint64_t a, uint64_t b, Label* label) {
  Label p1 = label[a], p2 = label[b];
  while (p1 != p2) {
    const Label high = p1 > p2 ? p1 : p2, low = p1 + p2 - high;
    const Label parent_of_high = label[high];
    if (parent_of_high == low) return;
    if (parent_of_high == high && atomicCAS(&label[high], high, low) == high) return;
    p1 = label[label[high]];
    p2 = label[low];
  }
}

__global__ void cc_compress(Label* __restrict__ label, uint64_t n) {
  const uint64_t v = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= n) return;
  while (label[v] != label[label[v]]) label[v] = label[label[v]];
}

// Links each vertex with its neighbour number `round` (thread per vertex; one small read per vertex).
template <class Index, class Sweep>
__global__ void cc_sample_round(DeviceGraph<Index> g, Sweep sweep, Label* __restrict__ label, unsigned round) {
  const uint64_t v = sweep.begin() + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= sweep.end()) return;
  const uint64_t begin = g.list_begin(v);
  if (begin + round < g.list_end(v)) {
    sweep.note_read(v, 0);
    cc_link(v, g.edges[begin + round], label);
  }
}

__global__ void cc_gather(const Label* __restrict__ label, const uint64_t* __restrict__ at, Label* out, unsigned n) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[k] = label[at[k]];
}

// Warp per vertex outside the giant component: link with the neighbours after the sampled ones.
template <class Index, class Sweep>
__global__ void __launch_bounds__(kBlockThreads)
    cc_finish(DeviceGraph<Index> g, Sweep sweep, Label* __restrict__ label, Label giant, unsigned sampled,
              unsigned long long* counters) {
  BlockCounters tally;
  for_each_vertex<MergedAlignedAccess>(sweep, [&](uint64_t v, unsigned lane) {
    if (label[v] == giant) return;
    const uint64_t begin = g.list_begin(v) + sampled, end = g.list_end(v);
    if (begin >= end) return;
    sweep.note_read(v, lane);
    if (lane == 0) tally.add(kEdges, end - begin);
    MergedAlignedAccess::walk<Index>(begin, end, lane, g.neighbors(), [&](uint64_t u) { cc_link(v, u, label); });
  });
  tally.flush(counters);
}

template <class Index>
RunStats cc_afforest(const DeviceGraph<Index>& g, uint64_t max_warps, ListReads& reads, CcState& s) {
  IterationLoop& loop = s.loop;
  const uint64_t n = g.num_vertices;
  const dim3 grid(unsigned(vertex_blocks(n)));
  const cudaStream_t st = loop.stream();
  std::vector<Label> votes(kAfforestSamples);

  cc_init<<<grid, kBlockThreads, 0, st>>>(s.label.data(), n);
  EMOGI_CHECK_LAUNCH();
  loop.reset();
  RunStats r;
  loop.start();
  for (unsigned round = 0; round < kAfforestRounds; ++round) {
    reads.launch(
        n, [&] { return "sample " + std::to_string(round); },
        [&](auto range) {
          cc_sample_round<Index, decltype(range)>
              <<<dim3(unsigned(vertex_blocks(range.size()))), kBlockThreads, 0, st>>>(g, range, s.label.data(), round);
          EMOGI_CHECK_LAUNCH();
        },
        {round, 1});
    cc_compress<<<grid, kBlockThreads, 0, st>>>(s.label.data(), n);
    EMOGI_CHECK_LAUNCH();
  }
  cc_gather<<<dim3((kAfforestSamples + kBlockThreads - 1) / kBlockThreads), kBlockThreads, 0, st>>>(
      s.label.data(), s.sample_at.data(), s.votes.data(), kAfforestSamples);
  EMOGI_CHECK_LAUNCH();
  EMOGI_CUDA_CHECK(
      cudaMemcpyAsync(votes.data(), s.votes.data(), votes.size() * sizeof(Label), cudaMemcpyDeviceToHost, st));
  EMOGI_CUDA_CHECK(cudaStreamSynchronize(st));
  std::sort(votes.begin(), votes.end());
  Label giant = votes[0];
  size_t best = 0;
  for (size_t i = 0, j; i < votes.size(); i = j) {
    for (j = i; j < votes.size() && votes[j] == votes[i]; ++j) {
    }
    if (j - i > best) best = j - i, giant = votes[i];
  }
  reads.launch(
      n, [] { return std::string("finish"); },
      [&](auto range) {
        cc_finish<Index, decltype(range)>
            <<<dim3(unsigned(scan_blocks<MergedAlignedAccess>(range.size(), max_warps))), kBlockThreads, 0, st>>>(
                g, range, s.label.data(), giant, kAfforestRounds, loop.counters());
        EMOGI_CHECK_LAUNCH();
      },
      {kAfforestRounds, kWholeList});
  cc_compress<<<grid, kBlockThreads, 0, st>>>(s.label.data(), n);
  EMOGI_CHECK_LAUNCH();
  r.time_ms = loop.stop();
  r.iterations = kAfforestRounds + 1;
  r.edges_traversed = loop.read()[kEdges];  // plus the sampled entries, added by the caller from the degrees
  return r;
}

}  // namespace emogi
