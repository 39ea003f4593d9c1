// SpMV (Buono et al., CF'17's case study): y = A x over the CSR graph, row v being v's list, the edge's weight as
// its value (1 without weights) and x = spmv_x. A pull form: each vertex's group (access.cuh) sums its row, lane by
// lane in double and then across the warp, and adds the sum to y[v]. Adding, not storing, lets a row cut across
// several launches (streamed blocks, uvm-capped's sub-launches) sum its parts; launches on one stream never overlap,
// so no atomics are needed. The sweep (vertex_schedule.cuh) says which row list v is and where x is: v and x itself
// over vertex ranges; a column block's row ids and its copied slice of x in the column layout (column_sweep.cuh),
// where each row appears once per block, so its group owns y[row] there and blocks add in turn: no atomics either.
#pragma once
#include <cstdint>

#include "emogi/access.cuh"
#include "emogi/device_array.cuh"
#include "emogi/graph_view.cuh"
#include "emogi/iteration_loop.cuh"
#include "emogi/list_reads.cuh"
#include "emogi/spmv_vector.hpp"
#include "emogi/vertex_schedule.cuh"
#include "emogi/warp_ops.cuh"

namespace emogi {

struct SpmvState {
  explicit SpmvState(uint64_t num_vertices) : x(num_vertices), y(num_vertices) {}
  DeviceArray<float> x;
  DeviceArray<double> y;
  IterationLoop loop;
};

__global__ void spmv_init_x(float* __restrict__ x, uint64_t n) {
  const uint64_t v = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v < n) x[v] = spmv_x(v);
}

template <class Access, bool kWeighted, class Index, class Sweep>
__global__ void __launch_bounds__(kBlockThreads)
    spmv_rows(DeviceGraph<Index> g, Sweep sweep, const float* __restrict__ x, double* __restrict__ y) {
  for_each_vertex<Access>(sweep, [&](uint64_t v, unsigned lane) {
    sweep.note_read(v, lane);
    double sum = 0;
    if constexpr (kWeighted)
      Access::template walk<Index>(
          g.list_begin(v), g.list_end(v), lane, g.weighted_neighbors(),
          [&](WeightedNeighbor e) { sum += double(e.weight) * double(sweep.vector_at(x, e.id)); });
    else
      Access::template walk<Index>(g.list_begin(v), g.list_end(v), lane, g.neighbors(),
                                   [&](uint64_t u) { sum += double(sweep.vector_at(x, u)); });
    if constexpr (Access::kLanes > 1) sum = warp_sum(sum);  // the group is the whole warp (kLanes is 1 or 32)
    if (lane == 0) y[sweep.row_of(v)] += sum;
  });
}

// One product; `weighted`: the graph's weights were placed beside the edges (g.weights).
template <class Access, class Index>
RunStats spmv(const DeviceGraph<Index>& g, bool weighted, uint64_t max_warps, ListReads& reads, SpmvState& s) {
  static_assert(Access::kLanes == 1 || Access::kLanes == kWarpSize, "a row's group is one thread or one warp");
  IterationLoop& loop = s.loop;
  const uint64_t n = g.num_vertices;
  reads.set_stream(loop.stream());
  RunStats r;
  if (n) {  // x and a zero y before the clock starts: the timed region is the product
    spmv_init_x<<<dim3(unsigned(vertex_blocks(n))), kBlockThreads, 0, loop.stream()>>>(s.x.data(), n);
    EMOGI_CHECK_LAUNCH();
    EMOGI_CUDA_CHECK(cudaMemsetAsync(s.y.data(), 0, n * sizeof(double), loop.stream()));
  }
  loop.start();
  reads.launch_rows<Index>(
      n, [] { return std::string("product"); },
      [&](auto range) {
        const dim3 grid(unsigned(scan_blocks<Access>(range.size(), max_warps)));
        if (grid.x == 0) return;
        if (weighted)
          spmv_rows<Access, true, Index, decltype(range)>
              <<<grid, kBlockThreads, 0, loop.stream()>>>(g, range, s.x.data(), s.y.data());
        else
          spmv_rows<Access, false, Index, decltype(range)>
              <<<grid, kBlockThreads, 0, loop.stream()>>>(g, range, s.x.data(), s.y.data());
        EMOGI_CHECK_LAUNCH();
      });
  r.time_ms = loop.stop();
  r.iterations = 1;
  r.edges_traversed = g.num_edges;
  return r;
}

}  // namespace emogi
