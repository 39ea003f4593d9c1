// MappedCsr: map a graph file read-only and check it (csr_check.hpp) before anyone reads a list.
#include "emogi/csr.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "emogi/csr_check.hpp"
#include "emogi/dataset_lock.hpp"

namespace emogi {

MappedCsr::MappedCsr(const std::string& path, bool verify_checksum) : path_(path) {
  auto fail = [&](const std::string& why) { throw GraphFormatError(path + ": " + why); };

  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) fail(std::string("cannot open: ") + std::strerror(errno));
  struct stat st{};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    fail(std::string("cannot stat: ") + std::strerror(errno));
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size < kHeaderBlock) {  // too short to map usefully: read what there is, and say what is wrong with it
    std::vector<unsigned char> head(size);
    const ssize_t got = size ? ::pread(fd, head.data(), size, 0) : 0;
    ::close(fd);
    head.resize(got > 0 ? size_t(got) : 0);
    check_csr_header(head.data(), head.size(), path, &layout_);  // throws
    fail("truncated");                                           // not reached
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) fail(std::string("cannot map: ") + std::strerror(errno));
  base_ = static_cast<const unsigned char*>(map);
  mapped_bytes_ = size;

  // From here on, a failure must unmap: the destructor does not run for a throwing constructor.
  try {
    header_ = check_csr_header(base_, size, path, &layout_);
    CsrChecks what;
    what.checksum = verify_checksum;
    if (const auto locked = find_locked(path)) {  // an earlier full check vouches for exactly these bytes
      const std::string digest = file_digest(base_, size);
      if (digest != locked->digest || size != locked->bytes)
        fail("differs from its entry in the dataset lock " + locked->lock_path + " (digest " + digest + ", " +
             std::to_string(size) + " bytes; locked " + locked->digest + ", " + std::to_string(locked->bytes) +
             " bytes): a changed or different file; check it and record it again with "
             "`python -m emogi.dataset_lock add FILE`");
      what.checksum = what.structure = false;
    }
    check_csr_body(base_, header_, layout_, path, what);
    ::madvise(const_cast<unsigned char*>(base_), size, MADV_WILLNEED);
  } catch (...) {
    ::munmap(const_cast<unsigned char*>(base_), mapped_bytes_);
    throw;
  }
}

MappedCsr::~MappedCsr() {
  if (base_) ::munmap(const_cast<unsigned char*>(base_), mapped_bytes_);
}

}  // namespace emogi
