// Experiment (not part of the kernels): can a GPU read host memory faster with the Hopper bulk copy engine
// (cp.async.bulk, "TMA") than with ordinary coalesced loads? Zero-copy loads leave the GPU as requests of at most
// one 128-byte line, 12 protocol bytes each, which caps payload at ~0.92 of the copy engine's rate
// (docs/profiling.md). If bulk copies left as larger requests, that cap would lift.
//
// Streams a host buffer once per kernel, a warp per chunk (grid-stride), summing 8-byte words so nothing is
// optimised away, and checks every sum against the CPU's:
//   loads  : 32 lanes x 8 B per step, 4 steps in flight (merged+aligned reads of whole lines)
//   bulk   : lane 0 of each warp copies the chunk into shared memory with cp.async.bulk (two buffers, completion
//            on an mbarrier), the warp sums it from there
// Build: nvcc -O3 -arch=sm_90 -o bulk_read bulk_read.cu
// Run:   ./bulk_read [GiB=4]   (prints one CSV row per allocation x kernel x chunk: the median of 5 timed runs)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                                     \
  do {                                                                                               \
    cudaError_t e_ = (x);                                                                            \
    if (e_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));       \
      std::exit(1);                                                                                  \
    }                                                                                                \
  } while (0)

constexpr int kWarpsPerBlock = 4;

__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    load_sum(const uint64_t* __restrict__ src, uint64_t words, uint64_t chunk_words, unsigned long long* out) {
  const unsigned lane = threadIdx.x % 32;
  const uint64_t warp = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const uint64_t warps = uint64_t(gridDim.x) * blockDim.x / 32;
  uint64_t sum = 0;
  for (uint64_t c = warp * chunk_words; c < words; c += warps * chunk_words) {
    const uint64_t end = min(c + chunk_words, words);
    for (uint64_t i = c + lane; i < end; i += 4 * 32) {
      uint64_t x[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) x[k] = i + k * 32 < end ? src[i + k * 32] : 0;
#pragma unroll
      for (int k = 0; k < 4; ++k) sum += x[k];
    }
  }
  atomicAdd(out, (unsigned long long)sum);
}

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void bulk_load(void* dst, const void* src, uint32_t bytes, uint64_t* bar) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   smem_addr(dst)),
               "l"(src), "r"(bytes), "r"(smem_addr(bar))
               : "memory");
}

__device__ __forceinline__ void wait_phase(uint64_t* bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done)
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
}

// Each warp owns two chunk buffers and two barriers; lane 0 keeps the next chunk in flight while the warp sums
// the current one.
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    bulk_sum(const uint64_t* __restrict__ src, uint64_t words, uint64_t chunk_words, unsigned long long* out) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ __align__(8) uint64_t bars[kWarpsPerBlock][2];
  const unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
  uint64_t* buf[2] = {reinterpret_cast<uint64_t*>(smem) + (2 * w) * chunk_words,
                      reinterpret_cast<uint64_t*>(smem) + (2 * w + 1) * chunk_words};
  const uint64_t warp = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const uint64_t warps = uint64_t(gridDim.x) * blockDim.x / 32;
  if (lane == 0) {
    for (int b = 0; b < 2; ++b) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&bars[w][b])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncwarp();
  auto issue = [&](uint64_t c, int b) {
    const uint64_t n = min(chunk_words, words - c);
    bulk_load(buf[b], src + c, uint32_t(n * 8), &bars[w][b]);
  };
  uint32_t parity[2] = {0, 0};
  uint64_t sum = 0;
  uint64_t c = warp * chunk_words;
  if (lane == 0 && c < words) issue(c, 0);
  for (int b = 0; c < words; c += warps * chunk_words, b ^= 1) {
    const uint64_t next = c + warps * chunk_words;
    if (lane == 0 && next < words) issue(next, b ^ 1);
    wait_phase(&bars[w][b], parity[b]);
    parity[b] ^= 1;
    const uint64_t n = min(chunk_words, words - c);
    for (uint64_t i = lane; i < n; i += 32) sum += buf[b][i];
    __syncwarp();
    // The warp's reads of buf[b] (generic proxy) come before the copy engine refills it (async proxy).
    if (lane == 0) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  atomicAdd(out, (unsigned long long)sum);
}

struct Result {
  double ms;
  unsigned long long sum;
};

template <class Launch>
Result time_it(Launch launch, unsigned long long* d_sum) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<double> ms;
  unsigned long long sum = 0;
  for (int rep = 0; rep < 6; ++rep) {  // the first is a warm-up
    CHECK(cudaMemset(d_sum, 0, sizeof *d_sum));
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    if (rep) ms.push_back(t);
    CHECK(cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));
  }
  std::sort(ms.begin(), ms.end());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return {ms[ms.size() / 2], sum};
}

int main(int argc, char** argv) {
  const double gib = argc > 1 ? std::atof(argv[1]) : 4.0;
  const uint64_t words = uint64_t(gib * double(1ull << 30)) / 8;
  const size_t bytes = words * 8;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::fprintf(stderr, "%s, %d SMs, %.1f GiB host buffer\n", prop.name, prop.multiProcessorCount, gib);

  std::vector<uint64_t> host(words);
  for (uint64_t i = 0; i < words; ++i) host[i] = i * 0x9E3779B97F4A7C15ull;
  unsigned long long expected = 0;
  for (uint64_t i = 0; i < words; ++i) expected += host[i];

  unsigned long long* d_sum;
  CHECK(cudaMalloc(&d_sum, sizeof *d_sum));
  // W: the copy engine's rate into GPU memory.
  void* dev = nullptr;
  CHECK(cudaMalloc(&dev, bytes));
  void* pinned = nullptr;
  CHECK(cudaHostAlloc(&pinned, bytes, cudaHostAllocMapped));
  std::memcpy(pinned, host.data(), bytes);
  const Result copy = time_it([&] { CHECK(cudaMemcpyAsync(dev, pinned, bytes, cudaMemcpyHostToDevice)); }, d_sum);
  CHECK(cudaFree(dev));
  std::printf("allocation,kernel,chunk_bytes,ms,gbps,fraction_of_copy\n");
  std::printf("pinned,cudaMemcpy,%zu,%.3f,%.2f,1.000\n", bytes, copy.ms, bytes / copy.ms / 1e6);
  const double w = bytes / copy.ms / 1e6;

  void* managed = nullptr;
  CHECK(cudaMallocManaged(&managed, bytes));
  cudaMemLocation host_loc{cudaMemLocationTypeHost, 0}, gpu_loc{cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemAdvise(managed, bytes, cudaMemAdviseSetPreferredLocation, host_loc));
  CHECK(cudaMemAdvise(managed, bytes, cudaMemAdviseSetAccessedBy, gpu_loc));
  std::memcpy(managed, host.data(), bytes);
  void* pinned_dev = nullptr;
  CHECK(cudaHostGetDevicePointer(&pinned_dev, pinned, 0));

  const int blocks = prop.multiProcessorCount * 8;
  bool ok = true;
  for (auto [name, ptr] : {std::pair<const char*, const void*>{"managed", managed}, {"pinned", pinned_dev}}) {
    const auto* src = static_cast<const uint64_t*>(ptr);
    for (uint64_t chunk : {256ull, 1024ull, 4096ull, 16384ull}) {
      const uint64_t cw = chunk / 8;
      const Result l = time_it([&] { load_sum<<<blocks, kWarpsPerBlock * 32>>>(src, words, cw, d_sum); }, d_sum);
      const size_t smem = 2 * kWarpsPerBlock * chunk;
      CHECK(cudaFuncSetAttribute(bulk_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
      const Result b = time_it([&] { bulk_sum<<<blocks, kWarpsPerBlock * 32, smem>>>(src, words, cw, d_sum); }, d_sum);
      for (auto [kernel, r] : {std::pair<const char*, Result>{"loads", l}, {"bulk", b}}) {
        const bool right = r.sum == expected;
        ok = ok && right;
        std::printf("%s,%s,%llu,%.3f,%.2f,%.3f%s\n", name, kernel, (unsigned long long)chunk, r.ms,
                    bytes / r.ms / 1e6, bytes / r.ms / 1e6 / w, right ? "" : ",WRONG SUM");
      }
    }
  }
  CHECK(cudaFree(managed));
  CHECK(cudaFreeHost(pinned));
  return ok ? 0 : 1;
}
