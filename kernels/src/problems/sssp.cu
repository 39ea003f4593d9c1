// SSSP: the paper's Bellman-Ford scan variants and the bucketed work-list variant; distances checked against
// Dial's algorithm.
#include "emogi/sssp.cuh"

#include <algorithm>
#include <atomic>
#include <map>
#include <stdexcept>
#include <string>

#include "emogi/fingerprint.hpp"
#include "emogi/parallel_for.hpp"
#include "emogi/problems.hpp"
#include "emogi/references.hpp"

namespace emogi {
namespace {

template <class Index>
class SsspProblem {
 public:
  static constexpr Algorithm kAlgorithm = Algorithm::Sssp;

  SsspProblem(const MappedCsr& g, const MatrixOptions& opt)
      : g_(g), corrupt_(opt.corrupt_for_testing), delta_(opt.sssp_delta ? opt.sssp_delta : default_delta(g)),
        least_in_(asks_frontier(opt) ? g.num_vertices() : 0), state_(g.num_vertices(), g.num_edges()),
        dist_(g.num_vertices()) {
    if (least_in_.size() == 0) return;  // only `frontier` reads the bucket width and the least in-edge weights
    const std::vector<uint32_t> least = least_incoming(g);
    EMOGI_CUDA_CHECK(
        cudaMemcpy(least_in_.data(), least.data(), least.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    const uint32_t overall = least.empty() ? kInfinity : *std::min_element(least.begin(), least.end());
    std::fprintf(stderr, "sssp: frontier bucket width delta = %u, least weight %u\n", delta_, overall);
  }

  void expect(uint64_t root) {
    if (root >= g_.num_vertices() || g_.degree(root) == 0)
      throw std::invalid_argument("root " + std::to_string(root) + " is not a vertex with out-edges");
    expected_[root] = fingerprint(reference(root));
  }

  template <class Access>
  RunStats scan(const DeviceGraph<Index>& g, uint64_t root, uint64_t max_warps, ListReads& reads) {
    return sssp_scan<Access>(g, root, max_warps, reads, state_);
  }
  RunStats own(Variant v, const DeviceGraph<Index>& g, uint64_t root, uint64_t max_warps, ListReads& reads) {
    switch (v) {
      case Variant::Frontier: return sssp_frontier(g, root, max_warps, delta_, least_in_.data(), reads, state_);
      default: throw std::logic_error("no SSSP kernel for this variant");
    }
  }

  Verified verify(uint64_t root, const RunStats& stats, const std::string& what) {
    EMOGI_CUDA_CHECK(
        cudaMemcpy(dist_.data(), state_.dist.data(), dist_.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    if (corrupt_) dist_.back() ^= 1;
    if (fingerprint(dist_) != expected_.at(root))
      throw std::runtime_error("SSSP result mismatch (" + what +
                               "): " + first_difference(dist_, reference(root), "distance"));
    return {stats.edges_traversed, 0, 0};
  }

 private:
  // Buckets 0.4 x the mean weight wide (16 for weights 8..72). Narrower buckets expand fewer vertices before their
  // distance is final (fewer list reads), wider ones give each step more lists to read at once. On GAP-24 in
  // zero-copy, 16 beat 8, 12, 24 and the mean (40) on kron and came within 3% of 8 on urand
  // (archive/sssp-skip-h100-2026-11-21/).
  static uint32_t default_delta(const MappedCsr& g) {
    const uint32_t* w = g.weights();
    if (!w || g.num_edges() == 0) return 1;
    const uint64_t step = g.num_edges() / 100000 + 1;
    double sum = 0;
    uint64_t n = 0;
    for (uint64_t i = 0; i < g.num_edges(); i += step, ++n) sum += w[i];
    return std::max<uint32_t>(1, uint32_t(0.4 * sum / n));
  }
  static bool asks_frontier(const MatrixOptions& opt) { return opt.has_variant(Variant::Frontier); }
  // The least weight of each vertex's in-edges, exactly (a sample could overstate it and skip a needed weight).
  // A vertex nothing points to keeps 2^32 - 1; no list holds it.
  static std::vector<uint32_t> least_incoming(const MappedCsr& g) {
    std::vector<std::atomic<uint32_t>> least(g.num_vertices());
    parallel_for(least.size(), [&](uint64_t v) { least[v].store(kInfinity, std::memory_order_relaxed); });
    const uint32_t* w = g.weights();
    const Index* e = g.edges_as<Index>();
    constexpr uint64_t kPiece = uint64_t(1) << 20;
    parallel_for(w ? (g.num_edges() + kPiece - 1) / kPiece : 0, [&](uint64_t p) {
      for (uint64_t i = p * kPiece; i < std::min(g.num_edges(), (p + 1) * kPiece); ++i) {
        uint32_t seen = least[e[i]].load(std::memory_order_relaxed);
        while (w[i] < seen && !least[e[i]].compare_exchange_weak(seen, w[i], std::memory_order_relaxed)) {
        }
      }
    });
    std::vector<uint32_t> out(least.size());
    parallel_for(out.size(), [&](uint64_t v) { out[v] = least[v].load(std::memory_order_relaxed); });
    return out;
  }
  std::vector<uint32_t> reference(uint64_t root) const {
    return reference_sssp(g_.offsets(), g_.edges_as<Index>(), g_.weights(), g_.num_vertices(), root);
  }
  const MappedCsr& g_;
  bool corrupt_;
  uint32_t delta_;
  DeviceArray<uint32_t> least_in_;  // per vertex, the least weight of its in-edges (`frontier` skips by it)
  SsspState<Index> state_;
  std::vector<uint32_t> dist_;
  std::map<uint64_t, uint64_t> expected_;
};

}  // namespace

void measure_sssp(const MappedCsr& g, const MatrixOptions& opt) { measure_by_width<SsspProblem>(g, opt); }

}  // namespace emogi
