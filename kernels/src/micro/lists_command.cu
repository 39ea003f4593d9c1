// `emogi lists`: the most of the link a way of walking lists can use. Every vertex's list is read once with one of
// the paper's access patterns (access.cuh) and nothing else happens: no frontier, no scan of idle vertices, no
// dependent reads, every warp busy from the start. A traversal whose variant walks its lists this way sends the
// same requests and has more to do, so on the same graph this rate bounds it (docs/profiling.md).
//
// Each run's per-vertex list sums are checked against the CPU's. Rows also carry the requests and 32-byte sectors
// the walk sends (request_count.hpp; the merged walks only), hence its mean request size. --whole-lines replaces
// the aligned walks by ones that read whole first and last lines (variant "merged-aligned+whole-lines").
#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "emogi/access.cuh"
#include "emogi/atomic_file.hpp"
#include "emogi/cli_args.hpp"
#include "emogi/commands.hpp"
#include "emogi/csr.hpp"
#include "emogi/device_array.cuh"
#include "emogi/device_info.hpp"
#include "emogi/event_timer.cuh"
#include "emogi/micro_common.hpp"
#include "emogi/nvtx_range.hpp"
#include "emogi/parallel_for.hpp"
#include "emogi/placement.cuh"
#include "emogi/request_count.hpp"
#include "emogi/vertex_schedule.cuh"
#include "emogi/warp_ops.cuh"

namespace emogi {
namespace {

// --whole-lines: the aligned walks also read the parts of a list's first and last lines that belong to the
// neighbouring lists (dropping them), so every request is a whole line; a neighbour reading the same line at the
// same time on the same SM may then find it in L1. Not the paper's walk, which leaves those lanes idle. It is
// access.cuh's strided_walk over whole lines, each entry read tagged with whether it is this list's.
template <class Index, class Read, class Visit>
__device__ __forceinline__ void whole_line_walk(uint64_t begin, uint64_t end, uint64_t num_edges, unsigned lane,
                                                Read read, Visit visit) {
  constexpr uint64_t kPerLine = kCacheLineBytes / sizeof(Index);
  if (begin == end) return;
  const uint64_t first = begin & ~(kPerLine - 1), last = min((end + kPerLine - 1) & ~(kPerLine - 1), num_edges);
  struct Entry {
    uint64_t value;
    bool ours;
  };
  const auto tagged = [&](uint64_t j) {
    const uint64_t x = read(j);
    asm volatile("" ::"l"(x));  // the load happens even where the value is dropped
    return Entry{x, j >= begin && j < end};
  };
  strided_walk<kLoadsInFlight>(first + lane, first, last, kWarpSize, tagged, [&](Entry e) {
    if (e.ours) visit(e.value);
  });
}

template <class Access, bool kWholeLines, class Index>
__global__ void __launch_bounds__(kBlockThreads) sum_lists(DeviceGraph<Index> g, uint64_t* __restrict__ sums) {
  for_each_vertex<Access>(g.num_vertices, [&](uint64_t v, unsigned lane) {
    unsigned long long s = 0;
    const auto add = [&](uint64_t x) { s += x; };
    if constexpr (kWholeLines)
      whole_line_walk<Index>(g.list_begin(v), g.list_end(v), g.num_edges, lane, g.neighbors(), add);
    else
      Access::template walk<Index>(g.list_begin(v), g.list_end(v), lane, g.neighbors(), add);
    if constexpr (Access::kLanes > 1) s = warp_sum(s);
    if (lane == 0) sums[v] = s;
  });
}

template <class Index>
void launch(Variant v, bool whole_lines, const DeviceGraph<Index>& g, uint64_t* sums) {
  const auto run = [&](auto kernel, uint64_t blocks) {
    kernel<<<dim3(unsigned(blocks)), kBlockThreads>>>(g, sums);
    EMOGI_CHECK_LAUNCH();
  };
  const bool known = with_access(v, [&](auto access) {
    using Access = decltype(access);
    const uint64_t blocks = scan_blocks<Access>(g.num_vertices, 0);
    if constexpr (std::is_base_of_v<MergedAlignedAccess, Access>)  // only the aligned walks widen to whole lines
      if (whole_lines) return run(sum_lists<Access, true, Index>, blocks);
    run(sum_lists<Access, false, Index>, blocks);
  });
  if (!known) throw std::invalid_argument(std::string("emogi lists has no variant ") + name_of(v));
}

template <class Index>
std::vector<uint64_t> list_sums(const MappedCsr& g) {
  std::vector<uint64_t> sums(g.num_vertices());
  const uint64_t* off = g.offsets();
  const Index* edges = g.edges_as<Index>();
  parallel_for(g.num_vertices(), [&](uint64_t v) {
    uint64_t s = 0;
    for (uint64_t i = off[v]; i < off[v + 1]; ++i) s += edges[i];
    sums[v] = s;
  });
  return sums;
}

// The requests a variant's walks of every list send; naive (a thread per list) is not counted.
RequestCount count_requests(const MappedCsr& g, Variant v, bool whole_lines) {
  if (v == Variant::Naive) return {};
  const uint64_t per_line = kCacheLineBytes / g.index_bytes(), n = g.num_vertices(), parts = 256;
  const uint64_t* off = g.offsets();
  std::vector<RequestCount> part(parts);
  parallel_for(parts, [&](uint64_t p) {
    for (uint64_t u = n * p / parts; u < n * (p + 1) / parts; ++u) {
      const uint64_t begin = off[u], end = off[u + 1];
      const uint64_t first = v == Variant::Merged ? begin : begin & ~(per_line - 1);
      if (!whole_lines) {
        part[p] += count_warp_walk(first, begin, end, g.index_bytes());
      } else if (begin < end) {  // every position from `first` to the end of the last line is read
        const uint64_t last = std::min((end + per_line - 1) & ~(per_line - 1), g.num_edges());
        part[p] += count_warp_walk(first, first, last, g.index_bytes());
      }
    }
  });
  RequestCount total;
  for (const RequestCount& c : part) total += c;
  return total;
}

template <class Index>
void measure(const MappedCsr& g, const std::string& name, const std::vector<Variant>& variants,
             const std::vector<MemoryMode>& modes, bool whole_lines, uint64_t reps, uint64_t warmup,
             const PlacementOptions& placement, AtomicFile& out) {
  const std::vector<uint64_t> expected = list_sums<Index>(g);
  const DeviceArray<uint64_t> offsets(g.offsets(), g.num_vertices() + 1);
  DeviceArray<uint64_t> sums(g.num_vertices());
  std::vector<uint64_t> got(g.num_vertices());
  EventTimer timer;
  for (MemoryMode mode : modes) {
    const GraphPlacement placed(g, mode, false, placement);
    const DeviceGraph<Index> dg = placed.view<Index>(offsets.data());
    for (Variant v : variants) {
      const std::string walk = std::string(name_of(v)) + (whole_lines ? "+whole-lines" : "");
      const std::string label = "lists|" + walk + "|" + name_of(mode);
      const RequestCount requests = count_requests(g, v, whole_lines);
      std::vector<double> times;
      for (uint64_t rep = 0; rep < warmup + reps; ++rep) {
        EMOGI_CUDA_CHECK(cudaMemset(sums.data(), 0xff, g.num_vertices() * sizeof(uint64_t)));
        timer.start(0);
        {
          NvtxRange range(label);
          launch(v, whole_lines, dg, sums.data());
        }
        timer.stop(0);
        const double ms = timer.elapsed_ms();
        EMOGI_CUDA_CHECK(cudaMemcpy(got.data(), sums.data(), got.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost));
        const auto bad = std::mismatch(got.begin(), got.end(), expected.begin());
        if (bad.first != got.end())
          throw std::runtime_error(name + " " + label + ": vertex " + std::to_string(bad.first - got.begin()) +
                                   "'s list sums to " + std::to_string(*bad.first) + " on the GPU, " +
                                   std::to_string(*bad.second) + " on the CPU");
        if (rep < warmup) continue;
        times.push_back(ms);
        out.stream() << name << "," << walk << "," << name_of(mode) << "," << sizeof(Index) << "," << rep - warmup
                     << "," << ms << "," << g.edge_list_bytes() << "," << g.edge_list_bytes() / (ms * 1e6) << ",";
        if (requests.requests)
          out.stream() << requests.requests << "," << requests.sectors;
        else
          out.stream() << ",";
        out.stream() << ",true\n";
      }
      const double med = median_of(times);
      std::fprintf(stderr, "lists %s w%zu %-15s %-15s median %8.2f ms, %6.1f GB/s of lists", name.c_str(),
                   sizeof(Index), name_of(mode), walk.c_str(), med, g.edge_list_bytes() / (med * 1e6));
      if (requests.requests) std::fprintf(stderr, ", %.1f B a request", 32.0 * requests.sectors / requests.requests);
      std::fprintf(stderr, "\n");
    }
  }
}

int run_lists(const CliArgs& args) {
  std::vector<Variant> variants;
  for (const auto& s : args.get_list("variants")) {
    variants.push_back(parse_variant(s));
    if (!is_access_variant(variants.back()))
      throw std::invalid_argument(
          "emogi lists walks lists the paper's ways only (naive, merged, merged-aligned, chunked), not " + s);
  }
  const bool whole_lines = args.flag("whole-lines");
  for (Variant v : variants)
    if (whole_lines && v != Variant::MergedAligned && v != Variant::Chunked)
      throw std::invalid_argument(
          std::string("--whole-lines widens the aligned walks only (merged-aligned, chunked), not ") + name_of(v));
  const auto modes = micro_modes(args);
  const uint64_t reps = args.get_u64("reps"), warmup = args.get_u64("warmup");
  if (reps == 0) throw std::invalid_argument("--reps must be at least 1");
  PlacementOptions placement;
  placement.managed.allow_oversubscription = args.flag("allow-managed-oversubscription");
  if (args.has("gpu-memory-budget")) gpu_budget().set_limit(parse_bytes(args.get("gpu-memory-budget")));
  AtomicFile out(args.get("out"));

  const MappedCsr graph(args.get("graph"), !args.flag("no-verify-checksum"));  // checked before the GPU is touched
  select_device(int(args.get_u64("device")));
  const std::string name =
      args.has("name") ? args.get("name") : graph.path().substr(graph.path().find_last_of('/') + 1);
  out.stream() << "graph,variant,mode,edge_bytes,rep,time_ms,list_bytes,gbps,requests,sectors,verified\n";
  if (graph.index_bytes() == 4)
    measure<uint32_t>(graph, name, variants, modes, whole_lines, reps, warmup, placement, out);
  else
    measure<uint64_t>(graph, name, variants, modes, whole_lines, reps, warmup, placement, out);
  out.commit();
  return 0;
}

}  // namespace

CommandSpec lists_command() {
  return {
      "lists",
      "every neighbour list read once per access pattern: the link use a walk can reach",
      {required("graph", "PATH", "the graph file (emogi CSR)"),
       option("name", "NAME", "the graph's name in the table (default: the file name)"),
       option("variants", "LIST", "naive, merged, merged-aligned and/or chunked", "merged-aligned"),
       micro_modes_option(), option("reps", "INT", "timed passes per variant and mode", "5"),
       option("warmup", "INT", "untimed passes before them", "1"),
       required("out", "PATH", "the CSV to write, one row per pass"), option("device", "INT", "the CUDA device", "0"),
       option("gpu-memory-budget", "SIZE", "GPU memory the run may use (default: all)"),
       flag("allow-managed-oversubscription", "let managed allocations exceed the GPU's free memory"),
       flag("no-verify-checksum", "skip the graph file's checksum"),
       flag("whole-lines", "the aligned walks read their first and last lines whole (an experiment)")},
      run_lists};
}

}  // namespace emogi
