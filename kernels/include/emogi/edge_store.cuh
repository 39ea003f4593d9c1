// Where the edge list lives during a traversal (the memory mode). One class owns the allocation for any mode,
// so kernels only ever see a device-usable pointer.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "emogi/names.hpp"

namespace emogi {

// What managed allocations may use. Oversubscribed managed memory can hang a shared GPU, so by default a managed
// allocation must fit in the GPU's free memory (and in what --gpu-memory-budget leaves, gpu_budget.hpp) minus a
// margin.
struct ManagedPolicy {
  bool allow_oversubscription = false;  // the explicit opt-in, for users on a machine of their own
};

// Throws, before anything is allocated, when `bytes` of managed memory would not fit under `policy`. Memory that
// migrates to the GPU (`uvm` modes) must also fit in what --gpu-memory-budget leaves; zero-copy's managed memory
// stays on the host (PreferredLocation host, AccessedBy GPU), takes no GPU memory, and so is held only to the
// GPU's free memory, as a GPU of the budget's size would hold it (issue 21: zero-copy at a budget).
void check_managed_allocation(size_t bytes, const ManagedPolicy& policy, bool migrates = true);

// Moves ranges (pointer, bytes) of ReadMostly managed memory back to the host, so that the GPU faults them in again
// on their next use (cold `uvm` before every run; uvm-capped's evictions). Waits until they are there.
void move_to_host(const std::vector<std::pair<const void*, size_t>>& ranges);

class EdgeStore {
 public:
  // Allocates `bytes` in `mode` on the current device and fills it from `host_data`.
  EdgeStore(MemoryMode mode, const void* host_data, size_t bytes, const ManagedPolicy& policy);
  ~EdgeStore();
  EdgeStore(const EdgeStore&) = delete;
  EdgeStore& operator=(const EdgeStore&) = delete;

  MemoryMode mode() const { return mode_; }
  const void* data() const { return device_ptr_; }
  // Called before every timed run. `uvm` and `uvm-capped`: move every page back to the host so each run starts
  // cold (`uvm-warm` leaves them where earlier runs put them).
  void prepare_run();

 private:
  MemoryMode mode_;
  size_t bytes_;
  int device_ = 0;
  void* allocation_ = nullptr;
  const void* device_ptr_ = nullptr;
};

}  // namespace emogi
