// Names a region for Nsight tools: the profile stage attributes every kernel launch to its traversal by the
// NVTX range around it ("algorithm|variant|mode|root").
#pragma once
#include <nvtx3/nvToolsExt.h>

#include <string>

namespace emogi {

class NvtxRange {
 public:
  explicit NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace emogi
