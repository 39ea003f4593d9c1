// Pull-direction PageRank on the CPU, to the project's definition (pagerank.cuh): unnormalised values solving
// x = (1 - alpha) + alpha * sum over in-neighbours u of x_u / outdeg(u), a run ending at the first x whose residual
// b + alpha P^T x - x is at most `tolerance` at every vertex (what references.hpp's check_pagerank verifies), or
// by GAP's rule (Stop::TotalChange).
// Jacobi rounds from x = 0: each round gathers the float contributions x_u / outdeg(u) over the in-lists, then one
// pass over the vertices forms the next x (double: a hub's value needs more than float's 24 bits to show a residual
// of 1e-3), the residuals and the next contributions.
//
// Each in-list is summed in double by four accumulators (one chain would queue every edge's addition behind the
// last one's random load). Unblocked: one pass per round walks every destination's whole in-list and forms its next
// value and contribution at once (into a second contribution array). Blocked (thesis Fig. 3-2): it walks one segment
// at a time (segments.hpp), so the contributions read at random stay within one LLC-sized source range, and each
// home vertex adds its partial sum to its destination once per segment; a vertex pass then forms the values. Both
// use the same OpenMP loop (schedule(runtime): configure_openmp) and the same arithmetic per vertex.
#pragma once
#include <cstdint>
#include <vector>

#include "emogi/cpu/gather.hpp"
#include "emogi/cpu/in_lists.hpp"
#include "emogi/cpu/segments.hpp"

namespace emogi::cpu {

// When a run ends. Residual (the project's rule): at the first x whose residual is at most `tolerance` at every
// vertex. TotalChange (the GAP Benchmark Suite's rule): after the first round whose total change, on scores
// normalised as GAP's (x / V), sum_v |x_new - x_old| / V, is below `epsilon`; the result is that round's values.
enum class Stop { Residual, TotalChange };

struct PullPageRankParams {
  double alpha = 0.85;
  double tolerance = 1e-3;
  Stop stop = Stop::Residual;
  double epsilon = 1e-4;  // TotalChange's threshold
  uint64_t max_iterations = 5000;
  uint64_t fixed_iterations = 0;          // > 0: run exactly this many rounds, whatever the residual (timing a round)
  uint64_t prefetch = kPrefetchDistance;  // edges ahead the gathers prefetch (gather.hpp)
  // Jacobi and Gauss-Seidel: start from x = 0 (what the GPU's push form starts from, and every archived run), or
  // from the uniform vector (x = 1: GAP's and the thesis' 1/V once normalised; GAP's rule is its start and its
  // stop). The delta form has its own start (residual 1 - alpha).
  bool uniform_start = false;
};

// The starting x[v] and contribution of vertex v (out-degree d) under `uniform_start`.
inline double start_value(bool uniform_start) { return uniform_start ? 1.0 : 0.0; }
inline float start_contribution(bool uniform_start, uint64_t d) {
  return uniform_start && d ? float(1.0 / double(d)) : 0.0f;
}

struct PullPageRankResult {
  std::vector<double> value;  // the x whose residual was measured last
  uint64_t iterations = 0;    // gather rounds run
  double worst_residual = 0;  // the largest |residual| of `value` (TotalChange: the largest |change|, last round)
  double criterion = 0;       // the rule's last value: the largest residual, or the total change / V
  bool converged = false;     // the rule was met
  double seconds = 0;         // the rounds, without allocating the arrays
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

// Gauss-Seidel pull PageRank (no segments: a blocked round forms a value only after every segment, which is Jacobi;
// the command runs it as the blocked kernel at one segment). One parallel sweep per round over the vertices in place:
// each vertex gathers the contributions as they stand, so those of vertices already swept this round (by any thread)
// count at once, then stores its new value and contribution. Which of a concurrent neighbour's old or new contribution
// a thread reads depends on timing (as in GAP's pull Gauss-Seidel): the values differ run to run within the stopping
// rule, not the fixed point. Loads and stores of the contributions are relaxed atomics (plain moves on x86), so the
// race is on values, not undefined behaviour. Residual rule: a sweep's largest change does not bound its residuals, so
// once the largest change is at most the tolerance each round ends with a residual pass (a gather, timed with the run),
// and the run ends when every residual is at most the tolerance.
template <class Index>
PullPageRankResult pagerank_gauss_seidel_pull(const InLists<Index>& in, const PullPageRankParams& params);

// The residuals of x, b + alpha P^T x - x, in double throughout (untimed checks): their largest magnitude and their
// sum of magnitudes.
struct ResidualNorms {
  double max = 0, l1 = 0;
};
template <class Index>
ResidualNorms pagerank_residuals(const InLists<Index>& in, const std::vector<double>& x, double alpha);

// A tightly converged reference: Gauss-Seidel in double (contributions too) until the total change / V is below
// `epsilon`; its L1 distance to the fixed point, normalised, is at most alpha / (1 - alpha) * epsilon. `rounds`,
// when given, receives the sweeps run.
template <class Index>
std::vector<double> pagerank_reference(const InLists<Index>& in, double alpha, double epsilon,
                                       uint64_t* rounds = nullptr);

// The L1 distance of two unnormalised results on normalised scores (each / V, as GAP's): sum |a - b| / V.
double normalised_l1(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace emogi::cpu
