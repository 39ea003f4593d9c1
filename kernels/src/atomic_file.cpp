#include "emogi/atomic_file.hpp"

#include <unistd.h>

#include <cstdio>
#include <stdexcept>

namespace emogi {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  const auto slash = path_.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : path_.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path_ : path_.substr(slash + 1);
  tmp_ = dir + "." + base + "." + std::to_string(::getpid()) + ".tmp";
  out_.open(tmp_);
  if (!out_) throw std::runtime_error("cannot write " + tmp_);
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    out_.close();
    std::remove(tmp_.c_str());
  }
}

void AtomicFile::commit() {
  out_.flush();
  if (!out_) throw std::runtime_error("write to " + tmp_ + " failed");
  out_.close();
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp_ + " to " + path_);
  committed_ = true;
}

}  // namespace emogi
