#include "emogi/hash.hpp"

#define XXH_INLINE_ALL
#include "xxhash.h"

namespace emogi {

uint64_t xxh3_64(const void* data, size_t bytes) { return XXH3_64bits(data, bytes); }

uint64_t xxh3_64_concat(const ByteRange* parts, size_t count) {
  XXH3_state_t state;
  XXH3_INITSTATE(&state);
  XXH3_64bits_reset(&state);
  for (size_t i = 0; i < count; ++i) XXH3_64bits_update(&state, parts[i].data, parts[i].bytes);
  return XXH3_64bits_digest(&state);
}

}  // namespace emogi
