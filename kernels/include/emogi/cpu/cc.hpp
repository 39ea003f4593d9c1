// Connected components by min-label propagation in the pull direction (the thesis' CC, dense pull), unblocked and
// cache-blocked over the same segments as PageRank (segments.hpp). Jacobi rounds: every vertex takes the smallest
// label among its own and its in-neighbours' labels of the previous round, until a round changes none; the labels
// then name each component by its smallest vertex, as the project's reference (reference_cc) does. Labels are
// uint32 (4 bytes per vertex, the data a round reads at random), so graphs above 2^32 vertices are refused.
#pragma once
#include <cstdint>
#include <vector>

#include "emogi/cpu/gather.hpp"
#include "emogi/cpu/in_lists.hpp"
#include "emogi/cpu/segments.hpp"

namespace emogi::cpu {

struct PullCcResult {
  std::vector<uint32_t> label;
  uint64_t iterations = 0;  // rounds run, the last one changing nothing
  double seconds = 0;       // the rounds, without allocating the arrays
};

// `blocked`: nullptr for the unblocked gather. Throws when the rounds exceed max_iterations. `prefetch`: edges
// ahead the gathers prefetch (gather.hpp).
template <class Index>
PullCcResult cc_pull(const InLists<Index>& in, const SegmentedGraph<Index>* blocked, uint64_t max_iterations,
                     uint64_t prefetch = kPrefetchDistance);

}  // namespace emogi::cpu
