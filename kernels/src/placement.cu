#include "emogi/placement.cuh"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "emogi/cuda_check.hpp"

namespace emogi {
namespace {

size_t free_gpu_bytes() {
  size_t free = 0, total = 0;
  EMOGI_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

bool managed_allowed(size_t bytes, const ManagedPolicy& policy) {
  try {
    check_managed_allocation(bytes, policy);
    return true;
  } catch (const std::runtime_error&) {
    return false;
  }
}

}  // namespace

PlacedArray::PlacedArray(MemoryMode mode, const void* host, size_t bytes, size_t element_bytes, size_t device_budget,
                         const ManagedPolicy& managed) {
  if (mode != MemoryMode::Auto) {
    far_ = std::make_unique<EdgeStore>(mode, host, bytes, managed);
    split_ = mode == MemoryMode::Device ? bytes / element_bytes : 0;
    if (mode == MemoryMode::Device) std::swap(near_, far_), near_bytes_ = bytes;
    return;
  }
  // Whole 128-byte lines in GPU memory, so no request straddles the two copies.
  near_bytes_ = std::min(bytes, device_budget) / 128 * 128;
  if (near_bytes_ >= bytes) near_bytes_ = bytes;
  if (near_bytes_) near_ = std::make_unique<EdgeStore>(MemoryMode::Device, host, near_bytes_, managed);
  split_ = near_bytes_ / element_bytes;
  if (near_bytes_ < bytes) {
    const MemoryMode rest = managed_allowed(bytes, managed) ? MemoryMode::ZeroCopy : MemoryMode::ZeroCopyPinned;
    far_ = std::make_unique<EdgeStore>(rest, host, bytes, managed);
  }
}

void PlacedArray::prepare_run() {
  if (near_) near_->prepare_run();
  if (far_) far_->prepare_run();
}

GraphPlacement::GraphPlacement(const MappedCsr& g, MemoryMode mode, bool with_weights, const PlacementOptions& options)
    : num_vertices_(g.num_vertices()), num_edges_(g.num_edges()), mode_(mode) {
  if (with_weights && !g.has_weights())
    throw std::invalid_argument(g.path() + " has no weights section (SSSP needs one; regenerate or convert it with weights)");
  const size_t edge_bytes = g.edge_list_bytes(), weight_bytes = with_weights ? g.num_edges() * sizeof(uint32_t) : 0;
  // Managed modes: edges and weights together must pass the guard, not just each on its own.
  if (mode == MemoryMode::ZeroCopy || mode == MemoryMode::Uvm) check_managed_allocation(edge_bytes + weight_bytes, options.managed);
  size_t budget = 0;
  if (mode == MemoryMode::Auto) {
    const size_t free = std::min(free_gpu_bytes(), options.managed.budget_bytes);
    budget = free > options.auto_reserve_bytes ? free - options.auto_reserve_bytes : 0;
  }
  edges_ = std::make_unique<PlacedArray>(mode, g.edges(), edge_bytes, g.index_bytes(), budget, options.managed);
  if (with_weights) {
    budget -= std::min(budget, edges_->device_bytes());
    weights_ = std::make_unique<PlacedArray>(mode, g.weights(), weight_bytes, sizeof(uint32_t), budget, options.managed);
  }
}

void GraphPlacement::prepare_run() {
  edges_->prepare_run();
  if (weights_) weights_->prepare_run();
}

std::string GraphPlacement::describe() const {
  char buf[256];
  const double gib = double(size_t(1) << 30);
  std::snprintf(buf, sizeof buf, "%s: edges %.2f GiB in GPU memory (%llu of %llu entries)%s", name_of(mode_),
                edges_->device_bytes() / gib, (unsigned long long)edges_->split(), (unsigned long long)num_edges_,
                weights_ ? (", weights " + std::to_string(weights_->device_bytes() >> 20) + " MiB in GPU memory").c_str() : "");
  return buf;
}

}  // namespace emogi
