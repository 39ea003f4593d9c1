// uvm-capped: UVM (cold, ReadMostly; allocated exactly as `uvm`, so within the managed-memory guard) whose lists may
// keep at most a capacity of GPU memory. After each kernel launch, or each of the K sub-launches a sweep is split
// into (list_reads.cuh), the 2 MiB chunks of the edge list (and weights) that the (sub-)launch read are found from
// the bitmap of lists it read and the offsets, on the GPU; the host's LRU (chunk_lru.hpp) then moves the least
// recently used chunks beyond the capacity back to the host, so later launches fault them in again. Everything
// this costs (the kernels marking the bitmap, finding the chunks, the evictions) is in the run's time.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "emogi/chunk_lru.hpp"
#include "emogi/device_array.cuh"
#include "emogi/trace_file.hpp"
#include "emogi/vertex_schedule.cuh"

namespace emogi {

class CappedUvm {
 public:
  // The managed arrays as the placement made them (weights: null and 0 unless the algorithm reads them); `offsets`
  // in GPU memory. Chunks are numbered as emogi.traces' address space: the edges', then the weights'.
  CappedUvm(const void* edges, uint64_t num_edges, unsigned index_bytes, const void* weights, const uint64_t* offsets,
            uint64_t capacity_bytes);
  void start_run() { lru_.reset(); }  // after the placement moved every page back to the host
  // After a (sub-)launch over `range` that marked the lists it read in `bits`, each read as `part` says.
  void after_sub_launch(const uint32_t* bits, const RecordedRange& range, const ListPart& part);
  // What the runs since the counts were cleared moved back, per run (for the log); clears them.
  std::string report(uint64_t runs);
  void clear_counts() { steps_ = evicted_ = 0, evict_ms_ = 0; }

 private:
  const void* edges_;
  const void* weights_;
  const uint64_t* offsets_;
  uint64_t num_edges_, edge_chunks_, capacity_chunks_;
  unsigned index_bytes_;
  ChunkLru lru_;
  DeviceArray<uint8_t> touched_;  // one byte per chunk
  std::vector<uint8_t> host_touched_;
  uint64_t steps_ = 0, evicted_ = 0;
  double evict_ms_ = 0;
};

}  // namespace emogi
