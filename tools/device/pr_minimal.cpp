// The plainest pull Gauss-Seidel PageRank round, as a yardstick for emogi_cpu's (cpu_study.sh, access_ab): float
// scores and contributions, one float accumulator per vertex, 4-byte ids, schedule(dynamic, 16384), no prefetch,
// no atomics, no result check. Reads an undirected emogi CSR with 4-byte ids (docs/graph-format.md) in its
// mapping, or copied into anonymous memory (huge pages asked or not); the arrays are anonymous memory likewise.
//
//   g++ -O3 -fopenmp tools/device/pr_minimal.cpp -o build/pr_minimal
//   build/pr_minimal GRAPH.csr ROUNDS mapped|copy small|huge      -> one CSV row (header with --header)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

void* anonymous(size_t bytes, bool huge) {
  const size_t align = size_t(2) << 20, span = (bytes + align - 1) / align * align + align;
  char* raw = static_cast<char*>(mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (raw == MAP_FAILED) {
    std::perror("mmap");
    std::exit(1);
  }
  char* p = reinterpret_cast<char*>((uintptr_t(raw) + align - 1) / align * align);
  if (huge) madvise(p, span - (p - raw), MADV_HUGEPAGE);
  return p;
}

template <class T>
T* copied(const T* from, uint64_t n, bool huge) {
  T* to = static_cast<T*>(anonymous(n * sizeof(T), huge));
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < int64_t(n); ++i) to[i] = from[i];
  return to;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--header") {
    std::printf("graph,kernel,graph_memory,pages,rounds,median_ms_per_round,min_ms_per_round\n");
    return 0;
  }
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s GRAPH.csr ROUNDS mapped|copy small|huge (or --header)\n", argv[0]);
    return 2;
  }
  const int rounds = std::atoi(argv[2]);
  const std::string memory = argv[3], pages = argv[4];
  const bool huge = pages == "huge";
  const int fd = open(argv[1], O_RDONLY);
  struct stat st{};
  if (fd < 0 || fstat(fd, &st) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  const auto* base = static_cast<const unsigned char*>(mmap(nullptr, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0));
  uint32_t flags = 0, index_bytes = 0;
  uint64_t n = 0, m = 0;
  std::memcpy(&flags, base + 12, 4);
  std::memcpy(&index_bytes, base + 16, 4);
  std::memcpy(&n, base + 24, 8);
  std::memcpy(&m, base + 32, 8);
  if (std::memcmp(base, "EMOGICSR", 8) != 0 || index_bytes != 4 || (flags & 2)) {
    std::fprintf(stderr, "%s: not an undirected emogi CSR with 4-byte ids\n", argv[1]);
    return 1;
  }
  const auto* offsets = reinterpret_cast<const uint64_t*>(base + 4096);
  const auto* edges = reinterpret_cast<const uint32_t*>(base + ((4096 + (n + 1) * 8) + 4095) / 4096 * 4096);
  if (memory == "copy") {
    offsets = copied(offsets, n + 1, huge);
    edges = copied(edges, m, huge);
  }
  auto* score = static_cast<float*>(anonymous(n * 4, huge));
  auto* contrib = static_cast<float*>(anonymous(n * 4, huge));
  const int64_t v_end = int64_t(n);
  const float base_score = 0.15f / float(n), damp = 0.85f;
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < v_end; ++v) {
    score[v] = 1.0f / float(n);
    const uint64_t degree = offsets[v + 1] - offsets[v];
    contrib[v] = degree ? score[v] / float(degree) : 0.0f;
  }
  std::vector<double> ms;
  double error = 0;
  for (int r = 0; r < rounds; ++r) {
    const auto start = std::chrono::steady_clock::now();
    error = 0;
#pragma omp parallel for reduction(+ : error) schedule(dynamic, 16384)
    for (int64_t v = 0; v < v_end; ++v) {
      float sum = 0;
      for (uint64_t i = offsets[v]; i < offsets[v + 1]; ++i) sum += contrib[edges[i]];
      const float old = score[v];
      score[v] = base_score + damp * sum;
      error += std::fabs(score[v] - old);
      const uint64_t degree = offsets[v + 1] - offsets[v];
      contrib[v] = degree ? score[v] / float(degree) : 0.0f;
    }
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::fprintf(stderr, "last round's total change %g\n", error);
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  std::printf("\"%s\",minimal,%s,%s,%d,%.3f,%.3f\n", argv[1], memory.c_str(), pages.c_str(), rounds,
              sorted[sorted.size() / 2], sorted[0]);
  return 0;
}
