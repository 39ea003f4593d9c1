// The sub-commands of the `emogi` binary; each takes the arguments after its name and returns the exit code.
#pragma once

namespace emogi {

int run_command(int argc, char** argv);        // time and verify one algorithm's variants x memory modes
int bfs_command(int argc, char** argv);        // `run --algorithm bfs`
int linkbw_command(int argc, char** argv);     // host<->device cudaMemcpy bandwidth probe
int reference_command(int argc, char** argv);  // CPU reference results (for tests and debugging)
int info_command(int argc, char** argv);       // a graph file's header, as JSON
int list_command(int argc, char** argv);       // algorithms, variants and modes this build knows, as JSON
int device_command(int argc, char** argv);     // the GPU, as JSON
int toy_command(int argc, char** argv);        // EMOGI's zero-copy toy: a host array copied per access pattern
int lists_command(int argc, char** argv);      // every list read once per access pattern: the link use a walk can reach
int chase_command(int argc, char** argv);      // latency of one dependent 128-byte read (pointer chase)
int concurrency_command(int argc, char** argv);  // random-read throughput vs reads in flight

}  // namespace emogi
