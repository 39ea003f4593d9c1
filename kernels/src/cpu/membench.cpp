#include "emogi/cpu/membench.hpp"

#include <omp.h>

#include <chrono>
#include <stdexcept>

namespace emogi::cpu {

uint64_t membench_index(uint64_t i, uint64_t elements, bool random) {
  if (!random) return i % elements;
  uint64_t z = i + 0x9e3779b97f4a7c15ull;  // splitmix64's output function
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (z ^ (z >> 31)) % elements;
}

MembenchRates membench_rates(uint64_t accesses, double seconds) {
  if (!(seconds > 0)) throw std::invalid_argument("membench: a pass took no measurable time");
  MembenchRates r;
  r.seconds = seconds;
  r.ns_per_access = seconds * 1e9 / double(accesses);
  r.array_gb_s = 8.0 * double(accesses) / seconds / 1e9;
  r.total_gb_s = 16.0 * double(accesses) / seconds / 1e9;
  return r;
}

Membench::Membench(uint64_t array_bytes, uint64_t accesses, bool random)
    : elements_(array_bytes / sizeof(int64_t)), accesses_(accesses ? accesses : array_bytes / sizeof(int64_t)) {
  if (elements_ == 0) throw std::invalid_argument("membench: --size must hold at least one 8-byte element");
  src_.reset(new int64_t[elements_]);  // not value-initialised: the parallel fill is the first touch
  index_.reset(new uint64_t[accesses_]);
  const int64_t n = int64_t(elements_), m = int64_t(accesses_);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) src_[i] = i;
  uint64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (int64_t i = 0; i < m; ++i) sum += index_[i] = membench_index(uint64_t(i), elements_, random);
  expected_sum_ = sum;
}

double Membench::time_pass(int threads) const {
  const int64_t m = int64_t(accesses_);
  const int64_t* src = src_.get();
  const uint64_t* index = index_.get();
  uint64_t sum = 0;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : sum)
  for (int64_t i = 0; i < m; ++i) sum += uint64_t(src[index[i]]);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (sum != expected_sum_) throw std::runtime_error("membench: the pass read a wrong sum");
  return seconds;
}

}  // namespace emogi::cpu
