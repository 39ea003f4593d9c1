#include "emogi/cpu/huge_array.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <fstream>
#include <new>
#include <string>

namespace emogi::cpu {
namespace {
constexpr size_t kHuge = size_t(2) << 20;
bool g_huge = true;
}  // namespace

void set_huge_pages(bool on) { g_huge = on; }
bool huge_pages() { return g_huge; }

void* map_huge(size_t bytes, size_t* mapped) {
  // Over-map by one huge page and trim, so the array starts on a 2 MiB boundary (the kernel grants huge pages to
  // aligned 2 MiB ranges only).
  const size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge, span = rounded + kHuge;
  void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = uintptr_t(raw), aligned = (start + kHuge - 1) / kHuge * kHuge;
  if (aligned > start) ::munmap(raw, aligned - start);
  const uintptr_t end = start + span, used_end = aligned + rounded;
  if (end > used_end) ::munmap(reinterpret_cast<void*>(used_end), end - used_end);
  if (g_huge) ::madvise(reinterpret_cast<void*>(aligned), rounded, MADV_HUGEPAGE);  // advice: no error if THP is off
  *mapped = rounded;
  return reinterpret_cast<void*>(aligned);
}

void unmap_huge(void* p, size_t mapped) { ::munmap(p, mapped); }

uint64_t anon_huge_bytes() {
  std::ifstream f("/proc/self/smaps_rollup");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("AnonHugePages:", 0) == 0) return std::strtoull(line.c_str() + 14, nullptr, 10) * 1024;
  return 0;
}

}  // namespace emogi::cpu
