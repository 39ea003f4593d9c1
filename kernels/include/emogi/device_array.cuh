// An owning cudaMalloc'd array.
#pragma once
#include <cstddef>

#include "emogi/cuda_check.hpp"

namespace emogi {

template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(size_t count) : count_(count) { EMOGI_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T))); }
  DeviceArray(const T* host, size_t count) : DeviceArray(count) {
    EMOGI_CUDA_CHECK(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* data() const { return data_; }
  size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  size_t count_;
};

}  // namespace emogi
