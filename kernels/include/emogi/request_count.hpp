// How many host requests a warp's walk of one list sends over the link, and how many 32-byte sectors they carry.
// A warp-wide load becomes one request per 128-byte line it touches (FACTS.md: a zero-copy request carries at most
// one line), holding the sectors it touches; so the mean request size of a walk follows from the list bounds
// alone, and with it the most of the link that walk can use (docs/profiling.md).
#pragma once
#include <cstdint>

#include "emogi/gpu_constants.hpp"

namespace emogi {

struct RequestCount {
  uint64_t requests = 0, sectors = 0;
  RequestCount& operator+=(const RequestCount& o) {
    requests += o.requests;
    sectors += o.sectors;
    return *this;
  }
};

// The warp reads entries [i, i + 32) ∩ [begin, end) for i = first, first + 32, ... (access.cuh's merged walks:
// `first` is `begin` for merged, `begin` rounded down to a line for merged+aligned). Positions are entries of
// `entry_bytes` each from a 128-byte-aligned array start.
inline RequestCount count_warp_walk(uint64_t first, uint64_t begin, uint64_t end, unsigned entry_bytes) {
  constexpr uint64_t kSectorBytes = 32;
  RequestCount c;
  for (uint64_t i = first; i < end; i += kWarpSize) {
    const uint64_t lo = (i > begin ? i : begin) * entry_bytes;
    const uint64_t hi = (i + kWarpSize < end ? i + kWarpSize : end) * entry_bytes;  // one past the last byte
    if (lo >= hi) continue;
    c.requests += (hi - 1) / kCacheLineBytes - lo / kCacheLineBytes + 1;
    c.sectors += (hi - 1) / kSectorBytes - lo / kSectorBytes + 1;
  }
  return c;
}

}  // namespace emogi
