// Output files appear under their final name only when complete: write to a temporary sibling, then rename.
#pragma once
#include <fstream>
#include <string>

namespace emogi {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // removes the temporary file unless commit() ran
  std::ofstream& stream() { return out_; }
  void commit();

 private:
  std::string path_, tmp_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace emogi
