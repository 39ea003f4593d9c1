#include "emogi/host_copy.hpp"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace emogi {

void parallel_copy(void* dst, const void* src, size_t bytes) {
  constexpr size_t kMinChunk = 64u << 20;
  const size_t threads = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), bytes / kMinChunk));
  const size_t chunk = (bytes + threads - 1) / threads;
  std::vector<std::thread> workers;
  for (size_t t = 0; t < threads; ++t) {
    const size_t begin = t * chunk, end = std::min(bytes, begin + chunk);
    if (begin >= end) break;
    workers.emplace_back(
        [=] { std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, end - begin); });
  }
  for (auto& w : workers) w.join();
}

}  // namespace emogi
