// What a run does around each kernel launch that reads neighbour lists. In a timed run of a plain mode: nothing;
// the launch sweeps all vertices at once with kernels that record nothing (AllVertices, vertex_schedule.cuh). In a
// run that records a trace (--trace-out) or runs in uvm-capped, the kernels mark each list they read in a bitmap
// (RecordedRange); uvm-capped evicts after each sub-launch by it (capped_uvm.cuh), a trace stores it after each
// launch, and then it is cleared. In the streamed mode a launch becomes one kernel per block, each after its
// block's copy (streamed_lists.cuh), over the block's vertices and the block's part of their lists, or (SpMV's
// launch_rows, column layout) over a column block's rows.
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "emogi/pass_log.cuh"
#include "emogi/streamed_lists.cuh"
#include "emogi/trace_file.hpp"
#include "emogi/vertex_schedule.cuh"

namespace emogi {

class CappedUvm;

class ListReads {
 public:
  ListReads() = default;  // timed runs: no bitmap, one launch over all vertices
  // `bits`: a zeroed bitmap of ceil(V / 32) words in GPU memory; `trace`: where launches go, or null; `capped`:
  // uvm-capped's evictions, or null.
  ListReads(uint32_t* bits, uint64_t num_vertices, TraceFile* trace, CappedUvm* capped, unsigned sub_launches)
      : bits_(bits), num_vertices_(num_vertices), trace_(trace), capped_(capped),
        sub_launches_(sub_launches ? sub_launches : 1) {}
  // Streamed runs: `point(step, buffer)` points the algorithm's DeviceGraph at the buffer that holds the step's
  // block (or, for buffer StreamedLists::kInPlace, at the lists in place); `offsets`: the graph's, in GPU memory (a
  // block's active entries are counted from them).
  ListReads(StreamedLists* streamed, const uint64_t* offsets, std::function<void(const SweepStep&, unsigned)> point)
      : streamed_(streamed), offsets_(offsets), point_(std::move(point)) {}
  bool recording() const { return bits_ != nullptr; }
  // --pass-log: times each launch and counts its active entries there (pass_log.cuh); null (the default): nothing.
  void set_pass_log(PassLog* log) { log_ = log; }
  // The stream the algorithm launches on: streamed blocks order their copies against it. An algorithm that streams
  // sets it before its first launch; one that does not is refused in the streamed mode (streamed_refusal).
  void set_stream(cudaStream_t stream) { stream_ = stream; }
  // Before a launch of an iterative algorithm: the vertices active in it are those with active(v) (a device
  // functor, e.g. FlagSet), and the launch reads no list of another vertex. The streamed mode then skips the blocks
  // without one (StreamedLists::mark_active); the other modes ignore it.
  template <class Active>
  void only_active(Active active) {
    if (log_) {
      if (!stream_) throw std::logic_error("ListReads::only_active before ListReads::set_stream");
      log_->count_active(stream_, active);
    }
    if (streamed_ && streamed_->skips_inactive()) {
      if (!stream_) throw std::logic_error("ListReads::only_active before ListReads::set_stream");
      streamed_->mark_active(stream_, offsets_, active);
    }
  }

  // launch_sweep(sweep) launches the kernel(s) of one launch: with AllVertices{V} where nothing is recorded, else
  // with RecordedRange over all vertices, or over sub_launches consecutive ranges (vertex k * V / K up to
  // (k + 1) * V / K) one after the other. label() names the launch in the trace ("level 3"); `part`: which part of
  // each list it reads.
  template <class Label, class Launch>
  void launch(uint64_t num_vertices, Label label, Launch launch_sweep, const ListPart& part = {}) {
    if (!log_) {
      launch_unlogged(num_vertices, label, launch_sweep, part);
      return;
    }
    if (!stream_) throw std::logic_error("a logged launch (--pass-log) before ListReads::set_stream");
    log_->before_pass(stream_, streamed_ ? &streamed_->running() : nullptr);
    launch_unlogged(num_vertices, label, launch_sweep, part);
    log_->after_pass(stream_, streamed_ ? &streamed_->running() : nullptr);
  }

  // A launch of a matrix kernel (SpMV: each list is a row whose partial sums add into y): as launch, except that
  // in the column layout (--stream-layout columns) it sweeps the column blocks, launch_sweep taking each block's
  // ColumnBlockRows<Index> (column_sweep.cuh). Only kernels that ask the sweep for row_of and vector_at may use it.
  template <class Index, class Label, class Launch>
  void launch_rows(uint64_t num_vertices, Label label, Launch launch_sweep) {
    if (!streamed_ || streamed_->layout() == StreamLayout::Rows) return launch(num_vertices, label, launch_sweep);
    if (!stream_) throw std::logic_error("a streamed launch before ListReads::set_stream");
    streamed_->sweep(stream_, [&](const SweepStep& step, unsigned buffer) {
      point_(step, buffer);
      launch_sweep(streamed_->column_rows<Index>(step.first, buffer));
    });
  }

 private:
  template <class Label, class Launch>
  void launch_unlogged(uint64_t num_vertices, Label label, Launch launch_sweep, const ListPart& part) {
    if (streamed_) {
      if (!stream_) throw std::logic_error("a streamed launch before ListReads::set_stream");
      if (streamed_->layout() != StreamLayout::Rows)
        throw std::logic_error("a launch by vertices over column blocks (only launch_rows reads them)");
      streamed_->sweep(stream_, [&](const SweepStep& step, unsigned buffer) {
        point_(step, buffer);
        const std::vector<StreamBlock>& blocks = streamed_->plan().blocks;
        launch_sweep(RecordedRange{blocks[step.first].first_vertex, blocks[step.last].last_vertex, nullptr});
      });
      return;
    }
    if (!bits_) {
      launch_sweep(AllVertices{num_vertices});
      return;
    }
    for (uint64_t k = 0; k < sub_launches_; ++k) {
      const RecordedRange range{k * num_vertices / sub_launches_, (k + 1) * num_vertices / sub_launches_, bits_};
      if (range.size() == 0) continue;  // more sub-launches than vertices
      launch_sweep(range);
      after_sub_launch(range, part);
    }
    after_launch(trace_ ? label() : std::string(), part);
  }

  void after_sub_launch(const RecordedRange& range, const ListPart& part);
  void after_launch(const std::string& label, const ListPart& part);

  uint32_t* bits_ = nullptr;
  uint64_t num_vertices_ = 0;
  TraceFile* trace_ = nullptr;
  CappedUvm* capped_ = nullptr;
  unsigned sub_launches_ = 1;
  std::vector<uint32_t> host_;
  StreamedLists* streamed_ = nullptr;
  const uint64_t* offsets_ = nullptr;
  std::function<void(const SweepStep&, unsigned)> point_;
  cudaStream_t stream_ = nullptr;
  PassLog* log_ = nullptr;
};

}  // namespace emogi
