// Hardware constants the kernels are written around.
#pragma once

namespace emogi {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kMaxWarpsPerBlock = 1024 / kWarpSize;  // CUDA's limit of 1024 threads per block
constexpr unsigned kCacheLineBytes = 128;                 // the largest read request a GPU sends for zero-copy memory

}  // namespace emogi
