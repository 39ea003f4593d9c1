// The sub-commands of the `emogi_cpu` binary (docs/cpu.md), declared as the `emogi` binary's are (cli_args.hpp).
#pragma once
#include <vector>

#include "emogi/cli_args.hpp"

namespace emogi::cpu {

CommandSpec machine_command();   // LLC, NUMA nodes, OpenMP threads and pinning, as JSON
CommandSpec membench_command();  // the thesis' Table 2.1: sequential and random reads of a large array
CommandSpec pagerank_command();  // pull PageRank, unblocked and cache-blocked (segmented subgraphs)

// The options every kernel command takes for OpenMP (threads, schedule, pinning), and applying them.
std::vector<OptionSpec> openmp_options();
void apply_openmp_options(const CliArgs& args);

}  // namespace emogi::cpu
