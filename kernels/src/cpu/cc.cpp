#include "emogi/cpu/cc.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "emogi/cpu/gather.hpp"
#include "emogi/cpu/huge_array.hpp"

namespace emogi::cpu {
namespace {

// The smallest label over edges [begin, end) and `m` (gather.hpp: four chains, loads prefetched).
template <class Index>
inline uint32_t min_label(const Index* edges, uint64_t begin, uint64_t end, const uint32_t* cur,
                          const PrefetchAhead& ahead, uint32_t m) {
  auto lower = [](uint32_t a, uint32_t b) { return std::min(a, b); };
  return fold_in_list(edges, begin, end, cur, ahead, m, [](const uint32_t* p) { return *p; }, lower, lower);
}

// next[v] = min(cur[v], cur over v's in-list); returns how many vertices changed.
template <class Index>
uint64_t gather_unblocked(const InLists<Index>& in, const uint32_t* cur, uint32_t* next, uint64_t prefetch) {
  const int64_t n = int64_t(in.num_vertices);
  const PrefetchAhead ahead(prefetch, in.num_edges());
  uint64_t changed = 0;
#pragma omp parallel for schedule(runtime) reduction(+ : changed)
  for (int64_t v = 0; v < n; ++v) {
    const uint32_t m = min_label(in.edges, in.offsets[v], in.offsets[v + 1], cur, ahead, cur[v]);
    next[v] = m;
    changed += m != cur[v];
  }
  return changed;
}

// next starts as cur; each segment lowers next[dst] by the smallest label of dst's sources in its range (one thread
// per destination within a segment, so no atomics). Changed vertices are counted in one pass after.
template <class Index>
uint64_t gather_blocked(const SegmentedGraph<Index>& g, const uint32_t* cur, uint32_t* next, uint64_t prefetch) {
  const int64_t n = int64_t(g.num_vertices);
  const PrefetchAhead ahead(prefetch, g.edge_begin[g.total_home()]);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) next[v] = cur[v];
  for (uint64_t s = 0; s < g.num_segments; ++s) {
    const int64_t begin = int64_t(g.home_begin[s]), end = int64_t(g.home_begin[s + 1]);
#pragma omp parallel for schedule(runtime)
    for (int64_t j = begin; j < end; ++j) {
      next[g.home[j]] = min_label(g.edges.get(), g.edge_begin[j], g.edge_begin[j + 1], cur, ahead, next[g.home[j]]);
    }
  }
  uint64_t changed = 0;
#pragma omp parallel for schedule(static) reduction(+ : changed)
  for (int64_t v = 0; v < n; ++v) changed += next[v] != cur[v];
  return changed;
}

}  // namespace

template <class Index>
PullCcResult cc_pull(const InLists<Index>& in, const SegmentedGraph<Index>* blocked, uint64_t max_iterations,
                     uint64_t prefetch) {
  if (in.num_vertices > uint64_t(UINT32_MAX)) throw std::invalid_argument("CC: labels are 32-bit; too many vertices");
  if (blocked && blocked->num_vertices != in.num_vertices)
    throw std::invalid_argument("cc_pull: segments of another graph");
  const int64_t n = int64_t(in.num_vertices);
  HugeArray<uint32_t> cur(n), next(n);  // huge pages (huge_array.hpp): read at random
  PullCcResult r;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) cur[v] = uint32_t(v);
  for (;;) {
    if (r.iterations == max_iterations)
      throw std::runtime_error("CC did not settle in " + std::to_string(max_iterations) + " rounds");
    const uint64_t changed = blocked ? gather_blocked(*blocked, cur.get(), next.get(), prefetch)
                                     : gather_unblocked(in, cur.get(), next.get(), prefetch);
    ++r.iterations;
    std::swap(cur, next);
    if (changed == 0) break;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.label.assign(cur.get(), cur.get() + n);
  return r;
}

template PullCcResult cc_pull(const InLists<uint32_t>&, const SegmentedGraph<uint32_t>*, uint64_t, uint64_t);
template PullCcResult cc_pull(const InLists<uint64_t>&, const SegmentedGraph<uint64_t>*, uint64_t, uint64_t);

}  // namespace emogi::cpu
