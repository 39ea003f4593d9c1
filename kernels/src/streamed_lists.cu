#include "emogi/streamed_lists.cuh"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "emogi/device_array.cuh"
#include "emogi/gpu_budget.hpp"
#include "emogi/host_copy.hpp"
#include "emogi/parallel_for.hpp"
#include "emogi/spmv_vector.hpp"

namespace emogi {
namespace {

constexpr size_t kNone = ~size_t(0);
// Copies start at a multiple of 32 entries: 128 bytes of 4-byte ids, 256 of 8-byte ones, so a list keeps in the
// buffer the line alignment it has in the file (merged-aligned's reads stay whole lines).
constexpr uint64_t kAlignEntries = 32;

void* pinned_alloc(size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  EMOGI_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocDefault));
  return p;
}

void* pinned_copy(const void* src, size_t bytes) {
  void* p = pinned_alloc(bytes);
  if (p) parallel_copy(p, src, bytes);
  return p;
}

// The fewest whole bytes that hold `largest` (at least 1).
unsigned bytes_for(uint64_t largest) {
  unsigned bytes = 1;
  while (bytes < 8 && (largest >> (8 * bytes)) != 0) ++bytes;
  return bytes;
}

// The largest of n elements of `width` bytes (4 or 8) at `source`, over all hardware threads.
uint64_t largest_element(const void* source, uint64_t n, unsigned width) {
  constexpr uint64_t kParts = 64;
  std::vector<uint64_t> largest(kParts, 0);
  parallel_for(kParts, [&](uint64_t part) {
    uint64_t m = 0;
    for (uint64_t i = part * n / kParts; i < (part + 1) * n / kParts; ++i)
      m = std::max<uint64_t>(
          m, width == 4 ? static_cast<const uint32_t*>(source)[i] : static_cast<const uint64_t*>(source)[i]);
    largest[part] = m;
  });
  return *std::max_element(largest.begin(), largest.end());
}

// Widens n packed elements of `packed` bytes each (little-endian) into elements of `width` bytes (4 or 8).
__global__ void widen_packed(const uint8_t* __restrict__ in, void* __restrict__ out, uint64_t n, unsigned packed,
                             unsigned width) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint64_t x = 0;
    for (unsigned b = 0; b < packed; ++b) x |= uint64_t(in[i * packed + b]) << (8 * b);
    if (width == 4)
      static_cast<uint32_t*>(out)[i] = uint32_t(x);
    else
      static_cast<uint64_t*>(out)[i] = x;
  }
}

}  // namespace

StreamPlan streamed_plan(const MappedCsr& g, bool with_weights, const StreamOptions& options) {
  const uint64_t entry_bytes = g.index_bytes() + (with_weights ? sizeof(uint32_t) : 0);
  if (options.buffers < 1 || options.buffers > 64)
    throw std::invalid_argument("--stream-buffers must lie in 1..64, not " + std::to_string(options.buffers));
  if (!(options.direct_below >= 0 && options.direct_below <= 1))
    throw std::invalid_argument("--stream-direct-below is a fraction of a block's entries in 0..1, not " +
                                std::to_string(options.direct_below));
  if (options.direct_below > 0 && !options.skip_inactive)
    throw std::invalid_argument("--stream-direct-below needs --stream-skip on: it counts a block's active entries");
  if (options.direct_below > 0 && options.layout == StreamLayout::Columns)
    throw std::invalid_argument(
        "--stream-direct-below reads row blocks in place: give --stream-layout rows, or 0 with columns");
  if (options.pack && options.layout == StreamLayout::Columns)
    throw std::invalid_argument("--stream-pack packs row blocks: give --stream-layout rows, or off with columns");
  if (options.block_bytes / entry_bytes < 2 * kAlignEntries)
    throw std::invalid_argument("--stream-block-bytes " + std::to_string(options.block_bytes) + " holds fewer than " +
                                std::to_string(2 * kAlignEntries) + " entries of " + std::to_string(entry_bytes) +
                                " bytes (ids and weights): give at least " +
                                format_bytes(2 * kAlignEntries * entry_bytes));
  return plan_stream_blocks(g.offsets(), g.num_vertices(), options.block_bytes / entry_bytes, kAlignEntries);
}

StreamedLists::StreamedLists(const MappedCsr& g, bool with_weights, const StreamOptions& options)
    : layout_(options.layout), index_bytes_(g.index_bytes()), weight_bytes_(with_weights ? sizeof(uint32_t) : 0),
      poison_(options.poison), skip_inactive_(options.skip_inactive), direct_below_(options.direct_below) {
  const StreamPlan checked = streamed_plan(g, with_weights, options);  // the options' checks, either layout
  if (layout_ == StreamLayout::Rows)
    plan_ = checked, lay_out_rows(g, with_weights, options);
  else if (index_bytes_ == 4)
    lay_out_columns<uint32_t>(g, with_weights, options);
  else
    lay_out_columns<uint64_t>(g, with_weights, options);
  if (direct_below_ > 0 && g.num_edges() > 0) {  // read in place: copies placed as the zerocopy mode places them
    in_place_edges_ =
        std::make_unique<EdgeStore>(MemoryMode::ZeroCopy, g.edges(), g.edge_list_bytes(), ManagedPolicy{});
    device_edges_ = in_place_edges_->data();
    if (with_weights) {
      in_place_weights_ = std::make_unique<EdgeStore>(MemoryMode::ZeroCopy, g.weights(),
                                                      g.num_edges() * sizeof(uint32_t), ManagedPolicy{});
      device_weights_ = in_place_weights_->data();
    }
  }

  // Fewer buffers than blocks would never be used. Each array's buffers as large as its longest range, not the
  // option: a graph smaller than a block takes only what it needs.
  const size_t buffers = std::max<size_t>(1, std::min<size_t>(options.buffers, num_blocks_));
  for (size_t b = 0; b < buffers; ++b) {
    for (Copied& a : arrays_) {
      a.buffers.push_back(budgeted_malloc(std::max<uint64_t>(1, a.buffer_elems) * a.elem_bytes, a.what));
      if (a.packed_bytes)
        a.staging.push_back(budgeted_malloc(std::max<uint64_t>(1, a.buffer_elems) * a.packed_bytes, a.what));
    }
    copied_.emplace_back(), consumed_.emplace_back();
    EMOGI_CUDA_CHECK(cudaEventCreateWithFlags(&copied_.back(), cudaEventDisableTiming));
    EMOGI_CUDA_CHECK(cudaEventCreateWithFlags(&consumed_.back(), cudaEventDisableTiming));
  }
  held_.assign(buffers, kNone);
  EMOGI_CUDA_CHECK(cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking));
  if (skip_inactive_ && !plan_.blocks.empty()) {
    const size_t n = plan_.blocks.size();
    std::vector<uint64_t> bounds;
    for (const StreamBlock& b : plan_.blocks) bounds.push_back(b.first_vertex);
    for (const StreamBlock& b : plan_.blocks) bounds.push_back(b.last_vertex);
    for (const StreamBlock& b : plan_.blocks) bounds.push_back(b.first_entry);
    for (const StreamBlock& b : plan_.blocks) bounds.push_back(b.last_entry);
    bounds_ = static_cast<uint64_t*>(budgeted_malloc(bounds.size() * sizeof(uint64_t), "the streamed blocks' marks"));
    marks_ = static_cast<uint8_t*>(budgeted_malloc(n, "the streamed blocks' marks"));
    EMOGI_CUDA_CHECK(cudaMemcpy(bounds_, bounds.data(), bounds.size() * sizeof(uint64_t), cudaMemcpyHostToDevice));
    EMOGI_CUDA_CHECK(cudaHostAlloc(&host_marks_, n, cudaHostAllocDefault));
    if (direct_below_ > 0) {
      entries_ = static_cast<unsigned long long*>(
          budgeted_malloc(n * sizeof(unsigned long long), "the streamed blocks' marks"));
      EMOGI_CUDA_CHECK(cudaHostAlloc(&host_entries_, n * sizeof(unsigned long long), cudaHostAllocDefault));
    }
  }
}

int StreamedLists::add_array(void* host, unsigned elem_bytes, const char* what) {
  Copied a;
  a.host = host, a.elem_bytes = elem_bytes, a.what = what;
  arrays_.push_back(a);
  return int(arrays_.size() - 1);
}

int StreamedLists::add_row_array(const void* source, uint64_t n, unsigned elem_bytes, bool pack, const char* what) {
  const unsigned packed = pack && n ? bytes_for(largest_element(source, n, elem_bytes)) : elem_bytes;
  if (packed >= elem_bytes) return add_array(pinned_copy(source, n * elem_bytes), elem_bytes, what);
  uint8_t* host = static_cast<uint8_t*>(pinned_alloc(n * packed));
  parallel_for(n, [=](uint64_t i) {
    const uint64_t x =
        elem_bytes == 4 ? static_cast<const uint32_t*>(source)[i] : static_cast<const uint64_t*>(source)[i];
    for (unsigned b = 0; b < packed; ++b) host[i * packed + b] = uint8_t(x >> (8 * b));
  });
  const int a = add_array(host, elem_bytes, what);
  arrays_[size_t(a)].packed_bytes = packed;
  return a;
}

std::string StreamedLists::packing_text() const {
  std::string out;
  const auto note = [&](int a, const char* what) {
    if (a >= 0 && arrays_[size_t(a)].packed_bytes)
      out += std::string(", ") + what + " copied in " + std::to_string(arrays_[size_t(a)].packed_bytes) + " of " +
             std::to_string(arrays_[size_t(a)].elem_bytes) + " bytes";
  };
  note(ids_, "ids");
  note(weights_, "weights");
  return out;
}

void StreamedLists::set_range(size_t k, int array, uint64_t from, uint64_t to) {
  const size_t at = 2 * (k * arrays_.size() + size_t(array));
  if (ranges_.size() < 2 * num_blocks_ * arrays_.size()) ranges_.resize(2 * num_blocks_ * arrays_.size(), 0);
  ranges_[at] = from, ranges_[at + 1] = to;
  Copied& a = arrays_[size_t(array)];
  a.buffer_elems = std::max(a.buffer_elems, to - from);
}

void StreamedLists::lay_out_rows(const MappedCsr& g, bool with_weights, const StreamOptions& options) {
  num_blocks_ = plan_.blocks.size();
  capacity_entries_ = plan_.capacity_entries;
  ids_ = add_row_array(g.edges(), g.num_edges(), index_bytes_, options.pack, "the streamed blocks' buffers");
  if (with_weights)
    weights_ =
        add_row_array(g.weights(), g.num_edges(), sizeof(uint32_t), options.pack, "the streamed blocks' buffers");
  for (size_t k = 0; k < num_blocks_; ++k) {
    const StreamBlock& b = plan_.blocks[k];
    set_range(k, ids_, b.copy_from, b.last_entry);
    if (with_weights) set_range(k, weights_, b.copy_from, b.last_entry);
  }
}

template <class Index>
void StreamedLists::lay_out_columns(const MappedCsr& g, bool with_weights, const StreamOptions& options) {
  const uint64_t v = g.num_vertices(), edges = g.num_edges();
  const uint64_t* offsets = g.offsets();
  const Index* ids = g.edges_as<Index>();
  capacity_entries_ = options.block_bytes / (index_bytes_ + weight_bytes_);
  const auto progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  columns_ = build_column_blocks(offsets, ids, v,
                                 capacity_column_bounds(column_entries(offsets, ids, v), capacity_entries_), progress);
  num_blocks_ = columns_.num_blocks();
  // The host arrays, pinned: ids and weights gathered into column-blocked order, the row index, x.
  const uint64_t* source = columns_.source.data();
  Index* cols = static_cast<Index*>(pinned_alloc(edges * sizeof(Index)));
  parallel_for(edges, [=](uint64_t p) { cols[p] = ids[offsets[0] + source[p]]; });
  ids_ = add_array(cols, sizeof(Index), "the streamed blocks' buffers");
  if (with_weights) {
    const uint32_t* w = g.weights();
    uint32_t* vals = static_cast<uint32_t*>(pinned_alloc(edges * sizeof(uint32_t)));
    parallel_for(edges, [=](uint64_t p) { vals[p] = w[offsets[0] + source[p]]; });
    weights_ = add_array(vals, sizeof(uint32_t), "the streamed blocks' buffers");
  }
  Index* rows = static_cast<Index*>(pinned_alloc(columns_.row_ids.size() * sizeof(Index)));
  for (size_t i = 0; i < columns_.row_ids.size(); ++i) rows[i] = Index(columns_.row_ids[i]);
  row_ids_ = add_array(rows, sizeof(Index), "the column blocks' row ids");
  row_starts_ = add_array(pinned_copy(columns_.row_start.data(), columns_.row_start.size() * sizeof(uint64_t)),
                          sizeof(uint64_t), "the column blocks' row starts");
  float* x = static_cast<float*>(pinned_alloc(v * sizeof(float)));
  for (uint64_t i = 0; i < v; ++i) x[i] = spmv_x(i);
  x_ = add_array(x, sizeof(float), "the column blocks' slices of x");
  for (size_t k = 0; k < num_blocks_; ++k) {
    set_range(k, ids_, columns_.first_entry[k], columns_.first_entry[k + 1]);
    if (with_weights) set_range(k, weights_, columns_.first_entry[k], columns_.first_entry[k + 1]);
    set_range(k, row_ids_, columns_.first_row[k], columns_.first_row[k + 1]);
    set_range(k, row_starts_, columns_.first_row_start(k), columns_.first_row_start(k) + columns_.rows(k) + 1);
    set_range(k, x_, columns_.first_column[k], columns_.first_column[k + 1]);
  }
  row_index_bytes_ = columns_.index_bytes(index_bytes_);
  total_rows_ = columns_.row_ids.size();
  // Kept: the bounds (column_rows, describe). Released: the permutation and the row index, now pinned.
  std::vector<uint64_t>().swap(columns_.source);
  std::vector<uint64_t>().swap(columns_.row_ids);
  std::vector<uint64_t>().swap(columns_.row_start);
}

StreamedLists::~StreamedLists() {
  if (copy_stream_) cudaStreamSynchronize(copy_stream_);
  for (Copied& a : arrays_) {
    for (void* p : a.buffers) budgeted_free(p, std::max<uint64_t>(1, a.buffer_elems) * a.elem_bytes);
    for (void* p : a.staging) budgeted_free(p, std::max<uint64_t>(1, a.buffer_elems) * a.packed_bytes);
    cudaFreeHost(a.host);
  }
  for (cudaEvent_t e : copied_) cudaEventDestroy(e);
  for (cudaEvent_t e : consumed_) cudaEventDestroy(e);
  for (cudaEvent_t e : timing_) cudaEventDestroy(e);
  if (copy_stream_) cudaStreamDestroy(copy_stream_);
  budgeted_free(bounds_, 4 * plan_.blocks.size() * sizeof(uint64_t));
  budgeted_free(marks_, plan_.blocks.size());
  budgeted_free(entries_, plan_.blocks.size() * sizeof(unsigned long long));
  cudaFreeHost(host_marks_);
  cudaFreeHost(host_entries_);
}

uint64_t StreamedLists::buffer_bytes() const {
  uint64_t bytes = 0;
  for (const Copied& a : arrays_)  // as allocated
    bytes += std::max<uint64_t>(1, a.buffer_elems) * (a.elem_bytes + a.packed_bytes);
  return bytes;
}

void StreamedLists::prepare_run() {
  EMOGI_CUDA_CHECK(cudaStreamSynchronize(copy_stream_));
  std::fill(held_.begin(), held_.end(), kNone);
  marked_ = false;
  stats_ = {};
  stats_.reading_in_place = entries_ != nullptr;
  timed_ = 0;
}

void StreamedLists::issue_copy(size_t c) {
  const size_t b = buffer_of(c), k = copy_order_[c];
  if (held_[b] == k && !poison_) {  // the buffers still hold the block: the kernel that waits finds it there
    ++stats_.skipped;
    return;
  }
  // The buffers' last reader first (a no-op before their first use).
  EMOGI_CUDA_CHECK(cudaStreamWaitEvent(copy_stream_, consumed_[b], 0));
  if (poison_)  // what a kernel that ran before the copy landed would read: ids far past any vertex, NaN x
    for (const Copied& a : arrays_) {
      EMOGI_CUDA_CHECK(cudaMemsetAsync(a.buffers[b], 0xFF, a.buffer_elems * a.elem_bytes, copy_stream_));
      if (a.packed_bytes)
        EMOGI_CUDA_CHECK(cudaMemsetAsync(a.staging[b], 0xFF, a.buffer_elems * a.packed_bytes, copy_stream_));
    }
  if (timed_ + 2 > timing_.size())
    for (int i = 0; i < 2; ++i) {
      timing_.emplace_back();
      EMOGI_CUDA_CHECK(cudaEventCreate(&timing_.back()));
    }
  EMOGI_CUDA_CHECK(cudaEventRecord(timing_[timed_], copy_stream_));
  for (size_t a = 0; a < arrays_.size(); ++a) {
    const auto [from, to] = range_of(k, a);
    const Copied& c = arrays_[a];
    if (to == from) continue;
    const unsigned bytes = c.packed_bytes ? c.packed_bytes : c.elem_bytes;
    EMOGI_CUDA_CHECK(cudaMemcpyAsync(c.packed_bytes ? c.staging[b] : c.buffers[b],
                                     static_cast<const char*>(c.host) + from * bytes, (to - from) * bytes,
                                     cudaMemcpyHostToDevice, copy_stream_));
    stats_.bytes += (to - from) * bytes;
  }
  EMOGI_CUDA_CHECK(cudaEventRecord(timing_[timed_ + 1], copy_stream_));
  timed_ += 2;
  for (size_t a = 0; a < arrays_.size(); ++a) {  // packed: widened after the copies' timing, before `copied`
    const auto [from, to] = range_of(k, a);
    const Copied& c = arrays_[a];
    if (to == from || !c.packed_bytes) continue;
    const uint64_t grid = std::min<uint64_t>((to - from + 255) / 256, 4096);
    widen_packed<<<dim3(unsigned(grid)), 256, 0, copy_stream_>>>(static_cast<const uint8_t*>(c.staging[b]),
                                                                 c.buffers[b], to - from, c.packed_bytes, c.elem_bytes);
    EMOGI_CHECK_LAUNCH();
  }
  EMOGI_CUDA_CHECK(cudaEventRecord(copied_[b], copy_stream_));
  held_[b] = k;
  ++stats_.copies;
}

StreamRunStats StreamedLists::finish_run() {
  EMOGI_CUDA_CHECK(cudaStreamSynchronize(copy_stream_));
  double ms = 0;
  for (size_t i = 0; i < timed_; i += 2) {
    float t = 0;
    EMOGI_CUDA_CHECK(cudaEventElapsedTime(&t, timing_[i], timing_[i + 1]));
    ms += t;
  }
  stats_.copy_ms = ms;
  return stats_;
}

std::string StreamRunStats::text(const std::vector<uint64_t>& counts) {
  std::string out;
  for (uint64_t n : counts) out += (out.empty() ? "" : ",") + std::to_string(n);
  return out;
}

std::string StreamRunStats::in_place_text() const {
  if (!reading_in_place) return "";
  return "; read in place: " + std::to_string(in_place) + " blocks, " + std::to_string(in_place_entries) +
         " active entries, per sweep " + text(per_sweep_in_place);
}

std::string StreamedLists::describe() const {
  char buf[600];
  if (layout_ == StreamLayout::Columns) {
    uint64_t widest = 0;
    for (size_t k = 0; k < num_blocks_; ++k) widest = std::max(widest, columns_.columns(k));
    std::snprintf(buf, sizeof buf,
                  "streamed: %zu blocks of at most %llu entries, %zu buffers of %llu bytes in GPU memory, column "
                  "blocks (CF'17): %llu non-empty rows over the blocks, a row index of %llu bytes, x slices of %llu "
                  "bytes (widest block %llu columns)%s%s",
                  num_blocks_, (unsigned long long)capacity_entries_, held_.size(), (unsigned long long)buffer_bytes(),
                  (unsigned long long)total_rows_, (unsigned long long)row_index_bytes_,
                  (unsigned long long)(columns_.num_vertices * sizeof(float)), (unsigned long long)widest,
                  poison_ ? ", poisoned before every copy" : "",
                  skip_inactive_ ? ", blocks without an active vertex skipped" : "");
    return buf;
  }
  char in_place[120] = "";
  if (direct_below_ > 0)
    std::snprintf(in_place, sizeof in_place,
                  ", blocks with fewer than %g of their entries active read in place (zero-copy)", direct_below_);
  std::snprintf(
      buf, sizeof buf,
      "streamed: %zu blocks of at most %llu entries, %zu buffers of %llu bytes in GPU memory, %llu lists split "
      "(longest: vertex %llu, %llu entries)%s%s%s",
      plan_.blocks.size(), (unsigned long long)plan_.capacity_entries, held_.size(), (unsigned long long)buffer_bytes(),
      (unsigned long long)plan_.split_lists, (unsigned long long)plan_.longest_vertex,
      (unsigned long long)plan_.longest_list, poison_ ? ", poisoned before every copy" : "",
      skip_inactive_ ? ", blocks without an active vertex skipped" : "", in_place);
  return buf + packing_text();
}

}  // namespace emogi
