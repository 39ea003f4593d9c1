// uvm-capped's replacement policy, on the host: which 2 MiB chunks of the lists are in GPU memory, and which to
// move back to the host when a (sub-)launch leaves more than the capacity there. The same rule as the UVM
// simulator's capped mode (model/uvm_sim.py): a chunk is resident from the launch that touches it until it is
// evicted; after each step the least recently used chunks beyond the capacity go, a chunk's last use counted in
// address order within a step (the scan kernels take lists in vertex, hence address, order).
#pragma once
#include <cstdint>
#include <vector>

namespace emogi {

constexpr uint64_t kChunkBytes = uint64_t(2) << 20;  // the driver's VA block, its unit of eviction

class ChunkLru {
 public:
  ChunkLru(uint64_t chunks, uint64_t capacity_chunks) : capacity_(capacity_chunks), resident_(chunks), used_(chunks) {}
  void reset();  // nothing resident (the run starts cold)
  // One step touched the chunks whose flag is non-zero (`touched` has one byte per chunk); returns the chunks to
  // move back to the host, in address order.
  std::vector<uint64_t> step(const uint8_t* touched);
  uint64_t resident() const { return held_; }
  uint64_t chunks() const { return resident_.size(); }

 private:
  uint64_t capacity_, held_ = 0, now_ = 0;
  std::vector<uint8_t> resident_;
  std::vector<uint64_t> used_;  // step * chunks + chunk at its last use
};

// Runs of consecutive chunks: [first, first + count).
struct ChunkRun {
  uint64_t first, count;
};
std::vector<ChunkRun> chunk_runs(const std::vector<uint64_t>& sorted_chunks);

}  // namespace emogi
