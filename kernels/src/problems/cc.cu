// CC: the paper's label-propagation scan variants and Afforest; labels (smallest vertex id of each component)
// checked against union-find.
#include "emogi/cc.cuh"

#include <stdexcept>
#include <string>

#include "emogi/fingerprint.hpp"
#include "emogi/problems.hpp"
#include "emogi/references.hpp"

namespace emogi {
namespace {

template <class Index>
class CcProblem {
 public:
  static constexpr Algorithm kAlgorithm = Algorithm::Cc;

  CcProblem(const MappedCsr& g, const MatrixOptions& opt)
      : g_(g), corrupt_(opt.corrupt_for_testing), state_(g.num_vertices()), label_(g.num_vertices()) {
    for (uint64_t v = 0; v < g.num_vertices(); ++v)
      sampled_entries_ += std::min<uint64_t>(g.degree(v), kAfforestRounds);
  }

  void expect(uint64_t) {
    const std::vector<uint64_t> ref = reference();
    expected_ = fingerprint(ref);
    components_ = count_components(ref);
    std::fprintf(stderr, "reference CC: %llu components\n", (unsigned long long)components_);
  }

  template <class Access>
  RunStats scan(const DeviceGraph<Index>& g, uint64_t, uint64_t max_warps, ListReads& reads) {
    return cc_scan<Access>(g, max_warps, reads, state_);
  }
  RunStats own(Variant v, const DeviceGraph<Index>& g, uint64_t, uint64_t max_warps, ListReads& reads) {
    switch (v) {
      case Variant::Afforest: {
        RunStats r = cc_afforest(g, max_warps, reads, state_);
        r.edges_traversed += sampled_entries_;
        return r;
      }
      default: throw std::logic_error("no CC kernel for this variant");
    }
  }

  Verified verify(uint64_t, const RunStats& stats, const std::string& what) {
    EMOGI_CUDA_CHECK(
        cudaMemcpy(label_.data(), state_.label.data(), label_.size() * sizeof(Label), cudaMemcpyDeviceToHost));
    if (corrupt_) label_.back() ^= 1;
    if (fingerprint(label_) != expected_) {
      std::vector<uint64_t> gpu(label_.begin(), label_.end());
      throw std::runtime_error("CC result mismatch (" + what + "): " + first_difference(gpu, reference(), "label"));
    }
    return {stats.edges_traversed, 0, components_};
  }

 private:
  std::vector<uint64_t> reference() const {
    return reference_cc(g_.offsets(), g_.edges_as<Index>(), g_.num_vertices());
  }
  const MappedCsr& g_;
  bool corrupt_;
  CcState state_;
  std::vector<Label> label_;
  uint64_t expected_ = 0, components_ = 0, sampled_entries_ = 0;
};

}  // namespace

void measure_cc(const MappedCsr& g, const MatrixOptions& opt) { measure_by_width<CcProblem>(g, opt); }

}  // namespace emogi
