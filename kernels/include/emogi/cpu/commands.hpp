// The sub-commands of the `emogi_cpu` binary (docs/cpu.md), declared as the `emogi` binary's are (cli_args.hpp).
#pragma once
#include <cstdint>
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

// The options of the blocked kernels' segment count (--segments, --llc, --llc-fraction), and the count they give
// for vertex data of 4 bytes (auto: from the LLC measured or given). `--segments 0` is refused.
std::vector<OptionSpec> segment_options();
uint64_t blocked_segments(const CliArgs& args, uint64_t num_vertices, uint64_t measured_llc_bytes);

}  // namespace emogi::cpu
