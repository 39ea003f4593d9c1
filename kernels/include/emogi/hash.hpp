// XXH3-64 (seed 0): the graph-file checksum and the fingerprint of BFS results.
#pragma once
#include <cstddef>
#include <cstdint>

namespace emogi {

uint64_t xxh3_64(const void* data, size_t bytes);

struct ByteRange {
  const void* data;
  size_t bytes;
};
// XXH3-64 (seed 0) of the concatenation of `count` ranges, in one streaming pass (no copy).
uint64_t xxh3_64_concat(const ByteRange* parts, size_t count);

}  // namespace emogi
