// The names users type and tables store for algorithms, kernel variants, memory modes and auto orders
// (emogi/schema.py has the same lists; tests/test_kernels.py checks that `emogi list` agrees with it).
#pragma once
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace emogi {

enum class Algorithm { Bfs, Sssp, Cc, PageRank };
// The paper's four (EMOGI §4.3 and the artifact's chunked form) scan every vertex each iteration; the last
// four are this project's: work lists of active vertices with hub lists split across warps, Beamer's
// direction-optimising BFS, Afforest's sampled union-find for CC, and Gauss-Seidel-order push PageRank.
enum class Variant { Naive, Merged, MergedAligned, Chunked, Frontier, DirectionOptimizing, Afforest, GaussSeidel };
// The paper's four first. Its three ways to zero-copy (§3.1): managed memory with AccessedBy (`zerocopy`),
// cudaHostAlloc (`zerocopy-pinned`) and cudaHostRegister of memory the program has (`zerocopy-registered`).
// `uvm` starts every run cold (the paper's baseline); `uvm-warm` keeps the pages earlier runs faulted in.
enum class MemoryMode { Device, ZeroCopy, ZeroCopyPinned, Uvm, ZeroCopyRegistered, UvmWarm, Auto };
// Which lists `auto` keeps in GPU memory when not all fit: a prefix of the file's edge list, the longest lists or
// the shortest.
enum class AutoOrder { Prefix, LongestFirst, ShortestFirst };

constexpr std::array<const char*, 4> kAlgorithmNames = {"bfs", "sssp", "cc", "pagerank"};
constexpr std::array<const char*, 8> kVariantNames = {"naive",    "merged",   "merged-aligned", "chunked",
                                                      "frontier", "direction-optimizing", "afforest",
                                                      "gauss-seidel"};
constexpr std::array<const char*, 7> kModeNames = {"device",   "zerocopy",            "zerocopy-pinned", "uvm",
                                                   "zerocopy-registered", "uvm-warm", "auto"};
constexpr std::array<const char*, 3> kAutoOrderNames = {"prefix", "longest-first", "shortest-first"};

inline const char* name_of(Algorithm a) { return kAlgorithmNames[static_cast<int>(a)]; }
inline const char* name_of(Variant v) { return kVariantNames[static_cast<int>(v)]; }
inline const char* name_of(MemoryMode m) { return kModeNames[static_cast<int>(m)]; }
inline const char* name_of(AutoOrder o) { return kAutoOrderNames[static_cast<int>(o)]; }

// The modes whose edge list is managed memory that migrates to the GPU on fault.
inline bool is_uvm(MemoryMode m) { return m == MemoryMode::Uvm || m == MemoryMode::UvmWarm; }
// The modes that allocate managed memory, which the oversubscription guard covers.
inline bool is_managed(MemoryMode m) { return m == MemoryMode::ZeroCopy || is_uvm(m); }

// The variants each algorithm has: the paper's four, then this project's own for that algorithm.
inline std::vector<Variant> variants_of(Algorithm a) {
  std::vector<Variant> v = {Variant::Naive, Variant::Merged, Variant::MergedAligned, Variant::Chunked};
  switch (a) {
    case Algorithm::Bfs: v.insert(v.end(), {Variant::Frontier, Variant::DirectionOptimizing}); break;
    case Algorithm::Sssp: v.push_back(Variant::Frontier); break;
    case Algorithm::Cc: v.push_back(Variant::Afforest); break;
    case Algorithm::PageRank: v.insert(v.end(), {Variant::Frontier, Variant::GaussSeidel}); break;
  }
  return v;
}

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
inline AutoOrder parse_auto_order(const std::string& s) {
  return parse_name<AutoOrder>(s, kAutoOrderNames, "auto order");
}

}  // namespace emogi
