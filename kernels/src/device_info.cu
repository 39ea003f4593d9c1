#include "emogi/device_info.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "emogi/cuda_check.hpp"

namespace emogi {
namespace {

std::string cuda_version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

}  // namespace

void select_device(int device) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0)
    throw CudaError(std::string("no usable CUDA GPU: ") +
                    (status == cudaSuccess ? "no devices found" : cudaGetErrorString(status)));
  if (device < 0 || device >= count)
    throw CudaError("GPU " + std::to_string(device) + " does not exist (" + std::to_string(count) + " found)");
  EMOGI_CUDA_CHECK(cudaSetDevice(device));
}

uint32_t ns_to_cycles(uint64_t ns, int device) {
  if (ns == 0) return 0;
  int khz = 0;
  EMOGI_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  const uint64_t cycles = ns * uint64_t(khz) / 1000000;
  if (ns > 1000000 || cycles > UINT32_MAX) throw std::invalid_argument("--added-latency-ns must be at most 1 ms");
  return uint32_t(cycles ? cycles : 1);
}

std::string device_json(int device) {
  select_device(device);
  cudaDeviceProp p{};
  EMOGI_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  size_t free = 0, total = 0;
  EMOGI_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  int driver = 0, runtime = 0;
  EMOGI_CUDA_CHECK(cudaDriverGetVersion(&driver));
  EMOGI_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  char pci[32];
  EMOGI_CUDA_CHECK(cudaDeviceGetPCIBusId(pci, sizeof pci, device));
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "{\"name\": \"%s\", \"compute_capability\": \"%d.%d\", \"multiprocessors\": %d, "
                "\"memory_total_bytes\": %zu, \"memory_free_bytes\": %zu, \"cuda_driver\": \"%s\", "
                "\"cuda_runtime\": \"%s\", \"pci_bus_id\": \"%s\"}",
                p.name, p.major, p.minor, p.multiProcessorCount, total, free, cuda_version(driver).c_str(),
                cuda_version(runtime).c_str(), pci);
  return buf;
}

}  // namespace emogi
