// What every iterative algorithm's host loop needs: a stream, an event timer around the timed region, and a few
// device counters that kernels fill and the host reads once per iteration (the only host-device sync).
#pragma once
#include <cstdint>

#include "emogi/cuda_check.hpp"
#include "emogi/device_array.cuh"
#include "emogi/event_timer.cuh"

namespace emogi {

// Counter slots. kActive: vertices (or work-list segments) activated; kEdges: list entries the next step reads;
// kAux: an algorithm's own (e.g. the smallest pending distance).
enum Counter { kActive = 0, kEdges = 1, kAux = 2, kSegments = 3, kNumCounters = 4 };

class IterationLoop {
 public:
  IterationLoop() {
    EMOGI_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    device_ =
        static_cast<unsigned long long*>(budgeted_malloc(kNumCounters * sizeof(unsigned long long), "the counters"));
    EMOGI_CUDA_CHECK(cudaMallocHost(&host_, kNumCounters * sizeof(unsigned long long)));
  }
  ~IterationLoop() {
    cudaFreeHost(host_);
    budgeted_free(device_, kNumCounters * sizeof(unsigned long long));
    cudaStreamDestroy(stream_);
  }
  IterationLoop(const IterationLoop&) = delete;
  IterationLoop& operator=(const IterationLoop&) = delete;

  cudaStream_t stream() const { return stream_; }
  unsigned long long* counters() const { return device_; }
  // Zeroes the counters, kAux set to `aux` (asynchronously, in stream order).
  void reset(unsigned long long aux = 0) {
    for (int i = 0; i < kNumCounters; ++i) host_[i] = i == kAux ? aux : 0;
    EMOGI_CUDA_CHECK(
        cudaMemcpyAsync(device_, host_, kNumCounters * sizeof(unsigned long long), cudaMemcpyHostToDevice, stream_));
  }
  // Waits for the stream and returns the counters.
  const unsigned long long* read() {
    EMOGI_CUDA_CHECK(
        cudaMemcpyAsync(host_, device_, kNumCounters * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream_));
    EMOGI_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return host_;
  }
  void start() { timer_.start(stream_); }
  float stop() {
    timer_.stop(stream_);
    return timer_.elapsed_ms();
  }

 private:
  cudaStream_t stream_{};
  unsigned long long* device_ = nullptr;
  unsigned long long* host_ = nullptr;
  EventTimer timer_;
};

// What one timed run reports besides its result (which the algorithm keeps on the GPU for verification).
struct RunStats {
  float time_ms = 0;
  uint32_t iterations = 0;       // launches of the outer loop (BFS: levels)
  uint64_t edges_traversed = 0;  // list entries the run read (BFS: the reference's count, see docs)
};

}  // namespace emogi
