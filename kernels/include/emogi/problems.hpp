// One entry point per algorithm: measure the requested matrix on a graph (src/problems/<algorithm>.cu).
#pragma once
#include "emogi/csr.hpp"
#include "emogi/measure_matrix.cuh"

namespace emogi {

void measure_bfs(const MappedCsr& g, const MatrixOptions& opt);
void measure_sssp(const MappedCsr& g, const MatrixOptions& opt);
void measure_cc(const MappedCsr& g, const MatrixOptions& opt);
void measure_pagerank(const MappedCsr& g, const MatrixOptions& opt);
void measure_spmv(const MappedCsr& g, const MatrixOptions& opt);

}  // namespace emogi
