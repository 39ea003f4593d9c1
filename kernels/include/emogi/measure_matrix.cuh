// The measurement loop every algorithm shares: for each memory mode (placed once), each variant, each source,
// run warm-up and timed repetitions, verify every run against the CPU reference, and write one CSV row per
// timed run; with --trace-out, one more run per source records which lists each launch read (list_reads.cuh),
// verified too and not timed. An algorithm plugs in as a Problem:
//
//   static constexpr Algorithm kAlgorithm;   // whether it is rooted, reads weights and what it needs of a graph
//                                             // come from emogi/registry.yaml (names.hpp)
//   Problem(const MappedCsr&, const MatrixOptions&);                // GPU state, reused by every run
//   void expect(uint64_t source);                                   // the CPU reference, before any GPU run
//   template <class Access>                                         // a scan variant: an access policy
//   RunStats scan(const DeviceGraph<Index>&, uint64_t source, uint64_t max_warps, ListReads&);   // (access.cuh)
//   RunStats own(Variant, const DeviceGraph<Index>&, uint64_t source, uint64_t max_warps, ListReads&);  // the rest
//   Verified verify(uint64_t source, const RunStats&, const std::string& what);  // throws on a mismatch
//
// run_variant is the one place a Variant becomes a kernel: access policies go to scan (Delayed<Access> under
// added-latency emulation), the rest to own.
//
// The order of the timed runs within a mode (--run-order): Blocks runs each variant's roots and repetitions in a
// row; Rounds runs the warm-ups of every variant first and then one timed run of each (variant, root) per round, so
// a slow stretch of the machine spreads over every cell instead of covering one cell's runs. The rows are written
// in the order they ran.
#pragma once
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "emogi/access.cuh"
#include "emogi/atomic_file.hpp"
#include "emogi/capped_uvm.cuh"
#include "emogi/csr.hpp"
#include "emogi/device_array.cuh"
#include "emogi/iteration_loop.cuh"
#include "emogi/list_reads.cuh"
#include "emogi/names.hpp"
#include "emogi/nvtx_range.hpp"
#include "emogi/pass_log.cuh"
#include "emogi/placement.cuh"

namespace emogi {

enum class RunOrder { Blocks, Rounds };

inline bool has_mode(const std::vector<MemoryMode>& modes, MemoryMode m) {
  return std::find(modes.begin(), modes.end(), m) != modes.end();
}

struct MatrixOptions {
  std::string name, out;
  std::vector<uint64_t> roots;  // rooted algorithms only
  std::vector<Variant> variants;
  std::vector<MemoryMode> modes;
  uint64_t reps = 3, warmup = 1, max_warps = 0;
  PlacementOptions placement;
  bool corrupt_for_testing = false;  // spoils one result value before verification (tests see the run fail)
  uint32_t sssp_delta = 0;           // 0: the frontier SSSP's bucket width from the weights
  float pr_alpha = 0.85f, pr_tolerance = 1e-3f;
  uint32_t pr_max_iterations = 5000;
  uint64_t pr_hub_entries = 0;           // --pr-hub-entries: gauss-seidel defers lists longer than this (0: off)
  bool pr_hub_auto = false;              // --pr-hub-entries auto: that length from the graph and the GPU
  std::vector<double> pr_reference;      // --pr-reference: V float64 values; empty: no L1 distance reported
  std::string trace_dir;                 // --trace-out: where the recorded traces go (empty: none recorded)
  const MappedCsr* transpose = nullptr;  // a directed graph's in-lists, when a variant reads them (csr_transpose.hpp)
  uint64_t uvm_capacity = 0;             // uvm-capped: GPU memory the lists may keep (--uvm-capacity)
  unsigned uvm_sublaunches = 1;  // uvm-capped: sub-launches per sweep, evicting between them (--uvm-sublaunches)
  std::string pass_log;          // --pass-log: one row per pass of every timed run goes there (empty: none)
  RunOrder run_order = RunOrder::Blocks;  // --run-order (above)

  bool has_mode(MemoryMode m) const { return emogi::has_mode(modes, m); }
  bool has_variant(Variant v) const { return std::find(variants.begin(), variants.end(), v) != variants.end(); }
};

// Whether a run reads a weight beside each id: an algorithm with weight bytes (the registry's weight_bytes) on a
// graph that has weights. SSSP requires them (unmet_requirement); SpMV takes 1.0 as every value without them.
inline bool reads_weights(Algorithm a, const MappedCsr& g) { return weight_bytes(a) > 0 && g.has_weights(); }

// What verification establishes about a run, for the table.
struct Verified {
  uint64_t edges_traversed = 0;
  uint32_t levels = 0;      // BFS
  uint64_t components = 0;  // CC
};

constexpr uint64_t kNoSource = ~uint64_t(0);

inline double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The row's pr_hub_entries column (emogi.schema.APP_COLUMNS): what the problem says of the variant where it has such
// a setting (PageRank: the lists gauss-seidel deferred), empty elsewhere.
template <class P>
auto hub_entries_column(const P& problem, Variant v, int) -> decltype(problem.hub_entries(v)) {
  return problem.hub_entries(v);
}
template <class P>
std::string hub_entries_column(const P&, Variant, long) {
  return "";
}

template <class P, class Index>
RunStats run_variant(P& problem, Variant v, const DeviceGraph<Index>& g, uint64_t source, uint64_t max_warps,
                     ListReads& reads) {
  RunStats stats;
  // Under added-latency emulation the policy waits after each batch of reads (access.cuh: Delayed).
  if (with_access(v, [&](auto access) {
        using Access = decltype(access);
        stats = g.added_latency_cycles ? problem.template scan<Delayed<Access>>(g, source, max_warps, reads)
                                       : problem.template scan<Access>(g, source, max_warps, reads);
      }))
    return stats;
  return problem.own(v, g, source, max_warps, reads);
}

// Where --trace-out puts the trace of one run, and what it says about the run.
inline std::string trace_path(const MatrixOptions& opt, Algorithm a, Variant v, MemoryMode m, size_t width,
                              uint64_t source) {
  return opt.trace_dir + "/" + opt.name + "." + name_of(a) + "." + name_of(v) + "." + name_of(m) + ".w" +
         std::to_string(width) + (source == kNoSource ? "" : ".r" + std::to_string(source)) + ".trace";
}
inline TraceMeta trace_meta(const MappedCsr& g, const MatrixOptions& opt, Algorithm a, Variant v, MemoryMode m,
                            uint64_t source) {
  char checksum[17];
  std::snprintf(checksum, sizeof checksum, "%016llx", (unsigned long long)g.header().checksum);
  TraceMeta t;
  t.graph = opt.name, t.checksum = checksum, t.algorithm = name_of(a), t.variant = name_of(v), t.mode = name_of(m);
  t.num_vertices = g.num_vertices(), t.num_edges = g.num_edges();
  t.edge_bytes = g.index_bytes(), t.weight_bytes = reads_weights(a, g) ? unsigned(weight_bytes(a)) : 0u;
  t.root = source == kNoSource ? -1 : int64_t(source);
  if (m == MemoryMode::UvmCapped) t.sub_launches = opt.uvm_sublaunches, t.uvm_capacity = opt.uvm_capacity;
  return t;
}

template <template <class> class Problem, class Index>
void measure_matrix(const MappedCsr& g, const MatrixOptions& opt) {
  using P = Problem<Index>;
  const char* algorithm = name_of(P::kAlgorithm);
  for (Variant v : opt.variants) {
    const std::string why = unmet_requirement(P::kAlgorithm, v, g.path(), g.directed(), g.has_weights());
    if (!why.empty()) throw std::invalid_argument(std::string(algorithm) + " " + name_of(v) + ": " + why);
  }
  for (Variant v : opt.variants)  // run_algorithm opens the transpose (csr_transpose.hpp: open_transpose)
    if (reads_in_lists(v) && g.directed() && !opt.transpose)
      throw std::invalid_argument(std::string(algorithm) + " " + name_of(v) + " on the directed " + g.path() +
                                  " reads its transpose, which was not opened");
  std::vector<uint64_t> sources = is_rooted(P::kAlgorithm) ? opt.roots : std::vector<uint64_t>{kNoSource};
  if (sources.empty()) throw std::invalid_argument(std::string(algorithm) + " needs roots (--roots or --roots-file)");

  const bool with_weights = reads_weights(P::kAlgorithm, g);
  const size_t entry_bytes = sizeof(Index) + (with_weights ? weight_bytes(P::kAlgorithm) : 0);
  // Streamed: refused where a variant cannot stream, before the GPU is touched (the same plan the mode makes).
  if (opt.has_mode(MemoryMode::Streamed)) {
    const StreamPlan plan = streamed_plan(g, with_weights, opt.placement.stream);
    for (Variant v : opt.variants) {
      const std::string why = streamed_refusal(P::kAlgorithm, v, plan, opt.placement.stream.layout);
      if (!why.empty()) throw std::invalid_argument("streamed: " + why);
    }
  }
  P problem(g, opt);
  for (uint64_t s : sources) problem.expect(s);
  const DeviceArray<uint64_t> offsets(g.offsets(), g.num_vertices() + 1);
  std::unique_ptr<PassLog> passes;  // --pass-log (pass_log.cuh), committed with the table
  if (!opt.pass_log.empty())
    passes = std::make_unique<PassLog>(opt.pass_log, opt.name, algorithm, offsets.data(), g.num_vertices(),
                                       g.num_edges(), entry_bytes);
  // A directed graph's transpose, for the variants that read in-lists: its vertex list in GPU memory here, its edge
  // list placed in each mode beside the graph's (graph_view.cuh: DeviceGraph::in).
  std::unique_ptr<DeviceArray<uint64_t>> in_offsets;
  if (opt.transpose)
    in_offsets = std::make_unique<DeviceArray<uint64_t>>(opt.transpose->offsets(), g.num_vertices() + 1);
  // Recording a trace, and uvm-capped: a bitmap over the vertices that the kernels mark (in the budget before the
  // lists are placed).
  const bool capped_mode = opt.has_mode(MemoryMode::UvmCapped);
  std::unique_ptr<DeviceArray<uint32_t>> read_bits;
  if (!opt.trace_dir.empty() || capped_mode) {
    read_bits = std::make_unique<DeviceArray<uint32_t>>((g.num_vertices() + 31) / 32, "the list-read bitmap");
    EMOGI_CUDA_CHECK(cudaMemset(read_bits->data(), 0, read_bits->size() * sizeof(uint32_t)));
  }
  std::vector<std::unique_ptr<TraceFile>> traces;  // committed with the table

  struct Row {
    std::string variant, mode, hub_entries;
    uint64_t source, rep;
    RunStats stats;
    Verified verified;
  };
  std::vector<Row> rows;
  for (MemoryMode mode : opt.modes) {
    const size_t before = gpu_budget().used();
    GraphPlacement placement(g, mode, with_weights, opt.placement);
    std::fprintf(stderr, "%s: placed %s\n", algorithm, placement.describe().c_str());
    if (gpu_budget().limit() != GpuBudget::kNone)
      std::fprintf(stderr, "%s: --gpu-memory-budget %s: %zu bytes in use before placing the lists, %zu after\n",
                   algorithm, format_bytes(gpu_budget().limit()).c_str(), before, gpu_budget().used());
    // Not const: in the streamed mode ListReads points it at each block's buffer before the block's kernel (the
    // kernels take it by value at launch, so each sees its own block).
    DeviceGraph<Index> dg = placement.view<Index>(offsets.data());
    std::unique_ptr<GraphPlacement> in_placement;
    if (opt.transpose) {
      PlacementOptions in_options = opt.placement;
      if (in_options.auto_order == AutoOrder::HottestFirst)  // --auto-hot counts the out-lists' reads
        in_options.auto_order = AutoOrder::ShortestFirst, in_options.auto_hot.clear();
      in_placement = std::make_unique<GraphPlacement>(*opt.transpose, mode, false, in_options);
      std::fprintf(stderr, "%s: placed the in-lists (%s, %llu bytes): %s\n", algorithm, opt.transpose->path().c_str(),
                   (unsigned long long)opt.transpose->edge_list_bytes(), in_placement->describe().c_str());
      const DeviceGraph<Index> t = in_placement->view<Index>(in_offsets->data());
      dg.in = {t.offsets, t.starts, t.edges};
    }
    StreamedLists* const streamed = placement.streamed();
    std::unique_ptr<CappedUvm> capped;
    if (mode == MemoryMode::UvmCapped)
      capped = std::make_unique<CappedUvm>(dg.edges.far, g.num_edges(), g.index_bytes(),
                                           with_weights ? dg.weights.far : nullptr, offsets.data(), opt.uvm_capacity);
    auto run = [&](Variant variant, uint64_t source, Verified* out, TraceFile* trace) {
      const std::string label = std::string(name_of(variant)) + "|" + name_of(mode);
      placement.prepare_run();
      if (in_placement) in_placement->prepare_run();
      if (capped) capped->start_run();
      ListReads reads =
          streamed ? ListReads(streamed, dg.offsets,
                               [&](const SweepStep& step, unsigned buffer) { streamed->point(dg, step, buffer); })
          : trace || capped
              ? ListReads(read_bits->data(), g.num_vertices(), trace, capped.get(), capped ? opt.uvm_sublaunches : 1)
              : ListReads();
      if (out && passes) reads.set_pass_log(passes.get());  // timed runs only
      RunStats stats;
      {
        NvtxRange range(std::string(algorithm) + "|" + label + "|" +
                        (source == kNoSource ? "" : std::to_string(source)) + "|" + std::to_string(opt.max_warps));
        stats = run_variant(problem, variant, dg, source, opt.max_warps, reads);
      }
      if (streamed) {
        const StreamRunStats c = streamed->finish_run();
        // Timed runs: blocks launched and left out as inactive (--stream-skip), copies made and saved (the buffer
        // held the block), what was copied, for the link-use check (bytes over run time, over copy time), and the
        // blocks each sweep launched (model.streamed's active fractions: python -m model.streamed --active-log).
        if (out)
          std::fprintf(stderr,
                       "streamed run: %s %s: %llu sweeps, %llu blocks, %llu inactive, %llu copies, %llu skipped, "
                       "%llu bytes copied in %.3f ms of copies (%.2f GB/s), run %.3f ms (%.2f GB/s), blocks per "
                       "sweep %s%s\n",
                       algorithm, name_of(variant), (unsigned long long)c.sweeps, (unsigned long long)c.blocks,
                       (unsigned long long)c.inactive, (unsigned long long)c.copies, (unsigned long long)c.skipped,
                       (unsigned long long)c.bytes, c.copy_ms, c.copy_ms > 0 ? c.bytes / (c.copy_ms * 1e6) : 0.0,
                       stats.time_ms, stats.time_ms > 0 ? c.bytes / (stats.time_ms * 1e6) : 0.0,
                       c.per_sweep_text().c_str(), c.in_place_text().c_str());
      }
      const Verified v = problem.verify(
          source, stats,
          opt.name + " " + algorithm + " " + label + (source == kNoSource ? "" : " root " + std::to_string(source)));
      if (out) *out = v;
      return stats;
    };
    // One variant's timed runs: their times and the bytes of lists they read, for the summary line.
    struct Timed {
      std::vector<double> times;
      double bytes = 0;
    };
    std::vector<Timed> timed(opt.variants.size());
    auto warm_up = [&](size_t vi) {
      for (uint64_t i = 0; i < opt.warmup; ++i) run(opt.variants[vi], sources.front(), nullptr, nullptr);
    };
    auto time_one = [&](size_t vi, uint64_t source, uint64_t rep) {
      const Variant variant = opt.variants[vi];
      Row row{name_of(variant), name_of(mode), hub_entries_column(problem, variant, 0), source, rep, {}, {}};
      if (passes) passes->begin_run(name_of(variant), name_of(mode), source, rep);
      row.stats = run(variant, source, &row.verified, nullptr);
      if (passes) passes->end_run();
      timed[vi].times.push_back(row.stats.time_ms);
      timed[vi].bytes += double(row.verified.edges_traversed) * entry_bytes;
      rows.push_back(row);
    };
    auto finish = [&](size_t vi) {  // the summary line, then the untimed trace runs
      const Variant variant = opt.variants[vi];
      const std::vector<double>& times = timed[vi].times;
      const double med = median_of(times);
      std::fprintf(stderr, "%s %s w%zu %-15s %-20s%s median %9.2f ms over %zu runs, %6.1f GB/s of lists read\n",
                   algorithm, opt.name.c_str(), sizeof(Index), name_of(mode), name_of(variant),
                   opt.max_warps ? (" max_warps " + std::to_string(opt.max_warps)).c_str() : "", med, times.size(),
                   timed[vi].bytes / times.size() / (med * 1e6));
      if (capped)  // warm-up and timed runs
        std::fprintf(stderr, "  uvm-capped, %u sub-launches: %s\n", opt.uvm_sublaunches,
                     capped->report(opt.warmup + times.size()).c_str());
      if (opt.trace_dir.empty()) return;
      for (uint64_t source : sources) {  // untimed: the bitmap's atomics and the copies after every launch
        traces.push_back(
            std::make_unique<TraceFile>(trace_path(opt, P::kAlgorithm, variant, mode, sizeof(Index), source),
                                        trace_meta(g, opt, P::kAlgorithm, variant, mode, source)));
        run(variant, source, nullptr, traces.back().get());
        traces.back()->finish();
      }
    };
    if (opt.run_order == RunOrder::Blocks) {
      for (size_t vi = 0; vi < opt.variants.size(); ++vi) {
        if (capped) capped->clear_counts();  // each variant's evictions on its own (Rounds is refused with it)
        warm_up(vi);
        for (uint64_t source : sources)
          for (uint64_t rep = 0; rep < opt.reps; ++rep) time_one(vi, source, rep);
        finish(vi);
      }
    } else {
      for (size_t vi = 0; vi < opt.variants.size(); ++vi) warm_up(vi);
      for (uint64_t rep = 0; rep < opt.reps; ++rep)
        for (size_t vi = 0; vi < opt.variants.size(); ++vi)
          for (uint64_t source : sources) time_one(vi, source, rep);
      for (size_t vi = 0; vi < opt.variants.size(); ++vi) finish(vi);
    }
  }

  AtomicFile out(opt.out);
  out.stream() << kMatrixCsvHeader << "\n";  // the columns, from the registry's schema (emogi.schema.APP_COLUMNS)
  for (const Row& r : rows) {
    out.stream() << opt.name << "," << algorithm << "," << r.variant << "," << r.mode << "," << sizeof(Index) << ","
                 << opt.max_warps << ",";
    if (r.source != kNoSource) out.stream() << r.source;
    out.stream() << "," << r.rep << "," << r.stats.time_ms << "," << r.verified.edges_traversed << ","
                 << r.verified.levels << "," << r.stats.iterations << "," << r.verified.components << ","
                 << r.hub_entries << ",true\n";
  }
  out.commit();
  if (passes) passes->commit();
  for (auto& t : traces) t->commit();
  if (!traces.empty())
    std::fprintf(stderr, "%s: wrote %zu traces to %s\n", algorithm, traces.size(), opt.trace_dir.c_str());
}

// The graph's edge-list width picks the index type: every algorithm's measure_* is this one dispatch.
template <template <class> class Problem>
void measure_by_width(const MappedCsr& g, const MatrixOptions& opt) {
  if (g.index_bytes() == 4)
    measure_matrix<Problem, uint32_t>(g, opt);
  else
    measure_matrix<Problem, uint64_t>(g, opt);
}

}  // namespace emogi
