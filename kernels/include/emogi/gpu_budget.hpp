// --gpu-memory-budget: the GPU memory a run may use, as if the GPU had only that much. Everything the project
// cudaMallocs (vertex data, work lists, counters, the edge list in `device` mode, what `auto` keeps) is taken from
// the budget when allocated and given back when freed, so `auto` and the managed-memory guard see only what is
// left. Without a budget nothing is refused here (the GPU's own free memory still limits every allocation).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace emogi {

class GpuBudget {
 public:
  static constexpr size_t kNone = SIZE_MAX;
  void set_limit(size_t bytes) { limit_ = bytes; }
  size_t limit() const { return limit_; }
  size_t used() const { return used_; }
  size_t left() const { return limit_ == kNone ? kNone : (used_ < limit_ ? limit_ - used_ : 0); }
  // Counts `bytes` of `what` ("the vertex data") against the budget; throws one line, before anything is
  // allocated, when they do not fit.
  void take(size_t bytes, const std::string& what);
  void give_back(size_t bytes) { used_ -= bytes < used_ ? bytes : used_; }

 private:
  size_t limit_ = kNone, used_ = 0;
};

// The process's budget (run_command and `emogi lists` set its limit from --gpu-memory-budget).
GpuBudget& gpu_budget();

// "1.50 GiB", "12.00 MiB", "4.00 KiB", "100 B": sizes in error messages and logs.
std::string format_bytes(size_t bytes);

}  // namespace emogi
