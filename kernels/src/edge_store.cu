#include "emogi/edge_store.cuh"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "emogi/cuda_check.hpp"
#include "emogi/device_array.cuh"
#include "emogi/host_copy.hpp"

namespace emogi {
namespace {

constexpr size_t kManagedHeadroom = size_t(512) << 20;  // left free for vertex data, contexts and the driver
constexpr size_t kHugePage = size_t(2) << 20;

size_t round_up(size_t bytes, size_t unit) { return (bytes + unit - 1) / unit * unit; }

std::string gib(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / double(size_t(1) << 30));
  return buf;
}

// CUDA 13 replaced the device-id arguments of cudaMemAdvise and cudaMemPrefetchAsync with cudaMemLocation;
// `device` is a device ordinal or cudaCpuDeviceId for host memory.
#if CUDART_VERSION >= 13000
cudaMemLocation location_of(int device) {
  cudaMemLocation loc{};
  loc.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  loc.id = device == cudaCpuDeviceId ? 0 : device;
  return loc;
}
void advise(const void* p, size_t n, cudaMemoryAdvise advice, int device) {
  EMOGI_CUDA_CHECK(cudaMemAdvise(p, n, advice, location_of(device)));
}
void prefetch(const void* p, size_t n, int device) {
  EMOGI_CUDA_CHECK(cudaMemPrefetchAsync(p, n, location_of(device), 0, 0));
}
#else
void advise(const void* p, size_t n, cudaMemoryAdvise advice, int device) {
  EMOGI_CUDA_CHECK(cudaMemAdvise(p, n, advice, device));
}
void prefetch(const void* p, size_t n, int device) { EMOGI_CUDA_CHECK(cudaMemPrefetchAsync(p, n, device, 0)); }
#endif

}  // namespace

void check_managed_allocation(size_t bytes, const ManagedPolicy& policy, bool migrates) {
  size_t free = 0, total = 0;
  EMOGI_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  const size_t usable = migrates ? std::min(free, gpu_budget().left()) : free;
  if (bytes + kManagedHeadroom <= usable) return;
  const std::string available = gib(usable) + (usable < free ? " (--gpu-memory-budget)" : "") + " of GPU memory";
  if (policy.allow_oversubscription) {
    std::fprintf(stderr,
                 "emogi: warning: allocating %s of managed memory with only %s usable "
                 "(--allow-managed-oversubscription)\n",
                 gib(bytes).c_str(), available.c_str());
    return;
  }
  throw std::runtime_error(
      "refusing to allocate " + gib(bytes) + " of managed memory: only " + available + " is usable (" + gib(free) +
      " free of " + gib(total) + ", a " + gib(kManagedHeadroom) +
      " margin kept). Oversubscribed managed memory can hang a shared GPU. Use a smaller graph or the zerocopy-pinned "
      "mode, or, on a machine of your own, pass --allow-managed-oversubscription.");
}

EdgeStore::EdgeStore(MemoryMode mode, const void* host_data, size_t bytes, const ManagedPolicy& policy)
    : mode_(mode), bytes_(bytes) {
  EMOGI_CUDA_CHECK(cudaGetDevice(&device_));
  switch (mode) {
    case MemoryMode::Device: {
      size_t free = 0, total = 0;
      EMOGI_CUDA_CHECK(cudaMemGetInfo(&free, &total));
      if (bytes > free)
        throw std::runtime_error("device mode: the edge list (" + gib(bytes) + ") does not fit in the " + gib(free) +
                                 " of free GPU memory");
      allocation_ = budgeted_malloc(bytes, "the edge list in GPU memory");
      EMOGI_CUDA_CHECK(cudaMemcpy(allocation_, host_data, bytes, cudaMemcpyHostToDevice));
      device_ptr_ = allocation_;
      break;
    }
    case MemoryMode::ZeroCopy: {
      // Managed memory kept on the host and mapped into the GPU's page table: the GPU reads it in place.
      // On the H100 this holds ~50 GB/s at any footprint, where pinned memory falls off past ~1 GiB.
      check_managed_allocation(bytes, policy, /*migrates=*/false);
      EMOGI_CUDA_CHECK(cudaMallocManaged(&allocation_, bytes));
      advise(allocation_, bytes, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId);
      parallel_copy(allocation_, host_data, bytes);  // first touch by the CPU places the pages in host memory
      advise(allocation_, bytes, cudaMemAdviseSetAccessedBy, device_);
      device_ptr_ = allocation_;
      break;
    }
    case MemoryMode::ZeroCopyPinned: {
      // The paper's zero-copy allocation: page-locked host memory mapped into the GPU's address space.
      EMOGI_CUDA_CHECK(cudaHostAlloc(&allocation_, bytes, cudaHostAllocMapped));
      parallel_copy(allocation_, host_data, bytes);
      void* mapped = nullptr;
      EMOGI_CUDA_CHECK(cudaHostGetDevicePointer(&mapped, allocation_, 0));
      device_ptr_ = mapped;
      break;
    }
    case MemoryMode::ZeroCopyRegistered: {
      if (bytes == 0) break;  // nothing to register (a graph without edges)
      // The paper's third way: ordinary host memory, page-locked afterwards by cudaHostRegister. (Registering the
      // graph file's own mapping instead did not return at 4.2 GB on the H100.) Asked for in 2 MiB huge pages
      // where the kernel grants them (a hint): with 4 KiB pages, scattered reads of a multi-GiB buffer ran up to
      // 30% slower than from the other two ways.
      const size_t whole_pages = round_up(bytes, kHugePage);  // aligned_alloc wants a multiple of the alignment
      allocation_ = std::aligned_alloc(kHugePage, whole_pages);
      if (!allocation_)
        throw std::runtime_error("zerocopy-registered: allocating " + gib(bytes) + " of host memory failed");
      madvise(allocation_, whole_pages, MADV_HUGEPAGE);
      parallel_copy(allocation_, host_data, bytes);
      const cudaError_t e = cudaHostRegister(allocation_, bytes, cudaHostRegisterMapped);
      if (e != cudaSuccess) {
        cudaGetLastError();  // clear it: the process goes on to the next mode or exits with this message
        std::free(allocation_);
        allocation_ = nullptr;
        throw std::runtime_error("zerocopy-registered: cudaHostRegister of " + gib(bytes) +
                                 " failed: " + cudaGetErrorString(e) + "; use zerocopy-pinned");
      }
      void* mapped = nullptr;
      EMOGI_CUDA_CHECK(cudaHostGetDevicePointer(&mapped, allocation_, 0));
      device_ptr_ = mapped;
      break;
    }
    case MemoryMode::Uvm:
    case MemoryMode::UvmWarm:
    case MemoryMode::UvmCapped: {  // uvm-capped evicts at launch boundaries (capped_uvm.cuh), within this allocation
      // The paper's UVM baseline: pages migrate to the GPU on fault; ReadMostly lets the driver duplicate them.
      check_managed_allocation(bytes, policy);
      EMOGI_CUDA_CHECK(cudaMallocManaged(&allocation_, bytes));
      parallel_copy(allocation_, host_data, bytes);
      advise(allocation_, bytes, cudaMemAdviseSetReadMostly, device_);
      device_ptr_ = allocation_;
      break;
    }
    case MemoryMode::Auto:
      throw std::invalid_argument("auto is a placement of several stores (placement.cuh), not one store");
    case MemoryMode::Streamed:
      throw std::invalid_argument("streamed is blocks of a pinned copy (streamed_lists.cuh), not one store");
  }
}

EdgeStore::~EdgeStore() {
  if (!allocation_) return;
  if (mode_ == MemoryMode::ZeroCopyPinned)
    cudaFreeHost(allocation_);
  else if (mode_ == MemoryMode::ZeroCopyRegistered) {
    cudaHostUnregister(allocation_);
    std::free(allocation_);
  } else if (mode_ == MemoryMode::Device)
    budgeted_free(allocation_, bytes_);
  else
    cudaFree(allocation_);
}

void move_to_host(const std::vector<std::pair<const void*, size_t>>& ranges) {
  int device = 0;
  EMOGI_CUDA_CHECK(cudaGetDevice(&device));
  // Unsetting ReadMostly collapses the GPU's read-only copies into one; the prefetch then moves that copy to
  // the host, so the next traversal faults the pages in again.
  for (const auto& [p, n] : ranges) advise(p, n, cudaMemAdviseUnsetReadMostly, device);
  for (const auto& [p, n] : ranges) prefetch(p, n, cudaCpuDeviceId);
  EMOGI_CUDA_CHECK(cudaDeviceSynchronize());
  for (const auto& [p, n] : ranges) advise(p, n, cudaMemAdviseSetReadMostly, device);
}

void EdgeStore::prepare_run() {
  if (mode_ == MemoryMode::Uvm || mode_ == MemoryMode::UvmCapped) move_to_host({{allocation_, bytes_}});
}

}  // namespace emogi
