// `emogi run --algorithm A` (and `emogi bfs`, the same with A = bfs): time every requested variant x memory
// mode of one algorithm on one graph, verify each run against the CPU reference, write one CSV row per run.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "emogi/atomic_file.hpp"
#include "emogi/chunk_lru.hpp"
#include "emogi/cli_args.hpp"
#include "emogi/commands.hpp"
#include "emogi/csr_transpose.hpp"
#include "emogi/device_info.hpp"
#include "emogi/gpu_budget.hpp"
#include "emogi/problems.hpp"
#include "emogi/streamed_refusal.hpp"

namespace emogi {
namespace {

std::vector<uint64_t> read_roots(const CliArgs& args) {
  std::vector<uint64_t> roots;
  if (args.has("roots-file")) {
    std::ifstream in(args.get("roots-file"));
    if (!in) throw std::invalid_argument("cannot read roots file " + args.get("roots-file"));
    for (uint64_t r; in >> r;) roots.push_back(r);
    if (!in.eof()) throw std::invalid_argument("roots file " + args.get("roots-file") + " holds a non-integer");
  }
  for (const auto& r : args.get_list("roots")) roots.push_back(std::stoull(r));
  return roots;
}

// uvm-capped's capacity and sub-launches: required and at least one 2 MiB chunk, at most the lists (and weights) it
// caps; neither option without the mode.
void set_uvm_capped(const CliArgs& args, Algorithm algorithm, const MappedCsr& graph, MatrixOptions& opt) {
  const bool capped = opt.has_mode(MemoryMode::UvmCapped);
  const bool sublaunches = args.get("uvm-sublaunches") != "1";
  if (!capped) {
    if (args.has("uvm-capacity") || sublaunches)
      throw std::invalid_argument("--uvm-capacity and --uvm-sublaunches apply to the uvm-capped mode only");
    return;
  }
  if (!args.has("uvm-capacity"))
    throw std::invalid_argument("uvm-capped needs --uvm-capacity SIZE: the GPU memory its lists may keep");
  opt.uvm_capacity = parse_bytes(args.get("uvm-capacity"));
  const uint64_t sub = args.get_u64("uvm-sublaunches");
  if (sub == 0 || sub > (uint64_t(1) << 20))
    throw std::invalid_argument("--uvm-sublaunches must lie in 1..1048576, not " + args.get("uvm-sublaunches"));
  opt.uvm_sublaunches = unsigned(sub);
  const uint64_t lists = graph.edge_list_bytes() + (reads_weights(algorithm, graph) ? graph.num_edges() * 4 : 0);
  if (opt.uvm_capacity < kChunkBytes)
    throw std::invalid_argument("--uvm-capacity " + args.get("uvm-capacity") +
                                " holds no 2 MiB chunk: uvm-capped evicts whole chunks, give at least 2M");
  if (opt.uvm_capacity > lists)
    throw std::invalid_argument("--uvm-capacity " + args.get("uvm-capacity") + " is more than the " +
                                format_bytes(lists) + " of lists " + name_of(algorithm) +
                                " reads on this graph: nothing would be evicted (that is the uvm mode)");
}

// --run-order: blocks or rounds; rounds is refused with uvm-capped, whose eviction counts are reported per variant.
RunOrder parse_run_order(const std::string& order, const std::vector<MemoryMode>& modes) {
  if (order == "blocks") return RunOrder::Blocks;
  if (order != "rounds") throw std::invalid_argument("--run-order must be blocks or rounds, not " + order);
  if (has_mode(modes, MemoryMode::UvmCapped))
    throw std::invalid_argument(
        "--run-order rounds does not apply to uvm-capped (its evictions are counted per "
        "variant): use blocks there");
  return RunOrder::Rounds;
}

// A directed graph's transpose, when a variant reads in-lists (the registry's in_lists): --transpose or G.t.csr
// beside the graph, checked as any graph file and paired with it (csr_transpose.hpp). Neither uvm-capped (its
// evictions cover the edge list only) nor --trace-out (a trace names the out-lists read) applies to those runs.
std::unique_ptr<MappedCsr> open_in_lists(const CliArgs& args, const MappedCsr& graph, MatrixOptions& opt) {
  const auto reader = std::find_if(opt.variants.begin(), opt.variants.end(), reads_in_lists);
  if (!graph.directed() || reader == opt.variants.end()) {
    if (args.has("transpose"))
      std::fprintf(stderr, "--transpose %s: not read (%s)\n", args.get("transpose").c_str(),
                   graph.directed() ? "no variant here reads in-lists" : "the graph is undirected");
    return nullptr;
  }
  const std::string why = std::string(name_of(*reader)) + " on the directed " + graph.path() + " reads its transpose";
  if (opt.has_mode(MemoryMode::UvmCapped))
    throw std::invalid_argument("uvm-capped: " + why + ", which its evictions do not cover");
  if (!opt.trace_dir.empty()) throw std::invalid_argument("--trace-out: " + why + "; a trace records out-lists only");
  auto transpose =
      open_transpose(graph, args.has("transpose") ? args.get("transpose") : "", !args.flag("no-verify-checksum"));
  opt.transpose = transpose.get();
  return transpose;
}

// --pr-reference PATH (PageRank only): the reference's V float64 values, read before the GPU is touched; a file of
// another size is refused in one line naming both sizes.
void read_pr_reference(const CliArgs& args, Algorithm algorithm, const MappedCsr& g, MatrixOptions& opt) {
  if (!args.has("pr-reference")) return;
  const std::string path = args.get("pr-reference");
  if (algorithm != Algorithm::PageRank) throw std::invalid_argument("--pr-reference applies to pagerank only");
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw std::invalid_argument("--pr-reference " + path + ": cannot open it");
  const uint64_t bytes = uint64_t(f.tellg()), want = g.num_vertices() * sizeof(double);
  if (bytes != want)
    throw std::invalid_argument("--pr-reference " + path + " holds " + std::to_string(bytes) + " bytes, not V x 8 = " +
                                std::to_string(want) + " (emogi_cpu pagerank --reference writes this graph's)");
  opt.pr_reference.resize(g.num_vertices());
  f.seekg(0);
  if (!f.read(reinterpret_cast<char*>(opt.pr_reference.data()), std::streamsize(want)))
    throw std::invalid_argument("--pr-reference " + path + ": cannot read it");
}

// The streamed mode's block size (required), buffers, poisoning, skipping, layout and reading in place; none of them
// without the mode, nor traces with it (a streamed launch is one kernel per block, and records nothing).
void set_streamed(const CliArgs& args, MatrixOptions& opt) {
  const bool streamed = opt.has_mode(MemoryMode::Streamed);
  const bool options = args.has("stream-block-bytes") || args.get("stream-buffers") != "2" ||
                       args.flag("stream-poison") || args.get("stream-skip") != "on" ||
                       args.get("stream-layout") != "rows" || args.get("stream-direct-below") != "0" ||
                       args.get("stream-pack") != "off";
  if (!streamed) {
    if (options)
      throw std::invalid_argument(
          "--stream-block-bytes, --stream-buffers, --stream-poison, --stream-skip, --stream-layout, "
          "--stream-direct-below and --stream-pack apply to the streamed mode only");
    return;
  }
  if (!args.has("stream-block-bytes"))
    throw std::invalid_argument("streamed needs --stream-block-bytes SIZE: the GPU buffer one block is copied into");
  if (!opt.trace_dir.empty()) throw std::invalid_argument("--trace-out does not apply to the streamed mode");
  StreamOptions& s = opt.placement.stream;
  s.block_bytes = parse_bytes(args.get("stream-block-bytes"));
  const uint64_t buffers = args.get_u64("stream-buffers");
  if (buffers < 1 || buffers > 64)
    throw std::invalid_argument("--stream-buffers must lie in 1..64, not " + args.get("stream-buffers"));
  s.buffers = unsigned(buffers);
  s.poison = args.flag("stream-poison");
  const std::string skip = args.get("stream-skip");
  if (skip != "on" && skip != "off") throw std::invalid_argument("--stream-skip is on or off, not '" + skip + "'");
  s.skip_inactive = skip == "on";
  const std::string pack = args.get("stream-pack");
  if (pack != "on" && pack != "off") throw std::invalid_argument("--stream-pack is on or off, not '" + pack + "'");
  s.pack = pack == "on";
  const std::string layout = args.get("stream-layout");
  if (layout != "rows" && layout != "columns")
    throw std::invalid_argument("--stream-layout is rows or columns, not '" + layout + "'");
  s.layout = layout == "columns" ? StreamLayout::Columns : StreamLayout::Rows;
  const std::string below = args.get("stream-direct-below");
  size_t used = 0;
  try {
    s.direct_below = std::stod(below, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != below.size() || !(s.direct_below >= 0 && s.direct_below <= 1))
    throw std::invalid_argument("--stream-direct-below is a fraction of a block's entries in 0..1, not '" + below +
                                "'");
  if (s.direct_below > 0 && !s.skip_inactive)
    throw std::invalid_argument("--stream-direct-below needs --stream-skip on: it counts a block's active entries");
  // The column layout's one algorithm, SpMV, marks no active vertices, and its blocks are not the row blocks whose
  // lists the in-place copy holds: nothing to read in place.
  if (s.direct_below > 0 && s.layout == StreamLayout::Columns)
    throw std::invalid_argument(
        "--stream-direct-below reads row blocks in place: give --stream-layout rows, or 0 with columns");
  if (s.pack && s.layout == StreamLayout::Columns)
    throw std::invalid_argument("--stream-pack packs row blocks: give --stream-layout rows, or off with columns");
}

// --pass-log: the iterative algorithms only (their passes' activity varies; bfs and spmv are refused), and their
// variants that stream (those launch every pass on their stream, where the log's events go), the file
// tried before the GPU is touched (an AtomicFile's temporary sibling, removed again).
void set_pass_log(const CliArgs& args, Algorithm algorithm, MatrixOptions& opt) {
  if (!args.has("pass-log")) return;
  if (algorithm != Algorithm::Sssp && algorithm != Algorithm::Cc && algorithm != Algorithm::PageRank)
    throw std::invalid_argument(std::string("--pass-log applies to sssp, cc and pagerank (passes of varying "
                                            "activity), not ") +
                                name_of(algorithm));
  for (Variant v : opt.variants)  // their every list read goes through ListReads::launch on the algorithm's stream
    if (!streams(algorithm, v))
      throw std::invalid_argument(std::string("--pass-log times the passes of the variants that stream (emogi list: "
                                              "streamed), not ") +
                                  name_of(algorithm) + " " + name_of(v));
  opt.pass_log = args.get("pass-log");
  if (opt.pass_log.empty()) throw std::invalid_argument("--pass-log needs a path");
  AtomicFile probe(opt.pass_log);  // throws "cannot write ..." for a directory that is not there
}

// --pr-hub-entries: PageRank's gauss-seidel only, and not where its lists are read part by part (streamed) or
// each read waits (added latency), which pagerank_push_hubs does not do. Not given: auto where it applies
// (archive/gs-hub-auto-h200-2026-11-28: faster on every Kronecker graph measured), off elsewhere.
void set_pr_hub_entries(const CliArgs& args, Algorithm algorithm, MatrixOptions& opt) {
  const bool applies = algorithm == Algorithm::PageRank && opt.has_variant(Variant::GaussSeidel);
  const bool streamed = opt.has_mode(MemoryMode::Streamed), delayed = args.get_u64("added-latency-ns") > 0;
  if (!args.has("pr-hub-entries")) {
    opt.pr_hub_auto = applies && !streamed && !delayed;
    return;
  }
  const std::string text = args.get("pr-hub-entries");
  opt.pr_hub_auto = text == "auto";
  try {
    opt.pr_hub_entries = opt.pr_hub_auto ? 0 : args.get_u64("pr-hub-entries");
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("--pr-hub-entries expects a non-negative integer or auto, got '" + text + "'");
  }
  if (opt.pr_hub_entries == 0 && !opt.pr_hub_auto) return;
  if (!applies) throw std::invalid_argument("--pr-hub-entries applies to pagerank gauss-seidel only");
  if (streamed)
    throw std::invalid_argument("--pr-hub-entries does not apply to the streamed mode (it reads lists part by part)");
  if (delayed) throw std::invalid_argument("--pr-hub-entries does not apply with --added-latency-ns");
}

// hottest-first's read counts (--auto-hot): V little-endian uint32, one per vertex (python -m emogi.trace_hotness),
// read before the GPU is touched; the option and the order each refused without the other.
void check_auto_hot_option(const CliArgs& args, const MatrixOptions& opt) {
  const bool hottest = opt.placement.auto_order == AutoOrder::HottestFirst;
  if (hottest && !args.has("auto-hot"))
    throw std::invalid_argument(
        "--auto-order hottest-first needs --auto-hot PATH: how often the run reads each list (python -m "
        "emogi.trace_hotness)");
  if (!hottest && args.has("auto-hot"))
    throw std::invalid_argument("--auto-hot applies to --auto-order hottest-first only");
}

void read_auto_hot(const CliArgs& args, const MappedCsr& graph, MatrixOptions& opt) {
  if (!args.has("auto-hot")) return;
  const std::string path = args.get("auto-hot");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::invalid_argument("cannot read --auto-hot file " + path);
  const uint64_t bytes = uint64_t(in.tellg()), want = graph.num_vertices() * sizeof(uint32_t);
  if (bytes != want)
    throw std::invalid_argument("--auto-hot " + path + " holds " + std::to_string(bytes) + " bytes, expected " +
                                std::to_string(want) +
                                " (one uint32 per vertex, V = " + std::to_string(graph.num_vertices()) + ")");
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "--auto-hot files are little-endian");
  std::vector<uint32_t>& reads = opt.placement.auto_hot;
  reads.resize(graph.num_vertices());
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(reads.data()), std::streamsize(want)))
    throw std::invalid_argument("cannot read --auto-hot file " + path);
}

// `algorithm` is the --algorithm option: required by `run`, "bfs" for `bfs`.
std::vector<OptionSpec> run_options(OptionSpec algorithm) {
  return {algorithm,
          required("graph", "PATH", "the graph file (emogi CSR)"),
          option("name", "NAME", "the graph's name in the table (default: the file name)"),
          option("roots", "LIST", "source vertices of bfs and sssp, comma-separated"),
          option("roots-file", "PATH", "source vertices, one per line (before --roots' own)"),
          option("variants", "LIST", "kernel variants (default: every one the algorithm has; emogi list)"),
          option("modes", "LIST", "memory modes of the edge list", "device,zerocopy,zerocopy-pinned,uvm"),
          option("reps", "INT", "timed runs per variant, mode and root", "3"),
          option("warmup", "INT", "untimed runs before them", "1"),
          option("run-order", "blocks|rounds",
                 "the timed runs' order within a mode: each variant's roots and reps in a row (blocks), or one run of "
                 "each variant and root per round after every variant's warm-ups (rounds: a slow stretch of the "
                 "machine spreads over every cell)",
                 "blocks"),
          required("out", "PATH", "the CSV to write, one row per timed run"),
          option("device", "INT", "the CUDA device", "0"),
          option("gpu-memory-budget", "SIZE",
                 "GPU memory the run may use: vertex data, device copies, auto's lists, managed memory that migrates "
                 "(uvm modes; default: all)"),
          option("max-warps", "INT",
                 "at most this many warps per scan, walking the vertices grid-stride (0: enough for all)", "0"),
          option("sssp-delta", "INT", "frontier SSSP's bucket width (0: from the weights)", "0"),
          option("added-latency-ns", "NS",
                 "emulate added latency: every list read waits this long after it arrives (scan variants; the "
                 "latency really added is what `emogi chase` measures with the same option)",
                 "0"),
          option("pr-alpha", "X", "PageRank damping factor", "0.85"),
          option("pr-tolerance", "X", "PageRank residual a vertex may keep", "0.001"),
          option("pr-max-iterations", "INT", "PageRank rounds before it counts as not converged", "5000"),
          option("pr-hub-entries", "INT|auto",
                 "pagerank gauss-seidel: a list longer than this is pushed after its round by many warps, not by "
                 "its own warp (0: off; auto: twice the entries per resident warp, at least 4096; default auto "
                 "where it applies, off with streamed or added latency)"),
          option("pr-reference", "PATH",
                 "pagerank: V float64 values of a tightly converged PageRank (emogi_cpu pagerank --reference writes "
                 "them); each verified run then logs its L1 distance to them, sum |x - x*| / V"),
          option("auto-reserve", "SIZE", "GPU memory `auto` leaves free (default 1G)"),
          option("auto-order", "ORDER", "which lists `auto` keeps in GPU memory (default: by algorithm)"),
          option("auto-hot", "PATH",
                 "hottest-first (required there): how many launches read each vertex's list, V little-endian uint32 "
                 "(python -m emogi.trace_hotness)"),
          option("uvm-capacity", "SIZE",
                 "uvm-capped: GPU memory its lists may keep; the least recently used 2 MiB chunks beyond it go back "
                 "to the host after each launch (required in that mode)"),
          option("uvm-sublaunches", "INT", "uvm-capped: vertex ranges per sweep, evicting after each", "1"),
          option("trace-out", "DIR",
                 "after each variant's timed runs, one more run per root records the lists each launch reads here "
                 "(emogi/trace_recording.py loads them)"),
          option("stream-block-bytes", "SIZE",
                 "streamed: the GPU buffer one block of lists (ids and weights) is copied into (required there)"),
          option("stream-buffers", "INT", "streamed: GPU buffers the blocks take turns in (copy one, compute another)",
                 "2"),
          flag("stream-poison", "streamed: fill a buffer with 0xFF bytes before every copy into it (tests)"),
          option("stream-skip", "on|off",
                 "streamed: neither copy nor launch a block without an active vertex in the pass (sssp, cc and "
                 "pagerank say which are active)",
                 "on"),
          option("stream-layout", "rows|columns",
                 "streamed: blocks of consecutive vertices' lists (rows), or CF'17's column blocks, each with its "
                 "slice of x (columns: spmv only)",
                 "rows"),
          option("stream-direct-below", "FRACTION",
                 "streamed: read a block over the link in place (zero-copy, only its active lists) instead of "
                 "copying it when fewer than this fraction of its entries are active (0: always copy; rows only)",
                 "0"),
          option("stream-pack", "on|off",
                 "streamed: copy each id (and weight) in the fewest whole bytes its largest value needs (3 for "
                 "fewer than 2^24 vertices, 1 for weights below 256) and widen it in GPU memory (rows only)",
                 "off"),
          option("pass-log", "PATH",
                 "sssp, cc and pagerank: one CSV row per pass (launch that reads lists) of every timed run here: "
                 "the entries its active vertices own, its time, the streamed mode's blocks and bytes copied"),
          flag("allow-managed-oversubscription", "let managed allocations exceed the GPU's free memory"),
          option("transpose", "PATH",
                 "a directed graph's transpose, read by the variants that read in-lists (direction-optimizing); "
                 "default: G.t.csr beside G.csr (python -m emogi.csr transpose G.csr writes it)"),
          flag("no-verify-checksum", "skip the graph file's checksum (its offsets and ids are still checked)"),
          flag("test-corrupt-result", "spoil one result before verification (tests)")};
}

int run_algorithm(const CliArgs& args) {
  const Algorithm algorithm = parse_algorithm(args.get("algorithm"));
  MatrixOptions opt;
  opt.out = args.get("out");
  opt.roots = read_roots(args);
  for (const auto& v : args.get_list("variants")) opt.variants.push_back(parse_variant(v));
  const std::vector<Variant> own = variants_of(algorithm);
  if (opt.variants.empty()) opt.variants = own;  // none named: every variant it has
  for (Variant v : opt.variants)
    if (std::find(own.begin(), own.end(), v) == own.end()) {
      std::string names;
      for (Variant o : own) names += (names.empty() ? "" : ", ") + std::string(name_of(o));
      throw std::invalid_argument(std::string(name_of(algorithm)) + " has no variant " + name_of(v) + " (it has " +
                                  names + ")");
    }
  for (const auto& m : args.get_list("modes")) opt.modes.push_back(parse_mode(m));
  opt.reps = args.get_u64("reps");
  opt.warmup = args.get_u64("warmup");
  opt.max_warps = args.get_u64("max-warps");
  if (opt.reps == 0) throw std::invalid_argument("--reps must be at least 1");
  opt.run_order = parse_run_order(args.get("run-order"), opt.modes);
  if (opt.warmup == 0 && opt.has_mode(MemoryMode::UvmWarm))
    throw std::invalid_argument("uvm-warm needs --warmup 1 or more: the warm-up run faults the pages in");
  opt.placement.managed.allow_oversubscription = args.flag("allow-managed-oversubscription");
  if (args.has("gpu-memory-budget")) gpu_budget().set_limit(parse_bytes(args.get("gpu-memory-budget")));
  if (args.has("auto-reserve")) opt.placement.auto_reserve_bytes = parse_bytes(args.get("auto-reserve"));
  opt.placement.auto_order =
      args.has("auto-order") ? parse_auto_order(args.get("auto-order")) : default_auto_order(algorithm);
  check_auto_hot_option(args, opt);
  opt.corrupt_for_testing = args.flag("test-corrupt-result");
  opt.sssp_delta = uint32_t(args.get_u64("sssp-delta"));
  opt.pr_alpha = std::stof(args.get("pr-alpha"));
  opt.pr_tolerance = std::stof(args.get("pr-tolerance"));
  opt.pr_max_iterations = uint32_t(args.get_u64("pr-max-iterations"));
  if (args.has("trace-out")) opt.trace_dir = args.get("trace-out");
  set_pass_log(args, algorithm, opt);
  set_streamed(args, opt);
  if (opt.placement.stream.layout == StreamLayout::Columns)  // before the GPU: the column layout is SpMV's
    for (Variant v : opt.variants) {
      const std::string why = streamed_refusal(algorithm, v, StreamPlan{}, StreamLayout::Columns);
      if (!why.empty()) throw std::invalid_argument("streamed: " + why);
    }
  if (!(opt.pr_alpha > 0 && opt.pr_alpha < 1)) throw std::invalid_argument("--pr-alpha must lie in (0, 1)");
  if (!(opt.pr_tolerance > 0)) throw std::invalid_argument("--pr-tolerance must be positive");
  set_pr_hub_entries(args, algorithm, opt);

  // The graph is checked (ids < V included) before the GPU is touched: a bad file allocates nothing on the device.
  const MappedCsr graph(args.get("graph"), !args.flag("no-verify-checksum"));
  // Before the GPU is touched: their errors need none.
  const std::unique_ptr<MappedCsr> transpose = open_in_lists(args, graph, opt);
  read_pr_reference(args, algorithm, graph, opt);
  set_uvm_capped(args, algorithm, graph, opt);
  read_auto_hot(args, graph, opt);
  select_device(int(args.get_u64("device")));
  opt.placement.added_latency_cycles = ns_to_cycles(args.get_u64("added-latency-ns"), int(args.get_u64("device")));
  opt.name = args.has("name") ? args.get("name") : graph.path().substr(graph.path().find_last_of('/') + 1);
  std::fprintf(stderr, "graph %s: V = %llu, E = %llu, %u-byte edges%s%s\n", graph.path().c_str(),
               (unsigned long long)graph.num_vertices(), (unsigned long long)graph.num_edges(), graph.index_bytes(),
               graph.has_weights() ? ", weights" : "", graph.directed() ? ", directed" : "");
  switch (algorithm) {
    case Algorithm::Bfs: measure_bfs(graph, opt); break;
    case Algorithm::Sssp: measure_sssp(graph, opt); break;
    case Algorithm::Cc: measure_cc(graph, opt); break;
    case Algorithm::PageRank: measure_pagerank(graph, opt); break;
    case Algorithm::Spmv: measure_spmv(graph, opt); break;
  }
  return 0;
}

}  // namespace

CommandSpec run_command() {
  return {"run", "time and verify one algorithm's variants x memory modes on one graph, one CSV row per run",
          run_options(required("algorithm", "NAME", "bfs, sssp, cc, pagerank or spmv")), run_algorithm};
}
CommandSpec bfs_command() {
  return {"bfs", "`run --algorithm bfs`",
          run_options(option("algorithm", "NAME", "bfs, sssp, cc, pagerank or spmv", "bfs")), run_algorithm};
}

}  // namespace emogi
