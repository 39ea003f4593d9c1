#include "emogi/trace_file.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace emogi {
namespace {

constexpr char kMagic[8] = {'E', 'M', 'O', 'G', 'I', 'T', 'R', '1'};

std::string make_parent(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  return path;
}

}  // namespace

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

TraceFile::TraceFile(const std::string& path, TraceMeta meta) : file_(make_parent(path)), meta_(std::move(meta)) {}

void TraceFile::add_launch(const std::vector<uint32_t>& words, const std::string& label, const ListPart& part) {
  if (words.size() != (meta_.num_vertices + 31) / 32) throw std::logic_error("a trace launch needs one bit per vertex");
  file_.stream().write(reinterpret_cast<const char*>(words.data()), std::streamsize(words.size() * sizeof(uint32_t)));
  labels_.push_back(label);
  parts_.push_back(part);
}

void TraceFile::finish() {
  const TraceMeta& m = meta_;
  std::string json =
      "{\"format\": \"emogi-list-reads\", \"version\": 1, \"graph\": " + json_string(m.graph) +
      ", \"checksum\": " + json_string(m.checksum) + ", \"num_vertices\": " + std::to_string(m.num_vertices) +
      ", \"num_edges\": " + std::to_string(m.num_edges) + ", \"algorithm\": " + json_string(m.algorithm) +
      ", \"variant\": " + json_string(m.variant) + ", \"mode\": " + json_string(m.mode) +
      ", \"edge_bytes\": " + std::to_string(m.edge_bytes) + ", \"weight_bytes\": " + std::to_string(m.weight_bytes) +
      ", \"root\": " + std::to_string(m.root) + ", \"sub_launches\": " + std::to_string(m.sub_launches) +
      ", \"uvm_capacity\": " + std::to_string(m.uvm_capacity) + ", \"launches\": [";
  for (size_t i = 0; i < labels_.size(); ++i) {
    const ListPart& p = parts_[i];
    json += std::string(i ? ", " : "") + "{\"label\": " + json_string(labels_[i]) +
            ", \"first\": " + std::to_string(p.first) +
            ", \"count\": " + (p.count == kWholeList ? "null" : std::to_string(p.count)) +
            ", \"partial\": " + (p.partial ? json_string(p.partial) : "null") + "}";
  }
  json += "]}";
  const uint64_t length = json.size();
  file_.stream().write(json.data(), std::streamsize(json.size()));
  file_.stream().write(reinterpret_cast<const char*>(&length), sizeof length);
  file_.stream().write(kMagic, sizeof kMagic);
}

void TraceFile::commit() { file_.commit(); }

}  // namespace emogi
