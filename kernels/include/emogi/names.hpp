// The names users type and tables store for kernel variants and memory modes (emogi/schema.py has the same
// lists; tests/test_kernels.py checks that `emogi list` agrees with it).
#pragma once
#include <array>
#include <stdexcept>
#include <string>

namespace emogi {

enum class Variant { Naive, Merged, MergedAligned };
enum class MemoryMode { Device, ZeroCopy, ZeroCopyPinned, Uvm };

constexpr std::array<const char*, 3> kVariantNames = {"naive", "merged", "merged-aligned"};
constexpr std::array<const char*, 4> kModeNames = {"device", "zerocopy", "zerocopy-pinned", "uvm"};

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

inline Variant parse_variant(const std::string& s) { return parse_name<Variant>(s, kVariantNames, "variant"); }
inline MemoryMode parse_mode(const std::string& s) { return parse_name<MemoryMode>(s, kModeNames, "memory mode"); }

}  // namespace emogi
