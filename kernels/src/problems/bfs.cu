// BFS: the paper's scan variants, work lists and direction-optimising; depths checked against a queue BFS.
#include "emogi/bfs.cuh"

#include <map>
#include <stdexcept>
#include <string>

#include "emogi/bfs_frontier.cuh"
#include "emogi/fingerprint.hpp"
#include "emogi/problems.hpp"
#include "emogi/reference_bfs.hpp"

namespace emogi {
namespace {

template <class Index>
class BfsProblem {
 public:
  static constexpr Algorithm kAlgorithm = Algorithm::Bfs;

  BfsProblem(const MappedCsr& g, const MatrixOptions& opt)
      : g_(g), corrupt_(opt.corrupt_for_testing), state_(g.num_vertices(), g.num_edges()), depth_(g.num_vertices()) {}

  void expect(uint64_t root) {
    if (root >= g_.num_vertices() || g_.degree(root) == 0)
      throw std::invalid_argument("root " + std::to_string(root) + " is not a vertex with out-edges");
    const ReferenceBfs ref = reference(root);
    expected_[root] = {fingerprint(ref.depth), ref.edges_traversed, ref.levels};
    std::fprintf(stderr, "reference BFS from %llu: %u levels, %llu edges traversed\n", (unsigned long long)root,
                 ref.levels, (unsigned long long)ref.edges_traversed);
  }

  template <class Access>
  RunStats scan(const DeviceGraph<Index>& g, uint64_t root, uint64_t max_warps, ListReads& reads) {
    return bfs_scan<Access>(g, root, max_warps, reads, state_);
  }
  RunStats own(Variant v, const DeviceGraph<Index>& g, uint64_t root, uint64_t max_warps, ListReads& reads) {
    switch (v) {
      case Variant::Frontier: return bfs_frontier(g, root, max_warps, false, reads, state_);
      case Variant::DirectionOptimizing: return bfs_frontier(g, root, max_warps, true, reads, state_);
      default: throw std::logic_error("no BFS kernel for this variant");
    }
  }

  Verified verify(uint64_t root, const RunStats& stats, const std::string& what) {
    EMOGI_CUDA_CHECK(
        cudaMemcpy(depth_.data(), state_.depth.data(), depth_.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    if (corrupt_) depth_.back() ^= 1;
    const Expected& e = expected_.at(root);
    if (fingerprint(depth_) != e.fingerprint || stats.iterations != e.levels) {
      const ReferenceBfs ref = reference(root);
      throw std::runtime_error("BFS result mismatch (" + what + "): " + first_difference(depth_, ref.depth, "depth") +
                               "; GPU took " + std::to_string(stats.iterations) + " levels, CPU " +
                               std::to_string(ref.levels));
    }
    return {e.edges_traversed, e.levels, 0};
  }

 private:
  struct Expected {
    uint64_t fingerprint, edges_traversed;
    uint32_t levels;
  };
  ReferenceBfs reference(uint64_t root) const {
    return reference_bfs(g_.offsets(), g_.edges_as<Index>(), g_.num_vertices(), root);
  }
  const MappedCsr& g_;
  bool corrupt_;
  BfsFrontierState<Index> state_;
  std::vector<uint32_t> depth_;
  std::map<uint64_t, Expected> expected_;
};

}  // namespace

void measure_bfs(const MappedCsr& g, const MatrixOptions& opt) { measure_by_width<BfsProblem>(g, opt); }

}  // namespace emogi
