#include "emogi/list_reads.cuh"

#include "emogi/capped_uvm.cuh"
#include "emogi/cuda_check.hpp"

namespace emogi {

void ListReads::after_sub_launch(const RecordedRange& range, const ListPart& part) {
  if (capped_) capped_->after_sub_launch(bits_, range, part);
}

void ListReads::after_launch(const std::string& label, const ListPart& part) {
  const size_t words = (num_vertices_ + 31) / 32;
  EMOGI_CUDA_CHECK(cudaDeviceSynchronize());  // the algorithm's stream, whichever it is
  if (trace_) {
    host_.resize(words);
    EMOGI_CUDA_CHECK(cudaMemcpy(host_.data(), bits_, words * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    trace_->add_launch(host_, label, part);
  }
  EMOGI_CUDA_CHECK(cudaMemset(bits_, 0, words * sizeof(uint32_t)));
  EMOGI_CUDA_CHECK(cudaDeviceSynchronize());  // cleared before the next launch, on whatever stream it comes
}

}  // namespace emogi
