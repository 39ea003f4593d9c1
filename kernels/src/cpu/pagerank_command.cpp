// `emogi_cpu pagerank`: pull PageRank on a graph file, unblocked and cache-blocked, timed (median of reps after
// warm-up) and verified against the project's PageRank check (references.hpp), or, under GAP's stopping rule, by
// the residuals' L1 norm; each result's L1 distance to a tightly converged reference; one CSV row per kernel.
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
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

// The reference (pagerank_reference), read from `path` when it holds V doubles, else computed and written there
// (when a path is given): once per graph, untimed.
template <class Index>
std::vector<double> reference_values(const InLists<Index>& in, const std::string& path, double alpha, double eps) {
  struct stat st{};
  const uint64_t bytes = in.num_vertices * sizeof(double);
  std::vector<double> ref;
  if (!path.empty() && ::stat(path.c_str(), &st) == 0 && uint64_t(st.st_size) == bytes) {
    ref.resize(in.num_vertices);
    std::ifstream f(path, std::ios::binary);
    if (!f.read(reinterpret_cast<char*>(ref.data()), std::streamsize(bytes)))
      throw std::runtime_error("cannot read the reference " + path);
    std::fprintf(stderr, "reference: read %s\n", path.c_str());
    return ref;
  }
  const auto start = std::chrono::steady_clock::now();
  uint64_t rounds = 0;
  ref = pagerank_reference(in, alpha, eps, &rounds);
  std::fprintf(stderr, "reference: Gauss-Seidel in double to a total change below %g: %llu rounds, %.1f s\n", eps,
               (unsigned long long)rounds,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (!path.empty()) {
    AtomicFile out(path);
    out.stream().write(reinterpret_cast<const char*>(ref.data()), std::streamsize(bytes));
    out.commit();
  }
  return ref;
}

// "yes" when the result meets its rule by an untimed check in double: the residual rule by check_pagerank (every
// residual at most the tolerance), the total-change rule by the residuals' L1 norm, which a round whose total
// change (normalised) is below epsilon keeps below alpha epsilon (Jacobi and Gauss-Seidel alike: each residual
// is alpha times contributions' changes not yet seen), with room for the float contributions' rounding.
template <class Index>
std::string verify(const MappedCsr& g, const InLists<Index>& in, const PullPageRankParams& params,
                   const PullPageRankResult& r, const std::string& kernel) {
  if (params.stop == Stop::Residual) {
    const std::vector<float> value(r.value.begin(), r.value.end());
    const PageRankCheck c = check_pagerank(g.offsets(), g.edges_as<Index>(), g.num_vertices(), !g.directed(), value,
                                           params.alpha, params.tolerance);
    if (!c.failure.empty()) throw std::runtime_error("PageRank result mismatch (" + kernel + "): " + c.failure);
    return "yes";
  }
  const ResidualNorms norms = pagerank_residuals(in, r.value, params.alpha);
  const double n = double(std::max<uint64_t>(1, in.num_vertices));
  const double bound = params.alpha * params.epsilon + std::ldexp(1.0, -22);
  if (!std::isfinite(norms.l1) || norms.l1 / n > bound)
    throw std::runtime_error("PageRank result mismatch (" + kernel + "): residual L1 / V " +
                             std::to_string(norms.l1 / n) + " above alpha * epsilon = " + std::to_string(bound));
  return "yes";
}

template <class Index>
int run_on(const MappedCsr& g, const CliArgs& args) {
  const CpuMachine m = read_machine();
  PullPageRankParams params;
  params.alpha = std::stod(args.get("alpha"));
  params.tolerance = std::stod(args.get("tolerance"));
  params.max_iterations = args.get_u64("max-iterations");
  params.fixed_iterations = args.get_u64("fixed-iterations");
  params.prefetch = args.get_u64("prefetch");
  params.start = std::stod(args.get("start"));
  const uint64_t reps = args.get_u64("reps"), warmup = args.get_u64("warmup");
  const std::string form = args.get("form"), stop = args.get("stop");
  if (form != "jacobi" && form != "delta" && form != "gauss-seidel")
    throw std::invalid_argument("--form: '" + form + "' is not jacobi, delta or gauss-seidel");
  if (stop != "residual" && stop != "total-change")
    throw std::invalid_argument("--stop: '" + stop + "' is not residual or total-change");
  params.stop = stop == "residual" ? Stop::Residual : Stop::TotalChange;
  params.epsilon = std::stod(args.get("epsilon"));
  const bool total = params.stop == Stop::TotalChange;
  if (form == "delta" && total)
    throw std::invalid_argument("--form delta stops by its residual threshold only (--stop residual)");
  if (form == "delta" && params.start != 0)
    throw std::invalid_argument("--form delta starts from x = 0 by its scheme (no --start)");
  if (!(params.start >= 0) || !std::isfinite(params.start))
    throw std::invalid_argument("--start must be a finite value at least 0");
  const std::vector<KernelRun> runs = kernel_runs(args, g.num_vertices(), m.llc_bytes);
  for (const KernelRun& run : runs)
    if (form == "gauss-seidel" && run.segments > 1)
      throw std::invalid_argument(
          "--form gauss-seidel runs the blocked kernel at 1 segment only (the sweep itself; "
          "a blocked round forms a value only after every segment, which is Jacobi), not " +
          std::to_string(run.segments));

  InLists<Index> in = in_lists<Index>(g, args.has("transpose") ? args.get("transpose") : "");
  place_lists(in, args);
  std::printf(
      "graph,vertices,edges,index_bytes,form,kernel,segments,home_vertices,duplication,build_s,iterations,"
      "converged,verified,worst_residual,stop,epsilon,criterion,l1_to_reference,median_ms,min_ms,max_ms,reps,ms_per_"
      "iteration,gteps,start,%s,%s\n",
      memory_csv_header().c_str(), machine_csv_header().c_str());
  std::vector<double> ref;  // computed at the first converged run
  for (const KernelRun& run : runs) {
    const std::string& kernel = run.kernel;
    double build_s = 0;
    // Gauss-Seidel's blocked kernel at one segment is the sweep over the in-lists: no segments are built.
    const bool sweep = form == "gauss-seidel";
    const std::unique_ptr<SegmentedGraph<Index>> seg = timed_segments(in, sweep ? 0 : run.segments, build_s);
    const auto [r, t] = timed_runs(warmup, reps, [&] {
      if (form == "delta") return pagerank_delta_pull(in, seg.get(), params);
      if (form == "gauss-seidel") return pagerank_gauss_seidel_pull(in, params);
      return pagerank_pull(in, seg.get(), params);
    });
    std::string verified = "skipped";
    if (!r.converged) {
      verified = "not converged";
      if (!params.fixed_iterations)
        throw std::runtime_error("PageRank did not meet its stopping rule in " + std::to_string(params.max_iterations) +
                                 " rounds (" + kernel + ")");
    } else if (!args.flag("no-verify")) {
      verified = verify(g, in, params, r, kernel);
    }
    std::string l1 = "";
    if (!args.flag("no-reference")) {
      if (ref.empty())
        ref = reference_values(in, args.has("reference") ? args.get("reference") : "", params.alpha,
                               std::stod(args.get("reference-epsilon")));
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6g", normalised_l1(r.value, ref));
      l1 = buf;
    }
    if (args.has("out")) write_values(args.get("out"), r.value);
    const double edges = double(in.num_edges());
    std::printf(
        "\"%s\",%llu,%llu,%u,%s,%s,%s,%s,%s,%.3f,%llu,%s,%s,%.9g,%s,%g,%.9g,%s,%.3f,%.3f,%.3f,%u,%.3f,%.4f,%g,%s,%s\n",
        g.path().c_str(), (unsigned long long)g.num_vertices(), (unsigned long long)g.num_edges(), g.index_bytes(),
        form.c_str(), kernel.c_str(), run.segments ? std::to_string(run.segments).c_str() : "",
        seg ? std::to_string(seg->total_home()).c_str() : "", seg ? std::to_string(seg->duplication()).c_str() : "",
        build_s, (unsigned long long)r.iterations, r.converged ? "true" : "false", verified.c_str(), r.worst_residual,
        stop.c_str(), total ? params.epsilon : params.tolerance, r.criterion, l1.c_str(), t.median, t.min, t.max,
        t.runs, t.median / double(r.iterations), edges * double(r.iterations) / (t.median * 1e-3) / 1e9, params.start,
        memory_csv(args).c_str(), machine_csv(m).c_str());
    std::fflush(stdout);
  }
  return 0;
}

int run_pagerank(const CliArgs& args) {
  prepare_kernel_command(args);
  const MappedCsr g(args.get("graph"));
  return g.index_bytes() == 4 ? run_on<uint32_t>(g, args) : run_on<uint64_t>(g, args);
}

}  // namespace

CommandSpec pagerank_command() {
  const std::vector<OptionSpec> options = {
      required("graph", "PATH",
               "the graph file (emogi CSR); a directed one's in-lists come from its transpose file (G.t.csr beside "
               "it, or --transpose), else are built in memory"),
      option("transpose", "PATH", "a directed graph's transpose file (default: G.t.csr beside G.csr, if there)"),
      option("form", "NAME",
             "jacobi (every value every round), gauss-seidel (in place; blocked at 1 segment only) or delta "
             "(PageRank-Delta: "
             "residuals above the tolerance)",
             "jacobi"),
      option("stop", "RULE",
             "residual (every residual at most --tolerance) or total-change (GAP's: sum |change| / V below "
             "--epsilon)",
             "residual"),
      option("epsilon", "X", "the total-change rule's threshold, on scores normalised to x / V", "0.0001"),
      option("start", "X", "every x before the first round (jacobi, gauss-seidel): 0, or 1 = GAP's 1/V normalised",
             "0"),
      option("reference", "PATH",
             "the reference's values (V float64): read when there, else computed and written (l1_to_reference)"),
      option("reference-epsilon", "X", "the reference's total change / V", "1e-10"),
      flag("no-reference", "leave l1_to_reference empty (no reference computed)"),
      option("alpha", "X", "damping factor", "0.85"),
      option("tolerance", "X", "the residual every vertex may keep when the run ends", "0.001"),
      option("max-iterations", "INT", "rounds before giving up (an error)", "5000"),
      option("fixed-iterations", "INT", "run exactly this many rounds (0: to the tolerance); not verified", "0"),
      option("reps", "INT", "timed runs per kernel (the median is reported)", "3"),
      option("warmup", "INT", "untimed runs first", "1"),
      option("out", "PATH", "write the last kernel's values here, V float32"),
      flag("no-verify", "skip the check against the fixed point")};
  return {"pagerank", "pull PageRank, unblocked and cache-blocked, timed and verified, as CSV",
          kernel_command_options(options), run_pagerank};
}

}  // namespace emogi::cpu
