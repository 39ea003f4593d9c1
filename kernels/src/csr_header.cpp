// The header of a graph file, checked field by field, and the section layout it implies, overflow-checked.
#include <cstdio>
#include <cstring>

#include "emogi/csr_check.hpp"

namespace emogi {
namespace {

std::string hex(uint64_t x) {
  char buf[19];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(x));
  return buf;
}

// a + b and a * b, or a GraphFormatError: header counts near 2^64 must not wrap into small, plausible sizes.
struct Checked {
  const std::string& where;
  const CsrHeader& h;
  [[noreturn]] void overflow() const {
    throw GraphFormatError(where + ": header sizes overflow 64 bits (V = " + std::to_string(h.num_vertices) +
                           ", E = " + std::to_string(h.num_edges) + ", index_bytes = " + std::to_string(h.index_bytes) +
                           "): not a graph this format can hold");
  }
  uint64_t add(uint64_t a, uint64_t b) const {
    uint64_t r;
    if (__builtin_add_overflow(a, b, &r)) overflow();
    return r;
  }
  uint64_t mul(uint64_t a, uint64_t b) const {
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) overflow();
    return r;
  }
  uint64_t align(uint64_t x) const { return add(x, kSectionAlign - 1) / kSectionAlign * kSectionAlign; }
};

}  // namespace

CsrLayout CsrLayout::of(const CsrHeader& h, const std::string& where) {
  const Checked c{where, h};
  CsrLayout l{};
  l.offsets_at = kHeaderBlock;
  l.offsets_end = c.add(l.offsets_at, c.mul(8, c.add(h.num_vertices, 1)));
  l.edges_at = c.align(l.offsets_end);
  l.edges_end = c.add(l.edges_at, c.mul(h.num_edges, h.index_bytes));
  l.weights_at = (h.flags & kFlagHasWeights) ? c.align(l.edges_end) : 0;
  l.file_size = (h.flags & kFlagHasWeights) ? c.add(l.weights_at, c.mul(4, h.num_edges)) : l.edges_end;
  return l;
}

CsrHeader check_csr_header(const unsigned char* base, uint64_t size, const std::string& where, CsrLayout* layout) {
  auto fail = [&](const std::string& why) { throw GraphFormatError(where + ": " + why); };
  if (size >= sizeof kCsrMagic && std::memcmp(base, kCsrMagic, sizeof kCsrMagic) != 0)
    fail("not an EMOGI CSR file (wrong magic)");
  if (size < kHeaderBlock)
    fail("truncated: " + std::to_string(size) + " bytes, shorter than the 4096-byte header block");
  CsrHeader h;
  std::memcpy(&h, base, sizeof h);
  if (h.version == 1)
    fail(
        "format version 1, whose checksum does not cover the header; this build reads version 2: upgrade the file "
        "with `python -m emogi.csr upgrade FILE` (checks it fully first) or make it again");
  if (h.version != kCsrVersion)
    fail("unsupported format version " + std::to_string(h.version) + " (this build reads version 2)");
  if (h.flags & ~kKnownFlags) fail("unknown flag bits " + hex(h.flags & ~kKnownFlags) + " in flags " + hex(h.flags));
  if (h.index_bytes != 4 && h.index_bytes != 8)
    fail("index_bytes is " + std::to_string(h.index_bytes) + ", must be 4 or 8");
  if (h.reserved0 != 0) fail("reserved header field at byte 20 is " + hex(h.reserved0) + ", must be 0");
  // Bytes 48..55 hold `transposes` in a transpose file (any value), and are reserved otherwise.
  if (!(h.flags & kFlagTranspose) && h.transposes != 0)
    fail("reserved header field at byte 48 is " + hex(h.transposes) + ", must be 0");
  if (h.reserved1 != 0) fail("reserved header field at byte 56 is " + hex(h.reserved1) + ", must be 0");
  for (uint64_t i = sizeof h; i < kHeaderBlock; ++i)
    if (base[i] != 0) fail("header block byte " + std::to_string(i) + " is not zero (bytes 64..4095 are reserved)");
  if (h.index_bytes == 4 && h.num_vertices > 0xFFFFFFFFull)
    fail(std::to_string(h.num_vertices) +
         " vertices with 4-byte edge ids, which name at most 2^32 - 1; write the graph with 8-byte ids");
  const CsrLayout l = CsrLayout::of(h, where);
  if (size < l.file_size)
    fail("truncated: " + std::to_string(size) + " bytes, the header (V = " + std::to_string(h.num_vertices) +
         ", E = " + std::to_string(h.num_edges) + ") implies " + std::to_string(l.file_size));
  if (size > l.file_size)
    fail("has " + std::to_string(size - l.file_size) + " trailing bytes beyond its last section (the header implies " +
         std::to_string(l.file_size) + " bytes)");
  *layout = l;
  return h;
}

}  // namespace emogi
