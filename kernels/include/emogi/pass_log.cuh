// `emogi run --pass-log PATH`: one CSV row per pass of every timed run, a pass being one launch that reads lists
// (ListReads::launch: in the streamed mode one sweep over the blocks). For each pass: the list entries its active
// vertices own (counted by a kernel of its own when the algorithm says which vertices are active, before the pass
// starts: ListReads::only_active, as every variant that streams does; empty where a variant does not say), the graph's
// list entries, its time by CUDA events on the algorithm's stream, and in the streamed mode the blocks it launched,
// the blocks it read in place and the bytes it copied; and what one entry takes (ids and weights), for bytes. launch_ms
// spans the launch alone; span_ms spans from the end of the previous pass (the first: from its own start) to its end,
// so it holds the algorithm's work between passes (counters, the streamed mode's block marking), and the spans of a run
// add up to its time less what comes before the first pass and after the last. Without the option, ListReads holds no
// PassLog and nothing of this runs.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "emogi/atomic_file.hpp"
#include "emogi/cuda_check.hpp"
#include "emogi/device_array.cuh"
#include "emogi/streamed_lists.cuh"
#include "emogi/warp_ops.cuh"

namespace emogi {

// Adds to *out the entries of the lists of the vertices v < n with active(v) (a thread per vertex, a warp's sum
// per atomic).
template <class Active>
__global__ void count_active_entries(uint64_t n, const uint64_t* __restrict__ offsets, Active active,
                                     unsigned long long* out) {
  unsigned long long sum = 0;
  for (uint64_t v = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += uint64_t(gridDim.x) * blockDim.x)
    if (active(v)) sum += offsets[v + 1] - offsets[v];
  sum = warp_sum(sum);
  if (lane_id() == 0 && sum) atomicAdd(out, sum);
}

class PassLog {
 public:
  static constexpr uint64_t kMaxPasses = uint64_t(1) << 16;  // per run (PageRank's default cap is 5000 rounds)

  // `offsets`: the graph's, in GPU memory. Opens `path`'s temporary sibling (throws if it cannot).
  // `entry_bytes`: what one list entry takes where the run reads it (an id, and a weight where it reads weights).
  PassLog(const std::string& path, std::string graph, std::string algorithm, const uint64_t* offsets,
          uint64_t num_vertices, uint64_t list_entries, uint64_t entry_bytes);
  ~PassLog();
  PassLog(const PassLog&) = delete;
  PassLog& operator=(const PassLog&) = delete;

  // Before a timed run (outside its timed region) and after it (its stream finished).
  void begin_run(const std::string& variant, const std::string& mode, uint64_t source, uint64_t rep);
  void end_run();
  void commit();  // writes the rows under `path`

  // The next pass's active entries, counted on `stream` in stream order (ListReads::only_active).
  template <class Active>
  void count_active(cudaStream_t stream, Active active) {
    check_room();
    const uint64_t grid = std::max<uint64_t>(1, std::min<uint64_t>((num_vertices_ + 255) / 256, 65535));
    count_active_entries<Active>
        <<<dim3(unsigned(grid)), 256, 0, stream>>>(num_vertices_, offsets_, active, counts_.data() + passes_);
    EMOGI_CHECK_LAUNCH();
    if (counted_.size() <= passes_) counted_.resize(passes_ + 1, false);
    counted_[passes_] = true;
  }
  // Around one pass on `stream`; `streamed`: the streamed mode's counts so far in the run, else null.
  void before_pass(cudaStream_t stream, const StreamRunStats* streamed);
  void after_pass(cudaStream_t stream, const StreamRunStats* streamed);

 private:
  struct Pass {
    uint64_t blocks = 0, in_place = 0, bytes = 0;
    bool streamed = false;
  };
  void check_room() const;

  AtomicFile out_;
  std::string graph_, algorithm_;
  const uint64_t* offsets_;
  uint64_t num_vertices_, list_entries_, entry_bytes_;
  DeviceArray<unsigned long long> counts_;  // per pass of the current run: its active entries
  std::vector<bool> counted_;               // whether count_active ran for the pass
  std::vector<cudaEvent_t> starts_, stops_;
  std::vector<Pass> passes_of_run_;
  uint64_t passes_ = 0, bytes_before_ = 0;
  std::string variant_, mode_, source_;
  uint64_t rep_ = 0;
  bool in_run_ = false;
};

}  // namespace emogi
