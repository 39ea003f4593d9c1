// One fuzz input through MappedCsr, as libFuzzer's harness and the deterministic driver both run it: the input is
// written to a scratch file in /dev/shm (or $TMPDIR), mapped and checked by MappedCsr exactly as `emogi` does,
// the oracle's verdict compared, and on acceptance every list walked and a reference BFS run, so that
// AddressSanitizer sees any read that a check failed to rule out.
#pragma once
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "csr_oracle.hpp"
#include "emogi/csr.hpp"
#include "emogi/reference_bfs.hpp"

namespace emogi::fuzz {

struct Verdict {
  bool accepted;
  std::string message;  // the rejection's
};

inline const std::string& scratch_file() {
  static const std::string path = [] {
    const char* tmp = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
    const char* dir = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : tmp;
    return std::string(dir) + "/emogi-fuzz-" + std::to_string(::getpid()) + ".csr";
  }();
  // Registered after `path` is built, so it runs before `path` is destroyed; a crash leaves the input behind.
  static const bool removed_at_exit = std::atexit([] { std::remove(path.c_str()); }) == 0;
  (void)removed_at_exit;
  return path;
}

inline void write_scratch(const unsigned char* data, size_t size) {
  const int fd = ::open(scratch_file().c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || (size && ::write(fd, data, size) != ssize_t(size))) {
    std::perror(scratch_file().c_str());
    std::abort();
  }
  ::close(fd);
}

template <class Index>
uint64_t walk(const MappedCsr& g) {
  const uint64_t* off = g.offsets();
  const Index* edges = g.edges_as<Index>();
  uint64_t sum = 0;
  for (uint64_t u = 0; u < g.num_vertices(); ++u)
    for (uint64_t i = off[u]; i < off[u + 1]; ++i) sum += edges[i] + (g.weights() ? g.weights()[i] : 0);
  if (g.num_vertices()) sum += reference_bfs(off, edges, g.num_vertices(), 0).reached;
  return sum;
}

inline Verdict run_one(const unsigned char* data, size_t size) {
  write_scratch(data, size);
  Verdict verdict{true, ""};
  try {
    const MappedCsr g(scratch_file());
    volatile uint64_t sink = g.index_bytes() == 4 ? walk<uint32_t>(g) : walk<uint64_t>(g);
    (void)sink;
  } catch (const GraphFormatError& e) {
    verdict = {false, e.what()};
  }
  if (verdict.accepted != valid_graph_file(data, size)) {
    std::fprintf(stderr, "READER AND ORACLE DISAGREE: the reader %s the input (%s)\n",
                 verdict.accepted ? "accepts" : "rejects", verdict.message.c_str());
    std::abort();
  }
  return verdict;
}

}  // namespace emogi::fuzz
