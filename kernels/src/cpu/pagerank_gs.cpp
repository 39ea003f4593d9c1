// Gauss-Seidel pull PageRank, the residual check and the tightly converged reference (pagerank.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "emogi/cpu/huge_array.hpp"
#include "emogi/cpu/pagerank.hpp"

namespace emogi::cpu {
namespace {

// Relaxed atomic loads and stores: plain moves on x86, and no data race in C++'s sense when a sweep reads a
// contribution that another thread is writing.
template <class T>
T load_relaxed(const T* p) {
  T v;
  __atomic_load(p, &v, __ATOMIC_RELAXED);
  return v;
}
template <class T>
void store_relaxed(T* p, T v) {
  __atomic_store(p, &v, __ATOMIC_RELAXED);
}

// The contributions over v's in-list as they stand, in four accumulators, prefetched (gather.hpp).
template <class Index, class T>
double gather_relaxed(const InLists<Index>& in, int64_t v, const T* contrib, const PrefetchAhead& ahead) {
  auto add = [](double a, double b) { return a + b; };
  return fold_in_list(
      in.edges, in.offsets[v], in.offsets[v + 1], contrib, ahead, 0.0,
      [](const T* p) { return double(load_relaxed(p)); }, add, add);
}

struct Sweep {
  double change = 0, worst = 0;  // sum and largest |x_new - x_old|
};

// One in-place sweep: x[v] and contrib[v] (T: float in the kernel, double in the reference) replaced vertex by
// vertex, each reading the contributions as they stand.
template <class Index, class T>
Sweep sweep(const InLists<Index>& in, double alpha, double* x, T* contrib, uint64_t prefetch) {
  const int64_t n = int64_t(in.num_vertices);
  const double b = 1.0 - alpha;
  const PrefetchAhead ahead(prefetch, in.num_edges());
  double change = 0, worst = 0;
#pragma omp parallel for schedule(runtime) reduction(+ : change) reduction(max : worst)
  for (int64_t v = 0; v < n; ++v) {
    const double y = b + alpha * gather_relaxed(in, v, contrib, ahead), d = std::fabs(y - x[v]);
    change += d;
    worst = std::max(worst, d);
    x[v] = y;
    const uint64_t degree = in.out_degree(uint64_t(v));
    store_relaxed(&contrib[v], degree ? T(y / double(degree)) : T(0));
  }
  return {change, worst};
}

// The largest |b + alpha sum contrib - x| over the vertices, with the contributions as stored.
template <class Index, class T>
double worst_residual(const InLists<Index>& in, double alpha, const double* x, const T* contrib) {
  const int64_t n = int64_t(in.num_vertices);
  double worst = 0;
#pragma omp parallel for schedule(runtime) reduction(max : worst)
  for (int64_t v = 0; v < n; ++v) {
    double acc = 0;
    for (uint64_t i = in.offsets[v]; i < in.offsets[v + 1]; ++i) acc += double(contrib[in.edges[i]]);
    worst = std::max(worst, std::fabs(1.0 - alpha + alpha * acc - x[v]));
  }
  return worst;
}

}  // namespace

template <class Index>
PullPageRankResult pagerank_gauss_seidel_pull(const InLists<Index>& in, const PullPageRankParams& params) {
  const int64_t n = int64_t(in.num_vertices);
  HugeArray<double> x(n);  // huge pages (huge_array.hpp): the contributions are read at random
  HugeArray<float> contrib(n);
  const bool total = params.stop == Stop::TotalChange;
  const uint64_t rounds = params.fixed_iterations ? params.fixed_iterations : params.max_iterations;

  PullPageRankResult r;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    x[v] = start_value(params.uniform_start);
    contrib[v] = start_contribution(params.uniform_start, in.out_degree(uint64_t(v)));
  }
  while (r.iterations < rounds) {
    const Sweep s = sweep(in, params.alpha, x.get(), contrib.get(), params.prefetch);
    ++r.iterations;
    r.worst_residual = s.worst;
    if (total) {
      r.criterion = n ? s.change / double(n) : 0.0;
      r.converged = r.criterion < params.epsilon;
    } else {
      r.criterion = s.worst;  // a change until the residual pass runs
      r.converged = false;
      if (s.worst <= params.tolerance && !params.fixed_iterations) {
        r.worst_residual = r.criterion = worst_residual(in, params.alpha, x.get(), contrib.get());
        r.converged = r.criterion <= params.tolerance;
      }
    }
    if (r.converged && !params.fixed_iterations) break;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.value.assign(x.get(), x.get() + n);
  return r;
}

template <class Index>
ResidualNorms pagerank_residuals(const InLists<Index>& in, const std::vector<double>& x, double alpha) {
  if (x.size() != in.num_vertices) throw std::invalid_argument("pagerank_residuals: values of another graph");
  const int64_t n = int64_t(in.num_vertices);
  double worst = 0, l1 = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(max : worst) reduction(+ : l1)
  for (int64_t v = 0; v < n; ++v) {
    double acc = 0;
    for (uint64_t i = in.offsets[v]; i < in.offsets[v + 1]; ++i) {
      const uint64_t u = uint64_t(in.edges[i]);
      acc += x[u] / double(in.out_degree(u));  // u has an out-edge to v: degree >= 1
    }
    const double r = std::fabs(1.0 - alpha + alpha * acc - x[v]);
    worst = std::max(worst, r);
    l1 += r;
  }
  return {worst, l1};
}

template <class Index>
std::vector<double> pagerank_reference(const InLists<Index>& in, double alpha, double epsilon, uint64_t* rounds) {
  const int64_t n = int64_t(in.num_vertices);
  HugeArray<double> x(n), contrib(n);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) x[v] = contrib[v] = 0;
  for (uint64_t round = 1;; ++round) {
    const Sweep s = sweep(in, alpha, x.get(), contrib.get(), kPrefetchDistance);
    if (rounds) *rounds = round;
    if (!n || s.change / double(n) < epsilon) break;
    if (round > 100000) throw std::runtime_error("pagerank_reference: no convergence in 100000 rounds");
  }
  return std::vector<double>(x.get(), x.get() + n);
}

double normalised_l1(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("normalised_l1: vectors of different lengths");
  const int64_t n = int64_t(a.size());
  double l1 = 0;
#pragma omp parallel for schedule(static) reduction(+ : l1)
  for (int64_t v = 0; v < n; ++v) l1 += std::fabs(a[v] - b[v]);
  return n ? l1 / double(n) : 0.0;
}

template PullPageRankResult pagerank_gauss_seidel_pull(const InLists<uint32_t>&, const PullPageRankParams&);
template PullPageRankResult pagerank_gauss_seidel_pull(const InLists<uint64_t>&, const PullPageRankParams&);
template ResidualNorms pagerank_residuals(const InLists<uint32_t>&, const std::vector<double>&, double);
template ResidualNorms pagerank_residuals(const InLists<uint64_t>&, const std::vector<double>&, double);
template std::vector<double> pagerank_reference(const InLists<uint32_t>&, double, double, uint64_t*);
template std::vector<double> pagerank_reference(const InLists<uint64_t>&, double, double, uint64_t*);

}  // namespace emogi::cpu
