// `emogi_cpu pagerank`: pull PageRank on a graph file, unblocked and cache-blocked, timed (median of reps after
// warm-up) and verified against the project's PageRank check (references.hpp); one CSV row per kernel.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "emogi/atomic_file.hpp"
#include "emogi/cpu/commands.hpp"
#include "emogi/cpu/machine.hpp"
#include "emogi/cpu/pagerank.hpp"
#include "emogi/cpu/timing.hpp"
#include "emogi/csr.hpp"
#include "emogi/references.hpp"

namespace emogi::cpu {
namespace {

void write_values(const std::string& path, const std::vector<double>& value) {
  std::vector<float> f(value.begin(), value.end());
  AtomicFile out(path);
  out.stream().write(reinterpret_cast<const char*>(f.data()), std::streamsize(f.size() * sizeof(float)));
  out.commit();
}

template <class Index>
int run_on(const MappedCsr& g, const CliArgs& args) {
  const CpuMachine m = read_machine();
  PullPageRankParams params;
  params.alpha = std::stod(args.get("alpha"));
  params.tolerance = std::stod(args.get("tolerance"));
  params.max_iterations = args.get_u64("max-iterations");
  params.fixed_iterations = args.get_u64("fixed-iterations");
  const uint64_t reps = args.get_u64("reps"), warmup = args.get_u64("warmup");
  const std::string form = args.get("form");
  if (form != "jacobi" && form != "delta") throw std::invalid_argument("--form: '" + form + "' is not jacobi or delta");
  const bool delta = form == "delta";

  const InLists<Index> in = in_lists<Index>(g, args.has("transpose") ? args.get("transpose") : "");
  std::printf(
      "graph,vertices,edges,index_bytes,form,kernel,segments,home_vertices,duplication,build_s,iterations,"
      "converged,verified,worst_residual,median_ms,min_ms,max_ms,reps,ms_per_iteration,gteps,%s\n",
      machine_csv_header().c_str());
  for (const KernelRun& run : kernel_runs(args, g.num_vertices(), m.llc_bytes)) {
    const std::string& kernel = run.kernel;
    double build_s = 0;
    const std::unique_ptr<SegmentedGraph<Index>> seg = timed_segments(in, run.segments, build_s);
    const auto [r, t] = timed_runs(warmup, reps, [&] {
      return delta ? pagerank_delta_pull(in, seg.get(), params) : pagerank_pull(in, seg.get(), params);
    });
    std::string verified = "skipped";
    if (!r.converged) {
      verified = "not converged";
      if (!params.fixed_iterations)
        throw std::runtime_error("PageRank did not converge in " + std::to_string(params.max_iterations) + " rounds (" +
                                 kernel + ")");
    } else if (!args.flag("no-verify")) {
      const std::vector<float> value(r.value.begin(), r.value.end());
      const PageRankCheck c = check_pagerank(g.offsets(), g.edges_as<Index>(), g.num_vertices(), !g.directed(), value,
                                             params.alpha, params.tolerance);
      if (!c.failure.empty()) throw std::runtime_error("PageRank result mismatch (" + kernel + "): " + c.failure);
      verified = "yes";
    }
    if (args.has("out")) write_values(args.get("out"), r.value);
    const double edges = double(in.num_edges());
    std::printf("\"%s\",%llu,%llu,%u,%s,%s,%s,%s,%s,%.3f,%llu,%s,%s,%.9g,%.3f,%.3f,%.3f,%u,%.3f,%.4f,%s\n",
                g.path().c_str(), (unsigned long long)g.num_vertices(), (unsigned long long)g.num_edges(),
                g.index_bytes(), form.c_str(), kernel.c_str(), seg ? std::to_string(seg->num_segments).c_str() : "",
                seg ? std::to_string(seg->total_home()).c_str() : "",
                seg ? std::to_string(seg->duplication()).c_str() : "", build_s, (unsigned long long)r.iterations,
                r.converged ? "true" : "false", verified.c_str(), r.worst_residual, t.median, t.min, t.max, t.runs,
                t.median / double(r.iterations), edges * double(r.iterations) / (t.median * 1e-3) / 1e9,
                machine_csv(m).c_str());
    std::fflush(stdout);
  }
  return 0;
}

int run_pagerank(const CliArgs& args) {
  apply_openmp_options(args);
  kernel_runs(args, 1, 1);  // refuses bad kernels and segment counts before the graph is read
  const MappedCsr g(args.get("graph"));
  return g.index_bytes() == 4 ? run_on<uint32_t>(g, args) : run_on<uint64_t>(g, args);
}

}  // namespace

CommandSpec pagerank_command() {
  std::vector<OptionSpec> options = {
      required("graph", "PATH",
               "the graph file (emogi CSR); a directed one's in-lists come from its transpose file (G.t.csr beside "
               "it, or --transpose), else are built in memory"),
      option("transpose", "PATH", "a directed graph's transpose file (default: G.t.csr beside G.csr, if there)"),
      option("form", "NAME",
             "jacobi (every value every round) or delta (PageRank-Delta: residuals above the tolerance)", "jacobi"),
      option("alpha", "X", "damping factor", "0.85"),
      option("tolerance", "X", "the residual every vertex may keep when the run ends", "0.001"),
      option("max-iterations", "INT", "rounds before giving up (an error)", "5000"),
      option("fixed-iterations", "INT", "run exactly this many rounds (0: to the tolerance); not verified", "0"),
      option("reps", "INT", "timed runs per kernel (the median is reported)", "3"),
      option("warmup", "INT", "untimed runs first", "1"),
      option("out", "PATH", "write the last kernel's values here, V float32"),
      flag("no-verify", "skip the check against the fixed point")};
  for (OptionSpec& o : segment_options()) options.push_back(o);
  for (OptionSpec& o : openmp_options()) options.push_back(o);
  return {"pagerank", "pull PageRank, unblocked and cache-blocked, timed and verified, as CSV", options, run_pagerank};
}

}  // namespace emogi::cpu
