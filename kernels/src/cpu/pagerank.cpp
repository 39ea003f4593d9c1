#include "emogi/cpu/pagerank.hpp"

#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <utility>

#include "emogi/cpu/gather.hpp"
#include "emogi/cpu/huge_array.hpp"

namespace emogi::cpu {
namespace {

// sum[v] = the contributions over v's whole in-list (gather.hpp: four accumulators in double, loads prefetched).
template <class Index>
void gather_unblocked(const InLists<Index>& in, const float* contrib, double* sum, uint64_t prefetch) {
  const int64_t n = int64_t(in.num_vertices);
  const PrefetchAhead ahead(prefetch, in.num_edges());
#pragma omp parallel for schedule(runtime)
  for (int64_t v = 0; v < n; ++v) sum[v] = gather_sum(in.edges, in.offsets[v], in.offsets[v + 1], contrib, ahead);
}

// sum[v] += the contributions from segment s's sources, one segment after the other (all threads on one segment,
// so a destination is written by one thread at a time; the implicit barrier orders the segments).
template <class Index>
void gather_blocked(const SegmentedGraph<Index>& g, const float* contrib, double* sum, uint64_t prefetch) {
  const PrefetchAhead ahead(prefetch, g.edge_begin[g.total_home()]);
  for (uint64_t s = 0; s < g.num_segments; ++s) {
    const int64_t begin = int64_t(g.home_begin[s]), end = int64_t(g.home_begin[s + 1]);
#pragma omp parallel for schedule(runtime)
    for (int64_t j = begin; j < end; ++j)
      sum[g.home[j]] += gather_sum(g.edges.get(), g.edge_begin[j], g.edge_begin[j + 1], contrib, ahead);
  }
}

// Per-vertex arrays on huge pages (huge_array.hpp): the contributions are read at random every round.
template <class T>
HugeArray<T> uninitialised(uint64_t n) {
  return HugeArray<T>(n);
}

}  // namespace

template <class Index>
PullPageRankResult pagerank_pull(const InLists<Index>& in, const SegmentedGraph<Index>* blocked,
                                 const PullPageRankParams& params) {
  if (blocked && blocked->num_vertices != in.num_vertices)
    throw std::invalid_argument("pagerank_pull: segments of another graph");
  const int64_t n = int64_t(in.num_vertices);
  auto x = uninitialised<double>(n), next = uninitialised<double>(n), sum = uninitialised<double>(blocked ? n : 0);
  auto contrib = uninitialised<float>(n);
  // Blocked rounds add each segment's partial sums into sum, then form the next values in a second pass.
  // Unblocked rounds gather and form the next values in one pass: the next contributions go to a second array.
  auto contrib_next = uninitialised<float>(blocked ? 0 : n);
  const double b = 1.0 - params.alpha, alpha = params.alpha;
  const uint64_t rounds = params.fixed_iterations ? params.fixed_iterations : params.max_iterations;
  const bool total = params.stop == Stop::TotalChange;
  // v's next value from its gathered sum s: the change, and the contribution it sends next round.
  auto form = [&](int64_t v, double s, float* out, double& worst, double& change) {
    const double nx = b + alpha * s, d = std::fabs(nx - x[v]);
    worst = std::max(worst, d);
    change += d;
    next[v] = nx;
    const uint64_t degree = in.out_degree(uint64_t(v));
    out[v] = degree ? float(nx / double(degree)) : 0.0f;
  };

  PullPageRankResult r;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    x[v] = start_value(params.uniform_start);
    if (blocked) sum[v] = 0;
    contrib[v] = start_contribution(params.uniform_start, in.out_degree(uint64_t(v)));
  }
  while (r.iterations < rounds) {
    double worst = 0, change = 0;
    if (blocked) {
      gather_blocked(*blocked, contrib.get(), sum.get(), params.prefetch);
#pragma omp parallel for schedule(static) reduction(max : worst) reduction(+ : change)
      for (int64_t v = 0; v < n; ++v) {
        form(v, sum[v], contrib.get(), worst, change);
        sum[v] = 0;
      }
    } else {
      const PrefetchAhead ahead(params.prefetch, in.num_edges());
#pragma omp parallel for schedule(runtime) reduction(max : worst) reduction(+ : change)
      for (int64_t v = 0; v < n; ++v)
        form(v, gather_sum(in.edges, in.offsets[v], in.offsets[v + 1], contrib.get(), ahead), contrib_next.get(), worst,
             change);
      std::swap(contrib, contrib_next);
    }
    ++r.iterations;
    r.worst_residual = worst;
    if (total) {
      // The change is next - x: the result is next, the values GAP's rule reports.
      r.criterion = n ? change / double(n) : 0.0;
      r.converged = r.criterion < params.epsilon;
      std::swap(x, next);
    } else {
      // x (not next) is what the residuals were measured at: the result, when the run ends here.
      r.criterion = worst;
      r.converged = worst <= params.tolerance;
    }
    if ((r.converged && !params.fixed_iterations) || r.iterations == rounds) break;
    if (!total) std::swap(x, next);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.value.assign(x.get(), x.get() + n);
  return r;
}

template <class Index>
PullPageRankResult pagerank_delta_pull(const InLists<Index>& in, const SegmentedGraph<Index>* blocked,
                                       const PullPageRankParams& params) {
  if (blocked && blocked->num_vertices != in.num_vertices)
    throw std::invalid_argument("pagerank_delta_pull: segments of another graph");
  if (params.stop != Stop::Residual)
    throw std::invalid_argument("PageRank-Delta stops by its residual threshold only (--stop residual)");
  const int64_t n = int64_t(in.num_vertices);
  auto x = uninitialised<double>(n), r_ = uninitialised<double>(n), sum = uninitialised<double>(n);
  auto contrib = uninitialised<float>(n);
  const double alpha = params.alpha, tol = params.tolerance;
  const uint64_t rounds = params.fixed_iterations ? params.fixed_iterations : params.max_iterations;
  double* r = r_.get();

  PullPageRankResult res;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    x[v] = 0;
    r[v] = 1.0 - alpha;
    sum[v] = 0;
  }
  for (;;) {
    // Fold in the last round's gathered pushes, absorb what exceeds the tolerance, and set this round's shares.
    uint64_t active = 0;
    double worst = 0;
#pragma omp parallel for schedule(static) reduction(+ : active) reduction(max : worst)
    for (int64_t v = 0; v < n; ++v) {
      const double rv = r[v] + alpha * sum[v];
      sum[v] = 0;
      const uint64_t degree = in.out_degree(uint64_t(v));
      if (rv > tol) {
        x[v] += rv;
        r[v] = 0;
        contrib[v] = degree ? float(rv / double(degree)) : 0.0f;
        ++active;
      } else {
        r[v] = rv;
        contrib[v] = 0.0f;
        worst = std::max(worst, std::fabs(rv));
      }
    }
    res.worst_residual = res.criterion = worst;
    res.converged = active == 0;
    if (res.converged || res.iterations == rounds) break;
    if (blocked)
      gather_blocked(*blocked, contrib.get(), sum.get(), params.prefetch);
    else
      gather_unblocked(in, contrib.get(), sum.get(), params.prefetch);
    ++res.iterations;
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  res.value.assign(x.get(), x.get() + n);
  return res;
}

template PullPageRankResult pagerank_pull(const InLists<uint32_t>&, const SegmentedGraph<uint32_t>*,
                                          const PullPageRankParams&);
template PullPageRankResult pagerank_pull(const InLists<uint64_t>&, const SegmentedGraph<uint64_t>*,
                                          const PullPageRankParams&);
template PullPageRankResult pagerank_delta_pull(const InLists<uint32_t>&, const SegmentedGraph<uint32_t>*,
                                                const PullPageRankParams&);
template PullPageRankResult pagerank_delta_pull(const InLists<uint64_t>&, const SegmentedGraph<uint64_t>*,
                                                const PullPageRankParams&);

}  // namespace emogi::cpu
