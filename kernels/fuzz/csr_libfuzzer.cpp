// libFuzzer harness over MappedCsr (built by tools/fuzz/build.py with clang: -fsanitize=fuzzer,address,undefined).
// The custom mutator is structure-aware (csr_mutator.hpp): it edits header fields, offsets and ids and repairs the
// checksum, or starts from a fresh valid graph; libFuzzer's byte mutations run beside it now and then.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "csr_mutator.hpp"
#include "csr_target.hpp"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  emogi::fuzz::run_one(data, size);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  emogi::fuzz::Rng rng{seed};
  emogi::fuzz::Image image(data, data + size);
  if (size < emogi::kHeaderBlock || rng.chance(5)) image = emogi::fuzz::random_graph(rng);
  if (rng.chance(15)) {  // libFuzzer's byte-level mutations, then (usually) a repaired checksum
    const size_t used = image.size();
    image.resize(std::max(used, max_size));
    image.resize(LLVMFuzzerMutate(image.data(), used, image.size()));
    if (rng.chance(80)) emogi::testing::repair_checksum(image);
  } else {
    emogi::fuzz::mutate(image, rng);
  }
  image.resize(std::min(image.size(), max_size));
  std::memcpy(data, image.data(), image.size());
  return image.size();
}
