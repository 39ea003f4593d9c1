// Puts a graph's edge list (and weights, when an algorithm reads them) in a memory mode and hands kernels the
// DeviceGraph view. `auto` keeps as much as fits in free GPU memory (a prefix of the edge list, then of the
// weights) and reads the rest by zero-copy: managed memory where the guard allows it, pinned memory otherwise.
#pragma once
#include <cstdint>
#include <memory>

#include "emogi/csr.hpp"
#include "emogi/edge_store.cuh"
#include "emogi/graph_view.cuh"

namespace emogi {

struct PlacementOptions {
  ManagedPolicy managed;
  size_t auto_reserve_bytes = size_t(1) << 30;  // GPU memory `auto` leaves free for vertex data and the driver
};

// One array (edges or weights) in one mode.
class PlacedArray {
 public:
  PlacedArray(MemoryMode mode, const void* host, size_t bytes, size_t element_bytes, size_t device_budget,
              const ManagedPolicy& managed);
  void prepare_run();
  const void* near() const { return near_ ? near_->data() : far_->data(); }
  const void* far() const { return far_ ? far_->data() : near_->data(); }
  uint64_t split() const { return split_; }  // elements read from `near`
  size_t device_bytes() const { return near_ ? near_bytes_ : 0; }

 private:
  std::unique_ptr<EdgeStore> near_, far_;
  size_t near_bytes_ = 0;
  uint64_t split_ = 0;
};

class GraphPlacement {
 public:
  GraphPlacement(const MappedCsr& g, MemoryMode mode, bool with_weights, const PlacementOptions& options);
  void prepare_run();  // before every timed run (UVM: evict to the host so the run starts cold)
  template <class Index>
  DeviceGraph<Index> view(const uint64_t* device_offsets) const {
    DeviceGraph<Index> d{};
    d.offsets = device_offsets;
    d.edges = {static_cast<const Index*>(edges_->near()), static_cast<const Index*>(edges_->far()), edges_->split()};
    if (weights_)
      d.weights = {static_cast<const uint32_t*>(weights_->near()), static_cast<const uint32_t*>(weights_->far()),
                   weights_->split()};
    d.num_vertices = num_vertices_;
    d.num_edges = num_edges_;
    return d;
  }
  std::string describe() const;  // where the bytes went, for the log

 private:
  uint64_t num_vertices_, num_edges_;
  MemoryMode mode_;
  std::unique_ptr<PlacedArray> edges_, weights_;
};

}  // namespace emogi
