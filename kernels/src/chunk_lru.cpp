#include "emogi/chunk_lru.hpp"

#include <algorithm>

namespace emogi {

void ChunkLru::reset() {
  std::fill(resident_.begin(), resident_.end(), 0);
  std::fill(used_.begin(), used_.end(), 0);
  held_ = now_ = 0;
}

std::vector<uint64_t> ChunkLru::step(const uint8_t* touched) {
  const uint64_t n = resident_.size();
  for (uint64_t c = 0; c < n; ++c) {
    if (!touched[c]) continue;
    held_ += !resident_[c];
    resident_[c] = 1;
    used_[c] = now_ * n + c;
  }
  ++now_;
  if (held_ <= capacity_) return {};
  std::vector<uint64_t> held;
  held.reserve(held_);
  for (uint64_t c = 0; c < n; ++c)
    if (resident_[c]) held.push_back(c);
  const uint64_t over = held_ - capacity_;
  std::nth_element(held.begin(), held.begin() + (over - 1), held.end(),
                   [&](uint64_t a, uint64_t b) { return used_[a] < used_[b]; });
  held.resize(over);
  std::sort(held.begin(), held.end());
  for (uint64_t c : held) resident_[c] = 0;
  held_ = capacity_;
  return held;
}

std::vector<ChunkRun> chunk_runs(const std::vector<uint64_t>& sorted_chunks) {
  std::vector<ChunkRun> runs;
  for (uint64_t c : sorted_chunks) {
    if (!runs.empty() && runs.back().first + runs.back().count == c)
      ++runs.back().count;
    else
      runs.push_back({c, 1});
  }
  return runs;
}

}  // namespace emogi
