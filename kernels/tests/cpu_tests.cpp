// Checks of the CPU kernels' pieces (run by tests/test_cpu.py): segment construction against brute force, the
// segment count from the cache size, the micro-benchmark's arithmetic and indices, the timing summary, and
// blocked against unblocked PageRank. Prints one line per failed check and exits 1 if any failed.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "emogi/cpu/membench.hpp"
#include "emogi/cpu/pagerank.hpp"
#include "emogi/cpu/segments.hpp"
#include "emogi/cpu/timing.hpp"
#include "expect.hpp"

namespace {

using emogi::testing::checks;
using emogi::testing::expect_eq;
using emogi::testing::failures;
using namespace emogi::cpu;
using V = std::vector<uint64_t>;

struct Lists {
  V offsets, edges;
};

// Symmetric lists of random pairs (no self-loops; duplicates kept, which the segments must keep too).
Lists random_lists(uint64_t n, uint64_t pairs, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<V> adj(n);
  for (uint64_t i = 0; i < pairs && n > 1; ++i) {
    const uint64_t a = rng() % n, b = rng() % n;
    if (a == b) continue;
    adj[a].push_back(b);
    adj[b].push_back(a);
  }
  Lists l{{0}, {}};
  for (const V& list : adj) {
    l.edges.insert(l.edges.end(), list.begin(), list.end());
    l.offsets.push_back(l.edges.size());
  }
  return l;
}

// Segment i, straight from the definition: every destination (ascending) with its in-edges from R_i, in list order.
void brute_force_matches(const Lists& l, uint64_t s, const std::string& what) {
  const uint64_t n = l.offsets.size() - 1;
  const auto in = symmetric_lists(l.offsets.data(), l.edges.data(), n);
  const SegmentedGraph<uint64_t> g = build_segments(in, s);
  V home_begin, home, edge_begin, edges;
  for (uint64_t i = 0; i < s; ++i) {
    home_begin.push_back(home.size());
    const uint64_t lo = uint64_t(std::floor(double(i) * n / s)), hi = uint64_t(std::floor(double(i + 1) * n / s));
    for (uint64_t v = 0; v < n; ++v) {
      V from;
      for (uint64_t k = l.offsets[v]; k < l.offsets[v + 1]; ++k)
        if (l.edges[k] >= lo && l.edges[k] < hi) from.push_back(l.edges[k]);
      if (from.empty()) continue;
      home.push_back(v);
      edge_begin.push_back(edges.size());
      edges.insert(edges.end(), from.begin(), from.end());
    }
  }
  home_begin.push_back(home.size());
  edge_begin.push_back(edges.size());
  expect_eq(V(g.home_begin.get(), g.home_begin.get() + s + 1), home_begin, (what + ": home_begin").c_str());
  expect_eq(V(g.home.get(), g.home.get() + g.total_home()), home, (what + ": home vertices").c_str());
  expect_eq(V(g.edge_begin.get(), g.edge_begin.get() + g.total_home() + 1), edge_begin, (what + ": offsets").c_str());
  expect_eq(V(g.edges.get(), g.edges.get() + l.edges.size()), edges, (what + ": edges").c_str());
}

void segments_match_brute_force() {
  for (uint64_t n : {1, 2, 7, 100, 1000}) {
    const Lists l = random_lists(n, 3 * n, unsigned(n));
    for (uint64_t s : {uint64_t(1), uint64_t(2), uint64_t(3), uint64_t(7), n, n + 5, 3 * n})
      brute_force_matches(l, s, "n=" + std::to_string(n) + " s=" + std::to_string(s));
  }
  // Blocks of destinations: more vertices than one block (4096), so blocks are stitched together.
  brute_force_matches(random_lists(10000, 40000, 5), 5, "n=10000 s=5");
}

void segment_of_matches_the_ranges() {
  for (uint64_t n : {1, 5, 64, 1000})
    for (uint64_t s : {uint64_t(1), uint64_t(3), n, n + 1, 2 * n + 3}) {
      bool ok = true;
      for (uint64_t u = 0; u < n; ++u) {
        uint64_t want = 0;
        while (want + 1 < s && range_begin(want + 1, n, s) <= u) ++want;
        ok = ok && segment_of(u, n, s) == want;
      }
      expect_eq(ok, true, ("segment_of n=" + std::to_string(n) + " s=" + std::to_string(s)).c_str());
    }
}

void duplication_of_a_star() {
  // Star 0 - 1..8: with 3 segments, vertex 0 is home in every segment that holds a leaf (all 3), each leaf once.
  Lists l{{0, 8}, {1, 2, 3, 4, 5, 6, 7, 8}};
  for (uint64_t v = 1; v <= 8; ++v) {
    l.edges.push_back(0);
    l.offsets.push_back(l.edges.size());
  }
  const auto g = build_segments(symmetric_lists(l.offsets.data(), l.edges.data(), 9), 3);
  expect_eq(g.total_home(), uint64_t(3 + 8), "star: home vertices");
  expect_eq(g.duplication(), 11.0 / 9.0, "star: duplication factor");
}

void zero_segments_are_refused() {
  const Lists l = random_lists(10, 20, 1);
  std::string message;
  try {
    build_segments(symmetric_lists(l.offsets.data(), l.edges.data(), 10), 0);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  expect_eq(message.find("--segments must be at least 1") != std::string::npos, true, "segments = 0 is refused");
}

void segments_follow_the_cache() {
  // kron27 on the GPU host: 2^27 floats = 512 MiB; half of a 300 MiB L3 holds 150 MiB, so 4 segments.
  expect_eq(segments_for_cache(uint64_t(1) << 27, 4, uint64_t(300) << 20, 0.5), uint64_t(4), "kron27 segments");
  expect_eq(segments_for_cache(uint64_t(1) << 24, 4, uint64_t(300) << 20, 0.5), uint64_t(1), "kron24 fits");
  expect_eq(segments_for_cache(0, 4, 1 << 20, 0.5), uint64_t(1), "no vertices: one segment");
  bool threw = false;
  try {
    segments_for_cache(100, 4, 0, 0.5);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  expect_eq(threw, true, "an unknown LLC is refused");
}

void membench_arithmetic() {
  const MembenchRates r = membench_rates(uint64_t(1) << 28, 0.5);  // a 2 GiB array read once in 0.5 s
  expect_eq(std::fabs(r.ns_per_access - 0.5e9 / double(1 << 28)) < 1e-12, true, "ns per access");
  expect_eq(std::fabs(r.array_gb_s - 8.0 * (1 << 28) / 0.5 / 1e9) < 1e-9, true, "array GB/s");
  expect_eq(std::fabs(r.total_gb_s - 2 * r.array_gb_s) < 1e-9, true, "total GB/s counts the index reads");
  bool seq = true, in_range = true, spread = false;
  for (uint64_t i = 0; i < 1000; ++i) {
    seq = seq && membench_index(i, 1000, false) == i;
    const uint64_t j = membench_index(i, 1000, true);
    in_range = in_range && j < 1000;
    spread = spread || j != membench_index(i + 1, 1000, true) - 1;
  }
  expect_eq(seq, true, "sequential indices are i");
  expect_eq(in_range && spread, true, "random indices lie in the array and are not sequential");
  const Membench small(8 << 10, 0, true);
  expect_eq(small.accesses(), uint64_t(1024), "one access per element by default");
  expect_eq(small.time_pass(2) >= 0, true, "a pass reads the right sum");  // time_pass throws otherwise
}

void median_of_runs() {
  expect_eq(summarize({3, 1, 2}).median, 2.0, "median of 3");
  expect_eq(summarize({4, 1, 2, 3}).median, 2.5, "median of 4");
  expect_eq(summarize({4, 1, 2, 3}).max, 4.0, "max");
}

void blocked_equals_unblocked() {
  const Lists l = random_lists(3000, 20000, 9);
  const auto in = symmetric_lists(l.offsets.data(), l.edges.data(), 3000);
  PullPageRankParams p;
  p.tolerance = 1e-6;
  const PullPageRankResult plain = pagerank_pull<uint64_t>(in, nullptr, p);
  for (uint64_t s : {1, 4, 3000, 5000}) {
    const auto g = build_segments(in, s);
    const PullPageRankResult blocked = pagerank_pull(in, &g, p);
    double worst = 0;
    for (uint64_t v = 0; v < 3000; ++v) worst = std::max(worst, std::fabs(blocked.value[v] - plain.value[v]));
    expect_eq(blocked.converged && worst < 1e-5, true, ("blocked = unblocked, s=" + std::to_string(s)).c_str());
    expect_eq(blocked.iterations, plain.iterations, ("same rounds, s=" + std::to_string(s)).c_str());
  }
}

// Gauss-Seidel and the reference reach Jacobi's fixed point; the total-change rule's criterion is below epsilon and
// its result within alpha / (1 - alpha) epsilon of the reference (L1 / V); the residual norms of the reference ~ 0.
void gauss_seidel_and_reference() {
  const Lists l = random_lists(3000, 20000, 11);
  const auto in = symmetric_lists(l.offsets.data(), l.edges.data(), 3000);
  PullPageRankParams p;
  p.tolerance = 1e-6;
  const PullPageRankResult jacobi = pagerank_pull<uint64_t>(in, nullptr, p);
  const PullPageRankResult gs = pagerank_gauss_seidel_pull(in, p);
  const std::vector<double> ref = pagerank_reference(in, p.alpha, 1e-12);
  expect_eq(gs.converged && gs.criterion <= 1e-6, true, "Gauss-Seidel meets the residual rule");
  expect_eq(gs.iterations < jacobi.iterations, true, "Gauss-Seidel takes fewer rounds");
  PullPageRankParams uniform = p;
  uniform.uniform_start = true;
  const PullPageRankResult jacobi1 = pagerank_pull<uint64_t>(in, nullptr, uniform);
  const PullPageRankResult gs1 = pagerank_gauss_seidel_pull(in, uniform);
  expect_eq(jacobi1.converged && gs1.converged, true, "from the uniform vector, both meet the residual rule");
  expect_eq(normalised_l1(gs1.value, ref) < 1e-5 && normalised_l1(jacobi1.value, ref) < 1e-5, true,
            "from the uniform vector, both at the reference");
  expect_eq(normalised_l1(gs.value, ref) < 1e-5 && normalised_l1(jacobi.value, ref) < 1e-5, true,
            "both at the reference");
  const ResidualNorms norms = pagerank_residuals(in, ref, p.alpha);
  expect_eq(norms.max < 1e-9, true, "the reference's residuals vanish");
  p.stop = Stop::TotalChange;
  p.epsilon = 1e-4;
  for (const PullPageRankResult& r : {pagerank_pull<uint64_t>(in, nullptr, p), pagerank_gauss_seidel_pull(in, p)}) {
    expect_eq(r.converged && r.criterion < 1e-4, true, "total change below epsilon");
    expect_eq(normalised_l1(r.value, ref) <= p.alpha / (1 - p.alpha) * 1e-4, true, "within the L1 bound");
    expect_eq(pagerank_residuals(in, r.value, p.alpha).l1 / 3000 <= p.alpha * 1e-4 + 1e-6, true,
              "residual L1 below alpha epsilon");
  }
  expect_eq(normalised_l1({1, 2, 3}, {1, 1, 5}), 1.0, "normalised L1");
}

}  // namespace

int main() {
  try {
    segments_match_brute_force();
    segment_of_matches_the_ranges();
    duplication_of_a_star();
    zero_segments_are_refused();
    segments_follow_the_cache();
    membench_arithmetic();
    median_of_runs();
    blocked_equals_unblocked();
    gauss_seidel_and_reference();
  } catch (const std::exception& e) {
    std::printf("FAILED: threw %s\n", e.what());
    return 1;
  }
  std::printf("%d of %d checks passed\n", checks - failures, checks);
  return failures ? 1 : 0;
}
