// Filling multi-GiB host allocations from a memory-mapped file: one thread per core, because a single
// memcpy into freshly allocated (page-faulting) memory runs at a fraction of memory bandwidth.
#pragma once
#include <cstddef>

namespace emogi {

void parallel_copy(void* dst, const void* src, size_t bytes);

}  // namespace emogi
