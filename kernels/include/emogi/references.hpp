// CPU references for SSSP, CC, PageRank and SpMV (BFS: reference_bfs.hpp). Every GPU run is checked against them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace emogi {

// Dial's algorithm (buckets by distance): exact for small positive integer weights. Unreached: 0xFFFFFFFF.
template <class Index>
std::vector<uint32_t> reference_sssp(const uint64_t* offsets, const Index* edges, const uint32_t* weights,
                                     uint64_t num_vertices, uint64_t root);

// Union-find; every vertex labelled with the smallest vertex id of its component.
template <class Index>
std::vector<uint64_t> reference_cc(const uint64_t* offsets, const Index* edges, uint64_t num_vertices);

uint64_t count_components(const std::vector<uint64_t>& labels);

// Checks PageRank values against the fixed point they approximate. With b = 1 - alpha and P the out-degree-
// normalised adjacency, the residual left at every vertex is exactly b + alpha * P^T x - x; the run stopped when
// all of them were at most `tolerance`, so each must lie in [-eps, tolerance + eps] (eps: float rounding).
// Returns an empty string when x passes, else what failed where.
struct PageRankCheck {
  double worst_residual = 0;  // largest b + alpha P^T x - x seen
  std::string failure;
};
template <class Index>
PageRankCheck check_pagerank(const uint64_t* offsets, const Index* edges, uint64_t num_vertices, bool symmetric,
                             const std::vector<float>& value, double alpha, double tolerance);

// y = A x with A the graph's adjacency (row v: v's list; the edge's weight as its value, or 1 when `weights` is
// null) and x = spmv_x (spmv_vector.hpp), accumulated in double in list order.
template <class Index>
std::vector<double> reference_spmv(const uint64_t* offsets, const Index* edges, const uint32_t* weights,
                                   uint64_t num_vertices);

// Checks a GPU's y against reference_spmv's `expected`: |y_v - expected_v| <= rtol * expected_v (every term is
// >= 0, so expected_v is also the sum of their magnitudes; a sum in another order differs by a few ulps of it per
// term). `offsets` names the row's length in the message. Empty failure when y passes.
struct SpmvCheck {
  double worst_relative = 0;  // largest |y_v - expected_v| / expected_v seen
  std::string failure;
};
SpmvCheck check_spmv(const std::vector<double>& expected, const std::vector<double>& y, const uint64_t* offsets,
                     double rtol = 1e-9);

}  // namespace emogi
