// body(i) for i in [0, n) on all hardware threads, in contiguous ranges (CPU-side checks of large graphs).
#pragma once
#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace emogi {

template <class Body>
void parallel_for(uint64_t n, Body body) {
  const uint64_t threads = std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
  const uint64_t step = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (uint64_t lo = 0; lo < n; lo += step)
    pool.emplace_back([=] {
      for (uint64_t i = lo; i < std::min(n, lo + step); ++i) body(i);
    });
  for (auto& t : pool) t.join();
}

}  // namespace emogi
