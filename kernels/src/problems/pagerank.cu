// PageRank: the paper's push-style delta PageRank in scan, work-list and Gauss-Seidel schedules; values checked
// against the fixed point they approximate (references.hpp).
#include "emogi/pagerank.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "emogi/problems.hpp"
#include "emogi/references.hpp"

namespace emogi {
namespace {

// The lists longer than `entries` (gauss-seidel's hubs, --pr-hub-entries) and their slices at most:
// the size of its hub queue. {0, 0} where entries is 0 (off).
std::pair<uint64_t, uint64_t> hub_lists(const MappedCsr& g, uint64_t entries) {
  uint64_t hubs = 0, slices = 0;
  if (entries == 0) return {0, 0};
  const uint64_t* offsets = g.offsets();
  for (uint64_t v = 0; v < g.num_vertices(); ++v) {
    const uint64_t degree = offsets[v + 1] - offsets[v];
    if (degree > entries) ++hubs, slices += hub_slices_at_most(degree);
  }
  if (hubs > UINT32_MAX) throw std::invalid_argument("--pr-hub-entries: more than 2^32 lists to defer; raise N");
  return {hubs, slices};
}

// --pr-hub-entries auto: a list is a round's straggler when its warp walks more than kHubShare times the entries
// each resident warp walks on average (E / resident warps): kron19's top lists are ~25x that and inflate
// gauss-seidel's rounds, kron24's ~7x and do not (archive/gs-hub-entries-h200-2026-11-28). At least kMinHubEntries:
// deferring the ~200 lists of 1.5-2 k entries of the sparse kron20 graphs (edge factors 3, 4) tripled their rounds,
// and from 4 096 on it did not (archive/gs-hub-rounds-h200-2026-11-29); such a list's warp walks it in ~12 us, under
// a tail round's ~28 us, so deferring it saves a round little time.
uint64_t hub_entries_of(const MappedCsr& g, const MatrixOptions& opt) {
  if (!opt.pr_hub_auto) return opt.pr_hub_entries;
  constexpr uint64_t kHubShare = 2, kMinHubEntries = 4096;
  int device = 0, sms = 0, threads = 0;
  EMOGI_CUDA_CHECK(cudaGetDevice(&device));
  EMOGI_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  EMOGI_CUDA_CHECK(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  const uint64_t warps = std::max<uint64_t>(uint64_t(sms) * uint64_t(threads) / kWarpSize, 1);
  const uint64_t entries = std::max<uint64_t>((kHubShare * g.num_edges() + warps - 1) / warps, kMinHubEntries);
  std::fprintf(stderr,
               "pagerank gauss-seidel: --pr-hub-entries auto = %llu (%llu x %llu entries / %llu resident warps, at "
               "least %llu)\n",
               (unsigned long long)entries, (unsigned long long)kHubShare, (unsigned long long)g.num_edges(),
               (unsigned long long)warps, (unsigned long long)kMinHubEntries);
  return entries;
}

template <class Index>
class PageRankProblem {
 public:
  static constexpr Algorithm kAlgorithm = Algorithm::PageRank;

  PageRankProblem(const MappedCsr& g, const MatrixOptions& opt)
      : g_(g), corrupt_(opt.corrupt_for_testing), hub_entries_(hub_entries_of(g, opt)),
        state_(g.num_vertices(), g.num_edges(), hub_lists(g, hub_entries_), hub_entries_), value_(g.num_vertices()),
        reference_(opt.pr_reference) {
    params_.alpha = opt.pr_alpha;
    params_.tolerance = opt.pr_tolerance;
    params_.max_iterations = opt.pr_max_iterations;
  }

  void expect(uint64_t) {}  // the check needs no precomputed reference
  // The runs table's pr_hub_entries: what gauss-seidel deferred (0: nothing); the other schedules defer nothing.
  std::string hub_entries(Variant v) const { return v == Variant::GaussSeidel ? std::to_string(hub_entries_) : ""; }

  template <class Access>
  RunStats scan(const DeviceGraph<Index>& g, uint64_t, uint64_t max_warps, ListReads& reads) {
    return pagerank<Access>(g, true, max_warps, params_, reads, state_);
  }
  // `frontier`: pagerank's work-list schedule, which leaves its Access unused.
  RunStats own(Variant v, const DeviceGraph<Index>& g, uint64_t, uint64_t max_warps, ListReads& reads) {
    switch (v) {
      case Variant::Frontier: return pagerank<MergedAlignedAccess>(g, false, max_warps, params_, reads, state_);
      case Variant::GaussSeidel: return pagerank_gauss_seidel(g, max_warps, params_, reads, state_);
      default: throw std::logic_error("no PageRank kernel for this variant");
    }
  }

  Verified verify(uint64_t, const RunStats& stats, const std::string& what) {
    if (stats.iterations >= params_.max_iterations)
      throw std::runtime_error("PageRank did not converge in " + std::to_string(params_.max_iterations) + " rounds (" +
                               what + ")");
    EMOGI_CUDA_CHECK(
        cudaMemcpy(value_.data(), state_.value.data(), value_.size() * sizeof(float), cudaMemcpyDeviceToHost));
    if (corrupt_) value_.back() += 1.0f;
    const PageRankCheck check = check_pagerank(g_.offsets(), g_.edges_as<Index>(), g_.num_vertices(), !g_.directed(),
                                               value_, params_.alpha, params_.tolerance);
    if (!check.failure.empty()) throw std::runtime_error("PageRank result mismatch (" + what + "): " + check.failure);
    if (!reference_.empty()) {  // untimed: the distance of this run's values to --pr-reference's
      double l1 = 0;
      for (size_t v = 0; v < value_.size(); ++v) l1 += std::fabs(double(value_[v]) - reference_[v]);
      std::fprintf(stderr, "pagerank l1_to_reference: %.6g (%s)\n", value_.empty() ? 0.0 : l1 / double(value_.size()),
                   what.c_str());
    }
    return {stats.edges_traversed, 0, 0};
  }

 private:
  const MappedCsr& g_;
  bool corrupt_;
  uint64_t hub_entries_;  // gauss-seidel defers lists longer than this (0: off)
  PageRankParams params_;
  PageRankState<Index> state_;
  std::vector<float> value_;
  const std::vector<double>& reference_;  // --pr-reference (empty: none)
};

}  // namespace

void measure_pagerank(const MappedCsr& g, const MatrixOptions& opt) { measure_by_width<PageRankProblem>(g, opt); }

}  // namespace emogi
