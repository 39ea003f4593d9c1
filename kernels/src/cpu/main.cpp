// emogi_cpu: the CPU side of the study (docs/cpu.md): the thesis' memory micro-benchmark and cache-blocked pull
// kernels, OpenMP, no GPU needed.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "emogi/cpu/commands.hpp"
#include "emogi/cpu/gather.hpp"
#include "emogi/cpu/huge_array.hpp"
#include "emogi/cpu/machine.hpp"
#include "emogi/cpu/segments.hpp"

namespace emogi::cpu {
namespace {

int run_machine(const CliArgs& args) {
  apply_openmp_options(args);
  std::printf("%s\n", machine_json(read_machine()).c_str());
  return 0;
}

// OpenMP reads OMP_PROC_BIND and OMP_PLACES once, when the runtime starts (before main): --bind and --places set
// them and start the binary again, once.
void reexec_for_pinning(int argc, char** argv) {
  bool changed = false;
  for (int i = 1; i + 1 < argc; ++i)
    for (auto [option, variable] : {std::pair{"--bind", "OMP_PROC_BIND"}, std::pair{"--places", "OMP_PLACES"}})
      if (std::strcmp(argv[i], option) == 0) {
        const char* now = std::getenv(variable);
        if (!now || std::strcmp(now, argv[i + 1]) != 0) {
          ::setenv(variable, argv[i + 1], 1);
          changed = true;
        }
      }
  if (changed && !std::getenv("EMOGI_CPU_REEXEC")) {
    ::setenv("EMOGI_CPU_REEXEC", "1", 1);
    ::execv("/proc/self/exe", argv);
    std::perror("emogi_cpu: cannot restart with the pinning asked for");
  }
}

}  // namespace

std::vector<OptionSpec> openmp_options() {
  return {option("threads", "INT", "OpenMP threads (0: OpenMP's default, OMP_NUM_THREADS or every CPU)", "0"),
          option("schedule", "KIND[,CHUNK]", "the kernels' loop schedule: static, dynamic or guided", "dynamic,1024"),
          option("bind", "POLICY", "OMP_PROC_BIND for this run: false, close, spread, ..."),
          option("places", "PLACES", "OMP_PLACES for this run: cores, threads, sockets or a list")};
}

void apply_openmp_options(const CliArgs& args) { configure_openmp(args.get_u64("threads"), args.get("schedule")); }

std::vector<OptionSpec> memory_options() {
  return {option("graph-memory", "copy|mapped",
                 "copy: the in-lists copied into anonymous memory (on huge pages unless --pages small) before the "
                 "runs; mapped: read in the graph file's mapping (the page cache's 4 KiB pages)",
                 "copy"),
          option("pages", "huge|small", "the per-vertex arrays: on huge pages (MADV_HUGEPAGE) or small (none asked)",
                 "huge"),
          option("prefetch", "EDGES", "how far ahead in the edge array the gathers prefetch (0: no prefetches)",
                 std::to_string(kPrefetchDistance))};
}

void apply_memory_options(const CliArgs& args) {
  const std::string pages = args.get("pages"), graph = args.get("graph-memory");
  if (pages != "huge" && pages != "small") throw std::invalid_argument("--pages: '" + pages + "' is not huge or small");
  if (graph != "copy" && graph != "mapped")
    throw std::invalid_argument("--graph-memory: '" + graph + "' is not copy or mapped");
  args.get_u64("prefetch");  // refuses a non-number before the graph is read
  set_huge_pages(pages == "huge");
}

bool copy_graph(const CliArgs& args) { return args.get("graph-memory") == "copy"; }

std::string memory_csv_header() { return "graph_memory,pages,huge_bytes,prefetch"; }
std::string memory_csv(const CliArgs& args) {
  return args.get("graph-memory") + "," + args.get("pages") + "," + std::to_string(anon_huge_bytes()) + "," +
         std::to_string(args.get_u64("prefetch"));
}

std::vector<OptionSpec> segment_options() {
  return {
      option("kernels", "LIST", "unblocked, blocked (segmented subgraphs)", "unblocked,blocked"),
      option("segments", "LIST", "segment counts of the blocked kernel, each N or auto (from the LLC size)", "auto"),
      option("llc", "BYTES|auto", "the LLC size auto segments are cut for (auto: /sys, sysconf)", "auto"),
      option("llc-fraction", "X", "the share of the LLC one segment's source data may fill", "0.5")};
}

std::vector<KernelRun> kernel_runs(const CliArgs& args, uint64_t num_vertices, uint64_t measured_llc_bytes) {
  std::vector<uint64_t> counts;
  for (const std::string& item : args.get_list("segments")) {
    if (item == "auto") {
      const uint64_t llc = args.get("llc") == "auto" ? measured_llc_bytes : parse_bytes(args.get("llc"));
      counts.push_back(segments_for_cache(num_vertices, 4, llc, std::stod(args.get("llc-fraction"))));
      continue;
    }
    const uint64_t s = std::strtoull(item.c_str(), nullptr, 10);
    if (item.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("--segments expects counts or auto, got '" + item + "'");
    if (s == 0) throw std::invalid_argument("--segments must be at least 1 (0 segments hold no edges)");
    counts.push_back(s);
  }
  if (counts.empty()) throw std::invalid_argument("--segments names no count");
  std::vector<KernelRun> runs;
  for (const std::string& k : args.get_list("kernels")) {
    if (k == "unblocked")
      runs.push_back({k, 0});
    else if (k == "blocked")
      for (uint64_t s : counts) runs.push_back({k, s});
    else
      throw std::invalid_argument("--kernels: '" + k + "' is not unblocked or blocked");
  }
  return runs;
}

std::vector<OptionSpec> kernel_command_options(std::vector<OptionSpec> own) {
  for (const auto& more : {segment_options(), memory_options(), openmp_options()})
    own.insert(own.end(), more.begin(), more.end());
  return own;
}

void prepare_kernel_command(const CliArgs& args) {
  apply_openmp_options(args);
  apply_memory_options(args);
  kernel_runs(args, 1, 1);
}

CommandSpec machine_command() {
  return {"machine", "the LLC, NUMA nodes and OpenMP's threads and pinning, as JSON", openmp_options(), run_machine};
}

}  // namespace emogi::cpu

int main(int argc, char** argv) {
  using namespace emogi::cpu;
  reexec_for_pinning(argc, argv);
  return emogi::run_cli(argc, argv, {machine_command(), membench_command(), pagerank_command(), cc_command()},
                        "emogi_cpu",
                        "emogi_cpu: the CPU side of the study: memory micro-benchmark and cache-blocked pull kernels");
}
