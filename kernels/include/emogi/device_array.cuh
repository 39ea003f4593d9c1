// An owning cudaMalloc'd array, and the cudaMalloc that every GPU-memory allocation of a run goes through: it
// counts against --gpu-memory-budget (gpu_budget.hpp).
#pragma once
#include <cstddef>

#include "emogi/cuda_check.hpp"
#include "emogi/gpu_budget.hpp"

namespace emogi {

// cudaMalloc of `bytes`, taken from the budget first (`what` names them in the error when they do not fit).
inline void* budgeted_malloc(size_t bytes, const char* what) {
  gpu_budget().take(bytes, what);
  void* p = nullptr;
  const cudaError_t status = cudaMalloc(&p, bytes);
  if (status != cudaSuccess) gpu_budget().give_back(bytes);
  EMOGI_CUDA_CHECK(status);
  return p;
}
inline void budgeted_free(void* p, size_t bytes) {
  if (!p) return;
  cudaFree(p);
  gpu_budget().give_back(bytes);
}

template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(size_t count, const char* what = "the vertex data")
      : data_(static_cast<T*>(budgeted_malloc(count * sizeof(T), what))), count_(count) {}
  DeviceArray(const T* host, size_t count, const char* what = "the vertex data") : DeviceArray(count, what) {
    EMOGI_CUDA_CHECK(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceArray() { budgeted_free(data_, count_ * sizeof(T)); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* data() const { return data_; }
  size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  size_t count_;
};

}  // namespace emogi
