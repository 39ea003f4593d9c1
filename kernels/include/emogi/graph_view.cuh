// What a kernel sees of a graph: the vertex list in GPU memory and the edge list (and weights) wherever the
// memory mode put them. An array may be split: positions below `split` are read from a copy in GPU memory,
// the rest from host memory (the `auto` mode); the other modes use one pointer for everything.
//
// Kernels find vertex v's list at [list_begin(v), list_end(v)). That is [offsets[v], offsets[v + 1]) unless
// `auto` copied some whole lists to GPU memory out of order (placement.cuh, moved_lists.hpp): then
// `starts` says where each list begins in the combined positions (the copy first, then the file's lists).
//
// Variants that read in-neighbours (the registry's in_lists: bottom-up BFS) see them through in_lists(): the
// lists themselves on an undirected graph; on a directed one, its transpose file (csr_transpose.hpp), placed in
// the same memory mode by a placement of its own (`in`).
#pragma once
#include <cstdint>

namespace emogi {

template <class T>
struct SplitArray {
  const T* near = nullptr;  // GPU-memory copy of positions [0, split)
  const T* far = nullptr;   // the whole array, as the mode placed it
  uint64_t split = 0;
  uint64_t far_from = 0;  // position i >= split is far[i - far_from]
  __device__ __forceinline__ T operator[](uint64_t i) const { return i < split ? near[i] : far[i - far_from]; }
};

// What the walks (access.cuh) read at a list position: the neighbour, or the neighbour and the edge's weight.
template <class Index>
struct NeighborReader {
  SplitArray<Index> edges;
  uint32_t added_cycles = 0;  // added-latency emulation (added_latency.cuh); 0: none
  __device__ __forceinline__ uint64_t operator()(uint64_t i) const { return edges[i]; }
};

struct WeightedNeighbor {
  uint64_t id;
  uint32_t weight;
};

template <class Index>
struct WeightedNeighborReader {
  SplitArray<Index> edges;
  SplitArray<uint32_t> weights;
  uint32_t added_cycles = 0;
  __device__ __forceinline__ WeightedNeighbor operator()(uint64_t i) const { return {edges[i], weights[i]}; }
};

// A directed graph's in-lists as placed: the transpose's vertex list (GPU memory), list starts and edge list.
template <class Index>
struct InListsView {
  const uint64_t* offsets = nullptr;  // null: none (the graph's own lists are its in-lists)
  const uint64_t* starts = nullptr;
  SplitArray<Index> edges;
};

template <class Index>
struct DeviceGraph {
  const uint64_t* offsets;  // V + 1 entries, GPU memory
  const uint64_t* starts;   // V entries, GPU memory: where each list begins in `edges` (== offsets unless moved)
  SplitArray<Index> edges;
  SplitArray<uint32_t> weights;  // empty unless the algorithm reads weights
  uint64_t num_vertices;
  uint64_t num_edges;
  uint32_t added_latency_cycles = 0;  // cycles each list read waits after it arrives (added_latency.cuh); 0: none
  // The list positions a launch may read: all of them, except in the streamed mode, where a launch sees one block
  // (streamed_lists.cuh) and a list split across blocks is read part by part.
  uint64_t window_begin = 0, window_end = ~uint64_t(0);
  InListsView<Index> in;  // a directed graph's transpose, when a variant reads in-lists
  __device__ __forceinline__ uint64_t degree(uint64_t v) const { return offsets[v + 1] - offsets[v]; }
  __device__ __forceinline__ uint64_t list_begin(uint64_t v) const {
    return starts[v] > window_begin ? starts[v] : window_begin;
  }
  __device__ __forceinline__ uint64_t list_end(uint64_t v) const {
    const uint64_t end = starts[v] + degree(v);
    return end < window_end ? end : window_end;
  }
  __host__ __device__ NeighborReader<Index> neighbors() const { return {edges, added_latency_cycles}; }
  __host__ __device__ WeightedNeighborReader<Index> weighted_neighbors() const {
    return {edges, weights, added_latency_cycles};
  }
  // The graph of in-lists: list v holds the vertices with an edge to v (no weights).
  DeviceGraph in_lists() const {
    if (!in.offsets) return *this;
    DeviceGraph t = *this;
    t.offsets = in.offsets, t.starts = in.starts, t.edges = in.edges, t.weights = {}, t.in = {};
    return t;
  }
};

}  // namespace emogi
