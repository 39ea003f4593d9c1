#include "emogi/csr.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "emogi/hash.hpp"

namespace emogi {
namespace {

uint64_t align_up(uint64_t x) { return (x + kSectionAlign - 1) / kSectionAlign * kSectionAlign; }

std::string hex(uint64_t x) {
  char buf[19];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(x));
  return buf;
}

}  // namespace

CsrLayout CsrLayout::of(const CsrHeader& h) {
  CsrLayout l{};
  l.offsets_at = kSectionAlign;
  const uint64_t offsets_end = l.offsets_at + 8 * (h.num_vertices + 1);
  l.edges_at = align_up(offsets_end);
  const uint64_t edges_end = l.edges_at + h.num_edges * h.index_bytes;
  l.weights_at = (h.flags & kFlagHasWeights) ? align_up(edges_end) : 0;
  l.file_size = (h.flags & kFlagHasWeights) ? l.weights_at + 4 * h.num_edges : edges_end;
  return l;
}

uint64_t csr_payload_checksum(const unsigned char* base, uint64_t file_size) {
  return xxh3_64(base + kSectionAlign, file_size - kSectionAlign);
}

MappedCsr::MappedCsr(const std::string& path, bool verify_checksum) : path_(path) {
  auto fail = [&](const std::string& why) { throw GraphFormatError(path + ": " + why); };

  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) fail(std::string("cannot open: ") + std::strerror(errno));
  struct stat st{};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    fail(std::string("cannot stat: ") + std::strerror(errno));
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size < kSectionAlign) {
    ::close(fd);
    fail("truncated: " + std::to_string(size) + " bytes, shorter than the 4096-byte header block");
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) fail(std::string("cannot map: ") + std::strerror(errno));
  base_ = static_cast<const unsigned char*>(map);
  mapped_bytes_ = size;

  // From here on, a failure must unmap: the destructor does not run for a throwing constructor.
  try {
    std::memcpy(&header_, base_, sizeof header_);
    if (std::memcmp(header_.magic, kCsrMagic, sizeof kCsrMagic) != 0) fail("not an EMOGI CSR file (wrong magic)");
    if (header_.version != kCsrVersion)
      fail("unsupported format version " + std::to_string(header_.version) + " (this build reads 1)");
    if (header_.flags & ~(kFlagHasWeights | kFlagDirected)) fail("unknown flag bits " + hex(header_.flags));
    if (header_.index_bytes != 4 && header_.index_bytes != 8)
      fail("index_bytes is " + std::to_string(header_.index_bytes) + ", must be 4 or 8");
    if (header_.index_bytes == 4 && header_.num_vertices > 0xFFFFFFFFull)
      fail(std::to_string(header_.num_vertices) +
           " vertices with 4-byte edge ids, which name at most 2^32 - 1; "
           "write the graph with 8-byte ids");
    layout_ = CsrLayout::of(header_);
    if (size < layout_.file_size)
      fail("truncated: " + std::to_string(size) + " bytes, the header implies " + std::to_string(layout_.file_size));
    if (size > layout_.file_size)
      fail("has " + std::to_string(size - layout_.file_size) + " trailing bytes beyond its last section");

    const uint64_t* off = offsets();
    const uint64_t n = header_.num_vertices;
    if (off[0] != 0) fail("offsets[0] is " + std::to_string(off[0]) + ", must be 0");
    if (off[n] != header_.num_edges)
      fail("offsets[V] is " + std::to_string(off[n]) + ", must equal E = " + std::to_string(header_.num_edges));
    for (uint64_t v = 0; v < n; ++v)
      if (off[v + 1] < off[v]) fail("offsets decrease at vertex " + std::to_string(v));

    if (verify_checksum) {
      const uint64_t actual = csr_payload_checksum(base_, size);
      if (actual != header_.checksum) fail("corrupt: checksum " + hex(actual) + " expected " + hex(header_.checksum));
    }
    ::madvise(const_cast<unsigned char*>(base_), size, MADV_WILLNEED);
  } catch (...) {
    ::munmap(const_cast<unsigned char*>(base_), mapped_bytes_);
    throw;
  }
}

MappedCsr::~MappedCsr() {
  if (base_) ::munmap(const_cast<unsigned char*>(base_), mapped_bytes_);
}

}  // namespace emogi
