// SSSP: the paper's Bellman-Ford scan variants and the bucketed work-list variant; distances checked against
// Dial's algorithm.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "emogi/fingerprint.hpp"
#include "emogi/parallel_for.hpp"
#include "emogi/problems.hpp"
#include "emogi/references.hpp"
#include "emogi/sssp.cuh"

namespace emogi {
namespace {

template <class Index>
class SsspProblem {
 public:
  static constexpr Algorithm kAlgorithm = Algorithm::Sssp;
  static constexpr bool kRooted = true, kWeighted = true;
  static std::string unsupported(Variant, const MappedCsr& g) {
    if (!g.has_weights()) return g.path() + " has no weights (make the graph with weights)";
    return "";
  }

  SsspProblem(const MappedCsr& g, const MatrixOptions& opt)
      : g_(g), corrupt_(opt.corrupt_for_testing), delta_(opt.sssp_delta ? opt.sssp_delta : default_delta(g)),
        min_weight_(least_weight(g)), state_(g.num_vertices(), g.num_edges()), dist_(g.num_vertices()) {
    std::fprintf(stderr, "sssp: frontier bucket width delta = %u, least weight %u\n", delta_, min_weight_);
  }

  void expect(uint64_t root) {
    if (root >= g_.num_vertices() || g_.degree(root) == 0)
      throw std::invalid_argument("root " + std::to_string(root) + " is not a vertex with out-edges");
    expected_[root] = fingerprint(reference(root));
  }

  RunStats run(Variant v, const DeviceGraph<Index>& g, uint64_t root, uint64_t max_warps) {
    switch (v) {
      case Variant::Naive: return sssp_scan<NaiveAccess>(g, root, max_warps, state_);
      case Variant::Merged: return sssp_scan<MergedAccess>(g, root, max_warps, state_);
      case Variant::MergedAligned: return sssp_scan<MergedAlignedAccess>(g, root, max_warps, state_);
      case Variant::Chunked: return sssp_scan<ChunkedAccess>(g, root, max_warps, state_);
      case Variant::Frontier: return sssp_frontier(g, root, max_warps, delta_, min_weight_, state_);
      default: throw std::logic_error("no SSSP kernel for this variant");
    }
  }

  Verified verify(uint64_t root, const RunStats& stats, const std::string& what) {
    EMOGI_CUDA_CHECK(cudaMemcpy(dist_.data(), state_.dist.data(), dist_.size() * sizeof(uint32_t),
                                cudaMemcpyDeviceToHost));
    if (corrupt_) dist_.back() ^= 1;
    if (fingerprint(dist_) != expected_.at(root))
      throw std::runtime_error("SSSP result mismatch (" + what + "): " +
                               first_difference(dist_, reference(root), "distance"));
    return {stats.edges_traversed, 0, 0};
  }

 private:
  // Buckets as wide as the mean weight: wide enough to keep the GPU busy, narrow enough that few vertices are
  // expanded before their final distance is known.
  static uint32_t default_delta(const MappedCsr& g) {
    const uint32_t* w = g.weights();
    if (!w || g.num_edges() == 0) return 1;
    const uint64_t step = g.num_edges() / 100000 + 1;
    double sum = 0;
    uint64_t n = 0;
    for (uint64_t i = 0; i < g.num_edges(); i += step, ++n) sum += w[i];
    return std::max<uint32_t>(1, uint32_t(sum / n));
  }
  // Exact, not sampled: `frontier` skips a weight when even the least one could not lower the distance.
  static uint32_t least_weight(const MappedCsr& g) {
    const uint32_t* w = g.weights();
    if (!w || g.num_edges() == 0) return 0;
    constexpr uint64_t kPiece = uint64_t(1) << 24;
    std::vector<uint32_t> least((g.num_edges() + kPiece - 1) / kPiece);
    parallel_for(least.size(), [&](uint64_t p) {
      const uint64_t lo = p * kPiece, hi = std::min(g.num_edges(), lo + kPiece);
      least[p] = *std::min_element(w + lo, w + hi);
    });
    return *std::min_element(least.begin(), least.end());
  }
  std::vector<uint32_t> reference(uint64_t root) const {
    return reference_sssp(g_.offsets(), g_.edges_as<Index>(), g_.weights(), g_.num_vertices(), root);
  }
  const MappedCsr& g_;
  bool corrupt_;
  uint32_t delta_, min_weight_;
  SsspState<Index> state_;
  std::vector<uint32_t> dist_;
  std::map<uint64_t, uint64_t> expected_;
};

}  // namespace

void measure_sssp(const MappedCsr& g, const MatrixOptions& opt) {
  measure_by_width<SsspProblem>(g, opt);
}

}  // namespace emogi
