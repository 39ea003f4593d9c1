// emogi: GPU graph traversal over edge lists in host memory (zero-copy) vs UVM. See README.md.
#include "emogi/commands.hpp"

int main(int argc, char** argv) {
  using namespace emogi;
  return run_cli(
      argc, argv,
      {run_command(), bfs_command(), linkbw_command(), reference_command(), info_command(), list_command(),
       device_command(), toy_command(), lists_command(), chase_command(), concurrency_command(), uvmfault_command()});
}
