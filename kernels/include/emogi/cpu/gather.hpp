// The pull kernels' inner loop: a fold over the values of an in-list's sources, read at random, with the loads
// issued `distance` edges ahead as software prefetches. Out-of-order execution keeps only the loads of the next few
// dozen edges in flight; a prefetch `distance` edges ahead in the edge array (across list ends: the array is one
// stream) starts each random load long before its value is used. The prefetch index is clamped to the array's last
// edge, so no read goes past it; distance 0 issues no prefetches.
#pragma once
#include <algorithm>
#include <cstdint>

namespace emogi::cpu {

// The default distance, in edges (docs/cpu.md, "Prefetch": measured on kron22 and kron24).
constexpr uint64_t kPrefetchDistance = 128;

// Where the prefetches of an edge array of `edges` entries read: `distance` ahead, never past the last entry.
struct PrefetchAhead {
  uint64_t distance = kPrefetchDistance;
  uint64_t last = 0;  // the array's last index (0 for an empty array: the loops then never run)
  PrefetchAhead(uint64_t distance_, uint64_t edges) : distance(distance_), last(edges ? edges - 1 : 0) {}
  template <class Index, class T>
  void operator()(const Index* edges, uint64_t i, const T* values) const {
    if (distance) __builtin_prefetch(&values[edges[std::min(i + distance, last)]]);
  }
};

// Folds edges [begin, end) in four accumulators (so one edge's addition does not wait on the last one's load):
// acc_k = step(acc_k, value of the source), combined as (a0 + a1) + (a2 + a3) by `combine`. `load(p)` reads one
// value (a plain or relaxed-atomic load).
template <class Acc, class Index, class T, class Load, class Step, class Combine>
inline Acc fold_in_list(const Index* edges, uint64_t begin, uint64_t end, const T* values, const PrefetchAhead& ahead,
                        Acc init, Load load, Step step, Combine combine) {
  Acc a0 = init, a1 = init, a2 = init, a3 = init;
  uint64_t i = begin;
  for (; i + 4 <= end; i += 4) {
    ahead(edges, i, values);
    ahead(edges, i + 1, values);
    ahead(edges, i + 2, values);
    ahead(edges, i + 3, values);
    a0 = step(a0, load(&values[edges[i]]));
    a1 = step(a1, load(&values[edges[i + 1]]));
    a2 = step(a2, load(&values[edges[i + 2]]));
    a3 = step(a3, load(&values[edges[i + 3]]));
  }
  for (; i < end; ++i) {
    ahead(edges, i, values);
    a0 = step(a0, load(&values[edges[i]]));
  }
  return combine(combine(a0, a1), combine(a2, a3));
}

// The sum in double of the float (or double) values over edges [begin, end).
template <class Index, class T>
inline double gather_sum(const Index* edges, uint64_t begin, uint64_t end, const T* values,
                         const PrefetchAhead& ahead) {
  auto add = [](double a, double b) { return a + b; };
  return fold_in_list(edges, begin, end, values, ahead, 0.0, [](const T* p) { return double(*p); }, add, add);
}

}  // namespace emogi::cpu
