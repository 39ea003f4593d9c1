// GENERATED from emogi/registry.yaml by `python -m emogi.registry_codegen --write`: edit the registry, not this.
// The names users type and tables store for algorithms, kernel variants, memory modes and auto orders, which
// combinations apply, and the columns of the matrix CSV (emogi/schema.py reads the same registry).
// clang-format off
#pragma once
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace emogi {

enum class Algorithm { Bfs, Sssp, Cc, PageRank, Spmv };
enum class Variant { Naive, Merged, MergedAligned, Chunked, Frontier, DirectionOptimizing, Afforest, GaussSeidel };
enum class MemoryMode { Device, ZeroCopy, ZeroCopyPinned, Uvm, ZeroCopyRegistered, UvmWarm, UvmCapped, Auto, Streamed };
enum class AutoOrder { Prefix, LongestFirst, ShortestFirst, HottestFirst };

constexpr std::array<const char*, 5> kAlgorithmNames = {"bfs", "sssp", "cc", "pagerank", "spmv"};
constexpr std::array<const char*, 8> kVariantNames = {"naive", "merged", "merged-aligned", "chunked", "frontier", "direction-optimizing", "afforest", "gauss-seidel"};
constexpr std::array<const char*, 9> kModeNames = {"device", "zerocopy", "zerocopy-pinned", "uvm", "zerocopy-registered", "uvm-warm", "uvm-capped", "auto", "streamed"};
constexpr std::array<const char*, 4> kAutoOrderNames = {"prefix", "longest-first", "shortest-first", "hottest-first"};
constexpr std::array<unsigned, 2> kEdgeBytes = {4, 8};

inline const char* name_of(Algorithm a) { return kAlgorithmNames[static_cast<int>(a)]; }
inline const char* name_of(Variant v) { return kVariantNames[static_cast<int>(v)]; }
inline const char* name_of(MemoryMode m) { return kModeNames[static_cast<int>(m)]; }
inline const char* name_of(AutoOrder o) { return kAutoOrderNames[static_cast<int>(o)]; }

// The modes whose edge list is managed memory that migrates to the GPU on fault.
constexpr bool is_uvm(MemoryMode x) { return x == MemoryMode::Uvm || x == MemoryMode::UvmWarm || x == MemoryMode::UvmCapped; }
// The modes that allocate managed memory, which the oversubscription guard covers.
constexpr bool is_managed(MemoryMode x) { return x == MemoryMode::ZeroCopy || x == MemoryMode::Uvm || x == MemoryMode::UvmWarm || x == MemoryMode::UvmCapped; }
// The variants that are access policies (access.cuh), combined with every algorithm that has them; the others
// are an algorithm's own kernel.
constexpr bool is_access_variant(Variant x) { return x == Variant::Naive || x == Variant::Merged || x == Variant::MergedAligned || x == Variant::Chunked; }
// The variants that read in-neighbours: on a directed graph, from its transpose file (csr_transpose.hpp).
constexpr bool reads_in_lists(Variant x) { return x == Variant::DirectionOptimizing; }
// The algorithms that run from a source vertex.
constexpr bool is_rooted(Algorithm x) { return x == Algorithm::Bfs || x == Algorithm::Sssp; }

// Bytes an algorithm reads beside each neighbour id (SSSP's weight).
constexpr unsigned weight_bytes(Algorithm a) {
  switch (a) {
    case Algorithm::Sssp:
      return 4;
    case Algorithm::Spmv:
      return 4;
    default:
      return 0;
  }
}

// The variants each algorithm has, in registry order.
inline std::vector<Variant> variants_of(Algorithm a) {
  switch (a) {
    case Algorithm::Bfs:
      return {Variant::Naive, Variant::Merged, Variant::MergedAligned, Variant::Chunked, Variant::Frontier, Variant::DirectionOptimizing};
    case Algorithm::Sssp:
      return {Variant::Naive, Variant::Merged, Variant::MergedAligned, Variant::Chunked, Variant::Frontier};
    case Algorithm::Cc:
      return {Variant::Naive, Variant::Merged, Variant::MergedAligned, Variant::Chunked, Variant::Afforest};
    case Algorithm::PageRank:
      return {Variant::Naive, Variant::Merged, Variant::MergedAligned, Variant::Chunked, Variant::Frontier, Variant::GaussSeidel};
    case Algorithm::Spmv:
      return {Variant::Naive, Variant::Merged, Variant::MergedAligned, Variant::Chunked};
  }
  return {};
}

// Whether the streamed mode runs `variant` of `algorithm` (the registry's `streamed`; streamed_refusal says why not).
inline bool streams(Algorithm a, Variant v) {
  if (a == Algorithm::Sssp) return v == Variant::Naive || v == Variant::Merged || v == Variant::MergedAligned || v == Variant::Chunked;
  if (a == Algorithm::Cc) return v == Variant::Naive || v == Variant::Merged || v == Variant::MergedAligned || v == Variant::Chunked;
  if (a == Algorithm::PageRank) return v == Variant::Naive || v == Variant::Merged || v == Variant::MergedAligned || v == Variant::Chunked || v == Variant::GaussSeidel;
  if (a == Algorithm::Spmv) return v == Variant::Naive || v == Variant::Merged || v == Variant::MergedAligned || v == Variant::Chunked;
  (void)v;
  return false;
}

// Why `variant` of `algorithm` cannot run on `graph` (its name, for the message), or "" when it can.
inline std::string unmet_requirement(Algorithm algorithm, Variant variant, const std::string& graph, bool directed,
                                     bool has_weights) {
  if (algorithm == Algorithm::Sssp && !has_weights)
    return graph + " has no weights: SSSP reads an edge weight beside every neighbour id (make the graph with weights)";
  if (algorithm == Algorithm::Cc && directed)
    return graph + " is directed: connected components are defined here for undirected graphs only (the paper skips SK and UK5 too)";
  (void)algorithm, (void)variant, (void)directed, (void)has_weights;
  return "";
}

// The header of the CSV `emogi run` writes (schema.APP_COLUMNS without the provenance the caller adds).
constexpr const char* kMatrixCsvHeader = "graph,algorithm,variant,mode,edge_bytes,max_warps,root,rep,time_ms,edges_traversed,levels,iterations,components,pr_hub_entries,verified";

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
