// Segmented subgraphs (the GraphIt thesis §3.1, "fixed-vertex-count"): the source vertices are cut into s ranges of
// equal size, R_i = [floor(i V / s), floor((i + 1) V / s)), and segment i holds every in-edge whose source lies in
// R_i, grouped by destination: its home vertices (the destinations with at least one such edge, ascending), and
// each one's edges in the order of its in-list. A pull kernel that walks one segment at a time reads the vertex data
// of R_i only, which is chosen to fit the last-level cache. The duplication factor alpha = sum |V_i| / |V| (the
// thesis' Table 5.2) counts how often a destination is written per pass.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>

#include "emogi/cpu/huge_array.hpp"
#include "emogi/cpu/in_lists.hpp"

namespace emogi::cpu {

// The segment of source vertex u among s equal ranges of V vertices.
inline uint64_t segment_of(uint64_t u, uint64_t num_vertices, uint64_t segments) {
  return uint64_t(((unsigned __int128)segments * (u + 1) - 1) / num_vertices);
}
inline uint64_t range_begin(uint64_t i, uint64_t num_vertices, uint64_t segments) {
  return uint64_t((unsigned __int128)i * num_vertices / segments);
}

// Segments for vertex data of `bytes_per_vertex` bytes, so that one range's data take at most `llc_fraction` of
// an LLC of `llc_bytes`: ceil(V * bytes_per_vertex / (llc_bytes * llc_fraction)), at least 1.
uint64_t segments_for_cache(uint64_t num_vertices, uint64_t bytes_per_vertex, uint64_t llc_bytes, double llc_fraction);

// The largest segment count accepted (segment_of's product must fit 64 bits for 2^32 vertices).
constexpr uint64_t kMaxSegments = uint64_t(1) << 24;

template <class Index>
struct SegmentedGraph {
  uint64_t num_vertices = 0, num_segments = 0;
  // Segment i's home vertices are home[home_begin[i], home_begin[i + 1]); home vertex j's sources are
  // edges[edge_begin[j], edge_begin[j + 1]).
  HugeArray<uint64_t> home_begin;  // num_segments + 1
  HugeArray<Index> home;           // total_home()
  HugeArray<uint64_t> edge_begin;  // total_home() + 1
  HugeArray<Index> edges;          // E

  uint64_t total_home() const { return home_begin[num_segments]; }
  double duplication() const { return num_vertices ? double(total_home()) / double(num_vertices) : 0.0; }
};

// Builds the segments in two parallel passes over the in-lists (count, then fill), by blocks of destinations, so
// no edge is copied twice. Throws on segments = 0 or above kMaxSegments.
template <class Index>
SegmentedGraph<Index> build_segments(const InLists<Index>& in, uint64_t segments);

// A run's segmented graph (none for segments = 0: the unblocked kernel) and the seconds building it took, which
// the commands report beside the kernel's time.
template <class Index>
std::unique_ptr<SegmentedGraph<Index>> timed_segments(const InLists<Index>& in, uint64_t segments, double& build_s) {
  build_s = 0;
  if (!segments) return nullptr;
  const auto start = std::chrono::steady_clock::now();
  auto seg = std::make_unique<SegmentedGraph<Index>>(build_segments(in, segments));
  build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return seg;
}

}  // namespace emogi::cpu
