// emogi: GPU graph traversal over edge lists in host memory (zero-copy) vs UVM. See README.md.
#include <cstdio>
#include <exception>
#include <map>
#include <string>

#include "emogi/commands.hpp"

int main(int argc, char** argv) {
  const std::map<std::string, int (*)(int, char**)> commands = {
      {"run", emogi::run_command},   {"bfs", emogi::bfs_command},   {"linkbw", emogi::linkbw_command}, {"reference", emogi::reference_command},
      {"info", emogi::info_command}, {"list", emogi::list_command},     {"device", emogi::device_command},
      {"toy", emogi::toy_command},     {"lists", emogi::lists_command},   {"chase", emogi::chase_command},   {"concurrency", emogi::concurrency_command}};
  if (argc < 2 || !commands.count(argv[1])) {
    std::fprintf(stderr, "usage: emogi {run|bfs|linkbw|reference|info|list|device|toy|lists|chase|concurrency} [--option value ...]\n");
    return 2;
  }
  try {
    return commands.at(argv[1])(argc - 2, argv + 2);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "emogi %s: error: %s\n", argv[1], e.what());
    return 1;
  }
}
