// The vocabulary of names.hpp as the fields of a JSON object: what `emogi list` prints (and what
// tests/test_registry.py compiles against a registry with a dummy variant).
#pragma once
#include <string>
#include <vector>

#include "emogi/names.hpp"

namespace emogi {

template <class Names>
std::string json_list(const Names& names) {
  std::string s = "[";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", \"" : "\"") + std::string(names[i]) + "\"";
  return s + "]";
}

inline std::string vocabulary_json() {
  std::string variants_of_json;
  for (size_t a = 0; a < kAlgorithmNames.size(); ++a) {
    std::vector<const char*> names;
    for (Variant v : variants_of(static_cast<Algorithm>(a))) names.push_back(name_of(v));
    variants_of_json += (a ? ", \"" : "\"") + std::string(kAlgorithmNames[a]) + "\": " + json_list(names);
  }
  return "\"algorithms\": " + json_list(kAlgorithmNames) + ", \"variants\": " + json_list(kVariantNames) +
         ", \"variants_of\": {" + variants_of_json + "}, \"modes\": " + json_list(kModeNames) +
         ", \"auto_orders\": " + json_list(kAutoOrderNames);
}

}  // namespace emogi
