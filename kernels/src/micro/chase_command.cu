// `emogi chase`: the latency of one dependent 128-byte read (CXL paper, Appendix B). One warp follows a random
// single-cycle permutation of pointers spaced 128 bytes apart: each lane reads 4 bytes of the line (one
// 128-byte request), lanes 0-1 hold the next index, and nothing can overlap because the next address is only
// known when the current line arrives. latency = time / steps.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "emogi/added_latency.cuh"
#include "emogi/atomic_file.hpp"
#include "emogi/cli_args.hpp"
#include "emogi/commands.hpp"
#include "emogi/device_array.cuh"
#include "emogi/device_info.hpp"
#include "emogi/edge_store.cuh"
#include "emogi/event_timer.cuh"
#include "emogi/micro_common.hpp"

namespace emogi {
namespace {

constexpr uint64_t kWordsPerLine = kCacheLineBytes / 4;

__global__ void chase(const uint32_t* __restrict__ lines, uint64_t start, uint64_t steps, uint32_t added_cycles,
                      uint64_t* end) {
  const unsigned lane = threadIdx.x;
  uint64_t index = start;
  for (uint64_t s = 0; s < steps; ++s) {
    const uint32_t word = __ldcg(lines + index * kWordsPerLine + lane);  // L2 only: no L1 reuse across steps
    wait_after_arrival(word, added_cycles);  // added-latency emulation, as the walks wait (access.cuh)
    const uint32_t lo = __shfl_sync(0xffffffffu, word, 0), hi = __shfl_sync(0xffffffffu, word, 1);
    index = (uint64_t(hi) << 32) | lo;
  }
  if (lane == 0) *end = index;
}

// A random permutation with a single cycle through all `n` lines (Sattolo's algorithm), written as next
// pointers into `lines` (the rest of each line is filler that is never zero).
void build_chain(std::vector<uint32_t>& lines, uint64_t n, uint64_t seed) {
  std::vector<uint64_t> next(n);
  for (uint64_t i = 0; i < n; ++i) next[i] = i;
  std::mt19937_64 rng(seed);
  for (uint64_t i = n - 1; i > 0; --i) std::swap(next[i], next[std::uniform_int_distribution<uint64_t>(0, i - 1)(rng)]);
  for (uint64_t i = 0; i < n; ++i) {
    lines[i * kWordsPerLine] = uint32_t(next[i]);
    lines[i * kWordsPerLine + 1] = uint32_t(next[i] >> 32);
    for (uint64_t w = 2; w < kWordsPerLine; ++w) lines[i * kWordsPerLine + w] = uint32_t(i + w) | 1u;
  }
}

uint64_t walk(const std::vector<uint32_t>& lines, uint64_t start, uint64_t steps) {
  uint64_t index = start;
  for (uint64_t s = 0; s < steps; ++s)
    index = lines[index * kWordsPerLine] | (uint64_t(lines[index * kWordsPerLine + 1]) << 32);
  return index;
}

int run_chase(const CliArgs& args) {
  const auto modes = micro_modes(args);
  const auto footprints = byte_list(args, "footprints");
  const uint64_t steps = args.get_u64("steps"), reps = args.get_u64("reps"), seed = args.get_u64("seed");
  ManagedPolicy policy;
  policy.allow_oversubscription = args.flag("allow-managed-oversubscription");
  AtomicFile out(args.get("out"));
  select_device(int(args.get_u64("device")));
  const uint32_t added_cycles = ns_to_cycles(args.get_u64("added-latency-ns"), int(args.get_u64("device")));

  DeviceArray<uint64_t> end(1);
  EventTimer timer;
  out.stream() << "mode,footprint_bytes,steps,rep,time_ms,latency_ns,verified\n";
  for (uint64_t footprint : footprints) {
    const uint64_t n = footprint / kCacheLineBytes;
    if (n < 2 || footprint % kCacheLineBytes)
      throw std::invalid_argument("footprints must be multiples of 128 bytes, >= 256");
    std::vector<uint32_t> lines(n * kWordsPerLine);
    build_chain(lines, n, seed);
    // The end of the walk on the host is what the GPU must reach; a short permutation is also checked whole.
    const uint64_t expected = walk(lines, 0, steps);
    if (n <= (uint64_t(1) << 22) && walk(lines, 0, n) != 0) throw std::logic_error("the chain is not a single cycle");
    for (MemoryMode mode : modes) {
      EdgeStore store(mode, lines.data(), footprint, policy);
      const auto* data = static_cast<const uint32_t*>(store.data());
      chase<<<1, 32>>>(data, 0, steps < 1000 ? steps : 1000, added_cycles, end.data());  // warm-up: TLB, clocks
      EMOGI_CHECK_LAUNCH();
      std::vector<double> ns;
      for (uint64_t rep = 0; rep < reps; ++rep) {
        timer.start(0);
        chase<<<1, 32>>>(data, 0, steps, added_cycles, end.data());
        EMOGI_CHECK_LAUNCH();
        timer.stop(0);
        const double ms = timer.elapsed_ms();
        uint64_t reached = 0;
        EMOGI_CUDA_CHECK(cudaMemcpy(&reached, end.data(), sizeof reached, cudaMemcpyDeviceToHost));
        if (reached != expected)
          throw std::runtime_error(std::string("chase in ") + name_of(mode) + " memory ended at the wrong line");
        ns.push_back(ms * 1e6 / steps);
        out.stream() << name_of(mode) << "," << footprint << "," << steps << "," << rep << "," << ms << "," << ns.back()
                     << ",true\n";
      }
      std::fprintf(stderr, "chase %-15s %12llu bytes: median %7.1f ns per dependent read\n", name_of(mode),
                   (unsigned long long)footprint, median_of(ns));
    }
  }
  out.commit();
  return 0;
}

}  // namespace

CommandSpec chase_command() {
  return {
      "chase",
      "latency of one dependent 128-byte read: a pointer chase through a random cycle of lines",
      {micro_modes_option(), option("footprints", "LIST", "array sizes (K, M, G)", "4M,64M,256M,1G,4G,8G"),
       option("steps", "INT", "dependent reads per timed walk", "20000"),
       option("reps", "INT", "timed walks per mode and size", "3"),
       option("seed", "INT", "the cycle's random seed", "1"),
       option("added-latency-ns", "NS", "wait this long after every read arrives (what `emogi run` emulates)", "0"),
       required("out", "PATH", "the CSV to write, one row per walk"), option("device", "INT", "the CUDA device", "0"),
       flag("allow-managed-oversubscription", "let managed allocations exceed the GPU's free memory")},
      run_chase};
}

}  // namespace emogi
