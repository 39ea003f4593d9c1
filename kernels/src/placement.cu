#include "emogi/placement.cuh"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "emogi/cuda_check.hpp"
#include "emogi/moved_lists.hpp"

namespace emogi {
namespace {

size_t free_gpu_bytes() {
  size_t free = 0, total = 0;
  EMOGI_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

bool zero_copy_managed_allowed(size_t bytes, const ManagedPolicy& policy) {
  try {
    check_managed_allocation(bytes, policy, /*migrates=*/false);
    return true;
  } catch (const std::runtime_error&) {
    return false;
  }
}

}  // namespace

PlacedArray::PlacedArray(MemoryMode mode, const void* host, size_t bytes, const ManagedPolicy& managed) {
  if (mode == MemoryMode::Auto)
    throw std::invalid_argument("auto places an array in two parts (the other constructor)");
  auto store = std::make_unique<EdgeStore>(mode, host, bytes, managed);
  if (mode == MemoryMode::Device) {
    near_ = std::move(store), near_bytes_ = bytes;
    split_ = UINT64_MAX;  // every position is read from GPU memory
  } else {
    far_ = std::move(store);
  }
}

PlacedArray::PlacedArray(const void* host, size_t bytes, const void* near, size_t near_bytes, size_t element_bytes,
                         uint64_t far_from, const ManagedPolicy& managed)
    : near_bytes_(near_bytes), split_(near_bytes / element_bytes), far_from_(far_from) {
  if (near_bytes) near_ = std::make_unique<EdgeStore>(MemoryMode::Device, near, near_bytes, managed);
  if (far_from || near_bytes < bytes) {
    const MemoryMode rest =
        zero_copy_managed_allowed(bytes, managed) ? MemoryMode::ZeroCopy : MemoryMode::ZeroCopyPinned;
    far_ = std::make_unique<EdgeStore>(rest, host, bytes, managed);
  }
}

void PlacedArray::prepare_run() {
  if (near_) near_->prepare_run();
  if (far_) far_->prepare_run();
}

GraphPlacement::GraphPlacement(const MappedCsr& g, MemoryMode mode, bool with_weights, const PlacementOptions& options)
    : num_vertices_(g.num_vertices()), num_edges_(g.num_edges()), added_latency_cycles_(options.added_latency_cycles),
      mode_(mode), order_(options.auto_order) {
  if (with_weights && !g.has_weights())
    throw std::invalid_argument(g.path() +
                                " has no weights section (SSSP needs one; regenerate or convert it with weights)");
  const size_t edge_bytes = g.edge_list_bytes(), weight_bytes = with_weights ? g.num_edges() * sizeof(uint32_t) : 0;
  // Managed modes: edges and weights together must pass the guard, not just each on its own.
  if (is_managed(mode)) check_managed_allocation(edge_bytes + weight_bytes, options.managed, is_uvm(mode));
  if (mode == MemoryMode::Streamed) {
    streamed_ = std::make_unique<StreamedLists>(g, with_weights, options.stream);
    return;
  }
  if (mode != MemoryMode::Auto) {
    edges_ = std::make_unique<PlacedArray>(mode, g.edges(), edge_bytes, options.managed);
    if (with_weights) weights_ = std::make_unique<PlacedArray>(mode, g.weights(), weight_bytes, options.managed);
    entries_in_gpu_ = mode == MemoryMode::Device ? num_edges_ : 0;
    return;
  }
  const size_t free = std::min(free_gpu_bytes(), gpu_budget().left());  // after the vertex data
  const size_t budget = free > options.auto_reserve_bytes ? free - options.auto_reserve_bytes : 0;
  // Where everything fits, the prefix is all of it (`device`); moving whole lists would only reorder them. The
  // log then says prefix, whatever was asked.
  if (budget >= edge_bytes + weight_bytes) order_ = AutoOrder::Prefix;
  if (order_ == AutoOrder::Prefix)
    place_prefix(g, with_weights, budget, options.managed);
  else
    place_whole_lists(g, with_weights, budget, options);
}

void GraphPlacement::place_prefix(const MappedCsr& g, bool with_weights, size_t budget, const ManagedPolicy& managed) {
  // Whole 128-byte lines in GPU memory, so no request straddles the two copies.
  auto prefix = [&](const void* host, size_t bytes, size_t element_bytes) {
    const size_t near = std::min(bytes, budget / 128 * 128);
    budget -= near;
    return std::make_unique<PlacedArray>(host, bytes, host, near, element_bytes, 0, managed);
  };
  edges_ = prefix(g.edges(), g.edge_list_bytes(), g.index_bytes());
  entries_in_gpu_ = edges_->device_bytes() / g.index_bytes();
  if (with_weights) weights_ = prefix(g.weights(), g.num_edges() * sizeof(uint32_t), sizeof(uint32_t));
}

void GraphPlacement::place_whole_lists(const MappedCsr& g, bool with_weights, size_t budget,
                                       const PlacementOptions& options) {
  const ManagedPolicy& managed = options.managed;
  const size_t weight = with_weights ? sizeof(uint32_t) : 0, entry_bytes = g.index_bytes() + weight;
  const size_t starts_bytes = num_vertices_ * sizeof(uint64_t);  // counted, so every order uses the same memory
  budget = budget > starts_bytes ? budget - starts_bytes : 0;
  MovedLists moved;
  if (order_ == AutoOrder::HottestFirst) {
    const std::vector<uint32_t>& reads = options.auto_hot;
    if (reads.size() != num_vertices_)  // run_command checks the file; this guards other callers
      throw std::invalid_argument("hottest-first needs one read count per vertex: " + std::to_string(reads.size()) +
                                  " for " + std::to_string(num_vertices_) + " vertices");
    moved = move_hot_lists(g.offsets(), num_vertices_, entry_bytes, budget, reads.data());
    read_share_ = read_share(g.offsets(), num_vertices_, reads.data(), moved);
  } else {
    moved = move_lists(g.offsets(), num_vertices_, entry_bytes, budget, order_ == AutoOrder::LongestFirst);
  }
  lists_moved_ = moved.vertices.size();
  entries_in_gpu_ = moved.entries;
  starts_ = std::make_unique<DeviceArray<uint64_t>>(moved.starts.data(), num_vertices_, "the lists' start positions");
  auto place = [&](const void* host, size_t element_bytes) {
    const std::vector<unsigned char> near = gather_moved(host, element_bytes, g.offsets(), moved);
    return std::make_unique<PlacedArray>(host, num_edges_ * element_bytes, near.data(), near.size(), element_bytes,
                                         moved.shift, managed);
  };
  edges_ = place(g.edges(), g.index_bytes());
  if (with_weights) weights_ = place(g.weights(), weight);
}

void GraphPlacement::prepare_run() {
  if (streamed_) return streamed_->prepare_run();
  edges_->prepare_run();
  if (weights_) weights_->prepare_run();
}

std::string GraphPlacement::describe() const {
  if (streamed_) return streamed_->describe();
  char buf[320];
  const double gib = double(size_t(1) << 30);
  const std::string order = mode_ == MemoryMode::Auto ? std::string(" (") + name_of(order_) + ")" : "";
  std::string lists = lists_moved_ ? ", " + std::to_string(lists_moved_) + " whole lists" : "";
  if (read_share_ >= 0) {
    char share[64];
    std::snprintf(share, sizeof share, ", %.1f%% of the traced reads", 100 * read_share_);
    lists += share;
  }
  std::snprintf(
      buf, sizeof buf, "%s%s: edges %.2f GiB in GPU memory (%llu of %llu entries%s)%s", name_of(mode_), order.c_str(),
      edges_->device_bytes() / gib, (unsigned long long)entries_in_gpu_, (unsigned long long)num_edges_, lists.c_str(),
      weights_ ? (", weights " + std::to_string(weights_->device_bytes() >> 20) + " MiB in GPU memory").c_str() : "");
  return buf;
}

}  // namespace emogi
