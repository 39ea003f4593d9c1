// Reading the dataset lock and computing the digest it records (emogi/dataset_lock.py writes both).
#include "emogi/dataset_lock.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "emogi/sha256.hpp"

namespace emogi {
namespace {

constexpr uint64_t kDigestBlock = uint64_t(64) << 20;

std::string to_hex(const unsigned char* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) s += {digits[p[i] >> 4], digits[p[i] & 15]};
  return s;
}

}  // namespace

std::optional<LockEntry> find_locked(const std::string& graph_path) {
  const size_t slash = graph_path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : graph_path.substr(0, slash);
  const std::string name = slash == std::string::npos ? graph_path : graph_path.substr(slash + 1);
  const std::string lock = folder + "/" + kDatasetLockName;
  std::ifstream in(lock);
  if (!in) return std::nullopt;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string digest, entry_name;
    uint64_t bytes = 0;
    if (!(fields >> digest >> bytes) || digest.size() != 64 ||
        digest.find_first_not_of("0123456789abcdef") != std::string::npos)
      throw std::runtime_error(lock + ":" + std::to_string(number) + ": not a lock line (digest, size, file name)");
    std::getline(fields >> std::ws, entry_name);
    if (entry_name == name) return LockEntry{lock, digest, bytes};
  }
  return std::nullopt;
}

std::string file_digest(const unsigned char* base, uint64_t size) {
  const uint64_t blocks = (size + kDigestBlock - 1) / kDigestBlock;
  std::vector<std::array<unsigned char, 32>> parts(blocks);
  std::atomic<uint64_t> next{0};
  auto work = [&] {
    for (uint64_t b; (b = next.fetch_add(1)) < blocks;)
      parts[b] = sha256(base + b * kDigestBlock, std::min(kDigestBlock, size - b * kDigestBlock));
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), unsigned(blocks)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  const auto top = sha256(parts.data(), parts.size() * 32);
  return to_hex(top.data(), top.size());
}

}  // namespace emogi
