// Which variants the streamed mode runs (the registry's `streamed`, names.hpp: streams) and why it refuses the rest,
// in one line. Host code only, so CPU tests check it.
#pragma once
#include <string>

#include "emogi/names.hpp"
#include "emogi/stream_blocks.hpp"

namespace emogi {

// Why `variant` of `algorithm` cannot run streamed on a graph cut as `plan`, or "" when it can. Streaming needs
// every list read to go through ListReads::launch on the algorithm's stream, block by block; gauss-seidel also
// needs every list whole in one block.
// The column layout (--stream-layout columns) runs SpMV only: its blocks are a matrix's, and only SpMV's kernel
// takes a column block's rows (ListReads::launch_rows).
std::string streamed_refusal(Algorithm algorithm, Variant variant, const StreamPlan& plan,
                             StreamLayout layout = StreamLayout::Rows);

}  // namespace emogi
