#include "emogi/pass_log.cuh"

#include <stdexcept>

namespace emogi {

PassLog::PassLog(const std::string& path, std::string graph, std::string algorithm, const uint64_t* offsets,
                 uint64_t num_vertices, uint64_t list_entries, uint64_t entry_bytes)
    : out_(path), graph_(std::move(graph)), algorithm_(std::move(algorithm)), offsets_(offsets),
      num_vertices_(num_vertices), list_entries_(list_entries), entry_bytes_(entry_bytes),
      counts_(kMaxPasses, "the pass log's counts") {
  out_.stream()
      << "graph,algorithm,variant,mode,source,rep,pass,active_entries,list_entries,entry_bytes,launch_ms,span_ms,"
         "blocks,in_place_blocks,copied_bytes\n";
}

PassLog::~PassLog() {
  for (cudaEvent_t e : starts_) cudaEventDestroy(e);
  for (cudaEvent_t e : stops_) cudaEventDestroy(e);
}

void PassLog::begin_run(const std::string& variant, const std::string& mode, uint64_t source, uint64_t rep) {
  variant_ = variant, mode_ = mode, rep_ = rep;
  source_ = source == ~uint64_t(0) ? "" : std::to_string(source);
  passes_ = 0, bytes_before_ = 0, in_run_ = true;
  counted_.clear();
  passes_of_run_.clear();
  EMOGI_CUDA_CHECK(cudaMemset(counts_.data(), 0, counts_.size() * sizeof(unsigned long long)));
  EMOGI_CUDA_CHECK(cudaDeviceSynchronize());
}

void PassLog::check_room() const {
  if (passes_ >= kMaxPasses)
    throw std::runtime_error("--pass-log: a run of more than " + std::to_string(kMaxPasses) + " passes");
}

void PassLog::before_pass(cudaStream_t stream, const StreamRunStats* streamed) {
  if (!in_run_) throw std::logic_error("PassLog::before_pass outside a run");
  check_room();
  while (starts_.size() <= passes_) {
    starts_.emplace_back();
    EMOGI_CUDA_CHECK(cudaEventCreate(&starts_.back()));
    stops_.emplace_back();
    EMOGI_CUDA_CHECK(cudaEventCreate(&stops_.back()));
  }
  if (streamed) bytes_before_ = streamed->bytes;
  EMOGI_CUDA_CHECK(cudaEventRecord(starts_[passes_], stream));
}

void PassLog::after_pass(cudaStream_t stream, const StreamRunStats* streamed) {
  EMOGI_CUDA_CHECK(cudaEventRecord(stops_[passes_], stream));
  Pass p;
  if (streamed) {
    p.streamed = true;
    p.bytes = streamed->bytes - bytes_before_;
    p.blocks = streamed->per_sweep.empty() ? 0 : streamed->per_sweep.back();
    p.in_place = streamed->per_sweep_in_place.empty() ? 0 : streamed->per_sweep_in_place.back();
  }
  passes_of_run_.push_back(p);
  ++passes_;
}

void PassLog::end_run() {
  if (!in_run_) return;
  in_run_ = false;
  std::vector<unsigned long long> counts(passes_);
  if (passes_)
    EMOGI_CUDA_CHECK(
        cudaMemcpy(counts.data(), counts_.data(), passes_ * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  for (uint64_t i = 0; i < passes_; ++i) {
    EMOGI_CUDA_CHECK(cudaEventSynchronize(stops_[i]));
    float launch = 0, span = 0;
    EMOGI_CUDA_CHECK(cudaEventElapsedTime(&launch, starts_[i], stops_[i]));
    EMOGI_CUDA_CHECK(cudaEventElapsedTime(&span, i ? stops_[i - 1] : starts_[i], stops_[i]));
    const Pass& p = passes_of_run_[i];
    std::ostream& o = out_.stream();
    o << graph_ << "," << algorithm_ << "," << variant_ << "," << mode_ << "," << source_ << "," << rep_ << "," << i
      << ",";
    if (i < counted_.size() && counted_[i]) o << counts[i];
    o << "," << list_entries_ << "," << entry_bytes_ << "," << launch << "," << span << ",";
    if (p.streamed)
      o << p.blocks << "," << p.in_place << "," << p.bytes << "\n";
    else
      o << ",,\n";
  }
}

void PassLog::commit() { out_.commit(); }

}  // namespace emogi
