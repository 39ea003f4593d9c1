// What a valid graph file is, written out a second time from docs/graph-format.md for the fuzzers, without any
// of the reader's code: 128-bit size arithmetic, plain loops. The fuzzers require that the reader accepts a file
// exactly when this says it is valid.
#pragma once
#include <cstdint>
#include <cstring>

#include "emogi/hash.hpp"

namespace emogi::fuzz {

inline uint64_t le(const unsigned char* p, unsigned bytes) {
  uint64_t x = 0;
  for (unsigned i = 0; i < bytes; ++i) x |= uint64_t(p[i]) << 8 * i;
  return x;
}

inline bool zero(const unsigned char* p, unsigned __int128 from, unsigned __int128 to) {
  for (auto i = from; i < to; ++i)
    if (p[uint64_t(i)]) return false;
  return true;
}

inline unsigned __int128 page_up(unsigned __int128 x) { return (x + 4095) / 4096 * 4096; }

inline bool valid_graph_file(const unsigned char* p, uint64_t size) {
  if (size < 4096 || std::memcmp(p, "EMOGICSR", 8) != 0) return false;
  const uint64_t version = le(p + 8, 4), flags = le(p + 12, 4), width = le(p + 16, 4);
  const uint64_t v = le(p + 24, 8), e = le(p + 32, 8);
  if (version != 2 || (flags & ~uint64_t(7)) || (width != 4 && width != 8)) return false;
  // Bytes 48..55: `transposes` (any value) in a transpose file (flag 4), reserved (zero) otherwise.
  if (le(p + 20, 4) || (!(flags & 4) && le(p + 48, 8)) || le(p + 56, 8) || !zero(p, 64, 4096)) return false;
  if (width == 4 && v > 0xFFFFFFFFull) return false;
  const bool weighted = flags & 1;
  const unsigned __int128 offsets_end = 4096 + (unsigned __int128)8 * ((unsigned __int128)v + 1);
  const unsigned __int128 edges_at = page_up(offsets_end);
  const unsigned __int128 edges_end = edges_at + (unsigned __int128)width * e;
  const unsigned __int128 weights_at = page_up(edges_end);
  const unsigned __int128 end = weighted ? weights_at + (unsigned __int128)4 * e : edges_end;
  if (end != size) return false;
  if (!zero(p, offsets_end, edges_at) || (weighted && !zero(p, edges_end, weights_at))) return false;
  const unsigned char* off = p + 4096;
  if (le(off, 8) != 0 || le(off + 8 * v, 8) != e) return false;
  for (uint64_t i = 0; i < v; ++i)
    if (le(off + 8 * (i + 1), 8) < le(off + 8 * i, 8)) return false;
  for (uint64_t k = 0; k < e; ++k)
    if (le(p + uint64_t(edges_at) + width * k, unsigned(width)) >= v) return false;
  unsigned char head[4096];
  std::memcpy(head, p, 4096);
  std::memset(head + 40, 0, 8);
  const ByteRange parts[] = {{head, 4096}, {p + 4096, size - 4096}};
  return xxh3_64_concat(parts, 2) == le(p + 40, 8);
}

}  // namespace emogi::fuzz
