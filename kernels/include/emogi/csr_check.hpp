// The checks a graph file's bytes must pass before anything reads a list (docs/graph-format.md, "Errors").
// A file is untrusted input: a valid checksum says only that nobody changed it since it was hashed, so every
// field and every neighbour id is checked too. Each function throws GraphFormatError naming `where`.
#pragma once
#include <cstdint>
#include <string>

#include "emogi/csr.hpp"

namespace emogi {

// Magic, version, flags, widths, reserved fields, the rest of the header block, overflow-checked section sizes
// and a file size exactly what they imply. Returns the header; `layout` receives the sections' places.
CsrHeader check_csr_header(const unsigned char* base, uint64_t size, const std::string& where, CsrLayout* layout);

// The payload: zero padding, offsets (0 first, never decreasing, E last) and ids < V (in parallel, with progress
// on large sections), and the checksum, as `what` asks. The header must have passed check_csr_header.
void check_csr_body(const unsigned char* base, const CsrHeader& h, const CsrLayout& l, const std::string& where,
                    const CsrChecks& what);

// XXH3-64 (seed 0) of the whole file with the 8 checksum bytes read as zero: what the header's checksum holds.
uint64_t csr_checksum(const unsigned char* base, uint64_t size);

// A checksum as the errors print it: 16 hex digits, zero-padded.
std::string hex16(uint64_t x);

}  // namespace emogi
