#include "emogi/streamed_lists.cuh"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "emogi/device_array.cuh"
#include "emogi/gpu_budget.hpp"
#include "emogi/host_copy.hpp"

namespace emogi {
namespace {

constexpr size_t kNone = ~size_t(0);
// Copies start at a multiple of 32 entries: 128 bytes of 4-byte ids, 256 of 8-byte ones, so a list keeps in the
// buffer the line alignment it has in the file (merged-aligned's reads stay whole lines).
constexpr uint64_t kAlignEntries = 32;

void* pinned_copy(const void* src, size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  EMOGI_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocDefault));
  parallel_copy(p, src, bytes);
  return p;
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
  if (options.block_bytes / entry_bytes < 2 * kAlignEntries)
    throw std::invalid_argument("--stream-block-bytes " + std::to_string(options.block_bytes) + " holds fewer than " +
                                std::to_string(2 * kAlignEntries) + " entries of " + std::to_string(entry_bytes) +
                                " bytes (ids and weights): give at least " +
                                format_bytes(2 * kAlignEntries * entry_bytes));
  return plan_stream_blocks(g.offsets(), g.num_vertices(), options.block_bytes / entry_bytes, kAlignEntries);
}

StreamedLists::StreamedLists(const MappedCsr& g, bool with_weights, const StreamOptions& options)
    : plan_(streamed_plan(g, with_weights, options)), index_bytes_(g.index_bytes()),
      weight_bytes_(with_weights ? sizeof(uint32_t) : 0), poison_(options.poison),
      skip_inactive_(options.skip_inactive), direct_below_(options.direct_below) {
  // Buffers as large as the largest copy, not the option: a graph smaller than a block takes only what it needs.
  uint64_t most = 1;
  for (const StreamBlock& b : plan_.blocks) most = std::max(most, b.copied_entries());
  buffer_entries_ = most;

  host_edges_ = pinned_copy(g.edges(), g.edge_list_bytes());
  if (with_weights) host_weights_ = pinned_copy(g.weights(), g.num_edges() * sizeof(uint32_t));
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
  // Fewer buffers than blocks would never be used.
  const size_t buffers = std::max<size_t>(1, std::min<size_t>(options.buffers, plan_.blocks.size()));
  for (size_t b = 0; b < buffers; ++b) {
    edge_buffers_.push_back(budgeted_malloc(most * index_bytes_, "the streamed blocks' buffers"));
    if (with_weights)
      weight_buffers_.push_back(budgeted_malloc(most * sizeof(uint32_t), "the streamed blocks' buffers"));
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

StreamedLists::~StreamedLists() {
  if (copy_stream_) cudaStreamSynchronize(copy_stream_);
  for (void* p : edge_buffers_) budgeted_free(p, buffer_entries_ * index_bytes_);
  for (void* p : weight_buffers_) budgeted_free(p, buffer_entries_ * weight_bytes_);
  for (cudaEvent_t e : copied_) cudaEventDestroy(e);
  for (cudaEvent_t e : consumed_) cudaEventDestroy(e);
  for (cudaEvent_t e : timing_) cudaEventDestroy(e);
  if (copy_stream_) cudaStreamDestroy(copy_stream_);
  budgeted_free(bounds_, 4 * plan_.blocks.size() * sizeof(uint64_t));
  budgeted_free(marks_, plan_.blocks.size());
  budgeted_free(entries_, plan_.blocks.size() * sizeof(unsigned long long));
  cudaFreeHost(host_marks_);
  cudaFreeHost(host_entries_);
  cudaFreeHost(host_edges_);
  cudaFreeHost(host_weights_);
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
  if (held_[b] == k && !poison_) {  // the buffer still holds the block: the kernel that waits finds it there
    ++stats_.skipped;
    return;
  }
  const StreamBlock& block = plan_.blocks[k];
  const uint64_t entries = block.copied_entries();
  // The buffer's last reader first (a no-op before its first use).
  EMOGI_CUDA_CHECK(cudaStreamWaitEvent(copy_stream_, consumed_[b], 0));
  if (poison_) {  // what a kernel that ran before the copy landed would read: ids far past any vertex
    EMOGI_CUDA_CHECK(cudaMemsetAsync(edge_buffers_[b], 0xFF, buffer_entries_ * index_bytes_, copy_stream_));
    if (!weight_buffers_.empty())
      EMOGI_CUDA_CHECK(cudaMemsetAsync(weight_buffers_[b], 0xFF, buffer_entries_ * weight_bytes_, copy_stream_));
  }
  if (timed_ + 2 > timing_.size())
    for (int i = 0; i < 2; ++i) {
      timing_.emplace_back();
      EMOGI_CUDA_CHECK(cudaEventCreate(&timing_.back()));
    }
  EMOGI_CUDA_CHECK(cudaEventRecord(timing_[timed_], copy_stream_));
  if (entries) {
    EMOGI_CUDA_CHECK(cudaMemcpyAsync(edge_buffers_[b],
                                     static_cast<const char*>(host_edges_) + block.copy_from * index_bytes_,
                                     entries * index_bytes_, cudaMemcpyHostToDevice, copy_stream_));
    if (!weight_buffers_.empty())
      EMOGI_CUDA_CHECK(cudaMemcpyAsync(weight_buffers_[b],
                                       static_cast<const uint32_t*>(host_weights_) + block.copy_from,
                                       entries * sizeof(uint32_t), cudaMemcpyHostToDevice, copy_stream_));
  }
  EMOGI_CUDA_CHECK(cudaEventRecord(timing_[timed_ + 1], copy_stream_));
  timed_ += 2;
  EMOGI_CUDA_CHECK(cudaEventRecord(copied_[b], copy_stream_));
  held_[b] = k;
  ++stats_.copies;
  stats_.bytes += entries * (index_bytes_ + weight_bytes_);
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
  char in_place[120] = "";
  if (direct_below_ > 0)
    std::snprintf(in_place, sizeof in_place,
                  ", blocks with fewer than %g of their entries active read in place (zero-copy)", direct_below_);
  char buf[520];
  std::snprintf(
      buf, sizeof buf,
      "streamed: %zu blocks of at most %llu entries, %zu buffers of %llu bytes in GPU memory, %llu lists split "
      "(longest: vertex %llu, %llu entries)%s%s%s",
      plan_.blocks.size(), (unsigned long long)plan_.capacity_entries, held_.size(), (unsigned long long)buffer_bytes(),
      (unsigned long long)plan_.split_lists, (unsigned long long)plan_.longest_vertex,
      (unsigned long long)plan_.longest_list, poison_ ? ", poisoned before every copy" : "",
      skip_inactive_ ? ", blocks without an active vertex skipped" : "", in_place);
  return buf;
}

}  // namespace emogi
