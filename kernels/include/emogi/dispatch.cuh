// The one place where a variant name becomes a kernel: algorithm x access policy x edge width are template
// parameters, picked here at run time. Adding a policy touches access.cuh, names.hpp and this switch.
#pragma once
#include <stdexcept>

#include "emogi/access.cuh"
#include "emogi/bfs.cuh"

namespace emogi {

template <class Index>
using BfsFunction = TraversalTime (*)(const DeviceGraph<Index>&, uint64_t root, uint64_t max_warps, BfsState&);

template <class Index>
BfsFunction<Index> bfs_for(Variant variant) {
  switch (variant) {
    case Variant::Naive: return &bfs<NaiveAccess, Index>;
    case Variant::Merged: return &bfs<MergedAccess, Index>;
    case Variant::MergedAligned: return &bfs<MergedAlignedAccess, Index>;
  }
  throw std::invalid_argument("no BFS kernel for this variant");
}

}  // namespace emogi
