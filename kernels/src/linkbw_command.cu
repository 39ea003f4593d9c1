// `emogi linkbw`: cudaMemcpy bandwidth between host and GPU for several sizes, pinned and pageable host
// memory, both directions. The pinned host-to-device peak is the link limit W the figures compare against.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "emogi/atomic_file.hpp"
#include "emogi/cli_args.hpp"
#include "emogi/commands.hpp"
#include "emogi/device_array.cuh"
#include "emogi/device_info.hpp"
#include "emogi/event_timer.cuh"

namespace emogi {

namespace {

int run_linkbw(const CliArgs& args) {
  std::vector<uint64_t> sizes;
  for (const auto& s : args.get_list("sizes")) sizes.push_back(parse_bytes(s));
  const uint64_t reps = args.get_u64("reps");
  AtomicFile out(args.get("out"));
  select_device(int(args.get_u64("device")));

  uint64_t largest = 0;
  for (uint64_t s : sizes) largest = std::max(largest, s);
  DeviceArray<unsigned char> device(largest);
  unsigned char* pinned = nullptr;
  EMOGI_CUDA_CHECK(cudaMallocHost(&pinned, largest));
  std::unique_ptr<unsigned char, decltype(&cudaFreeHost)> pinned_owner(pinned, &cudaFreeHost);
  std::vector<unsigned char> pageable(largest), check(largest);
  for (uint64_t i = 0; i < largest; ++i) pinned[i] = pageable[i] = static_cast<unsigned char>(i * 2654435761u >> 24);

  EventTimer timer;
  out.stream() << "direction,host_memory,size_bytes,rep,time_ms,gbps\n";
  for (const char* memory : {"pinned", "pageable"}) {
    unsigned char* host = std::strcmp(memory, "pinned") == 0 ? pinned : pageable.data();
    for (const char* direction : {"h2d", "d2h"}) {
      const bool h2d = std::strcmp(direction, "h2d") == 0;
      for (uint64_t size : sizes) {
        auto copy = [&] {
          EMOGI_CUDA_CHECK(h2d ? cudaMemcpyAsync(device.data(), host, size, cudaMemcpyHostToDevice, 0)
                               : cudaMemcpyAsync(host, device.data(), size, cudaMemcpyDeviceToHost, 0));
        };
        copy();  // warm-up
        double best = 0;
        for (uint64_t rep = 0; rep < reps; ++rep) {
          timer.start(0);
          copy();
          timer.stop(0);
          const double ms = timer.elapsed_ms();
          best = std::max(best, size / (ms * 1e6));
          out.stream() << direction << "," << memory << "," << size << "," << rep << "," << ms << ","
                       << size / (ms * 1e6) << "\n";
        }
        std::fprintf(stderr, "%-8s %s %10llu bytes: best %.1f GB/s\n", memory, direction, (unsigned long long)size,
                     best);
      }
      // The copies must have moved the right bytes: read the device buffer back and compare.
      if (h2d) {
        EMOGI_CUDA_CHECK(cudaMemcpy(check.data(), device.data(), largest, cudaMemcpyDeviceToHost));
        if (std::memcmp(check.data(), host, largest) != 0)
          throw std::runtime_error(std::string("host-to-device copy from ") + memory + " memory delivered wrong bytes");
      }
    }
  }
  out.commit();
  return 0;
}

}  // namespace

CommandSpec linkbw_command() {
  return {
      "linkbw",
      "cudaMemcpy bandwidth between host and GPU: pinned and pageable, both directions",
      {option("sizes", "LIST", "copy sizes (K, M, G: binary units)", "1M,16M,64M,256M,1G"),
       option("reps", "INT", "timed copies per size", "5"),
       required("out", "PATH", "the CSV to write, one row per copy"), option("device", "INT", "the CUDA device", "0")},
      run_linkbw};
}

}  // namespace emogi
