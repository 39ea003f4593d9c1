// CF'17's column blocks (Buono et al., §3.2.1, Fig. 3): the matrix A (row v = v's list, column = the neighbour)
// cut into n blocks of consecutive columns [first_column[k], first_column[k + 1]), so that block k's product
// needs only x's slice over its columns. Each block holds its entries row by row in DCSR form (doubly compressed
// sparse rows, Buluç and Gilbert): the ids of its non-empty rows, ascending, and each such row's start in the
// block's entries (local, 0-based, a past-the-end one last). Not plain CSR per block: that costs V + 1 offsets a
// block, n (V + 1) 8-byte offsets in all, as many bytes as the 12-byte entries once n reaches 1.5 times the
// average degree (kron24: 47 blocks; its 64 MiB blocks are 94). Not COO (a row id per entry): DCSR costs a row id and
// an offset per non-empty row, COO a row id per entry, so DCSR wins wherever a block's rows average more than (id +
// offset) / id entries (2 with 8-byte ids and offsets, 3 with 4-byte ids) and costs up to twice (8-byte ids) or three
// times (4-byte ids) as much where each row of a block holds one entry; the model (model/streamed.py:
// column_index_bytes) counts it exactly. The offsets are 8 bytes so that a block reads as a DeviceGraph
// (graph_view.cuh) and the access policies walk it unchanged.
//
// The layout is the order in which the CSR's entries are stored, block after block: `source[p]` is the CSR entry
// at column-blocked position p (the streamed mode gathers ids and weights by it into pinned memory), so every entry
// is in exactly one block by construction and tests check it as a permutation. Host code only, so CPU tests check
// it. Built from the CSR in memory (two passes over the entries on every core, with progress on long builds): kron24's
// 520M entries take seconds, not worth a derived file beside the graph (nor its checks).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace emogi {

struct ColumnBlocks {
  uint64_t num_vertices = 0;
  std::vector<uint64_t> first_column;  // n + 1: block k holds columns [first_column[k], first_column[k + 1])
  std::vector<uint64_t> first_entry;   // n + 1: block k's entries are positions [first_entry[k], first_entry[k + 1])
  std::vector<uint64_t> first_row;     // n + 1: block k's non-empty rows are row_ids[first_row[k] .. first_row[k + 1])
  std::vector<uint64_t> row_ids;       // every block's non-empty rows, ascending within a block
  // Block k's row starts: row_start[first_row[k] + k .. first_row[k + 1] + k] (one more than its rows), local to
  // the block (the first is 0, the last the block's entries).
  std::vector<uint64_t> row_start;
  std::vector<uint64_t> source;  // E: the CSR entry at each column-blocked position

  size_t num_blocks() const { return first_column.empty() ? 0 : first_column.size() - 1; }
  uint64_t entries(size_t k) const { return first_entry[k + 1] - first_entry[k]; }
  uint64_t rows(size_t k) const { return first_row[k + 1] - first_row[k]; }
  uint64_t columns(size_t k) const { return first_column[k + 1] - first_column[k]; }
  uint64_t first_row_start(size_t k) const { return first_row[k] + k; }  // block k's first entry of row_start
  // The bytes of the row index (row ids of `id_bytes`, 8-byte starts) over all blocks: the layout's extra bytes.
  uint64_t index_bytes(unsigned id_bytes) const { return row_ids.size() * id_bytes + row_start.size() * 8; }
};

// Column bounds for n blocks of (nearly) equal width: first_column[k] = k V / n. At least one block (a graph
// without vertices gets one empty block); n is capped at V where V > 0.
std::vector<uint64_t> even_column_bounds(uint64_t num_vertices, uint64_t n);

// Column bounds such that each block holds at most `capacity` entries (its ids and weights fit a buffer of the
// streamed mode's block size; the row index travels beside them, model/streamed.py counts it): consecutive columns
// while they fit, given the entries of each column (the in-degrees: column_entries). Throws std::invalid_argument
// naming the column and what --stream-block-bytes must hold where one column alone has more than `capacity`
// entries (a column is never split across blocks).
std::vector<uint64_t> capacity_column_bounds(const std::vector<uint64_t>& column_entries, uint64_t capacity);

// Entries of each column: one pass over the ids.
template <class Index>
std::vector<uint64_t> column_entries(const uint64_t* offsets, const Index* ids, uint64_t num_vertices);

// The layout of the CSR (offsets, ids) cut at `bounds` (first_column, n + 1 ascending from 0 to V). `progress`
// (may be empty) hears a line now and then on a large graph. `workers` threads take consecutive row ranges (0:
// one below a million entries, else every hardware thread); the layout is the same whatever their number.
template <class Index>
ColumnBlocks build_column_blocks(const uint64_t* offsets, const Index* ids, uint64_t num_vertices,
                                 const std::vector<uint64_t>& bounds,
                                 const std::function<void(const std::string&)>& progress = {}, unsigned workers = 0);

}  // namespace emogi
