#include "emogi/hash.hpp"

#define XXH_INLINE_ALL
#include "xxhash.h"

namespace emogi {

uint64_t xxh3_64(const void* data, size_t bytes) { return XXH3_64bits(data, bytes); }

}  // namespace emogi
