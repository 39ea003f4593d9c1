// SpMV: y = A x in the access variants, checked against the CPU's double-precision product (references.hpp).
#include "emogi/spmv.cuh"

#include <stdexcept>
#include <string>
#include <vector>

#include "emogi/problems.hpp"
#include "emogi/references.hpp"

namespace emogi {
namespace {

template <class Index>
class SpmvProblem {
 public:
  static constexpr Algorithm kAlgorithm = Algorithm::Spmv;

  SpmvProblem(const MappedCsr& g, const MatrixOptions& opt)
      : g_(g), corrupt_(opt.corrupt_for_testing), state_(g.num_vertices()), y_(g.num_vertices()) {}

  void expect(uint64_t) {
    expected_ = reference_spmv(g_.offsets(), g_.edges_as<Index>(), weights(), g_.num_vertices());
  }

  template <class Access>
  RunStats scan(const DeviceGraph<Index>& g, uint64_t, uint64_t max_warps, ListReads& reads) {
    return spmv<Access>(g, weights() != nullptr, max_warps, reads, state_);
  }
  RunStats own(Variant, const DeviceGraph<Index>&, uint64_t, uint64_t, ListReads&) {
    throw std::logic_error("SpMV has only access variants");
  }

  Verified verify(uint64_t, const RunStats& stats, const std::string& what) {
    if (!y_.empty())
      EMOGI_CUDA_CHECK(cudaMemcpy(y_.data(), state_.y.data(), y_.size() * sizeof(double), cudaMemcpyDeviceToHost));
    if (corrupt_ && !y_.empty()) y_.back() += 1.0;
    const SpmvCheck check = check_spmv(expected_, y_, g_.offsets());
    if (!check.failure.empty()) throw std::runtime_error("SpMV result mismatch (" + what + "): " + check.failure);
    return {stats.edges_traversed, 0, 0};
  }

 private:
  // The matrix values: the graph's weights where it has them (the placement then holds them beside the edges).
  const uint32_t* weights() const { return g_.has_weights() ? g_.weights() : nullptr; }
  const MappedCsr& g_;
  bool corrupt_;
  SpmvState state_;
  std::vector<double> y_, expected_;
};

}  // namespace

void measure_spmv(const MappedCsr& g, const MatrixOptions& opt) { measure_by_width<SpmvProblem>(g, opt); }

}  // namespace emogi
