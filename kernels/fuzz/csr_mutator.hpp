// Structure-aware mutations of graph file images: valid graphs of random shape, then header fields, offsets,
// ids, padding and sizes changed to the values that break readers (counts near 2^64, ids at V and beyond,
// decreasing offsets), and the checksum repaired most of the time, since random bit flips never get past it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "../tests/csr_image.hpp"

namespace emogi::fuzz {

using testing::Image;

struct Rng {  // splitmix64: deterministic for a seed, the same on every machine
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }
  bool chance(unsigned percent) { return below(100) < percent; }
};

// A valid graph of random shape: up to 600 vertices (so the offsets may span pages), 4- or 8-byte ids.
inline Image random_graph(Rng& rng) {
  const uint64_t v = rng.chance(10) ? rng.below(600) : rng.below(12);
  const unsigned width = rng.chance(50) ? 4 : 8;
  std::vector<uint64_t> offsets{0}, edges;
  for (uint64_t u = 0; u < v; ++u) {
    const uint64_t degree = rng.chance(30) ? 0 : rng.below(5);
    for (uint64_t k = 0; k < degree; ++k) edges.push_back(rng.below(v));
    offsets.push_back(edges.size());
  }
  std::vector<uint32_t> weights;
  if (rng.chance(50))
    for (size_t k = 0; k < edges.size(); ++k) weights.push_back(uint32_t(rng.next()));
  if (weights.empty() && rng.chance(20) && !edges.empty()) weights.assign(edges.size(), 0);  // zero weights: valid
  return testing::csr_image(offsets, edges, width, weights, rng.chance(50));
}

// Values at the edges of what the header's 64-bit counts and sizes can hold.
inline uint64_t interesting(Rng& rng, uint64_t current) {
  static const uint64_t values[] = {0,
                                    1,
                                    2,
                                    3,
                                    4,
                                    8,
                                    4095,
                                    4096,
                                    0x7FFFFFFFull,
                                    0xFFFFFFFFull,
                                    0x100000000ull,
                                    1ull << 61,
                                    (1ull << 61) - 1,
                                    1ull << 62,
                                    1ull << 63,
                                    ~0ull,
                                    ~0ull - 1,
                                    (~0ull - 8192) / 8 + 2,
                                    (~0ull - 4096) / 4 + 1};
  switch (rng.below(4)) {
    case 0: return values[rng.below(sizeof values / sizeof values[0])];
    case 1: return current + 1;
    case 2: return current - 1;
    default: return rng.chance(50) ? current * 2 : rng.next();
  }
}

inline void mutate_once(Image& image, Rng& rng) {
  using testing::get;
  using testing::put;
  if (image.size() < kHeaderBlock) {
    if (!image.empty()) image[rng.below(image.size())] = uint8_t(rng.next());
    return;
  }
  const uint64_t v = get(image, 24, 8), e = get(image, 32, 8);
  const unsigned width = get(image, 16, 4) == 4 ? 4 : 8;
  const uint64_t edges_at = testing::align_up(kHeaderBlock + 8 * (v + 1));
  switch (rng.below(10)) {
    case 0: {  // a 64-bit count
      const uint64_t at = rng.chance(50) ? 24 : 32;
      put(image, at, interesting(rng, get(image, at, 8)), 8);
      break;
    }
    case 1: {  // a 32-bit field: version, flags, width, reserved
      static const uint64_t at[] = {8, 12, 16, 20};
      const uint64_t where = at[rng.below(4)];
      put(image, where, rng.chance(70) ? rng.below(16) : interesting(rng, get(image, where, 4)), 4);
      break;
    }
    case 2:  // the reserved words, or any byte of the rest of the header block
      if (rng.chance(50))
        put(image, 48 + 8 * rng.below(2), rng.chance(50) ? 1 : rng.next(), 8);
      else
        image[64 + rng.below(kHeaderBlock - 64)] = uint8_t(1 + rng.below(255));
      break;
    case 3:
    case 4: {  // an offset
      const uint64_t i = rng.below(v + 1);
      const uint64_t at = kHeaderBlock + 8 * i;
      if (at + 8 <= image.size())
        put(image, at, rng.chance(50) ? interesting(rng, get(image, at, 8)) : rng.below(e + 2), 8);
      break;
    }
    case 5:
    case 6: {  // an id: V, V - 1, the width's largest, or anything
      if (!e) break;
      const uint64_t at = edges_at + width * rng.below(e);
      const uint64_t choice[] = {v, v - 1, v + 1, width == 4 ? 0xFFFFFFFFull : ~0ull, rng.next()};
      if (at + width <= image.size()) put(image, at, choice[rng.below(5)], width);
      break;
    }
    case 7:  // any byte after the header (padding, weights, sections)
      if (image.size() > kHeaderBlock)
        image[kHeaderBlock + rng.below(image.size() - kHeaderBlock)] ^= uint8_t(1 + rng.below(255));
      break;
    case 8: {  // the size: cut, extended, or cut to a page boundary
      const uint64_t size = image.size();
      switch (rng.below(3)) {
        case 0: image.resize(size - std::min<uint64_t>(size, 1 + rng.below(16))); break;
        case 1: image.resize(size + 1 + rng.below(16), 0); break;
        default: image.resize(std::min<uint64_t>(size, kHeaderBlock * (1 + rng.below(4)))); break;
      }
      break;
    }
    default: {  // a consistent-looking edit: one more edge at the end, offsets[V] and E updated, file regrown
      const bool weighted = get(image, 12, 4) & kFlagHasWeights;
      if (v == 0 || weighted || edges_at + width * e != image.size()) break;
      image.resize(image.size() + width, 0);
      put(image, edges_at + width * e, rng.chance(50) ? rng.below(v) : v, width);
      put(image, 32, e + 1, 8);
      put(image, kHeaderBlock + 8 * v, e + 1, 8);
      break;
    }
  }
}

// Up to four mutations, then (most of the time) the checksum repaired so that the other checks must catch them.
inline void mutate(Image& image, Rng& rng) {
  const uint64_t n = 1 + rng.below(4);
  for (uint64_t k = 0; k < n; ++k) mutate_once(image, rng);
  if (rng.chance(90)) testing::repair_checksum(image);
}

}  // namespace emogi::fuzz
