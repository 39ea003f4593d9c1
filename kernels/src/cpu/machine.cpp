#include "emogi/cpu/machine.hpp"

#include <omp.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "emogi/cli_args.hpp"

namespace emogi::cpu {
namespace {

std::string read_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

// CSV fields here never hold commas except the schedule and places: quote every text field.
std::string csv_text(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

uint64_t sysconf_llc_bytes() {
  for (int name : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
    const long bytes = ::sysconf(name);
    if (bytes > 0) return uint64_t(bytes);
  }
  return 0;
}

uint64_t sys_llc_bytes() {
  // /sys lists each cache as indexN with level, type and size ("32K", "300M"): the highest-level data cache.
  uint64_t best = 0;
  int best_level = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/devices/system/cpu/cpu0/cache", ec)) {
    if (entry.path().filename().string().rfind("index", 0) != 0) continue;
    if (read_line(entry.path() / "type") == "Instruction") continue;
    const int level = std::atoi(read_line(entry.path() / "level").c_str());
    const std::string size = read_line(entry.path() / "size");
    if (size.empty() || level < best_level) continue;
    try {
      best = parse_bytes(size);
      best_level = level;
    } catch (const std::exception&) {
    }
  }
  return best;
}

uint64_t read_llc_bytes(std::string* source) {
  // The kernel's view first (what lscpu prints); sysconf's comes from CPUID and can differ inside a VM.
  if (const uint64_t bytes = sys_llc_bytes()) {
    if (source) *source = "/sys/devices/system/cpu/cpu0/cache";
    return bytes;
  }
  const uint64_t bytes = sysconf_llc_bytes();
  if (bytes && source) *source = "sysconf";
  return bytes;
}

int read_numa_nodes() {
  std::error_code ec;
  int nodes = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/devices/system/node", ec)) {
    const std::string name = entry.path().filename().string();
    nodes += name.rfind("node", 0) == 0 && name.size() > 4 && std::isdigit(static_cast<unsigned char>(name[4]));
  }
  return nodes;
}

std::string numa_note(int nodes) {
  if (nodes == 1) return "one NUMA node: every access is local; remote access is not measurable here";
  if (nodes == 0) return "NUMA nodes unknown (/sys/devices/system/node missing)";
  return std::to_string(nodes) +
         " NUMA nodes: run under numactl -N 0 -m 0 (local) and numactl -N 0 -m 1 (remote) to compare";
}

void configure_openmp(uint64_t threads, const std::string& schedule) {
  if (threads) omp_set_num_threads(int(threads));
  const std::string kind = schedule.substr(0, schedule.find(','));
  int chunk = 0;
  if (schedule.find(',') != std::string::npos) {
    const std::string text = schedule.substr(schedule.find(',') + 1);
    chunk = std::atoi(text.c_str());
    if (chunk <= 0) throw std::invalid_argument("--schedule: chunk '" + text + "' is not a positive integer");
  }
  omp_sched_t sched;
  if (kind == "static")
    sched = omp_sched_static;
  else if (kind == "dynamic")
    sched = omp_sched_dynamic;
  else if (kind == "guided")
    sched = omp_sched_guided;
  else
    throw std::invalid_argument("--schedule: '" + schedule + "' is not static, dynamic or guided[,CHUNK]");
  omp_set_schedule(sched, chunk);
}

CpuMachine read_machine() {
  CpuMachine m;
  m.llc_bytes = read_llc_bytes(&m.llc_source);
  m.numa_nodes = read_numa_nodes();
  m.threads = omp_get_max_threads();
  switch (omp_get_proc_bind()) {
    case omp_proc_bind_false: m.proc_bind = "false"; break;
    case omp_proc_bind_true: m.proc_bind = "true"; break;
    case omp_proc_bind_close: m.proc_bind = "close"; break;
    case omp_proc_bind_spread: m.proc_bind = "spread"; break;
    default: m.proc_bind = "primary"; break;
  }
  const char* places = std::getenv("OMP_PLACES");
  m.places = std::string(places ? places : "unset") + " (" + std::to_string(omp_get_num_places()) + " places)";
  omp_sched_t kind;
  int chunk = 0;
  omp_get_schedule(&kind, &chunk);
  const int base = int(kind) & ~int(omp_sched_monotonic);
  m.schedule = base == omp_sched_static    ? "static"
               : base == omp_sched_dynamic ? "dynamic"
               : base == omp_sched_guided  ? "guided"
                                           : "auto";
  if (chunk > 0) m.schedule += "," + std::to_string(chunk);
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      m.cpu_model = line.substr(line.find(':') + 2);
      break;
    }
  return m;
}

std::string machine_json(const CpuMachine& m) {
  std::ostringstream out;
  out << "{\"cpu_model\": " << json_string(m.cpu_model) << ", \"logical_cpus\": " << ::sysconf(_SC_NPROCESSORS_ONLN)
      << ", \"llc_bytes\": " << m.llc_bytes << ", \"llc_source\": " << json_string(m.llc_source)
      << ", \"llc_sys_bytes\": " << sys_llc_bytes() << ", \"llc_sysconf_bytes\": " << sysconf_llc_bytes()
      << ", \"numa_nodes\": " << m.numa_nodes << ", \"numa_note\": " << json_string(numa_note(m.numa_nodes))
      << ", \"threads\": " << m.threads << ", \"proc_bind\": " << json_string(m.proc_bind)
      << ", \"places\": " << json_string(m.places) << ", \"schedule\": " << json_string(m.schedule) << "}";
  return out.str();
}

std::string machine_csv_header() { return "threads,proc_bind,places,schedule,numa_nodes,llc_bytes"; }

std::string machine_csv(const CpuMachine& m) {
  return std::to_string(m.threads) + "," + m.proc_bind + "," + csv_text(m.places) + "," + csv_text(m.schedule) + "," +
         std::to_string(m.numa_nodes) + "," + std::to_string(m.llc_bytes);
}

}  // namespace emogi::cpu
