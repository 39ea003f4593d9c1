// The sub-commands of the `emogi_cpu` binary (docs/cpu.md), declared as the `emogi` binary's are (cli_args.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "emogi/cli_args.hpp"

namespace emogi::cpu {

CommandSpec machine_command();   // LLC, NUMA nodes, OpenMP threads and pinning, as JSON
CommandSpec membench_command();  // the thesis' Table 2.1: sequential and random reads of a large array
CommandSpec pagerank_command();  // pull PageRank, unblocked and cache-blocked (segmented subgraphs)
CommandSpec cc_command();        // pull label-propagation CC, unblocked and cache-blocked

// The options every kernel command takes for OpenMP (threads, schedule, pinning), and applying them.
std::vector<OptionSpec> openmp_options();
void apply_openmp_options(const CliArgs& args);

// The options of the blocked kernels' segment counts (--segments, --llc, --llc-fraction) and of the kernels.
std::vector<OptionSpec> segment_options();
// One timed kernel: unblocked (segments 0) or blocked at a segment count.
struct KernelRun {
  std::string kernel;
  uint64_t segments = 0;
};
// --kernels in order, a blocked kernel once per --segments entry (auto: for 4 bytes of vertex data per vertex, from
// the LLC measured or given). Throws on an unknown kernel or a segment count of 0, before any graph is read.
std::vector<KernelRun> kernel_runs(const CliArgs& args, uint64_t num_vertices, uint64_t measured_llc_bytes);

}  // namespace emogi::cpu
