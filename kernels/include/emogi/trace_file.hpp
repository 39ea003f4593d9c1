// A recorded trace (--trace-out): for each kernel launch of one run, the vertices whose neighbour lists it read, as
// a bitmap; emogi/trace_recording.py loads it into emogi.traces' Trace. Layout, written as the run goes:
//
//   per launch: ceil(V / 32) little-endian uint32 words, bit v % 32 of word v / 32 set where v's list was read
//   then a JSON object (the run: graph and its checksum, algorithm, variant, mode, widths, root, and per launch
//   its label and which part of each list it reads), its length as a little-endian uint64, and "EMOGITR1".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "emogi/atomic_file.hpp"

namespace emogi {

constexpr uint64_t kWholeList = UINT64_MAX;

// Which part of each list a launch reads: `count` entries from entry `first` (kWholeList: to the end), e.g.
// Afforest's samples and finish. `partial`, where set, says how a kernel may read less than that (a bottom-up step
// stops at the first parent): the trace then counts the part as read.
struct ListPart {
  uint64_t first = 0, count = kWholeList;
  const char* partial = nullptr;
};

struct TraceMeta {
  std::string graph, checksum, algorithm, variant, mode;  // checksum: the CSR header's, 16 hex digits
  uint64_t num_vertices = 0, num_edges = 0;
  unsigned edge_bytes = 8, weight_bytes = 0;
  int64_t root = -1;  // -1: not a rooted algorithm
  unsigned sub_launches = 1;
  uint64_t uvm_capacity = 0;  // uvm-capped's capacity in bytes, 0 in other modes
};

class TraceFile {
 public:
  TraceFile(const std::string& path, TraceMeta meta);  // creates the directory; the file appears at commit()
  void add_launch(const std::vector<uint32_t>& words, const std::string& label, const ListPart& part);
  void finish();  // writes the JSON and the footer
  void commit();
  size_t launches() const { return labels_.size(); }

 private:
  AtomicFile file_;
  TraceMeta meta_;
  std::vector<std::string> labels_;
  std::vector<ListPart> parts_;
};

// A JSON string literal of `text` (quotes, backslashes and control characters escaped).
std::string json_string(const std::string& text);

}  // namespace emogi
