// `emogi_cpu membench`: the thesis' Table 2.1 on this machine, one CSV row per pattern and thread count.
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "emogi/cpu/commands.hpp"
#include "emogi/cpu/machine.hpp"
#include "emogi/cpu/membench.hpp"
#include "emogi/cpu/timing.hpp"

namespace emogi::cpu {
namespace {

std::vector<int> thread_counts(const CliArgs& args) {
  std::vector<int> counts;
  for (const std::string& item : args.get_list("pass-threads")) {
    if (item == "all") {
      counts.push_back(omp_get_max_threads());
      continue;
    }
    const int t = std::atoi(item.c_str());
    if (t <= 0) throw std::invalid_argument("--pass-threads: '" + item + "' is not a positive count or 'all'");
    counts.push_back(t);
  }
  return counts;
}

int run_membench(const CliArgs& args) {
  apply_openmp_options(args);
  const uint64_t bytes = parse_bytes(args.get("size"));
  const uint64_t reps = args.get_u64("reps"), warmup = args.get_u64("warmup");
  const std::vector<int> threads = thread_counts(args);
  const CpuMachine m = read_machine();
  std::fprintf(stderr, "membench: %s\n", numa_note(m.numa_nodes).c_str());
  std::printf(
      "pattern,pass_threads,array_bytes,accesses,seconds,min_seconds,max_seconds,reps,ns_per_access,"
      "array_gb_s,total_gb_s,numa_note,%s\n",
      machine_csv_header().c_str());
  for (const std::string& pattern : args.get_list("patterns")) {
    if (pattern != "sequential" && pattern != "random")
      throw std::invalid_argument("--patterns: '" + pattern + "' is not sequential or random");
    const Membench bench(bytes, args.get_u64("accesses"), pattern == "random");
    for (int t : threads) {
      std::vector<double> seconds;
      for (uint64_t r = 0; r < warmup + reps; ++r) {
        const double s = bench.time_pass(t);
        if (r >= warmup) seconds.push_back(s);
      }
      const TimingSummary sum = summarize(seconds);
      const MembenchRates rates = membench_rates(bench.accesses(), sum.median);
      std::printf("%s,%d,%llu,%llu,%.6f,%.6f,%.6f,%u,%.3f,%.3f,%.3f,\"%s\",%s\n", pattern.c_str(), t,
                  (unsigned long long)(bench.elements() * 8), (unsigned long long)bench.accesses(), sum.median, sum.min,
                  sum.max, sum.runs, rates.ns_per_access, rates.array_gb_s, rates.total_gb_s,
                  numa_note(m.numa_nodes).c_str(), machine_csv(m).c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

CommandSpec membench_command() {
  std::vector<OptionSpec> options = {
      option("size", "BYTES", "the array read (int64 elements): 2G as the thesis, K/M/G binary units", "2G"),
      option("accesses", "INT", "reads per pass (0: one per element)", "0"),
      option("patterns", "LIST", "sequential, random", "sequential,random"),
      option("pass-threads", "LIST", "threads per pass: counts or 'all' (OpenMP's thread count)", "1,all"),
      option("reps", "INT", "timed passes per row (the median is reported)", "3"),
      option("warmup", "INT", "untimed passes first", "1")};
  for (OptionSpec& o : openmp_options()) options.push_back(o);
  return {"membench", "time sequential and random reads of a large array (the GraphIt thesis' Table 2.1), as CSV",
          options, run_membench};
}

}  // namespace emogi::cpu
