// `emogi toy`: the zero-copy toy of EMOGI §3.3. A large array in host (or device) memory is copied to GPU memory
// with one of three access patterns, and the copy is verified:
//   strided            a thread copies its own 128-byte chunk element by element (32-byte requests)
//   merged-aligned     consecutive threads copy consecutive elements from a 128-byte boundary (128-byte requests)
//   merged-misaligned  the same, every warp starting 32 bytes past the boundary (a 32 + 96-byte pair per line)
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "emogi/atomic_file.hpp"
#include "emogi/cli_args.hpp"
#include "emogi/commands.hpp"
#include "emogi/device_array.cuh"
#include "emogi/device_info.hpp"
#include "emogi/edge_store.cuh"
#include "emogi/event_timer.cuh"
#include "emogi/micro_common.hpp"
#include "emogi/nvtx_range.hpp"

namespace emogi {
namespace {

constexpr unsigned kThreads = 256;
const std::vector<std::string> kPatterns = {"strided", "merged-aligned", "merged-misaligned"};

template <class T>
__global__ void toy_strided(const T* __restrict__ src, T* __restrict__ dst, uint64_t n) {
  constexpr uint64_t kPerChunk = kCacheLineBytes / sizeof(T);
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t chunk = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; chunk * kPerChunk < n; chunk += stride)
    for (uint64_t i = chunk * kPerChunk; i < n && i < (chunk + 1) * kPerChunk; ++i) dst[i] = src[i];
}

template <class T>
__global__ void toy_merged(const T* __restrict__ src, T* __restrict__ dst, uint64_t begin, uint64_t n) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = begin + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = src[i];
}

template <class T>
void launch(const std::string& pattern, const void* src, void* dst, uint64_t bytes, unsigned blocks) {
  const uint64_t n = bytes / sizeof(T);
  const auto* s = static_cast<const T*>(src);
  auto* d = static_cast<T*>(dst);
  if (pattern == "strided")
    toy_strided<T><<<blocks, kThreads>>>(s, d, n);
  else
    toy_merged<T><<<blocks, kThreads>>>(s, d, pattern == "merged-aligned" ? 0 : 32 / sizeof(T), n);
  EMOGI_CHECK_LAUNCH();
}

int run_toy(const CliArgs& args) {
  const uint64_t bytes = parse_bytes(args.get("bytes"));
  const auto modes = micro_modes(args);
  const auto patterns = args.get_list("patterns");
  for (const auto& p : patterns)
    if (std::find(kPatterns.begin(), kPatterns.end(), p) == kPatterns.end())
      throw std::invalid_argument("unknown pattern '" + p + "' (strided, merged-aligned, merged-misaligned)");
  const auto elements = args.get_list("elements");
  const uint64_t reps = args.get_u64("reps"), warmup = args.get_u64("warmup");
  if (bytes % kCacheLineBytes) throw std::invalid_argument("--bytes must be a multiple of 128");
  ManagedPolicy policy;
  policy.allow_oversubscription = args.flag("allow-managed-oversubscription");
  AtomicFile out(args.get("out"));
  const int device = int(args.get_u64("device"));
  select_device(device);
  int sms = 0;
  EMOGI_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const unsigned blocks = unsigned(sms) * (2048 / kThreads);  // a full GPU of resident threads, grid-stride

  std::vector<uint32_t> source(bytes / 4), copy(bytes / 4);
  for (uint64_t i = 0; i < source.size(); ++i) source[i] = uint32_t(i * 2654435761u) ^ 0x5bd1e995u;
  DeviceArray<unsigned char> dst(bytes);
  EventTimer timer;
  out.stream() << "pattern,mode,element_bytes,array_bytes,rep,time_ms,gbps,verified\n";
  for (MemoryMode mode : modes) {
    EdgeStore src(mode, source.data(), bytes, policy);
    for (const auto& pattern : patterns)
      for (const auto& element : elements) {
        if (element != "4" && element != "8") throw std::invalid_argument("--elements takes 4 and/or 8");
        auto run = [&] {
          (element == "4" ? launch<uint32_t> : launch<uint64_t>)(pattern, src.data(), dst.data(), bytes, blocks);
        };
        const std::string label = "toy|" + pattern + "|" + name_of(mode) + "|" + element;
        EMOGI_CUDA_CHECK(cudaMemset(dst.data(), 0, bytes));
        for (uint64_t i = 0; i < warmup; ++i) run();
        std::vector<double> gbps;
        for (uint64_t rep = 0; rep < reps; ++rep) {
          timer.start(0);
          {
            NvtxRange range(label);
            run();
          }
          timer.stop(0);
          const double ms = timer.elapsed_ms();
          gbps.push_back(bytes / (ms * 1e6));
          out.stream() << pattern << "," << name_of(mode) << "," << element << "," << bytes << "," << rep << "," << ms
                       << "," << gbps.back() << ",true\n";
        }
        // The misaligned pattern skips the first 32 bytes; everything it copies must equal the source.
        const uint64_t skip = pattern == "merged-misaligned" ? 32 : 0;
        EMOGI_CUDA_CHECK(cudaMemcpy(copy.data(), dst.data(), bytes, cudaMemcpyDeviceToHost));
        if (std::memcmp(reinterpret_cast<const char*>(copy.data()) + skip,
                        reinterpret_cast<const char*>(source.data()) + skip, bytes - skip) != 0)
          throw std::runtime_error("toy copy " + label + " delivered wrong bytes");
        std::fprintf(stderr, "toy %-17s %-15s %s-byte: median %6.1f GB/s\n", pattern.c_str(), name_of(mode),
                     element.c_str(), median_of(gbps));
      }
  }
  out.commit();
  return 0;
}

}  // namespace

CommandSpec toy_command() {
  return {
      "toy",
      "EMOGI's zero-copy toy: an array copied to GPU memory by each access pattern, then checked",
      {option("bytes", "SIZE", "the array's size (K, M, G), a multiple of 128", "2G"), micro_modes_option(),
       option("patterns", "LIST", "strided, merged-aligned and/or merged-misaligned",
              "strided,merged-aligned,merged-misaligned"),
       option("elements", "LIST", "element sizes in bytes: 4 and/or 8", "4,8"),
       option("reps", "INT", "timed copies per setting", "3"),
       option("warmup", "INT", "untimed copies before them", "1"),
       required("out", "PATH", "the CSV to write, one row per copy"), option("device", "INT", "the CUDA device", "0"),
       flag("allow-managed-oversubscription", "let managed allocations exceed the GPU's free memory")},
      run_toy};
}

}  // namespace emogi
