// SpMV's input vector x, the same float32 values on the GPU and in the CPU reference: x_i = 1 + (i mod 7) / 7
// (deterministic, no zero, so every matrix entry counts in y).
#pragma once
#include <cstdint>

#ifdef __CUDACC__
#define EMOGI_HOST_DEVICE __host__ __device__
#else
#define EMOGI_HOST_DEVICE
#endif

namespace emogi {

EMOGI_HOST_DEVICE inline float spmv_x(uint64_t i) { return 1.0f + float(i % 7) / 7.0f; }

}  // namespace emogi
