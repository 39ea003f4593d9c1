// Arrays in anonymous memory asking for transparent huge pages (madvise(MADV_HUGEPAGE), 2 MiB-aligned), for the
// CPU kernels' per-vertex data and their copy of the graph. A pull round reads its per-vertex data at random: on
// 4 KiB pages nearly every such read misses the TLB once the data exceed the TLB's reach (a few MiB), and inside
// a VM each miss walks two page tables. On 2 MiB pages 67 MB of floats take 34 entries. Where the kernel grants no
// huge pages (THP "never") the array still works, on 4 KiB pages.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>

namespace emogi::cpu {

// Whether map_huge asks for huge pages (default yes): the commands' --pages option, for measuring what they change.
// With it off the arrays are plain anonymous memory (4 KiB pages where THP is "madvise", as the GPU host's).
void set_huge_pages(bool on);
bool huge_pages();

// Raw memory: at least `bytes`, 2 MiB-aligned, zero-filled by the kernel on first touch, with MADV_HUGEPAGE asked
// when huge_pages(). Throws std::bad_alloc when the mapping fails.
void* map_huge(size_t bytes, size_t* mapped);
void unmap_huge(void* p, size_t mapped);

// How many bytes of this process's anonymous memory the kernel backs with huge pages (AnonHugePages of
// /proc/self/smaps_rollup); 0 where unreadable.
uint64_t anon_huge_bytes();

// An owned array of n trivially copyable T (uninitialised until written; first touch places the pages).
template <class T>
class HugeArray {
 public:
  HugeArray() = default;
  explicit HugeArray(uint64_t n) : n_(n) {
    if (n) data_ = static_cast<T*>(map_huge(n * sizeof(T), &mapped_));
  }
  HugeArray(const HugeArray&) = delete;
  HugeArray& operator=(const HugeArray&) = delete;
  HugeArray(HugeArray&& o) noexcept { swap(o); }
  HugeArray& operator=(HugeArray&& o) noexcept {
    HugeArray(std::move(o)).swap(*this);
    return *this;
  }
  ~HugeArray() {
    if (data_) unmap_huge(data_, mapped_);
  }
  void swap(HugeArray& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(n_, o.n_);
    std::swap(mapped_, o.mapped_);
  }
  T* get() const { return data_; }
  uint64_t size() const { return n_; }
  T& operator[](uint64_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  uint64_t n_ = 0;
  size_t mapped_ = 0;
};

template <class T>
void swap(HugeArray<T>& a, HugeArray<T>& b) noexcept {
  a.swap(b);
}

}  // namespace emogi::cpu
