// The names users type and tables store for algorithms, kernel variants and memory modes (emogi/schema.py has
// the same lists; tests/test_kernels.py checks that `emogi list` agrees with it).
#pragma once
#include <array>
#include <stdexcept>
#include <string>

namespace emogi {

enum class Algorithm { Bfs, Sssp, Cc, PageRank };
// The paper's four (EMOGI §4.3 and the artifact's chunked form) scan every vertex each iteration; the last
// three are this project's: work lists of active vertices with hub lists split across warps, Beamer's
// direction-optimising BFS, and Afforest's sampled union-find for CC.
enum class Variant { Naive, Merged, MergedAligned, Chunked, Frontier, DirectionOptimizing, Afforest };
enum class MemoryMode { Device, ZeroCopy, ZeroCopyPinned, Uvm, Auto };

constexpr std::array<const char*, 4> kAlgorithmNames = {"bfs", "sssp", "cc", "pagerank"};
constexpr std::array<const char*, 7> kVariantNames = {"naive",    "merged",   "merged-aligned", "chunked",
                                                      "frontier", "direction-optimizing", "afforest"};
constexpr std::array<const char*, 5> kModeNames = {"device", "zerocopy", "zerocopy-pinned", "uvm", "auto"};

inline const char* name_of(Algorithm a) { return kAlgorithmNames[static_cast<int>(a)]; }
inline const char* name_of(Variant v) { return kVariantNames[static_cast<int>(v)]; }
inline const char* name_of(MemoryMode m) { return kModeNames[static_cast<int>(m)]; }

template <class Enum, size_t N>
Enum parse_name(const std::string& text, const std::array<const char*, N>& names, const char* what) {
  std::string allowed;
  for (size_t i = 0; i < N; ++i) {
    if (text == names[i]) return static_cast<Enum>(i);
    allowed += (i ? ", " : "") + std::string(names[i]);
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + text + "' (choose from " + allowed + ")");
}

inline Algorithm parse_algorithm(const std::string& s) {
  return parse_name<Algorithm>(s, kAlgorithmNames, "algorithm");
}
inline Variant parse_variant(const std::string& s) { return parse_name<Variant>(s, kVariantNames, "variant"); }
inline MemoryMode parse_mode(const std::string& s) { return parse_name<MemoryMode>(s, kModeNames, "memory mode"); }

}  // namespace emogi
