// What the CPU kernels' times depend on, read from the machine they run on: the last-level cache, the NUMA nodes and
// OpenMP's threads, pinning and schedule. Every result row carries them (provenance).
#pragma once
#include <cstdint>
#include <string>

namespace emogi::cpu {

struct CpuMachine {
  uint64_t llc_bytes = 0;  // 0 when neither sysconf nor /sys tells
  std::string llc_source;  // where llc_bytes was read
  int numa_nodes = 0;      // 0 when /sys/devices/system/node is not there
  int threads = 0;         // OpenMP's team size for the kernels
  std::string proc_bind;   // omp_get_proc_bind(): false, true, master/primary, close, spread
  std::string places;      // OMP_PLACES as given ("" when unset) and how many places OpenMP made of it
  std::string schedule;    // the kernels' loop schedule, e.g. dynamic,1024
  std::string cpu_model;   // /proc/cpuinfo's first "model name"
};

// The last-level cache: the highest-level data cache under /sys/devices/system/cpu/cpu0/cache (as lscpu), else
// sysconf(_SC_LEVEL3/2_CACHE_SIZE) (CPUID; inside a VM it can differ from /sys). 0 when neither tells.
uint64_t read_llc_bytes(std::string* source);
uint64_t sys_llc_bytes();
uint64_t sysconf_llc_bytes();
// Nodes under /sys/devices/system/node (what libnuma and numactl read); 0 when that folder is missing.
int read_numa_nodes();
// "one NUMA node: ..." where there is one node, else what to run to compare local and remote memory.
std::string numa_note(int nodes);

// Sets OpenMP's thread count (0: leave OpenMP's default) and the runtime schedule ("static", "dynamic,1024", ...)
// that every kernel loop uses (schedule(runtime)); throws on a schedule it cannot read.
void configure_openmp(uint64_t threads, const std::string& schedule);
CpuMachine read_machine();
std::string machine_json(const CpuMachine& m);
// The CSV columns every result row ends with, and their values.
std::string machine_csv_header();
std::string machine_csv(const CpuMachine& m);

}  // namespace emogi::cpu
