#include "emogi/capped_uvm.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>

#include "emogi/cuda_check.hpp"
#include "emogi/edge_store.cuh"
#include "emogi/gpu_budget.hpp"

namespace emogi {
namespace {

uint64_t chunks_of(uint64_t bytes) { return (bytes + kChunkBytes - 1) / kChunkBytes; }

// Thread per vertex of the range: marks the chunks holding the part of its list (and weights) it read.
__global__ void mark_chunks(const uint32_t* __restrict__ bits, const uint64_t* __restrict__ offsets,
                            RecordedRange range, ListPart part, unsigned index_bytes, uint64_t edge_chunks,
                            bool weights, uint8_t* __restrict__ touched) {
  const uint64_t v = range.first + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= range.last || !(bits[v / 32] >> (v % 32) & 1u)) return;
  const uint64_t end = offsets[v + 1], begin = offsets[v] + part.first;
  if (begin >= end) return;
  const uint64_t last = part.count < end - begin ? begin + part.count : end;  // entries [begin, last)
  for (uint64_t c = begin * index_bytes / kChunkBytes; c <= (last * index_bytes - 1) / kChunkBytes; ++c) touched[c] = 1;
  if (!weights) return;
  for (uint64_t c = begin * 4 / kChunkBytes; c <= (last * 4 - 1) / kChunkBytes; ++c) touched[edge_chunks + c] = 1;
}

}  // namespace

CappedUvm::CappedUvm(const void* edges, uint64_t num_edges, unsigned index_bytes, const void* weights,
                     const uint64_t* offsets, uint64_t capacity_bytes)
    : edges_(edges), weights_(weights), offsets_(offsets), num_edges_(num_edges),
      edge_chunks_(chunks_of(num_edges * index_bytes)), capacity_chunks_(capacity_bytes / kChunkBytes),
      index_bytes_(index_bytes), lru_(edge_chunks_ + (weights ? chunks_of(num_edges * 4) : 0), capacity_chunks_),
      touched_(lru_.chunks(), "uvm-capped's chunk flags"), host_touched_(lru_.chunks()) {
  EMOGI_CUDA_CHECK(cudaMemset(touched_.data(), 0, touched_.size()));
}

void CappedUvm::after_sub_launch(const uint32_t* bits, const RecordedRange& range, const ListPart& part) {
  EMOGI_CUDA_CHECK(cudaDeviceSynchronize());  // the (sub-)launch, on the algorithm's stream
  mark_chunks<<<dim3(unsigned(vertex_blocks(range.size()))), kBlockThreads>>>(
      bits, offsets_, range, part, index_bytes_, edge_chunks_, weights_ != nullptr, touched_.data());
  EMOGI_CHECK_LAUNCH();
  EMOGI_CUDA_CHECK(cudaMemcpy(host_touched_.data(), touched_.data(), touched_.size(), cudaMemcpyDeviceToHost));
  EMOGI_CUDA_CHECK(cudaMemset(touched_.data(), 0, touched_.size()));
  ++steps_;
  const std::vector<uint64_t> victims = lru_.step(host_touched_.data());
  if (victims.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::pair<const void*, size_t>> ranges;
  const uint64_t edge_bytes = num_edges_ * index_bytes_, weight_bytes = num_edges_ * 4;
  for (const ChunkRun& run : chunk_runs(victims)) {
    // A run may cross from the edges' chunks into the weights': split it there.
    const uint64_t first = run.first, end = run.first + run.count;
    if (first < edge_chunks_) {
      const uint64_t from = first * kChunkBytes, to = std::min(end, edge_chunks_) * kChunkBytes;
      ranges.emplace_back(static_cast<const char*>(edges_) + from, std::min(to, edge_bytes) - from);
    }
    if (end > edge_chunks_) {
      const uint64_t from = (std::max(first, edge_chunks_) - edge_chunks_) * kChunkBytes;
      const uint64_t to = (end - edge_chunks_) * kChunkBytes;
      ranges.emplace_back(static_cast<const char*>(weights_) + from, std::min(to, weight_bytes) - from);
    }
  }
  move_to_host(ranges);
  evicted_ += victims.size();
  evict_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string CappedUvm::report(uint64_t runs) {
  char buf[256];
  const double per = runs ? 1.0 / double(runs) : 0;
  std::snprintf(buf, sizeof buf,
                "capacity %llu of %llu chunks: per run %.1f (sub-)launches, %.1f chunks (%s) moved back to the host "
                "in %.1f ms",
                (unsigned long long)capacity_chunks_, (unsigned long long)lru_.chunks(), steps_ * per, evicted_ * per,
                format_bytes(uint64_t(evicted_ * per) * kChunkBytes).c_str(), evict_ms_ * per);
  clear_counts();
  return buf;
}

}  // namespace emogi
