// The sweep of one column block (the streamed mode with --stream-layout columns; column_blocks.hpp): list i of the
// block (its DeviceGraph, pointed at the block's buffers by StreamedLists::point) is row ids[i], and x's entries of
// the block's columns [first_column, first_column + its width) are the block's slice, copied with it. A sweep like
// AllVertices over the block's non-empty rows otherwise: nothing recorded.
#pragma once
#include <cstdint>

#include "emogi/vertex_schedule.cuh"

namespace emogi {

template <class Index>
struct ColumnBlockRows {
  uint64_t count;         // the block's non-empty rows
  const Index* ids;       // their ids, GPU memory (the block's buffer)
  const float* x_slice;   // x over the block's columns, GPU memory (the block's buffer)
  uint64_t first_column;  // x_slice[0] is x[first_column]
  __host__ __device__ uint64_t begin() const { return 0; }
  __host__ __device__ uint64_t end() const { return count; }
  __host__ __device__ uint64_t size() const { return count; }
  __device__ bool holds(uint64_t i) const { return i < count; }
  __device__ void note_read(uint64_t, unsigned) const {}
  __device__ uint64_t row_of(uint64_t i) const { return ids[i]; }
  __device__ float vector_at(const float*, uint64_t column) const { return x_slice[column - first_column]; }
};

template <class Access, class Index, class Body>
__device__ __forceinline__ void for_each_vertex(ColumnBlockRows<Index> block, Body body) {
  for_each_vertex<Access>(block.count, body);
}

}  // namespace emogi
