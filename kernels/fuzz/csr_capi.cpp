// A C entry point to MappedCsr for the Python differential fuzzer (tools/fuzz/differential.py, via ctypes): read
// a file as `emogi` does and report the verdict, V, E, flags, width and a digest of every list it exposes.
#include <cstdint>
#include <cstring>
#include <vector>

#include "emogi/csr.hpp"
#include "emogi/hash.hpp"

namespace {

template <class Index>
uint64_t lists_digest(const emogi::MappedCsr& g) {
  // offsets, then the ids widened to 8 bytes, then the weights: what emogi.csr's digest hashes too
  std::vector<uint64_t> words(g.offsets(), g.offsets() + g.num_vertices() + 1);
  const Index* edges = g.edges_as<Index>();
  for (uint64_t i = 0; i < g.num_edges(); ++i) words.push_back(edges[i]);
  const emogi::ByteRange parts[] = {{words.data(), words.size() * 8},
                                    {g.weights(), g.weights() ? g.num_edges() * 4 : 0}};
  return emogi::xxh3_64_concat(parts, 2);
}

}  // namespace

// 1 and out = {V, E, flags, index_bytes, lists digest} when the file is accepted; 0 and the message when not.
extern "C" int emogi_csr_read(const char* path, uint64_t* out, char* message, uint64_t message_bytes) {
  try {
    const emogi::MappedCsr g(path);
    out[0] = g.num_vertices(), out[1] = g.num_edges(), out[2] = g.header().flags, out[3] = g.index_bytes();
    out[4] = g.index_bytes() == 4 ? lists_digest<uint32_t>(g) : lists_digest<uint64_t>(g);
    return 1;
  } catch (const emogi::GraphFormatError& e) {
    std::strncpy(message, e.what(), message_bytes - 1);
    message[message_bytes - 1] = 0;
    return 0;
  }
}
