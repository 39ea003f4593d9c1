// Every CUDA runtime call goes through EMOGI_CUDA_CHECK: a failure throws with the call, file and line,
// and main() turns it into one clear error line and a non-zero exit.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace emogi {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  throw CudaError(std::string("CUDA error ") + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ") in " +
                  call + " at " + file + ":" + std::to_string(line));
}

}  // namespace emogi

#define EMOGI_CUDA_CHECK(call) ::emogi::cuda_check((call), #call, __FILE__, __LINE__)
// After a kernel launch: catches bad launch configurations at once (execution errors surface at the next sync).
#define EMOGI_CHECK_LAUNCH() EMOGI_CUDA_CHECK(cudaGetLastError())
