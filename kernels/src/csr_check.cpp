// The payload checks of a graph file: padding, offsets, neighbour ids and the checksum. Large sections are
// checked on every core, with progress lines, since `emogi run` checks a graph before any GPU work.
#include "emogi/csr_check.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <future>
#include <thread>
#include <vector>

#include "emogi/hash.hpp"

namespace emogi {
namespace {

constexpr uint64_t kNone = UINT64_MAX;
constexpr uint64_t kBlock = uint64_t(1) << 20;   // elements per task
constexpr uint64_t kInline = uint64_t(1) << 22;  // below this, one thread: starting threads costs more

// The smallest position in [0, n) that check(lo, hi) reports (kNone if none), over blocks on all cores.
// `bytes` (the section's size) decides whether progress lines are printed, under `label`.
template <class Check>
uint64_t first_bad(uint64_t n, uint64_t bytes, const Check& check, const std::string& label, const CsrChecks& what) {
  if (n <= kInline) return check(0, n);
  const bool progress = bytes >= what.progress_min_bytes;
  if (progress) std::fprintf(stderr, "%s ...\n", label.c_str());
  const uint64_t blocks = (n + kBlock - 1) / kBlock;
  std::atomic<uint64_t> next{0}, done{0}, bad{kNone};
  std::atomic<int> shown{0};  // tenths printed so far
  auto work = [&] {
    for (uint64_t b; (b = next.fetch_add(1)) < blocks;) {
      const uint64_t lo = b * kBlock;
      if (lo < bad.load()) {  // blocks after a known bad position cannot change the answer
        const uint64_t at = check(lo, std::min(n, lo + kBlock));
        for (uint64_t seen = bad.load(); at < seen && !bad.compare_exchange_weak(seen, at);) {
        }
      }
      const int tenth = int((done.fetch_add(1) + 1) * 10 / blocks);
      for (int s = shown.load(); progress && tenth > s;)
        if (shown.compare_exchange_weak(s, tenth)) std::fprintf(stderr, "%s: %d%%\n", label.c_str(), 10 * tenth);
    }
  };
  const unsigned threads = std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return bad.load();
}

void check_padding(const unsigned char* base, uint64_t from, uint64_t to, const char* after, const std::string& where) {
  for (uint64_t i = from; i < to; ++i)
    if (base[i] != 0)
      throw GraphFormatError(where + ": padding after the " + after + " is not zero (byte " + std::to_string(i) + ")");
}

void check_offsets(const uint64_t* off, const CsrHeader& h, const std::string& where, const CsrChecks& what) {
  auto fail = [&](const std::string& why) { throw GraphFormatError(where + ": bad offsets: " + why); };
  const uint64_t n = h.num_vertices;
  if (off[0] != 0) fail("offsets[0] = " + std::to_string(off[0]) + ", must be 0");
  const uint64_t v = first_bad(
      n, 8 * n,
      [off](uint64_t lo, uint64_t hi) {
        for (uint64_t i = lo; i < hi; ++i)
          if (off[i + 1] < off[i]) return i;
        return kNone;
      },
      where + ": checking offsets", what);
  if (v != kNone)
    fail("offsets decrease at vertex " + std::to_string(v) + " (" + std::to_string(off[v]) + " -> " +
         std::to_string(off[v + 1]) + ")");
  if (off[n] != h.num_edges)
    fail("offsets[V] = " + std::to_string(off[n]) + ", must equal E = " + std::to_string(h.num_edges));
}

template <class Index>
void check_ids(const uint64_t* off, const Index* e, const CsrHeader& h, const std::string& where,
               const CsrChecks& what) {
  const uint64_t n = h.num_vertices;
  const uint64_t i = first_bad(
      h.num_edges, h.num_edges * sizeof(Index),
      [e, n](uint64_t lo, uint64_t hi) {
        uint64_t top = 0;
        for (uint64_t k = lo; k < hi; ++k) top = std::max<uint64_t>(top, e[k]);  // vectorises; the scan is rare
        if (top < n) return kNone;
        for (uint64_t k = lo; k < hi; ++k)
          if (e[k] >= n) return k;
        return kNone;
      },
      where + ": checking " + std::to_string(h.num_edges) + " neighbour ids", what);
  if (i == kNone) return;
  const uint64_t v = uint64_t(std::upper_bound(off, off + n + 1, i) - off) - 1;  // offsets are checked by now
  throw GraphFormatError(where + ": neighbour id " + std::to_string(uint64_t(e[i])) + " at edge " + std::to_string(i) +
                         " (a neighbour of vertex " + std::to_string(v) + ") is >= V = " + std::to_string(n));
}

}  // namespace

std::string hex16(uint64_t x) {
  char buf[19];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

uint64_t csr_checksum(const unsigned char* base, uint64_t size) {
  unsigned char head[kHeaderBlock];
  std::copy(base, base + kHeaderBlock, head);
  std::fill(head + kChecksumAt, head + kChecksumAt + 8, 0);
  const ByteRange parts[] = {{head, kHeaderBlock}, {base + kHeaderBlock, size - kHeaderBlock}};
  return xxh3_64_concat(parts, 2);
}

void check_csr_body(const unsigned char* base, const CsrHeader& h, const CsrLayout& l, const std::string& where,
                    const CsrChecks& what) {
  // The checksum runs beside the structural checks; a mismatch is reported first (a damaged file's likeliest
  // story), then the first structural error.
  std::future<uint64_t> sum;
  if (what.checksum)
    sum = std::async(l.file_size > (uint64_t(64) << 20) ? std::launch::async : std::launch::deferred, csr_checksum,
                     base, l.file_size);
  std::exception_ptr structural;
  if (what.structure) try {
      check_padding(base, l.offsets_end, l.edges_at, "offsets", where);
      if (h.flags & kFlagHasWeights) check_padding(base, l.edges_end, l.weights_at, "edges", where);
      const uint64_t* off = reinterpret_cast<const uint64_t*>(base + l.offsets_at);
      check_offsets(off, h, where, what);
      if (h.index_bytes == 4)
        check_ids(off, reinterpret_cast<const uint32_t*>(base + l.edges_at), h, where, what);
      else
        check_ids(off, reinterpret_cast<const uint64_t*>(base + l.edges_at), h, where, what);
    } catch (const GraphFormatError&) {
      structural = std::current_exception();
    }
  if (what.checksum) {
    const uint64_t actual = sum.get();
    if (actual != h.checksum)
      throw GraphFormatError(where + ": corrupt: checksum " + hex16(actual) + " expected " + hex16(h.checksum) +
                             " (header)");
  }
  if (structural) std::rethrow_exception(structural);
}

}  // namespace emogi
