// `emogi bfs`: time every requested variant x memory mode from every root, verify each run against the CPU
// reference, and write one CSV row per timed run. The graph is loaded once; each mode's allocation is made
// once and shared by all variants.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "emogi/atomic_file.hpp"
#include "emogi/cli_args.hpp"
#include "emogi/commands.hpp"
#include "emogi/csr.hpp"
#include "emogi/device_array.cuh"
#include "emogi/device_info.hpp"
#include "emogi/dispatch.cuh"
#include "emogi/edge_store.cuh"
#include "emogi/hash.hpp"
#include "emogi/nvtx_range.hpp"
#include "emogi/reference_bfs.hpp"

namespace emogi {
namespace {

struct Options {
  std::string name, out;
  std::vector<uint64_t> roots;
  std::vector<Variant> variants;
  std::vector<MemoryMode> modes;
  uint64_t reps, warmup;
  uint64_t max_warps;  // 0: the default launch
  ManagedPolicy managed;
  bool corrupt_for_testing;  // flips one depth before verification, so tests can see a mismatch fail the run
};

// What every GPU run from a root must reproduce. The full depth array is fingerprinted rather than kept, so
// memory stays O(roots) even for 64 roots of a 2^27-vertex graph.
struct Expected {
  uint64_t root, fingerprint, edges_traversed;
  uint32_t levels;
};

struct Row {
  std::string variant, mode;
  uint64_t root, rep;
  float time_ms;
  const Expected* expected;
};

std::vector<uint64_t> read_roots(const CliArgs& args) {
  std::vector<uint64_t> roots;
  if (args.has("roots-file")) {
    std::ifstream in(args.get("roots-file"));
    if (!in) throw std::invalid_argument("cannot read roots file " + args.get("roots-file"));
    for (uint64_t r; in >> r;) roots.push_back(r);
    if (!in.eof()) throw std::invalid_argument("roots file " + args.get("roots-file") + " holds a non-integer");
  }
  for (const auto& r : args.get_list("roots", "")) roots.push_back(std::stoull(r));
  if (roots.empty()) throw std::invalid_argument("no roots given (--roots or --roots-file)");
  return roots;
}

template <class Index>
Expected expect_from(const MappedCsr& g, uint64_t root) {
  if (root >= g.num_vertices() || g.degree(root) == 0)
    throw std::invalid_argument("root " + std::to_string(root) + " is not a vertex with out-edges");
  const ReferenceBfs ref = reference_bfs(g.offsets(), g.edges_as<Index>(), g.num_vertices(), root);
  return {root, xxh3_64(ref.depth.data(), ref.depth.size() * sizeof(uint32_t)), ref.edges_traversed, ref.levels};
}

// Compares a GPU result with the reference; on a mismatch recomputes the reference to say where it differs.
template <class Index>
void verify(const MappedCsr& g, const Expected& e, const std::vector<uint32_t>& depth, uint32_t levels,
            const std::string& what) {
  if (xxh3_64(depth.data(), depth.size() * sizeof(uint32_t)) == e.fingerprint && levels == e.levels) return;
  const ReferenceBfs ref = reference_bfs(g.offsets(), g.edges_as<Index>(), g.num_vertices(), e.root);
  uint64_t wrong = 0, first = 0;
  for (uint64_t v = 0; v < depth.size(); ++v)
    if (depth[v] != ref.depth[v] && wrong++ == 0) first = v;
  std::ostringstream msg;
  msg << "BFS result mismatch (" << what << "): " << wrong << " vertices differ";
  if (wrong) msg << ", first at vertex " << first << ": GPU depth " << depth[first] << ", CPU depth " << ref.depth[first];
  msg << "; GPU took " << levels << " levels, CPU " << ref.levels;
  throw std::runtime_error(msg.str());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <class Index>
void measure(const MappedCsr& g, const Options& opt) {
  std::vector<Expected> expected;
  for (uint64_t root : opt.roots) {
    expected.push_back(expect_from<Index>(g, root));
    const Expected& e = expected.back();
    std::fprintf(stderr, "reference BFS from %llu: %u levels, %llu edges traversed\n", (unsigned long long)root,
                 e.levels, (unsigned long long)e.edges_traversed);
  }

  const DeviceArray<uint64_t> offsets(g.offsets(), g.num_vertices() + 1);
  BfsState state(g.num_vertices());
  std::vector<uint32_t> depth(g.num_vertices());
  std::vector<Row> rows;

  for (MemoryMode mode : opt.modes) {
    std::fprintf(stderr, "placing %.2f GiB of edges in %s memory\n", g.edge_list_bytes() / 1073741824.0, name_of(mode));
    EdgeStore store(mode, g.edges(), g.edge_list_bytes(), opt.managed);
    const DeviceGraph<Index> dg{offsets.data(), static_cast<const Index*>(store.data()), g.num_vertices()};

    for (Variant variant : opt.variants) {
      const auto traverse = bfs_for<Index>(variant);
      const std::string label = std::string(name_of(variant)) + "|" + name_of(mode);
      auto run = [&](const Expected& e) {
        store.prepare_run();
        TraversalTime t;
        {
          NvtxRange range("bfs|" + label + "|" + std::to_string(e.root) + "|" + std::to_string(opt.max_warps));
          t = traverse(dg, e.root, opt.max_warps, state);
        }
        EMOGI_CUDA_CHECK(cudaMemcpy(depth.data(), state.depth(), depth.size() * sizeof(uint32_t),
                                    cudaMemcpyDeviceToHost));
        if (opt.corrupt_for_testing) depth.back() ^= 1;
        verify<Index>(g, e, depth, t.levels, opt.name + " " + label + " root " + std::to_string(e.root));
        return t.time_ms;
      };

      for (uint64_t i = 0; i < opt.warmup; ++i) run(expected.front());
      std::vector<double> times;
      double bytes = 0;
      for (const Expected& e : expected)
        for (uint64_t rep = 0; rep < opt.reps; ++rep) {
          const float ms = run(e);
          rows.push_back({name_of(variant), name_of(mode), e.root, rep, ms, &e});
          times.push_back(ms);
          bytes += double(e.edges_traversed) * sizeof(Index);
        }
      const double med = median(times);
      std::fprintf(stderr, "bfs %s w%zu %-15s %-14s%s median %9.2f ms over %zu runs, %6.1f GB/s of edge list read\n",
                   opt.name.c_str(), sizeof(Index), name_of(mode), name_of(variant),
                   opt.max_warps ? (" max_warps " + std::to_string(opt.max_warps)).c_str() : "", med, times.size(),
                   bytes / times.size() / (med * 1e6));
    }
  }

  AtomicFile out(opt.out);
  out.stream() << "graph,algorithm,variant,mode,edge_bytes,max_warps,root,rep,time_ms,edges_traversed,levels,verified\n";
  for (const Row& r : rows)
    out.stream() << opt.name << ",bfs," << r.variant << "," << r.mode << "," << sizeof(Index) << "," << opt.max_warps << "," << r.root << ","
                 << r.rep << "," << r.time_ms << "," << r.expected->edges_traversed << "," << r.expected->levels
                 << ",true\n";
  out.commit();
}

}  // namespace

int bfs_command(int argc, char** argv) {
  const CliArgs args(argc, argv,
                     {"graph", "name", "roots", "roots-file", "variants", "modes", "reps", "warmup", "out", "device",
                      "gpu-memory-budget", "max-warps"},
                     {"allow-managed-oversubscription", "no-verify-checksum", "test-corrupt-result"});
  Options opt;
  opt.out = args.get("out");
  opt.roots = read_roots(args);
  for (const auto& v : args.get_list("variants", "naive,merged,merged-aligned")) opt.variants.push_back(parse_variant(v));
  for (const auto& m : args.get_list("modes", "device,zerocopy,zerocopy-pinned,uvm")) opt.modes.push_back(parse_mode(m));
  opt.reps = args.get_u64("reps", 3);
  opt.warmup = args.get_u64("warmup", 1);
  opt.max_warps = args.get_u64("max-warps", 0);
  if (opt.reps == 0) throw std::invalid_argument("--reps must be at least 1");
  opt.managed.allow_oversubscription = args.flag("allow-managed-oversubscription");
  opt.corrupt_for_testing = args.flag("test-corrupt-result");
  if (args.has("gpu-memory-budget")) opt.managed.budget_bytes = parse_bytes(args.get("gpu-memory-budget"));

  select_device(int(args.get_u64("device", 0)));
  const MappedCsr graph(args.get("graph"), !args.flag("no-verify-checksum"));
  opt.name = args.get("name", graph.path().substr(graph.path().find_last_of('/') + 1));
  std::fprintf(stderr, "graph %s: V = %llu, E = %llu, %u-byte edges\n", graph.path().c_str(),
               (unsigned long long)graph.num_vertices(), (unsigned long long)graph.num_edges(), graph.index_bytes());
  if (graph.index_bytes() == 4)
    measure<uint32_t>(graph, opt);
  else
    measure<uint64_t>(graph, opt);
  return 0;
}

}  // namespace emogi
