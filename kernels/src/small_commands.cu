// The small inspection commands: reference, info, list, device.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "emogi/access.cuh"
#include "emogi/atomic_file.hpp"
#include "emogi/cli_args.hpp"
#include "emogi/commands.hpp"
#include "emogi/csr.hpp"
#include "emogi/device_info.hpp"
#include "emogi/names.hpp"
#include "emogi/reference_bfs.hpp"
#include "emogi/references.hpp"
#include "emogi/vocabulary_json.hpp"

namespace emogi {
namespace {

// CPU references, written as raw little-endian arrays: bfs depths / sssp distances (uint32, 0xFFFFFFFF = not
// reached), cc labels (uint64, the smallest vertex id of the component). pagerank checks given float32 values
// (--values) against the fixed point instead, and prints the verdict.
template <class Index>
int reference_for(const MappedCsr& g, const CliArgs& args) {
  const std::string algorithm = args.get("algorithm");
  auto write = [&](const void* data, size_t bytes) {
    AtomicFile out(args.get("out"));
    out.stream().write(static_cast<const char*>(data), bytes);
    out.commit();
  };
  auto root = [&] { return args.get_u64("root"); };
  if (algorithm == "bfs") {
    const ReferenceBfs r = reference_bfs(g.offsets(), g.edges_as<Index>(), g.num_vertices(), root());
    write(r.depth.data(), r.depth.size() * sizeof(uint32_t));
    std::printf("{\"root\": %llu, \"levels\": %u, \"reached\": %llu, \"edges_traversed\": %llu}\n",
                (unsigned long long)root(), r.levels, (unsigned long long)r.reached,
                (unsigned long long)r.edges_traversed);
  } else if (algorithm == "sssp") {
    if (!g.has_weights()) throw std::invalid_argument(g.path() + " has no weights");
    const auto d = reference_sssp(g.offsets(), g.edges_as<Index>(), g.weights(), g.num_vertices(), root());
    write(d.data(), d.size() * sizeof(uint32_t));
  } else if (algorithm == "cc") {
    const auto labels = reference_cc(g.offsets(), g.edges_as<Index>(), g.num_vertices());
    write(labels.data(), labels.size() * sizeof(uint64_t));
    std::printf("{\"components\": %llu}\n", (unsigned long long)count_components(labels));
  } else if (algorithm == "pagerank") {
    std::ifstream in(args.get("values"), std::ios::binary);
    std::vector<float> value(g.num_vertices());
    if (!in.read(reinterpret_cast<char*>(value.data()), value.size() * sizeof(float)))
      throw std::invalid_argument("--values must hold V float32 values");
    const PageRankCheck c = check_pagerank(g.offsets(), g.edges_as<Index>(), g.num_vertices(), !g.directed(), value,
                                           std::stod(args.get("alpha")), std::stod(args.get("tolerance")));
    std::printf("{\"ok\": %s, \"worst_residual\": %.9g}\n", c.failure.empty() ? "true" : "false", c.worst_residual);
    if (!c.failure.empty()) std::fprintf(stderr, "%s\n", c.failure.c_str());
    return c.failure.empty() ? 0 : 3;
  } else if (algorithm == "spmv") {
    // y = A x (float64), the graph's weights as values where it has them; with --values, checks V float64 values.
    const std::vector<double> y =
        reference_spmv(g.offsets(), g.edges_as<Index>(), g.has_weights() ? g.weights() : nullptr, g.num_vertices());
    if (!args.has("values")) {
      write(y.data(), y.size() * sizeof(double));
      return 0;
    }
    std::ifstream in(args.get("values"), std::ios::binary);
    std::vector<double> value(g.num_vertices());
    if (!in.read(reinterpret_cast<char*>(value.data()), value.size() * sizeof(double)))
      throw std::invalid_argument("--values must hold V float64 values");
    const SpmvCheck c = check_spmv(y, value, g.offsets());
    std::printf("{\"ok\": %s, \"worst_relative\": %.9g}\n", c.failure.empty() ? "true" : "false", c.worst_relative);
    if (!c.failure.empty()) std::fprintf(stderr, "%s\n", c.failure.c_str());
    return c.failure.empty() ? 0 : 3;
  } else {
    throw std::invalid_argument("unknown algorithm '" + algorithm + "' (bfs, sssp, cc, pagerank, spmv)");
  }
  return 0;
}

int run_reference(const CliArgs& args) {
  const std::string algorithm = args.get("algorithm");
  if ((algorithm == "bfs" || algorithm == "sssp") && !args.has("root"))
    throw std::invalid_argument("missing required option --root");
  const MappedCsr g(args.get("graph"));
  return g.index_bytes() == 4 ? reference_for<uint32_t>(g, args) : reference_for<uint64_t>(g, args);
}

int run_info(const CliArgs& args) {
  const MappedCsr g(args.get("graph"));
  std::printf(
      "{\"num_vertices\": %llu, \"num_edges\": %llu, \"index_bytes\": %u, \"directed\": %s, "
      "\"has_weights\": %s, \"checksum\": \"%016llx\"}\n",
      (unsigned long long)g.num_vertices(), (unsigned long long)g.num_edges(), g.index_bytes(),
      g.directed() ? "true" : "false", g.has_weights() ? "true" : "false", (unsigned long long)g.header().checksum);
  return 0;
}

int run_list(const CliArgs&) {
  std::printf("{%s, \"loads_in_flight\": %u}\n", vocabulary_json().c_str(), kLoadsInFlight);
  return 0;
}

int run_device(const CliArgs& args) {
  std::printf("%s\n", device_json(int(args.get_u64("device"))).c_str());
  return 0;
}

}  // namespace

CommandSpec reference_command() {
  return {"reference",
          "CPU reference results: bfs depths, sssp distances, cc labels, spmv's y as raw arrays; pagerank (and spmv) "
          "check --values",
          {required("graph", "PATH", "the graph file (emogi CSR)"),
           option("algorithm", "NAME", "bfs, sssp, cc, pagerank or spmv", "bfs"),
           option("root", "INT", "the source vertex (bfs, sssp)"),
           option("out", "PATH", "the array to write (bfs, sssp, cc, spmv)"),
           option("values", "PATH", "V float32 PageRank values or V float64 SpMV values to check (pagerank, spmv)"),
           option("alpha", "X", "PageRank damping factor", "0.85"),
           option("tolerance", "X", "PageRank residual a vertex may keep", "0.001")},
          run_reference};
}
CommandSpec info_command() {
  return {
      "info", "a graph file's header, as JSON", {required("graph", "PATH", "the graph file (emogi CSR)")}, run_info};
}
CommandSpec list_command() {
  return {"list", "the algorithms, variants, memory modes and auto orders this build knows, as JSON", {}, run_list};
}
CommandSpec device_command() {
  return {"device", "the GPU, as JSON", {option("device", "INT", "the CUDA device", "0")}, run_device};
}

}  // namespace emogi
