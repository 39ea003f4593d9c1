// The sub-commands of the `emogi` binary: each is its name, its options and what it runs (cli_args.hpp).
#pragma once
#include "emogi/cli_args.hpp"

namespace emogi {

CommandSpec run_command();          // time and verify one algorithm's variants x memory modes
CommandSpec bfs_command();          // `run --algorithm bfs`
CommandSpec linkbw_command();       // host<->device cudaMemcpy bandwidth probe
CommandSpec reference_command();    // CPU reference results (for tests and debugging)
CommandSpec info_command();         // a graph file's header, as JSON
CommandSpec list_command();         // algorithms, variants and modes this build knows, as JSON
CommandSpec device_command();       // the GPU, as JSON
CommandSpec toy_command();          // EMOGI's zero-copy toy: a host array copied per access pattern
CommandSpec lists_command();        // every list read once per access pattern: the link use a walk can reach
CommandSpec chase_command();        // latency of one dependent 128-byte read (pointer chase)
CommandSpec concurrency_command();  // random-read throughput vs reads in flight
CommandSpec uvmfault_command();     // cold UVM per touched 64 KiB block (the simulator's session calibration)

}  // namespace emogi
