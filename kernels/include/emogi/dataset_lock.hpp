// The dataset lock: `datasets.lock` in a graph's folder records, per file name, the digest and size of graph
// files that passed a full check earlier (`python -m emogi.dataset_lock add`, emogi/dataset_lock.py). A reader
// may skip its own structural checks only for a file whose whole-file digest matches its entry: a flag inside
// the file could be set by whoever repaired its checksum, a record outside it cannot.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace emogi {

constexpr const char* kDatasetLockName = "datasets.lock";

struct LockEntry {
  std::string lock_path;
  std::string digest;  // lower-case hex, as file_digest() writes it
  uint64_t bytes;
};

// The entry for `graph_path`'s file name in the lock beside it; nullopt when there is no lock or no entry.
// A lock line that does not parse throws std::runtime_error naming the lock.
std::optional<LockEntry> find_locked(const std::string& graph_path);

// SHA-256 over the SHA-256 digests of the file's 64 MiB blocks, in order (blocks hashed on every core), as hex.
std::string file_digest(const unsigned char* base, uint64_t size);

}  // namespace emogi
