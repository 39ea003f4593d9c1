// Puts a graph's edge list (and weights, when an algorithm reads them) in a memory mode and hands kernels the
// DeviceGraph view. `auto` keeps as much as fits in free GPU memory and reads the rest by zero-copy (managed
// memory where the guard allows it, pinned memory otherwise). What it keeps when not all fits is its order:
// `prefix`, a prefix of the edge list and then of the weights; `longest-first`, `shortest-first` or
// `hottest-first` (by a trace's read counts), whole lists with their weights (moved_lists.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emogi/csr.hpp"
#include "emogi/device_array.cuh"
#include "emogi/edge_store.cuh"
#include "emogi/graph_view.cuh"
#include "emogi/streamed_lists.cuh"

namespace emogi {

// The order `auto` takes unless told (--auto-order), from GAP-24 runs with 1-2 GiB of GPU memory for the lists
// (archive/auto-order-h100-2026-11-21). PageRank re-reads a long list more often than a short one: longest-first
// cut its time by 9-26% against the prefix. The traversals read each list about once, and a short list costs the
// link more per byte: shortest-first cut BFS (direction-optimizing) by 6-30% and CC (afforest) by 4-40%, and
// SSSP (frontier) by 1-3% at three of four budgets (2% slower at the fourth).
inline AutoOrder default_auto_order(Algorithm a) {
  return a == Algorithm::PageRank ? AutoOrder::LongestFirst : AutoOrder::ShortestFirst;
}

struct PlacementOptions {
  ManagedPolicy managed;
  size_t auto_reserve_bytes = size_t(1) << 30;  // GPU memory `auto` leaves free for vertex data and the driver
  AutoOrder auto_order = AutoOrder::Prefix;     // run_command sets default_auto_order(algorithm)
  std::vector<uint32_t> auto_hot;               // hottest-first: launches that read each vertex's list (--auto-hot)
  uint32_t added_latency_cycles = 0;            // added-latency emulation (added_latency.cuh); 0: none
  StreamOptions stream;                         // the streamed mode's blocks and buffers
};

// One array (edges or weights): whole in one fixed mode, or (auto) positions [0, split) read from a copy in GPU
// memory and the rest by zero-copy, position i at i - far_from of the whole array.
class PlacedArray {
 public:
  PlacedArray(MemoryMode mode, const void* host, size_t bytes, const ManagedPolicy& managed);
  // auto: `near_bytes` from `near` into GPU memory; the whole array zero-copy unless `near` is all of it.
  PlacedArray(const void* host, size_t bytes, const void* near, size_t near_bytes, size_t element_bytes,
              uint64_t far_from, const ManagedPolicy& managed);
  void prepare_run();
  template <class T>
  SplitArray<T> view() const {
    return {static_cast<const T*>(near_ ? near_->data() : far_->data()),
            static_cast<const T*>(far_ ? far_->data() : near_->data()), split_, far_from_};
  }
  size_t device_bytes() const { return near_ ? near_bytes_ : 0; }

 private:
  std::unique_ptr<EdgeStore> near_, far_;
  size_t near_bytes_ = 0;
  uint64_t split_ = 0, far_from_ = 0;
};

class GraphPlacement {
 public:
  GraphPlacement(const MappedCsr& g, MemoryMode mode, bool with_weights, const PlacementOptions& options);
  void prepare_run();  // before every timed run (UVM: evict to the host so the run starts cold)
  template <class Index>
  DeviceGraph<Index> view(const uint64_t* device_offsets) const {
    DeviceGraph<Index> d{};
    d.offsets = device_offsets;
    d.starts = starts_ ? starts_->data() : device_offsets;
    if (edges_) d.edges = edges_->view<Index>();  // streamed: none until a block is pointed at (ListReads)
    if (weights_) d.weights = weights_->view<uint32_t>();
    d.num_vertices = num_vertices_;
    d.num_edges = num_edges_;
    d.added_latency_cycles = added_latency_cycles_;
    return d;
  }
  std::string describe() const;                                // where the bytes went, for the log
  StreamedLists* streamed() const { return streamed_.get(); }  // the streamed mode's blocks, else null

 private:
  void place_prefix(const MappedCsr& g, bool with_weights, size_t budget, const ManagedPolicy& managed);
  void place_whole_lists(const MappedCsr& g, bool with_weights, size_t budget, const PlacementOptions& options);

  uint64_t num_vertices_, num_edges_;
  uint32_t added_latency_cycles_;
  MemoryMode mode_;
  AutoOrder order_;
  uint64_t lists_moved_ = 0, entries_in_gpu_ = 0;
  double read_share_ = -1;  // hottest-first: c, the moved lists' share of the traced read bytes
  std::unique_ptr<PlacedArray> edges_, weights_;
  std::unique_ptr<DeviceArray<uint64_t>> starts_;  // whole lists moved only
  std::unique_ptr<StreamedLists> streamed_;
};

}  // namespace emogi
