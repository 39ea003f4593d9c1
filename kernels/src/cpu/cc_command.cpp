// `emogi_cpu cc`: pull label-propagation CC on an undirected graph file, unblocked and cache-blocked, timed (median
// of reps after warm-up) and checked label for label against the project's reference (reference_cc); one CSV row
// per kernel.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "emogi/cpu/cc.hpp"
#include "emogi/cpu/commands.hpp"
#include "emogi/cpu/machine.hpp"
#include "emogi/cpu/timing.hpp"
#include "emogi/csr.hpp"
#include "emogi/references.hpp"

namespace emogi::cpu {
namespace {

template <class Index>
int run_on(const MappedCsr& g, const CliArgs& args) {
  const CpuMachine m = read_machine();
  const uint64_t reps = args.get_u64("reps"), warmup = args.get_u64("warmup");
  InLists<Index> in = in_lists<Index>(g);
  place_lists(in, args);
  std::vector<uint64_t> reference;
  if (!args.flag("no-verify")) reference = reference_cc(g.offsets(), g.edges_as<Index>(), g.num_vertices());
  std::printf(
      "graph,vertices,edges,index_bytes,kernel,segments,home_vertices,duplication,build_s,iterations,"
      "components,verified,median_ms,min_ms,max_ms,reps,ms_per_iteration,gteps,%s,%s\n",
      memory_csv_header().c_str(), machine_csv_header().c_str());
  for (const KernelRun& run : kernel_runs(args, g.num_vertices(), m.llc_bytes)) {
    const std::string& kernel = run.kernel;
    double build_s = 0;
    const std::unique_ptr<SegmentedGraph<Index>> seg = timed_segments(in, run.segments, build_s);
    const auto [r, t] = timed_runs(
        warmup, reps, [&] { return cc_pull(in, seg.get(), args.get_u64("max-iterations"), args.get_u64("prefetch")); });
    uint64_t components = 0;
    for (uint64_t v = 0; v < r.label.size(); ++v) components += r.label[v] == v;
    std::string verified = "skipped";
    if (!reference.empty()) {
      for (uint64_t v = 0; v < reference.size(); ++v)
        if (reference[v] != r.label[v])
          throw std::runtime_error("CC result mismatch (" + kernel + "): vertex " + std::to_string(v) + " labelled " +
                                   std::to_string(r.label[v]) + ", reference " + std::to_string(reference[v]));
      verified = "yes";
    }
    const double edges = double(in.num_edges());
    std::printf("\"%s\",%llu,%llu,%u,%s,%s,%s,%s,%.3f,%llu,%llu,%s,%.3f,%.3f,%.3f,%u,%.3f,%.4f,%s,%s\n",
                g.path().c_str(), (unsigned long long)g.num_vertices(), (unsigned long long)g.num_edges(),
                g.index_bytes(), kernel.c_str(), seg ? std::to_string(seg->num_segments).c_str() : "",
                seg ? std::to_string(seg->total_home()).c_str() : "",
                seg ? std::to_string(seg->duplication()).c_str() : "", build_s, (unsigned long long)r.iterations,
                (unsigned long long)components, verified.c_str(), t.median, t.min, t.max, t.runs,
                t.median / double(r.iterations), edges * double(r.iterations) / (t.median * 1e-3) / 1e9,
                memory_csv(args).c_str(), machine_csv(m).c_str());
    std::fflush(stdout);
  }
  return 0;
}

int run_cc(const CliArgs& args) {
  prepare_kernel_command(args);
  const MappedCsr g(args.get("graph"));
  if (g.directed()) throw std::invalid_argument(g.path() + " is directed: CC needs an undirected graph");
  return g.index_bytes() == 4 ? run_on<uint32_t>(g, args) : run_on<uint64_t>(g, args);
}

}  // namespace

CommandSpec cc_command() {
  const std::vector<OptionSpec> options = {
      required("graph", "PATH", "the graph file (emogi CSR, undirected)"),
      option("max-iterations", "INT", "rounds before giving up (an error)", "100000"),
      option("reps", "INT", "timed runs per kernel (the median is reported)", "3"),
      option("warmup", "INT", "untimed runs first", "1"),
      flag("no-verify", "skip the comparison with the reference labels")};
  return {"cc", "pull label-propagation CC, unblocked and cache-blocked, timed and verified, as CSV",
          kernel_command_options(options), run_cc};
}

}  // namespace emogi::cpu
