#include "emogi/cpu/segments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace emogi::cpu {

uint64_t segments_for_cache(uint64_t num_vertices, uint64_t bytes_per_vertex, uint64_t llc_bytes, double llc_fraction) {
  if (llc_bytes == 0) throw std::invalid_argument("the LLC size is unknown: give --llc BYTES or --segments N");
  if (!(llc_fraction > 0 && llc_fraction <= 1)) throw std::invalid_argument("--llc-fraction must lie in (0, 1]");
  const double room = double(llc_bytes) * llc_fraction;
  return std::max<uint64_t>(1, uint64_t(std::ceil(double(num_vertices) * double(bytes_per_vertex) / room)));
}

template <class Index>
SegmentedGraph<Index> build_segments(const InLists<Index>& in, uint64_t segments) {
  if (segments == 0) throw std::invalid_argument("--segments must be at least 1 (0 segments hold no edges)");
  if (segments > kMaxSegments)
    throw std::invalid_argument("--segments " + std::to_string(segments) + " is above " + std::to_string(kMaxSegments));
  const uint64_t n = in.num_vertices, s = segments;
  // Blocks of destinations; each block counts per segment, so blocks x segments cells, kept under 2^24.
  const uint64_t block = std::max<uint64_t>(4096, (n * s >> 24) + 1);
  const uint64_t blocks = (n + block - 1) / block;
  std::vector<uint64_t> homes(s * blocks, 0), edges(s * blocks, 0);  // cell [segment][block]
  auto walk = [&](uint64_t b, std::vector<uint64_t>& last, auto&& visit) {
    std::fill(last.begin(), last.end(), std::numeric_limits<uint64_t>::max());
    for (uint64_t v = b * block; v < std::min(n, (b + 1) * block); ++v)
      for (uint64_t i = in.offsets[v]; i < in.offsets[v + 1]; ++i) {
        const uint64_t u = uint64_t(in.edges[i]), seg = segment_of(u, n, s);
        visit(v, u, seg, last[seg] != v);
        last[seg] = v;
      }
  };
#pragma omp parallel
  {
    std::vector<uint64_t> last(s);
#pragma omp for schedule(dynamic, 1)
    for (int64_t b = 0; b < int64_t(blocks); ++b)
      walk(uint64_t(b), last, [&](uint64_t, uint64_t, uint64_t seg, bool first) {
        homes[seg * blocks + b] += first;
        ++edges[seg * blocks + b];
      });
  }
  // Exclusive prefix sums in [segment][block] order: where each block writes in each segment.
  uint64_t total_home = 0, total_edges = 0;
  for (uint64_t c = 0; c < s * blocks; ++c) {
    const uint64_t h = homes[c], e = edges[c];
    homes[c] = total_home;
    edges[c] = total_edges;
    total_home += h;
    total_edges += e;
  }
  SegmentedGraph<Index> g;
  g.num_vertices = n;
  g.num_segments = s;
  g.home_begin = HugeArray<uint64_t>(s + 1);
  for (uint64_t i = 0; i < s; ++i) g.home_begin[i] = blocks ? homes[i * blocks] : 0;
  g.home_begin[s] = total_home;
  g.home = HugeArray<Index>(total_home);
  g.edge_begin = HugeArray<uint64_t>(total_home + 1);
  g.edge_begin[total_home] = total_edges;
  g.edges = HugeArray<Index>(total_edges);
#pragma omp parallel
  {
    std::vector<uint64_t> last(s), home_at(s), edge_at(s);
#pragma omp for schedule(dynamic, 1)
    for (int64_t b = 0; b < int64_t(blocks); ++b) {
      for (uint64_t i = 0; i < s; ++i) {
        home_at[i] = homes[i * blocks + b];
        edge_at[i] = edges[i * blocks + b];
      }
      walk(uint64_t(b), last, [&](uint64_t v, uint64_t u, uint64_t seg, bool first) {
        if (first) {
          g.home[home_at[seg]] = Index(v);
          g.edge_begin[home_at[seg]++] = edge_at[seg];
        }
        g.edges[edge_at[seg]++] = Index(u);
      });
    }
  }
  return g;
}

template SegmentedGraph<uint32_t> build_segments(const InLists<uint32_t>&, uint64_t);
template SegmentedGraph<uint64_t> build_segments(const InLists<uint64_t>&, uint64_t);

}  // namespace emogi::cpu
