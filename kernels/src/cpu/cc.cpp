#include "emogi/cpu/cc.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace emogi::cpu {
namespace {

// next[v] = min(cur[v], cur over v's in-list); returns how many vertices changed.
template <class Index>
uint64_t gather_unblocked(const InLists<Index>& in, const uint32_t* cur, uint32_t* next) {
  const int64_t n = int64_t(in.num_vertices);
  uint64_t changed = 0;
#pragma omp parallel for schedule(runtime) reduction(+ : changed)
  for (int64_t v = 0; v < n; ++v) {
    uint32_t m = cur[v];
    for (uint64_t i = in.offsets[v]; i < in.offsets[v + 1]; ++i) m = std::min(m, cur[in.edges[i]]);
    next[v] = m;
    changed += m != cur[v];
  }
  return changed;
}

// next starts as cur; each segment lowers next[dst] by the smallest label of dst's sources in its range (one thread
// per destination within a segment, so no atomics). Changed vertices are counted in one pass after.
template <class Index>
uint64_t gather_blocked(const SegmentedGraph<Index>& g, const uint32_t* cur, uint32_t* next) {
  const int64_t n = int64_t(g.num_vertices);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) next[v] = cur[v];
  for (uint64_t s = 0; s < g.num_segments; ++s) {
    const int64_t begin = int64_t(g.home_begin[s]), end = int64_t(g.home_begin[s + 1]);
#pragma omp parallel for schedule(runtime)
    for (int64_t j = begin; j < end; ++j) {
      uint32_t m = next[g.home[j]];
      for (uint64_t i = g.edge_begin[j]; i < g.edge_begin[j + 1]; ++i) m = std::min(m, cur[g.edges[i]]);
      next[g.home[j]] = m;
    }
  }
  uint64_t changed = 0;
#pragma omp parallel for schedule(static) reduction(+ : changed)
  for (int64_t v = 0; v < n; ++v) changed += next[v] != cur[v];
  return changed;
}

}  // namespace

template <class Index>
PullCcResult cc_pull(const InLists<Index>& in, const SegmentedGraph<Index>* blocked, uint64_t max_iterations) {
  if (in.num_vertices > uint64_t(UINT32_MAX)) throw std::invalid_argument("CC: labels are 32-bit; too many vertices");
  if (blocked && blocked->num_vertices != in.num_vertices)
    throw std::invalid_argument("cc_pull: segments of another graph");
  const int64_t n = int64_t(in.num_vertices);
  std::unique_ptr<uint32_t[]> cur(new uint32_t[n]), next(new uint32_t[n]);
  PullCcResult r;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) cur[v] = uint32_t(v);
  for (;;) {
    if (r.iterations == max_iterations)
      throw std::runtime_error("CC did not settle in " + std::to_string(max_iterations) + " rounds");
    const uint64_t changed =
        blocked ? gather_blocked(*blocked, cur.get(), next.get()) : gather_unblocked(in, cur.get(), next.get());
    ++r.iterations;
    std::swap(cur, next);
    if (changed == 0) break;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.label.assign(cur.get(), cur.get() + n);
  return r;
}

template PullCcResult cc_pull(const InLists<uint32_t>&, const SegmentedGraph<uint32_t>*, uint64_t);
template PullCcResult cc_pull(const InLists<uint64_t>&, const SegmentedGraph<uint64_t>*, uint64_t);

}  // namespace emogi::cpu
