// The in-neighbour lists a pull kernel reads: an undirected (symmetric) graph's own lists, or, for a directed
// graph, its transpose: the transpose file beside it (csr_transpose.hpp) when there is one, else built in memory
// (with progress on stderr).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emogi/cpu/huge_array.hpp"
#include "emogi/csr.hpp"

namespace emogi::cpu {

template <class Index>
struct InLists {
  InLists() = default;
  InLists(const InLists&) = delete;  // the pointers may point into the owned vectors, which a move keeps
  InLists(InLists&&) = default;
  uint64_t num_vertices = 0;
  const uint64_t* offsets = nullptr;  // in-list of v: edges[offsets[v], offsets[v + 1])
  const Index* edges = nullptr;
  const uint64_t* out_offsets = nullptr;  // out-degrees (the shares a vertex sends): the graph's own offsets
  std::vector<uint64_t> owned_offsets;    // the transpose's, when built
  std::vector<Index> owned_edges;
  std::unique_ptr<MappedCsr> transpose_file;               // the transpose file the pointers point into, when read
  HugeArray<uint64_t> copied_offsets, copied_out_offsets;  // copy_lists' copies, when made
  HugeArray<Index> copied_edges;

  uint64_t num_edges() const { return offsets[num_vertices]; }
  uint64_t out_degree(uint64_t v) const { return out_offsets[v + 1] - out_offsets[v]; }
};

// Plain lists as given (tests, and graphs already in memory): symmetric, so in-lists are out-lists.
template <class Index>
InLists<Index> symmetric_lists(const uint64_t* offsets, const Index* edges, uint64_t num_vertices) {
  InLists<Index> in;
  in.num_vertices = num_vertices;
  in.offsets = in.out_offsets = offsets;
  in.edges = edges;
  return in;
}

// Copies the lists (offsets, edges, and the out-offsets when they are another array) into anonymous memory on
// huge pages (huge_array.hpp), in parallel, and points `in` at the copies; frees what `in` owned before. A mapped
// file's pages are the page cache's, always 4 KiB; the copy costs the lists' bytes again in memory.
template <class Index>
void copy_lists(InLists<Index>& in);

// The transpose of out-lists (each in-list in ascending source order).
template <class Index>
InLists<Index> transpose_lists(const uint64_t* offsets, const Index* edges, uint64_t num_vertices, bool progress);

// A graph file's in-lists: its own when undirected, else its transpose: the file `transpose` (checked and paired
// with g), else the one beside g by the naming rule if it exists, else built in memory.
template <class Index>
InLists<Index> in_lists(const MappedCsr& g, const std::string& transpose = "", bool progress = true);

}  // namespace emogi::cpu
