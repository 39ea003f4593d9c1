// `emogi concurrency`: throughput of random, line-aligned reads of 32/64/96/128 bytes against the number of
// reads in flight (warps x reads per warp). Little's law turns the result into the in-flight count the link
// sustains (N = T L / d), and its ceiling into the request rate the memory and its address translation allow.
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

constexpr unsigned kWarpsPerBlock = 4;

__device__ __forceinline__ uint64_t next_random(uint64_t& s) {  // xorshift64*: warp-uniform, cheap
  s ^= s >> 12;
  s ^= s << 25;
  s ^= s >> 27;
  return s * 0x2545F4914F6CDD1Dull;
}

// Each warp keeps exactly K independent reads in flight: K random lines, `words` 4-byte lanes of each (a request
// of 4 * words bytes from the start of the line), then uses them before choosing the next K lines. `zero` is 0
// at run time, but the compiler cannot know it: folding the loaded values into the next addresses stops it from
// issuing later iterations' loads early, which would put more than K reads in flight.
template <int K>
__global__ void random_reads(const uint32_t* __restrict__ buf, uint32_t lines, unsigned words, uint32_t iterations,
                             uint64_t seed, uint32_t zero, uint32_t* sink) {
  const unsigned lane = threadIdx.x % kWarpSize;
  uint64_t state = (seed ^ (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize) * 0x9E3779B97F4A7C15ull | 1;
  uint32_t acc = 0;
  for (uint32_t it = 0; it < iterations; ++it) {
    uint32_t v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const uint32_t line = __umulhi(uint32_t(next_random(state) >> 32), lines);
      v[k] = lane < words ? __ldcg(buf + uint64_t(line) * (kCacheLineBytes / 4) + lane) : 0;
    }
#pragma unroll
    for (int k = 0; k < K; ++k) acc += v[k];
    state += __shfl_sync(0xffffffffu, acc, 0) & zero;  // the next addresses wait for these reads
  }
  if (acc == 0x9E3779B9u) *sink = acc;  // keeps the loads; the buffer holds no such sum
}

void launch(uint64_t reads_per_warp, unsigned blocks, unsigned threads, const uint32_t* buf, uint32_t lines,
            unsigned words, uint32_t iterations, uint64_t seed, uint32_t* sink) {
  switch (reads_per_warp) {
    case 1: random_reads<1><<<blocks, threads>>>(buf, lines, words, iterations, seed, 0, sink); break;
    case 2: random_reads<2><<<blocks, threads>>>(buf, lines, words, iterations, seed, 0, sink); break;
    case 4: random_reads<4><<<blocks, threads>>>(buf, lines, words, iterations, seed, 0, sink); break;
    case 8: random_reads<8><<<blocks, threads>>>(buf, lines, words, iterations, seed, 0, sink); break;
    default: throw std::invalid_argument("--reads-per-warp takes 1, 2, 4 or 8");
  }
  EMOGI_CHECK_LAUNCH();
}

int run_concurrency(const CliArgs& args) {
  const auto modes = micro_modes(args);
  const auto footprints = byte_list(args, "footprints");
  const auto sizes = byte_list(args, "request-bytes");
  const auto warps = byte_list(args, "warps");
  const auto per_warp = byte_list(args, "reads-per-warp");
  const uint64_t iterations = args.get_u64("iterations"), reps = args.get_u64("reps");
  const uint64_t warmup = args.get_u64("warmup");
  for (uint64_t d : sizes)
    if (d == 0 || d > kCacheLineBytes || d % 32) throw std::invalid_argument("--request-bytes takes 32, 64, 96, 128");
  ManagedPolicy policy;
  policy.allow_oversubscription = args.flag("allow-managed-oversubscription");
  AtomicFile out(args.get("out"));
  select_device(int(args.get_u64("device")));

  uint64_t largest = 0;
  for (uint64_t f : footprints) largest = std::max(largest, f);
  if (largest / kCacheLineBytes > UINT32_MAX) throw std::invalid_argument("footprints up to 512 GiB");
  std::vector<uint32_t> host(largest / 4);
  for (uint64_t i = 0; i < host.size(); ++i) host[i] = uint32_t(i * 2654435761u) | 1u;
  DeviceArray<uint32_t> sink(1);
  EventTimer timer;
  out.stream() << "mode,footprint_bytes,request_bytes,warps,reads_per_warp,rep,requests,time_ms,gbps,mrps\n";
  for (uint64_t footprint : footprints)
    for (MemoryMode mode : modes) {
      EdgeStore store(mode, host.data(), footprint, policy);
      const auto* buf = static_cast<const uint32_t*>(store.data());
      const uint32_t lines = uint32_t(footprint / kCacheLineBytes);
      for (uint64_t d : sizes)
        for (uint64_t k : per_warp)
          for (uint64_t w : warps) {
            const unsigned per_block = unsigned(std::min<uint64_t>(w, kWarpsPerBlock));
            if (w % per_block) throw std::invalid_argument("--warps above 4 must be multiples of 4");
            const unsigned blocks = unsigned(w / per_block), threads = per_block * kWarpSize;
            const unsigned words = unsigned(d / 4);
            for (uint64_t i = 0; i < warmup; ++i) launch(k, blocks, threads, buf, lines, words, 8, 1, sink.data());
            const std::string label = "concurrency|" + std::string(name_of(mode)) + "|" + std::to_string(footprint) +
                                      "|" + std::to_string(d) + "|" + std::to_string(k) + "|" + std::to_string(w);
            std::vector<double> rate;
            for (uint64_t rep = 0; rep < reps; ++rep) {
              timer.start(0);
              {
                NvtxRange range(label);  // the profile stage attributes the kernel to this setting
                launch(k, blocks, threads, buf, lines, words, uint32_t(iterations), rep + 2, sink.data());
              }
              timer.stop(0);
              const double ms = timer.elapsed_ms();
              const double requests = double(w) * k * iterations;
              rate.push_back(requests / (ms * 1e3));
              out.stream() << name_of(mode) << "," << footprint << "," << d << "," << w << "," << k << "," << rep << ","
                           << uint64_t(requests) << "," << ms << "," << requests * d / (ms * 1e6) << "," << rate.back()
                           << "\n";
            }
            if (w == warps.back())
              std::fprintf(stderr, "concurrency %-15s %11llu B, %3llu-B reads x %llu per warp, %llu warps: %7.1f M/s\n",
                           name_of(mode), (unsigned long long)footprint, (unsigned long long)d, (unsigned long long)k,
                           (unsigned long long)w, median_of(rate));
          }
    }
  out.commit();
  return 0;
}

}  // namespace

CommandSpec concurrency_command() {
  return {
      "concurrency",
      "random-read throughput against the reads in flight (warps x reads per warp)",
      {micro_modes_option(), option("footprints", "LIST", "array sizes (K, M, G)", "256M,8G"),
       option("request-bytes", "LIST", "bytes per read: 32, 64, 96 or 128", "32,64,96,128"),
       option("warps", "LIST", "warps reading at once", "1,2,4,8,16,32,64,128,256,512,1024,2048,4096"),
       option("reads-per-warp", "LIST", "independent reads a warp keeps in flight: 1, 2, 4 or 8", "1,4"),
       option("iterations", "INT", "reads per warp and slot in a timed launch", "256"),
       option("reps", "INT", "timed launches per setting", "3"),
       option("warmup", "INT", "untimed launches before them", "1"),
       required("out", "PATH", "the CSV to write, one row per launch"), option("device", "INT", "the CUDA device", "0"),
       flag("allow-managed-oversubscription", "let managed allocations exceed the GPU's free memory")},
      run_concurrency};
}

}  // namespace emogi
