// The sub-commands of the `emogi_cpu` binary (docs/cpu.md), declared as the `emogi` binary's are (cli_args.hpp).
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "emogi/cli_args.hpp"
#include "emogi/cpu/huge_array.hpp"
#include "emogi/cpu/in_lists.hpp"

namespace emogi::cpu {

CommandSpec machine_command();   // LLC, NUMA nodes, OpenMP threads and pinning, as JSON
CommandSpec membench_command();  // the thesis' Table 2.1: sequential and random reads of a large array
CommandSpec pagerank_command();  // pull PageRank, unblocked and cache-blocked (segmented subgraphs)
CommandSpec cc_command();        // pull label-propagation CC, unblocked and cache-blocked

// The options every kernel command takes for OpenMP (threads, schedule, pinning), and applying them.
std::vector<OptionSpec> openmp_options();
void apply_openmp_options(const CliArgs& args);

// Where the kernels' data live and how they are read (--graph-memory copy|mapped, --pages huge|small; huge_array.hpp;
// --prefetch EDGES, gather.hpp), and applying them: apply_memory_options sets the arrays' pages, copy_graph says
// whether to copy the in-lists (copy_lists) before the kernels run, place_lists does it (untimed; its seconds on
// stderr). memory_csv: the CSV columns graph_memory, pages, huge_bytes (this process's AnonHugePages when called)
// and prefetch.
std::vector<OptionSpec> memory_options();
void apply_memory_options(const CliArgs& args);
bool copy_graph(const CliArgs& args);
std::string memory_csv_header();
std::string memory_csv(const CliArgs& args);
template <class Index>
void place_lists(InLists<Index>& in, const CliArgs& args) {
  if (!copy_graph(args)) return;
  const auto start = std::chrono::steady_clock::now();
  copy_lists(in);
  std::fprintf(stderr, "graph: in-lists copied into anonymous memory (%s pages) in %.2f s\n",
               huge_pages() ? "huge" : "small",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

// The options of the blocked kernels' segment counts (--segments, --llc, --llc-fraction) and of the kernels.
std::vector<OptionSpec> segment_options();
// A pull kernel command's options: its own, then the segment, memory and OpenMP options.
std::vector<OptionSpec> kernel_command_options(std::vector<OptionSpec> own);
// Applies the OpenMP and memory options and refuses bad kernels and segment counts: before the graph is read.
void prepare_kernel_command(const CliArgs& args);
// One timed kernel: unblocked (segments 0) or blocked at a segment count.
struct KernelRun {
  std::string kernel;
  uint64_t segments = 0;
};
// --kernels in order, a blocked kernel once per --segments entry (auto: for 4 bytes of vertex data per vertex, from
// the LLC measured or given). Throws on an unknown kernel or a segment count of 0, before any graph is read.
std::vector<KernelRun> kernel_runs(const CliArgs& args, uint64_t num_vertices, uint64_t measured_llc_bytes);

}  // namespace emogi::cpu
