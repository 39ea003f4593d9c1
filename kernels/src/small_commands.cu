// The small inspection commands: reference, info, list, device.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "emogi/atomic_file.hpp"
#include "emogi/cli_args.hpp"
#include "emogi/commands.hpp"
#include "emogi/csr.hpp"
#include "emogi/access.cuh"
#include "emogi/device_info.hpp"
#include "emogi/names.hpp"
#include "emogi/reference_bfs.hpp"
#include "emogi/references.hpp"
#include "emogi/vocabulary_json.hpp"

namespace emogi {

// CPU references, written as raw little-endian arrays: bfs depths / sssp distances (uint32, 0xFFFFFFFF = not
// reached), cc labels (uint64, the smallest vertex id of the component). pagerank checks given float32 values
// (--values) against the fixed point instead, and prints the verdict.
template <class Index>
int reference_for(const MappedCsr& g, const CliArgs& args) {
  const std::string algorithm = args.get("algorithm", "bfs");
  auto write = [&](const void* data, size_t bytes) {
    AtomicFile out(args.get("out"));
    out.stream().write(static_cast<const char*>(data), bytes);
    out.commit();
  };
  auto root = [&] { return args.get_u64("root", 0); };
  if (algorithm == "bfs") {
    const ReferenceBfs r = reference_bfs(g.offsets(), g.edges_as<Index>(), g.num_vertices(), root());
    write(r.depth.data(), r.depth.size() * sizeof(uint32_t));
    std::printf("{\"root\": %llu, \"levels\": %u, \"reached\": %llu, \"edges_traversed\": %llu}\n",
                (unsigned long long)root(), r.levels, (unsigned long long)r.reached, (unsigned long long)r.edges_traversed);
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
                                           std::stod(args.get("alpha", "0.85")), std::stod(args.get("tolerance", "0.001")));
    std::printf("{\"ok\": %s, \"worst_residual\": %.9g}\n", c.failure.empty() ? "true" : "false", c.worst_residual);
    if (!c.failure.empty()) std::fprintf(stderr, "%s\n", c.failure.c_str());
    return c.failure.empty() ? 0 : 3;
  } else {
    throw std::invalid_argument("unknown algorithm '" + algorithm + "' (bfs, sssp, cc, pagerank)");
  }
  return 0;
}

int reference_command(int argc, char** argv) {
  const CliArgs args(argc, argv, {"graph", "algorithm", "root", "out", "values", "alpha", "tolerance"}, {});
  const std::string algorithm = args.get("algorithm", "bfs");
  if ((algorithm == "bfs" || algorithm == "sssp") && !args.has("root"))
    throw std::invalid_argument("missing required option --root");
  const MappedCsr g(args.get("graph"));
  return g.index_bytes() == 4 ? reference_for<uint32_t>(g, args) : reference_for<uint64_t>(g, args);
}

int info_command(int argc, char** argv) {
  const CliArgs args(argc, argv, {"graph"}, {});
  const MappedCsr g(args.get("graph"));
  std::printf("{\"num_vertices\": %llu, \"num_edges\": %llu, \"index_bytes\": %u, \"directed\": %s, "
              "\"has_weights\": %s, \"checksum\": \"%016llx\"}\n",
              (unsigned long long)g.num_vertices(), (unsigned long long)g.num_edges(), g.index_bytes(),
              g.directed() ? "true" : "false", g.has_weights() ? "true" : "false",
              (unsigned long long)g.header().checksum);
  return 0;
}

int list_command(int argc, char** argv) {
  const CliArgs args(argc, argv, {}, {});
  std::printf("{%s, \"loads_in_flight\": %u}\n", vocabulary_json().c_str(), kLoadsInFlight);
  return 0;
}

int device_command(int argc, char** argv) {
  const CliArgs args(argc, argv, {"device"}, {});
  std::printf("%s\n", device_json(int(args.get_u64("device", 0))).c_str());
  return 0;
}

}  // namespace emogi
