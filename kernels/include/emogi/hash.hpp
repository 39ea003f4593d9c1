// XXH3-64 (seed 0): the graph-file checksum and the fingerprint of BFS results.
#pragma once
#include <cstddef>
#include <cstdint>

namespace emogi {

uint64_t xxh3_64(const void* data, size_t bytes);

}  // namespace emogi
