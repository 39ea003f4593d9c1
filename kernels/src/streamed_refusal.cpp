#include "emogi/streamed_refusal.hpp"

namespace emogi {

std::string streamed_refusal(Algorithm algorithm, Variant variant, const StreamPlan& plan, StreamLayout layout) {
  const std::string what = std::string(name_of(algorithm)) + " " + name_of(variant);
  if (layout == StreamLayout::Columns && algorithm != Algorithm::Spmv)
    return what + ": --stream-layout columns cuts a matrix into column blocks for SpMV only (" + name_of(algorithm) +
           " streams by rows: --stream-layout rows)";
  if (!streams(algorithm, variant)) {
    std::string covered;
    for (Variant v : variants_of(algorithm))
      if (streams(algorithm, v)) covered += (covered.empty() ? "" : ", ") + std::string(name_of(v));
    return what + " does not stream its lists (streamed runs " + name_of(algorithm) + " " +
           (covered.empty() ? std::string("in no variant") : covered) + "; emogi/registry.yaml, `streamed`)";
  }
  if (algorithm == Algorithm::PageRank && variant == Variant::GaussSeidel && plan.split_lists > 0)
    return what + ": vertex " + std::to_string(plan.first_split) + "'s list (and " +
           std::to_string(plan.split_lists - 1) + " more) is longer than a streamed block of " +
           std::to_string(plan.capacity_entries) +
           " entries; gauss-seidel takes a vertex's residual once and pushes it along the whole list, so it cannot "
           "split a list: give a larger --stream-block-bytes or a scan variant";
  return "";
}

}  // namespace emogi
