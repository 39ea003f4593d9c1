// Pull-direction PageRank on the CPU, to the project's definition (pagerank.cuh): unnormalised values solving
// x = (1 - alpha) + alpha * sum over in-neighbours u of x_u / outdeg(u), a run ending at the first x whose residual
// b + alpha P^T x - x is at most `tolerance` at every vertex (what references.hpp's check_pagerank verifies).
// Jacobi rounds from x = 0: each round gathers the float contributions x_u / outdeg(u) over the in-lists, then one
// pass over the vertices forms the next x (double: a hub's value needs more than float's 24 bits to show a residual
// of 1e-3), the residuals and the next contributions.
//
// Unblocked: the gather walks every destination's whole in-list. Blocked (thesis Fig. 3-2): it walks one segment
// at a time (segments.hpp), so the contributions read at random stay within one LLC-sized source range, and each
// home vertex adds its partial sum to its destination once per segment. Both gathers use the same OpenMP loop
// (schedule(runtime): configure_openmp) and the same vertex pass.
#pragma once
#include <cstdint>
#include <vector>

#include "emogi/cpu/in_lists.hpp"
#include "emogi/cpu/segments.hpp"

namespace emogi::cpu {

struct PullPageRankParams {
  double alpha = 0.85;
  double tolerance = 1e-3;
  uint64_t max_iterations = 5000;
  uint64_t fixed_iterations = 0;  // > 0: run exactly this many rounds, whatever the residual (timing a round)
};

struct PullPageRankResult {
  std::vector<double> value;  // the x whose residual was measured last
  uint64_t iterations = 0;    // gather rounds run
  double worst_residual = 0;  // the largest |residual| of `value`
  bool converged = false;
  double seconds = 0;  // the rounds, without allocating the arrays
};

// `blocked`: nullptr for the unblocked gather.
template <class Index>
PullPageRankResult pagerank_pull(const InLists<Index>& in, const SegmentedGraph<Index>* blocked,
                                 const PullPageRankParams& params);

// PageRank-Delta (the thesis' PRDelta, after Ligra) in the dense pull form, to the same definition and stopping
// rule: the GPU kernels' residual scheme (pagerank.cuh) with the pushes gathered. Each vertex keeps x and a residual
// r (start: r = 1 - alpha); a round absorbs every r above the tolerance into x and sends alpha r / outdeg as its
// contribution (others send 0), then adds the gathered contributions to the residuals. The run ends before the
// first round with nothing to absorb, so every residual is at most the tolerance; `worst_residual` is the largest.
template <class Index>
PullPageRankResult pagerank_delta_pull(const InLists<Index>& in, const SegmentedGraph<Index>* blocked,
                                       const PullPageRankParams& params);

}  // namespace emogi::cpu
