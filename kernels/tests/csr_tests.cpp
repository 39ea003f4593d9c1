// The graph reader on crafted files: each class of defect with its checksum repaired, so that only the check
// meant for it can catch it (a random bit flip never gets past the checksum).
#include <string>
#include <vector>

#include "csr_image.hpp"
#include "emogi/dataset_lock.hpp"
#include "emogi/sha256.hpp"
#include "expect.hpp"

namespace emogi::testing {
namespace {

// What check_image says of `image`: "" when it accepts it.
std::string rejection(const Image& image, const CsrChecks& what = {}) {
  try {
    check_image(image, what);
    return "";
  } catch (const GraphFormatError& e) {
    return e.what();
  }
}

void expect_refused(const Image& image, const std::string& part, const char* what, const CsrChecks& checks = {}) {
  const std::string message = rejection(image, checks);
  expect_eq(message.find(part) != std::string::npos, true, what);
  if (message.find(part) == std::string::npos) std::printf("  got: '%s', wanted '%s'\n", message.c_str(), part.c_str());
}

// V = 3: lists {1, 2}, {0}, {}; weights 5, 6, 7.
Image small(unsigned width) { return csr_image({0, 2, 3, 3}, {1, 2, 0}, width, {5, 6, 7}); }
constexpr uint64_t kEdgesAt = 8192;

void valid_files_are_accepted() {
  expect_eq(rejection(small(8)), std::string(), "a valid file with 8-byte ids is accepted");
  expect_eq(rejection(small(4)), std::string(), "a valid file with 4-byte ids is accepted");
  expect_eq(rejection(csr_image({0}, {}, 8)), std::string(), "the empty graph is accepted");
  expect_eq(rejection(csr_image({0, 0, 0}, {}, 4, {}, true)), std::string(), "isolated vertices are accepted");
}

void ids_at_or_beyond_v_are_refused() {
  for (unsigned width : {4u, 8u}) {
    Image image = small(width);
    put(image, kEdgesAt + width, 3, width);  // vertex 0's second neighbour becomes V
    repair_checksum(image);
    expect_refused(image, "neighbour id 3 at edge 1 (a neighbour of vertex 0) is >= V = 3", "an id equal to V");
    CsrChecks no_checksum;
    no_checksum.checksum = false;
    expect_refused(image, "neighbour id 3", "an id >= V without the checksum check", no_checksum);
    put(image, kEdgesAt + 2 * width, width == 4 ? 0xFFFFFFFFull : ~0ull, width);  // vertex 1's only neighbour
    put(image, kEdgesAt + width, 2, width);
    repair_checksum(image);
    expect_refused(image, "at edge 2 (a neighbour of vertex 1)", "the largest id of the width");
  }
}

void header_sizes_do_not_wrap() {
  const uint64_t big[] = {1ull << 61, (1ull << 61) - 1, ~0ull, ~0ull / 8, (~0ull - kEdgesAt) / 8 + 2};
  for (uint64_t e : big) {  // E near 2^61..2^64: refused by size, never read
    Image image = small(8);
    put(image, 32, e, 8);
    repair_checksum(image);
    const std::string message = rejection(image);
    expect_eq(message.find("overflow 64 bits") != std::string::npos || message.find("truncated") != std::string::npos,
              true, "a huge E is refused as an overflow or a truncation");
  }
  for (uint64_t v : {1ull << 61, ~0ull, (1ull << 61) - 1}) {
    Image image = small(8);
    put(image, 24, v, 8);
    repair_checksum(image);
    const std::string message = rejection(image);
    expect_eq(message.find("overflow 64 bits") != std::string::npos || message.find("truncated") != std::string::npos,
              true, "a huge V is refused as an overflow or a truncation");
  }
  Image image = small(8);
  put(image, 32, 1ull << 62, 8);  // 4 E of the weights overflows, 8 E of the edges already did
  repair_checksum(image);
  expect_refused(image, "overflow 64 bits", "E = 2^62 overflows the edge section");
  Image longer = small(8);
  longer.push_back(0);
  repair_checksum(longer);
  expect_refused(longer, "1 trailing bytes", "a byte beyond the last section");
  Image shorter = small(8);
  shorter.pop_back();
  repair_checksum(shorter);
  expect_refused(shorter, "truncated", "a file one byte short");
  expect_refused(Image(100, 0), "not an EMOGI CSR file", "100 zero bytes");
  expect_refused(Image(kCsrMagic, kCsrMagic + 8), "truncated", "the magic alone");
}

void the_checksum_covers_the_header_and_reserved_fields_are_zero() {
  Image flag = small(8);
  flag[12] ^= kFlagDirected;  // undirected -> directed, checksum not repaired
  expect_refused(flag, "corrupt: checksum", "a flipped DIRECTED flag breaks the checksum");
  Image counts = small(8);
  counts[16] = 4;  // the width, not repaired: the sizes then disagree with the file, or the checksum does
  expect_eq(rejection(counts).empty(), false, "a changed width is refused");
  struct Case {
    uint64_t at;
    unsigned bytes;
    uint64_t value;
    const char* says;
  };
  const Case cases[] = {
      {20, 4, 1, "reserved header field at byte 20"},
      {48, 8, 1, "reserved header field at byte 48"},
      {56, 8, 1ull << 63, "reserved header field at byte 56"},
      {100, 1, 1, "header block byte 100 is not zero"},
      {4095, 1, 0x80, "header block byte 4095 is not zero"},
      {12, 4, 8, "unknown flag bits 0x8"},
      {8, 4, 1, "format version 1"},
      {8, 4, 3, "unsupported format version 3"},
      {16, 4, 2, "index_bytes is 2"},
      {4096 + 8 * 4, 1, 1, "padding after the offsets is not zero"},
      {kEdgesAt + 3 * 8, 1, 1, "padding after the edges is not zero"},
      {4096, 8, 1, "offsets[0] = 1"},
      {4096 + 8, 8, 4, "offsets decrease at vertex 1 (4 -> 3)"},
      {4096 + 24, 8, 2, "offsets decrease at vertex 2 (3 -> 2)"},
  };
  for (const Case& c : cases) {
    Image image = small(8);
    put(image, c.at, c.value, c.bytes);
    repair_checksum(image);
    expect_refused(image, c.says, c.says);
  }
  Image transpose = small(8);  // bytes 48..55 are `transposes` in a transpose file: any value
  put(transpose, 12, kFlagHasWeights | kFlagTranspose | kFlagDirected, 4);
  put(transpose, 48, 0x1234, 8);
  repair_checksum(transpose);
  expect_eq(rejection(transpose), std::string(), "a transpose file's `transposes` is not reserved");
  expect_eq(check_image(transpose).transposes, uint64_t(0x1234), "the reader keeps `transposes`");
  Image last = csr_image({0, 1, 2}, {1, 0}, 8);
  put(last, 4096 + 16, 1, 8);  // offsets[V] = 1 but E = 2
  repair_checksum(last);
  expect_refused(last, "offsets[V] = 1, must equal E = 2", "offsets that end before E");
}

std::string hex(const std::array<unsigned char, 32>& d) {
  std::string s;
  char buf[3];
  for (unsigned char c : d) std::snprintf(buf, sizeof buf, "%02x", c), s += buf;
  return s;
}

void sha256_matches_known_digests() {
  const std::string abc = "abc", two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  const std::string million(1000000, 'a');
  expect_eq(hex(sha256("", 0)), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            "sha256 of nothing");
  expect_eq(hex(sha256(abc.data(), abc.size())),
            std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "sha256 of abc");
  expect_eq(hex(sha256(two.data(), two.size())),
            std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"), "sha256, two blocks");
  expect_eq(hex(sha256(million.data(), million.size())),
            std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"), "sha256 of a million a");
  const auto inner = sha256(abc.data(), abc.size());
  expect_eq(file_digest(reinterpret_cast<const unsigned char*>(abc.data()), abc.size()),
            hex(sha256(inner.data(), inner.size())), "the lock digest: sha256 of the blocks' sha256");
}

}  // namespace

void csr_reader_checks() {
  valid_files_are_accepted();
  ids_at_or_beyond_v_are_refused();
  header_sizes_do_not_wrap();
  the_checksum_covers_the_header_and_reserved_fields_are_zero();
  sha256_matches_known_digests();
}

}  // namespace emogi::testing
