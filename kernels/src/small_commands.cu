// The small inspection commands: reference, info, list, device.
#include <cstdio>
#include <fstream>
#include <string>

#include "emogi/atomic_file.hpp"
#include "emogi/cli_args.hpp"
#include "emogi/commands.hpp"
#include "emogi/csr.hpp"
#include "emogi/device_info.hpp"
#include "emogi/names.hpp"
#include "emogi/reference_bfs.hpp"

namespace emogi {

int reference_command(int argc, char** argv) {
  const CliArgs args(argc, argv, {"graph", "root", "out"}, {});
  if (!args.has("root")) throw std::invalid_argument("missing required option --root");
  const uint64_t root = args.get_u64("root", 0);
  const MappedCsr g(args.get("graph"));
  const ReferenceBfs r = g.index_bytes() == 4
                             ? reference_bfs(g.offsets(), g.edges_as<uint32_t>(), g.num_vertices(), root)
                             : reference_bfs(g.offsets(), g.edges_as<uint64_t>(), g.num_vertices(), root);
  AtomicFile out(args.get("out"));  // raw little-endian uint32 depths, 0xFFFFFFFF = not reached
  out.stream().write(reinterpret_cast<const char*>(r.depth.data()), r.depth.size() * sizeof(uint32_t));
  out.commit();
  std::printf("{\"root\": %llu, \"levels\": %u, \"reached\": %llu, \"edges_traversed\": %llu}\n",
              (unsigned long long)root, r.levels, (unsigned long long)r.reached, (unsigned long long)r.edges_traversed);
  return 0;
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
  auto json_list = [](const auto& names) {
    std::string s = "[";
    for (size_t i = 0; i < names.size(); ++i) s += (i ? ", \"" : "\"") + std::string(names[i]) + "\"";
    return s + "]";
  };
  std::printf("{\"algorithms\": [\"bfs\"], \"variants\": %s, \"modes\": %s}\n", json_list(kVariantNames).c_str(),
              json_list(kModeNames).c_str());
  return 0;
}

int device_command(int argc, char** argv) {
  const CliArgs args(argc, argv, {"device"}, {});
  std::printf("%s\n", device_json(int(args.get_u64("device", 0))).c_str());
  return 0;
}

}  // namespace emogi
