// Graph file images built in memory, for the host tests and the fuzzers: the writer's layout without a file,
// and the checksum repair a crafted file would have (so that the other checks are what must catch it).
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "emogi/csr.hpp"
#include "emogi/csr_check.hpp"

namespace emogi::testing {

using Image = std::vector<unsigned char>;

inline void put(Image& image, uint64_t at, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes && at + i < image.size(); ++i)
    image[at + i] = static_cast<unsigned char>(value >> 8 * i);
}

inline uint64_t get(const Image& image, uint64_t at, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes && at + i < image.size(); ++i) value |= uint64_t(image[at + i]) << 8 * i;
  return value;
}

inline void repair_checksum(Image& image) {
  if (image.size() >= kHeaderBlock) put(image, kChecksumAt, csr_checksum(image.data(), image.size()), 8);
}

inline uint64_t align_up(uint64_t x) { return (x + kSectionAlign - 1) / kSectionAlign * kSectionAlign; }

// A valid version-2 file of the lists given by `offsets` and `edges` (weights when `weights` is non-empty).
inline Image csr_image(const std::vector<uint64_t>& offsets, const std::vector<uint64_t>& edges, unsigned index_bytes,
                       const std::vector<uint32_t>& weights = {}, bool directed = false) {
  const uint64_t v = offsets.size() - 1, e = edges.size();
  const uint64_t edges_at = align_up(kHeaderBlock + 8 * (v + 1));
  const uint64_t weights_at = align_up(edges_at + e * index_bytes);
  Image image(weights.empty() ? edges_at + e * index_bytes : weights_at + 4 * e, 0);
  std::memcpy(image.data(), kCsrMagic, 8);
  put(image, 8, kCsrVersion, 4);
  put(image, 12, (weights.empty() ? 0 : kFlagHasWeights) | (directed ? kFlagDirected : 0), 4);
  put(image, 16, index_bytes, 4);
  put(image, 24, v, 8);
  put(image, 32, e, 8);
  for (uint64_t i = 0; i <= v; ++i) put(image, kHeaderBlock + 8 * i, offsets[i], 8);
  for (uint64_t i = 0; i < e; ++i) put(image, edges_at + index_bytes * i, edges[i], index_bytes);
  for (uint64_t i = 0; i < weights.size(); ++i) put(image, weights_at + 4 * i, weights[i], 4);
  repair_checksum(image);
  return image;
}

// Header and body checks of a whole image, as MappedCsr runs them (without a lock).
inline CsrHeader check_image(const Image& image, const CsrChecks& what = {}) {
  CsrLayout layout{};
  const CsrHeader h = check_csr_header(image.data(), image.size(), "image", &layout);
  check_csr_body(image.data(), h, layout, "image", what);
  return h;
}

}  // namespace emogi::testing
