// The graph file (docs/graph-format.md): a 4096-byte header block, then offsets, edges and optional weights,
// each section page-aligned. MappedCsr memory-maps a file read-only and validates it before anyone uses it:
// a graph file may come from anywhere, so nothing in it is trusted until checked (csr_check.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace emogi {

struct GraphFormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CsrHeader {
  char magic[8];
  uint32_t version;
  uint32_t flags;
  uint32_t index_bytes;
  uint32_t reserved0;
  uint64_t num_vertices;
  uint64_t num_edges;
  uint64_t checksum;
  uint64_t transposes;  // kFlagTranspose: the checksum of the graph whose in-lists this file holds; else 0
  uint64_t reserved1;
};
static_assert(sizeof(CsrHeader) == 64, "the header is 64 bytes on disk");

constexpr char kCsrMagic[8] = {'E', 'M', 'O', 'G', 'I', 'C', 'S', 'R'};
// Version 2: the checksum covers the header too (version 1's covered only the payload).
constexpr uint32_t kCsrVersion = 2;
constexpr uint32_t kFlagHasWeights = 1u << 0;
constexpr uint32_t kFlagDirected = 1u << 1;
constexpr uint32_t kFlagTranspose = 1u << 2;  // the file is another graph's transpose (csr_transpose.hpp)
constexpr uint32_t kKnownFlags = kFlagHasWeights | kFlagDirected | kFlagTranspose;
constexpr uint64_t kSectionAlign = 4096;
constexpr uint64_t kHeaderBlock = 4096;
constexpr uint64_t kChecksumAt = 40;  // byte offset of the checksum field, read as zero when hashing

// Byte positions of the sections, derived from the header alone.
struct CsrLayout {
  uint64_t offsets_at, offsets_end, edges_at, edges_end, weights_at, file_size;
  // Every size is overflow-checked: a header whose sections do not fit 64-bit arithmetic throws (naming `where`).
  static CsrLayout of(const CsrHeader& h, const std::string& where);
};

// What a reader checks beyond the header and the file size (which are always checked).
struct CsrChecks {
  bool checksum = true;   // the XXH3-64 of the whole file
  bool structure = true;  // offsets, neighbour ids < V, zero padding
  // Progress lines on stderr while checking sections at least this large.
  uint64_t progress_min_bytes = uint64_t(1) << 30;
};

class MappedCsr {
 public:
  // Maps `path` and checks it (csr_check.hpp). The structure is always checked, unless the dataset lock
  // beside the file (dataset_lock.hpp) records this very file's digest from an earlier full check.
  explicit MappedCsr(const std::string& path, bool verify_checksum = true);
  ~MappedCsr();
  MappedCsr(const MappedCsr&) = delete;
  MappedCsr& operator=(const MappedCsr&) = delete;

  const CsrHeader& header() const { return header_; }
  const std::string& path() const { return path_; }
  uint64_t num_vertices() const { return header_.num_vertices; }
  uint64_t num_edges() const { return header_.num_edges; }
  unsigned index_bytes() const { return header_.index_bytes; }
  bool directed() const { return header_.flags & kFlagDirected; }
  bool has_weights() const { return header_.flags & kFlagHasWeights; }
  bool is_transpose() const { return header_.flags & kFlagTranspose; }

  const uint64_t* offsets() const { return reinterpret_cast<const uint64_t*>(base_ + layout_.offsets_at); }
  const void* edges() const { return base_ + layout_.edges_at; }
  template <class Index>
  const Index* edges_as() const {
    if (sizeof(Index) != index_bytes()) throw GraphFormatError(path_ + ": edge width mismatch");
    return static_cast<const Index*>(edges());
  }
  uint64_t edge_list_bytes() const { return num_edges() * index_bytes(); }
  // The 4-byte weight of every edge entry; nullptr when the file has none.
  const uint32_t* weights() const {
    return has_weights() ? reinterpret_cast<const uint32_t*>(base_ + layout_.weights_at) : nullptr;
  }
  uint64_t degree(uint64_t v) const { return offsets()[v + 1] - offsets()[v]; }

 private:
  std::string path_;
  CsrHeader header_{};
  CsrLayout layout_{};
  const unsigned char* base_ = nullptr;
  size_t mapped_bytes_ = 0;
};

}  // namespace emogi
