// SHA-256 (FIPS 180-4): the dataset lock's digest, which unlike the XXH3 checksum resists crafted collisions.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace emogi {

std::array<unsigned char, 32> sha256(const void* data, size_t bytes);

}  // namespace emogi
