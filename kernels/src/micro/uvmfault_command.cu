// `emogi uvmfault`: what cold UVM costs per touched 64 KiB block on this machine now (issue 21: a per-session
// calibration of the UVM simulator). A managed buffer, ReadMostly and moved back to the host before every run as
// the `uvm` mode does (EdgeStore), is read once as "lists": list i starts at i x stride bytes and spans
// --list-bytes. Two mappings of lists to threads, the two the graph kernels have:
//   thread  a thread reads its own list word by word (32 consecutive lists per warp: naive)
//   warp    a warp reads a list, lane l the words l, l + 32, ... (a warp per list: merged, merged-aligned)
// One kernel launch per run, timed with CUDA events; the sum of the words read is checked against the host's.
// Never oversubscribed: the buffer must be under a quarter of the GPU's free memory, whatever the flags.
#include <algorithm>
#include <cstdio>
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
constexpr uint64_t kBlockBytes = 64 << 10;   // the driver's basic block
constexpr uint64_t kRegionBytes = 2 << 20;   // its prefetch region
constexpr uint64_t kMaxBytes = 16ull << 30;  // a calibration, not a study: far below any lent GPU's memory
constexpr unsigned kFreeShare = 4;           // the buffer stays under 1/kFreeShare of the free GPU memory
const std::vector<std::string> kAccesses = {"thread", "warp"};

struct Pattern {
  std::string access;
  uint64_t list_bytes, stride;
};

__global__ void read_thread_per_list(const uint64_t* __restrict__ buf, uint64_t lists, uint64_t list_words,
                                     uint64_t stride_words, unsigned long long* sum) {
  unsigned long long acc = 0;
  const uint64_t step = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t l = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; l < lists; l += step)
    for (uint64_t w = 0; w < list_words; ++w) acc += buf[l * stride_words + w];
  if (acc) atomicAdd(sum, acc);
}

__global__ void read_warp_per_list(const uint64_t* __restrict__ buf, uint64_t lists, uint64_t list_words,
                                   uint64_t stride_words, unsigned long long* sum) {
  unsigned long long acc = 0;
  const unsigned lane = threadIdx.x % 32;
  const uint64_t warps = (uint64_t(gridDim.x) * blockDim.x) / 32;
  for (uint64_t l = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; l < lists; l += warps)
    for (uint64_t w = lane; w < list_words; w += 32) acc += buf[l * stride_words + w];
  if (acc) atomicAdd(sum, acc);
}

inline uint64_t word_at(uint64_t i) { return (i * 0x9E3779B97F4A7C15ull) ^ 0x5bd1e9955bd1e995ull; }

// Every (access, list bytes, stride) the options name, checked before the GPU is touched.
std::vector<Pattern> patterns_of(const CliArgs& args, uint64_t bytes) {
  if (bytes < kRegionBytes || bytes % kRegionBytes)
    throw std::invalid_argument("--bytes must be a positive multiple of 2M (whole prefetch regions), not " +
                                args.get("bytes"));
  if (bytes > kMaxBytes)
    throw std::invalid_argument("--bytes " + args.get("bytes") +
                                " is more than 16G: uvmfault calibrates, it "
                                "never comes near the GPU's memory");
  const auto accesses = args.get_list("access");
  if (accesses.empty()) throw std::invalid_argument("--access needs thread and/or warp");
  for (const auto& a : accesses)
    if (std::find(kAccesses.begin(), kAccesses.end(), a) == kAccesses.end())
      throw std::invalid_argument("unknown access '" + a + "' (thread, warp)");
  const auto sizes = byte_list(args, "list-bytes"), strides = byte_list(args, "strides");
  if (sizes.empty() || strides.empty()) throw std::invalid_argument("--list-bytes and --strides need a value");
  std::vector<Pattern> out;
  for (const auto& a : accesses)
    for (uint64_t size : sizes)
      for (uint64_t stride : strides) {
        const uint64_t s = stride ? stride : size;
        if (size == 0 || size % 8) throw std::invalid_argument("--list-bytes must be positive multiples of 8");
        if (s < size)
          throw std::invalid_argument("a stride of " + std::to_string(s) + " bytes is shorter than its list of " +
                                      std::to_string(size) + " bytes (0: lists back to back)");
        if (s % 8 || bytes % s)
          throw std::invalid_argument("stride " + std::to_string(s) + " must be a multiple of 8 dividing --bytes");
        out.push_back({a, size, s});
      }
  return out;
}

uint64_t touched_blocks(uint64_t lists, uint64_t size, uint64_t stride) {
  uint64_t n = 0, last = ~0ull;
  for (uint64_t l = 0; l < lists; ++l)
    for (uint64_t b = l * stride / kBlockBytes; b <= (l * stride + size - 1) / kBlockBytes; ++b)
      if (b != last) ++n, last = b;
  return n;
}

int run_uvmfault(const CliArgs& args) {
  const uint64_t bytes = parse_bytes(args.get("bytes"));
  const auto patterns = patterns_of(args, bytes);
  const uint64_t reps = args.get_u64("reps"), warmup = args.get_u64("warmup");
  if (reps == 0) throw std::invalid_argument("--reps must be at least 1");
  AtomicFile out(args.get("out"));
  const int device = int(args.get_u64("device"));
  select_device(device);
  size_t free = 0, total = 0;
  EMOGI_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  if (bytes > free / kFreeShare)
    throw std::runtime_error("refusing " + args.get("bytes") +
                             " of managed memory: uvmfault keeps its buffer under "
                             "a quarter of the " +
                             std::to_string(free >> 20) + " MiB of free GPU memory");
  int sms = 0;
  EMOGI_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const unsigned blocks = unsigned(sms) * (2048 / kThreads);  // a full GPU of resident threads, grid-stride

  std::vector<uint64_t> host(bytes / 8);
  for (uint64_t i = 0; i < host.size(); ++i) host[i] = word_at(i);
  EdgeStore store(MemoryMode::Uvm, host.data(), bytes, ManagedPolicy{});  // its own guard too, never overridden
  const auto* buf = static_cast<const uint64_t*>(store.data());
  DeviceArray<unsigned long long> sum(1);
  EventTimer timer;
  out.stream() << "access,list_bytes,stride_bytes,buffer_bytes,lists,touched_bytes,touched_blocks,rep,time_ms,"
                  "us_per_touched_block,verified\n";
  for (const auto& p : patterns) {
    const uint64_t lists = bytes / p.stride, words = p.list_bytes / 8, stride_words = p.stride / 8;
    unsigned long long expect = 0;
    for (uint64_t l = 0; l < lists; ++l)
      for (uint64_t w = 0; w < words; ++w) expect += host[l * stride_words + w];
    const uint64_t nblocks = touched_blocks(lists, p.list_bytes, p.stride);
    const std::string label =
        "uvmfault|" + p.access + "|" + std::to_string(p.list_bytes) + "|" + std::to_string(p.stride);
    auto launch = [&] {
      if (p.access == "thread")
        read_thread_per_list<<<blocks, kThreads>>>(buf, lists, words, stride_words, sum.data());
      else
        read_warp_per_list<<<blocks, kThreads>>>(buf, lists, words, stride_words, sum.data());
      EMOGI_CHECK_LAUNCH();
    };
    std::vector<double> times;
    for (uint64_t i = 0; i < warmup + reps; ++i) {
      store.prepare_run();  // every page back on the host: each run is cold
      EMOGI_CUDA_CHECK(cudaMemset(sum.data(), 0, sizeof(unsigned long long)));
      EMOGI_CUDA_CHECK(cudaDeviceSynchronize());
      timer.start(0);
      {
        NvtxRange range(label);
        launch();
      }
      timer.stop(0);
      const double ms = timer.elapsed_ms();
      unsigned long long got = 0;
      EMOGI_CUDA_CHECK(cudaMemcpy(&got, sum.data(), sizeof(got), cudaMemcpyDeviceToHost));
      if (got != expect) throw std::runtime_error("uvmfault " + label + " read wrong words (sum mismatch)");
      if (i < warmup) continue;
      times.push_back(ms);
      out.stream() << p.access << "," << p.list_bytes << "," << p.stride << "," << bytes << "," << lists << ","
                   << lists * p.list_bytes << "," << nblocks << "," << i - warmup << "," << ms << ","
                   << ms * 1000.0 / double(nblocks) << ",true\n";
    }
    std::fprintf(stderr, "uvmfault %-6s list %7lu B stride %8lu B: median %8.3f ms, %6.2f us per touched 64K block\n",
                 p.access.c_str(), (unsigned long)p.list_bytes, (unsigned long)p.stride, median_of(times),
                 median_of(times) * 1000.0 / double(nblocks));
  }
  out.commit();
  return 0;
}

}  // namespace

CommandSpec uvmfault_command() {
  return {
      "uvmfault",
      "cold UVM per touched 64 KiB block: a managed buffer read once as lists, a thread or a warp per list",
      {option("bytes", "SIZE",
              "the managed buffer (K, M, G), a multiple of 2M, at most 16G and a quarter of the "
              "free GPU memory",
              "1G"),
       option("access", "LIST", "thread (a thread per list) and/or warp (a warp per list)", "thread,warp"),
       option("list-bytes", "LIST", "bytes each list spans, multiples of 8", "256"),
       option("strides", "LIST", "bytes from one list's start to the next's (0: back to back), dividing --bytes", "0"),
       option("reps", "INT", "timed cold runs per pattern", "3"),
       option("warmup", "INT", "untimed cold runs before them", "1"),
       required("out", "PATH", "the CSV to write, one row per timed run"),
       option("device", "INT", "the CUDA device", "0")},
      run_uvmfault};
}

}  // namespace emogi
