// Results are checked by fingerprint (XXH3 of the whole array), so the references of 64 roots of a 2^27-vertex
// graph need O(roots) memory; on a mismatch the reference is recomputed to say where the arrays differ.
#pragma once
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "emogi/hash.hpp"

namespace emogi {

template <class T>
uint64_t fingerprint(const std::vector<T>& values) {
  return xxh3_64(values.data(), values.size() * sizeof(T));
}

// "N vertices differ, first at vertex v: GPU x, CPU y".
template <class T>
std::string first_difference(const std::vector<T>& gpu, const std::vector<T>& cpu, const char* quantity) {
  uint64_t wrong = 0, first = 0;
  for (uint64_t v = 0; v < gpu.size(); ++v)
    if (gpu[v] != cpu[v] && wrong++ == 0) first = v;
  std::ostringstream msg;
  msg << wrong << " vertices differ";
  if (wrong)
    msg << ", first at vertex " << first << ": GPU " << quantity << " " << gpu[first] << ", CPU " << cpu[first];
  return msg.str();
}

}  // namespace emogi
