// CUDA-event timing of a region on one stream (device time, not host time).
#pragma once
#include "emogi/cuda_check.hpp"

namespace emogi {

class EventTimer {
 public:
  EventTimer() {
    EMOGI_CUDA_CHECK(cudaEventCreate(&start_));
    EMOGI_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(cudaStream_t stream) { EMOGI_CUDA_CHECK(cudaEventRecord(start_, stream)); }
  void stop(cudaStream_t stream) { EMOGI_CUDA_CHECK(cudaEventRecord(stop_, stream)); }
  float elapsed_ms() {
    EMOGI_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    EMOGI_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

}  // namespace emogi
