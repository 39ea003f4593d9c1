#include "emogi/references.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "emogi/parallel_for.hpp"
#include "emogi/spmv_vector.hpp"

namespace emogi {

template <class Index>
std::vector<uint32_t> reference_sssp(const uint64_t* offsets, const Index* edges, const uint32_t* weights,
                                     uint64_t num_vertices, uint64_t root) {
  if (root >= num_vertices) throw std::invalid_argument("root " + std::to_string(root) + " is not a vertex");
  uint32_t max_weight = 0;
  for (uint64_t i = 0; i < offsets[num_vertices]; ++i) max_weight = std::max(max_weight, weights[i]);
  if (max_weight > (1u << 16))
    throw std::invalid_argument("reference SSSP: weights above 65536 are not supported (Dial's buckets)");
  std::vector<uint32_t> dist(num_vertices, 0xFFFFFFFFu);
  // Circular buckets: every tentative distance lies within max_weight of the current one.
  std::vector<std::vector<uint64_t>> buckets(max_weight + 1);
  dist[root] = 0;
  buckets[0].push_back(root);
  uint64_t pending = 1;
  for (uint64_t d = 0; pending; ++d) {
    auto& bucket = buckets[d % buckets.size()];
    while (!bucket.empty()) {
      const uint64_t v = bucket.back();
      bucket.pop_back();
      --pending;
      if (dist[v] != d) continue;  // a stale entry: v was reached by a shorter path
      for (uint64_t i = offsets[v]; i < offsets[v + 1]; ++i) {
        const uint64_t u = edges[i];
        const uint64_t nd = d + weights[i];
        if (nd < dist[u]) {
          dist[u] = uint32_t(nd);
          buckets[nd % buckets.size()].push_back(u);
          ++pending;
        }
      }
    }
  }
  return dist;
}

template <class Index>
std::vector<uint64_t> reference_cc(const uint64_t* offsets, const Index* edges, uint64_t num_vertices) {
  std::vector<uint64_t> parent(num_vertices);
  for (uint64_t v = 0; v < num_vertices; ++v) parent[v] = v;
  auto find = [&](uint64_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];  // path halving
    return v;
  };
  for (uint64_t v = 0; v < num_vertices; ++v)
    for (uint64_t i = offsets[v]; i < offsets[v + 1]; ++i) {
      const uint64_t a = find(v), b = find(edges[i]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the smaller id stays the root
    }
  for (uint64_t v = 0; v < num_vertices; ++v) parent[v] = find(v);
  return parent;
}

uint64_t count_components(const std::vector<uint64_t>& labels) {
  uint64_t roots = 0;
  for (uint64_t v = 0; v < labels.size(); ++v) roots += labels[v] == v;
  return roots;
}

template <class Index>
PageRankCheck check_pagerank(const uint64_t* offsets, const Index* edges, uint64_t num_vertices, bool symmetric,
                             const std::vector<float>& value, double alpha, double tolerance) {
  // pushed[v] = alpha * sum over in-neighbours u of x_u / deg(u). A symmetric graph's out-lists are its in-lists,
  // so threads can pull per vertex; a directed one is scattered on one thread.
  std::vector<double> pushed(num_vertices, 0.0);
  std::vector<uint64_t> in_degree;  // directed graphs only; a symmetric graph's in-degree is its out-degree
  auto share = [&](uint64_t u) {
    const uint64_t degree = offsets[u + 1] - offsets[u];
    return degree ? alpha * value[u] / double(degree) : 0.0;
  };
  if (symmetric) {
    parallel_for(num_vertices, [&](uint64_t v) {
      double sum = 0;
      for (uint64_t i = offsets[v]; i < offsets[v + 1]; ++i) sum += share(edges[i]);
      pushed[v] = sum;
    });
  } else {
    in_degree.assign(num_vertices, 0);
    for (uint64_t u = 0; u < num_vertices; ++u)
      for (uint64_t i = offsets[u]; i < offsets[u + 1]; ++i) {
        pushed[edges[i]] += share(u);
        ++in_degree[edges[i]];
      }
  }
  PageRankCheck check;
  check.worst_residual = -1e300;
  for (uint64_t v = 0; v < num_vertices; ++v) {
    const double r = (1.0 - alpha) + pushed[v] - value[v];
    // Each round a vertex's float32 residual sums one push per in-neighbour. Pushes of equal size round the
    // same way, so the error grows with the count, up to Higham's bound for recursive summation: in-degree x
    // 2^-24 of the magnitudes involved (kron-25 hub: 2.4e-4 measured, its bound is larger). Below 1e-4 of
    // them is always allowed (kron-24 hubs: 3e-5 measured).
    const uint64_t pushes = in_degree.empty() ? offsets[v + 1] - offsets[v] : in_degree[v];
    const double eps = std::max(1e-4, std::ldexp(double(pushes), -24)) * (std::fabs(value[v]) + pushed[v]) + 1e-6;
    check.worst_residual = std::max(check.worst_residual, r);
    if (!std::isfinite(value[v]) || r < -eps || r > tolerance + eps) {
      std::ostringstream msg;
      msg << "vertex " << v << ": value " << value[v] << " leaves residual " << r << ", outside [" << -eps << ", "
          << tolerance + eps << "]";
      check.failure = msg.str();
      return check;
    }
  }
  return check;
}

template <class Index>
std::vector<double> reference_spmv(const uint64_t* offsets, const Index* edges, const uint32_t* weights,
                                   uint64_t num_vertices) {
  std::vector<double> y(num_vertices, 0.0);
  parallel_for(num_vertices, [&](uint64_t v) {
    double sum = 0;
    for (uint64_t i = offsets[v]; i < offsets[v + 1]; ++i)
      sum += (weights ? double(weights[i]) : 1.0) * spmv_x(edges[i]);
    y[v] = sum;
  });
  return y;
}

SpmvCheck check_spmv(const std::vector<double>& expected, const std::vector<double>& y, const uint64_t* offsets,
                     double rtol) {
  SpmvCheck check;
  if (y.size() != expected.size()) {
    check.failure = "y has " + std::to_string(y.size()) + " values for " + std::to_string(expected.size()) + " rows";
    return check;
  }
  for (uint64_t v = 0; v < y.size(); ++v) {
    // Every term a x is >= 0 (uint32 weights or 1, x >= 1): the exact sum is also the sum of their magnitudes.
    const double error = std::fabs(y[v] - expected[v]);
    if (expected[v] > 0) check.worst_relative = std::max(check.worst_relative, error / expected[v]);
    if (!std::isfinite(y[v]) || error > rtol * expected[v]) {
      std::ostringstream msg;
      msg.precision(17);
      msg << "vertex " << v << ": y " << y[v] << ", expected " << expected[v] << " (" << (offsets[v + 1] - offsets[v])
          << " entries)";
      check.failure = msg.str();
      return check;
    }
  }
  return check;
}

template std::vector<uint32_t> reference_sssp<uint32_t>(const uint64_t*, const uint32_t*, const uint32_t*, uint64_t,
                                                        uint64_t);
template std::vector<uint32_t> reference_sssp<uint64_t>(const uint64_t*, const uint64_t*, const uint32_t*, uint64_t,
                                                        uint64_t);
template std::vector<uint64_t> reference_cc<uint32_t>(const uint64_t*, const uint32_t*, uint64_t);
template std::vector<uint64_t> reference_cc<uint64_t>(const uint64_t*, const uint64_t*, uint64_t);
template PageRankCheck check_pagerank<uint32_t>(const uint64_t*, const uint32_t*, uint64_t, bool,
                                                const std::vector<float>&, double, double);
template PageRankCheck check_pagerank<uint64_t>(const uint64_t*, const uint64_t*, uint64_t, bool,
                                                const std::vector<float>&, double, double);
template std::vector<double> reference_spmv<uint32_t>(const uint64_t*, const uint32_t*, const uint32_t*, uint64_t);
template std::vector<double> reference_spmv<uint64_t>(const uint64_t*, const uint64_t*, const uint32_t*, uint64_t);

}  // namespace emogi
