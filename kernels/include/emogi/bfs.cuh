// BFS in EMOGI's level-synchronous, vertex-centric form (paper §4.2, Algorithm 1): each launch scans every
// vertex; the ones at the current level walk their neighbour lists (with the Access policy) and mark unvisited
// neighbours with the next level. The traversal ends when a launch marks nothing.
#pragma once
#include <cstdint>

#include "emogi/access.cuh"
#include "emogi/cuda_check.hpp"
#include "emogi/event_timer.cuh"

namespace emogi {

constexpr uint32_t kUnvisited = 0xFFFFFFFFu;
constexpr unsigned kBlockThreads = 256;

// The vertex list lives in GPU memory; `edges` points into whichever memory the EdgeStore chose.
template <class Index>
struct DeviceGraph {
  const uint64_t* offsets;
  const Index* edges;
  uint64_t num_vertices;
};

// The grid normally has a thread (or warp) for every vertex, so the loop runs once; a smaller grid (max_warps)
// walks the vertices grid-stride, which caps the requests in flight (how the model emulates longer latency).
template <class Access, class Index>
__global__ void __launch_bounds__(kBlockThreads)
    bfs_level(DeviceGraph<Index> g, uint32_t* __restrict__ depth, uint32_t level, unsigned* __restrict__ changed) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;  // a multiple of 32: lanes of a warp share a vertex
  for (uint64_t thread = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;; thread += stride) {
    const uint64_t v = thread / Access::kLanes;
    if (v >= g.num_vertices) return;
    if (depth[v] != level) continue;
    Access::walk(g.edges, g.offsets[v], g.offsets[v + 1], unsigned(thread % Access::kLanes), [&](Index u) {
      // Racing writers all store the same value, so no atomic is needed.
      if (depth[u] == kUnvisited) {
        depth[u] = level + 1;
        *changed = 1;
      }
    });
  }
}

// Blocks for one level: enough for every vertex, or at most max_warps warps (rounded up to whole blocks).
template <class Access>
uint64_t bfs_blocks(uint64_t num_vertices, uint64_t max_warps) {
  const uint64_t all = (num_vertices * Access::kLanes + kBlockThreads - 1) / kBlockThreads;
  if (max_warps == 0) return all;
  const uint64_t capped = (max_warps * kWarpSize + kBlockThreads - 1) / kBlockThreads;
  return capped < all ? capped : all;
}

// Device buffers of one traversal (depths, the "changed" flag), reused by every run on the same graph.
class BfsState {
 public:
  explicit BfsState(uint64_t num_vertices) : num_vertices_(num_vertices) {
    EMOGI_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    EMOGI_CUDA_CHECK(cudaMalloc(&depth_, num_vertices * sizeof(uint32_t)));
    EMOGI_CUDA_CHECK(cudaMalloc(&changed_device_, sizeof(unsigned)));
    EMOGI_CUDA_CHECK(cudaMallocHost(&changed_host_, sizeof(unsigned)));
  }
  ~BfsState() {
    cudaFreeHost(changed_host_);
    cudaFree(changed_device_);
    cudaFree(depth_);
    cudaStreamDestroy(stream_);
  }
  BfsState(const BfsState&) = delete;
  BfsState& operator=(const BfsState&) = delete;

  uint32_t* depth() { return depth_; }
  unsigned* changed_device() { return changed_device_; }
  unsigned* changed_host() { return changed_host_; }
  cudaStream_t stream() { return stream_; }
  EventTimer& timer() { return timer_; }
  uint64_t num_vertices() const { return num_vertices_; }

 private:
  uint64_t num_vertices_;
  cudaStream_t stream_{};
  uint32_t* depth_ = nullptr;
  unsigned* changed_device_ = nullptr;
  unsigned* changed_host_ = nullptr;
  EventTimer timer_;
};

struct TraversalTime {
  float time_ms;
  uint32_t levels;  // launches of the level loop = depth of the deepest reached vertex + 1
};

// One timed traversal from `root` (max_warps = 0: a warp or thread per vertex). The timed region is the level
// loop (launches and the per-level flag read), as in the paper's artifact; resetting the depths is outside it.
template <class Access, class Index>
TraversalTime bfs(const DeviceGraph<Index>& g, uint64_t root, uint64_t max_warps, BfsState& s) {
  cudaStream_t stream = s.stream();
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.depth(), 0xFF, g.num_vertices * sizeof(uint32_t), stream));
  EMOGI_CUDA_CHECK(cudaMemsetAsync(s.depth() + root, 0, sizeof(uint32_t), stream));
  const uint64_t blocks = bfs_blocks<Access>(g.num_vertices, max_warps);

  s.timer().start(stream);
  uint32_t level = 0;
  for (;; ++level) {
    EMOGI_CUDA_CHECK(cudaMemsetAsync(s.changed_device(), 0, sizeof(unsigned), stream));
    bfs_level<Access, Index><<<dim3(unsigned(blocks)), kBlockThreads, 0, stream>>>(g, s.depth(), level,
                                                                                    s.changed_device());
    EMOGI_CHECK_LAUNCH();
    EMOGI_CUDA_CHECK(cudaMemcpyAsync(s.changed_host(), s.changed_device(), sizeof(unsigned),
                                     cudaMemcpyDeviceToHost, stream));
    EMOGI_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (*s.changed_host() == 0) break;
  }
  s.timer().stop(stream);
  return {s.timer().elapsed_ms(), level + 1};
}

}  // namespace emogi
