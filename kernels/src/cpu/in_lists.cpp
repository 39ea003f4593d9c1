#include "emogi/cpu/in_lists.hpp"

#include <sys/stat.h>

#include <cstdio>

#include "emogi/csr_transpose.hpp"

namespace emogi::cpu {

template <class Index>
InLists<Index> transpose_lists(const uint64_t* offsets, const Index* edges, uint64_t num_vertices, bool progress) {
  InLists<Index> in;
  in.num_vertices = num_vertices;
  in.out_offsets = offsets;
  const uint64_t e = offsets[num_vertices];
  in.owned_offsets.assign(num_vertices + 1, 0);
  for (uint64_t i = 0; i < e; ++i) ++in.owned_offsets[uint64_t(edges[i]) + 1];
  for (uint64_t v = 0; v < num_vertices; ++v) in.owned_offsets[v + 1] += in.owned_offsets[v];
  std::vector<uint64_t> next(in.owned_offsets.begin(), in.owned_offsets.end() - 1);
  in.owned_edges.resize(e);
  const uint64_t report_every = uint64_t(1) << 28;
  for (uint64_t u = 0; u < num_vertices; ++u) {
    for (uint64_t i = offsets[u]; i < offsets[u + 1]; ++i) in.owned_edges[next[edges[i]]++] = Index(u);
    if (progress && offsets[u + 1] / report_every != offsets[u] / report_every)
      std::fprintf(stderr, "transpose: %.0f%% of %llu edges\n", 100.0 * double(offsets[u + 1]) / double(e),
                   (unsigned long long)e);
  }
  in.offsets = in.owned_offsets.data();
  in.edges = in.owned_edges.data();
  return in;
}

template <class Index>
InLists<Index> in_lists(const MappedCsr& g, const std::string& transpose, bool progress) {
  if (!g.directed()) return symmetric_lists(g.offsets(), g.edges_as<Index>(), g.num_vertices());
  struct stat st{};
  const std::string beside = transpose_path(g.path());
  if (!transpose.empty() || ::stat(beside.c_str(), &st) == 0) {
    InLists<Index> in;
    in.transpose_file = open_transpose(g, transpose);
    in.num_vertices = g.num_vertices();
    in.out_offsets = g.offsets();
    in.offsets = in.transpose_file->offsets();
    in.edges = in.transpose_file->template edges_as<Index>();
    if (progress)
      std::fprintf(stderr, "%s is directed: its in-lists from %s\n", g.path().c_str(),
                   in.transpose_file->path().c_str());
    return in;
  }
  if (progress)
    std::fprintf(stderr, "%s is directed: building its transpose in memory (%s writes it to %s once)\n",
                 g.path().c_str(), transpose_command(g.path()).c_str(), beside.c_str());
  return transpose_lists(g.offsets(), g.edges_as<Index>(), g.num_vertices(), progress);
}

namespace {
template <class T>
HugeArray<T> parallel_copy(const T* from, uint64_t n) {
  HugeArray<T> to(n);
  T* out = to.get();
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < int64_t(n); ++i) out[i] = from[i];
  return to;
}
}  // namespace

template <class Index>
void copy_lists(InLists<Index>& in) {
  const uint64_t n = in.num_vertices;
  const bool same = in.out_offsets == in.offsets;
  in.copied_edges = parallel_copy(in.edges, in.num_edges());
  in.copied_offsets = parallel_copy(in.offsets, n + 1);
  if (!same) in.copied_out_offsets = parallel_copy(in.out_offsets, n + 1);
  in.offsets = in.copied_offsets.get();
  in.out_offsets = same ? in.offsets : in.copied_out_offsets.get();
  in.edges = in.copied_edges.get();
  std::vector<uint64_t>().swap(in.owned_offsets);
  std::vector<Index>().swap(in.owned_edges);
  in.transpose_file.reset();
}

template InLists<uint32_t> transpose_lists(const uint64_t*, const uint32_t*, uint64_t, bool);
template InLists<uint64_t> transpose_lists(const uint64_t*, const uint64_t*, uint64_t, bool);
template void copy_lists(InLists<uint32_t>&);
template void copy_lists(InLists<uint64_t>&);
template InLists<uint32_t> in_lists(const MappedCsr&, const std::string&, bool);
template InLists<uint64_t> in_lists(const MappedCsr&, const std::string&, bool);

}  // namespace emogi::cpu
