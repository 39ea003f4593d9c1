// The deterministic fuzz driver: COUNT inputs from SEED, each a random valid graph mutated (csr_mutator.hpp), run
// through MappedCsr (csr_target.hpp). Needs no libFuzzer, so g++ builds it with -fsanitize=address,undefined for
// CI; it aborts on a reader/oracle disagreement and prints a JSON summary: inputs, verdicts, reasons, time.
//   csr_fuzz_driver SEED COUNT        a campaign;   csr_fuzz_driver SEED --one I > input.csr   input I's bytes
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "csr_mutator.hpp"
#include "csr_target.hpp"

namespace {

// The kind of a rejection: its first words without numbers, up to a parenthesis ("neighbour id at edge").
std::string reason(const std::string& message) {
  const std::string s = message.substr(message.find(": ") + 2);
  std::string kind;
  for (size_t at = 0, words = 0; at < s.size() && words < 4;) {
    const size_t end = std::min(s.find(' ', at), s.size());
    const std::string word = s.substr(at, end - at);
    at = end + 1;
    if (word.find('(') != std::string::npos) break;
    if (word.find_first_of("0123456789") != std::string::npos) continue;
    kind += (kind.empty() ? "" : " ") + word;
    ++words;
  }
  return kind;
}

emogi::fuzz::Image input(uint64_t seed, uint64_t i) {
  emogi::fuzz::Rng rng{seed * 0x9E3779B97F4A7C15ull + i};
  emogi::fuzz::Image image = emogi::fuzz::random_graph(rng);
  if (rng.chance(95)) emogi::fuzz::mutate(image, rng);  // the rest stay valid: acceptance is tested too
  return image;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SEED COUNT | %s SEED --one I\n", argv[0], argv[0]);
    return 2;
  }
  const uint64_t seed = std::strtoull(argv[1], nullptr, 10);
  if (std::strcmp(argv[2], "--one") == 0 && argc > 3) {
    const auto image = input(seed, std::strtoull(argv[3], nullptr, 10));
    std::fwrite(image.data(), 1, image.size(), stdout);
    return 0;
  }
  const uint64_t count = std::strtoull(argv[2], nullptr, 10);
  std::map<std::string, uint64_t> reasons;
  uint64_t accepted = 0, slowest_us = 0, slowest = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < count; ++i) {
    const auto image = input(seed, i);
    const auto t0 = std::chrono::steady_clock::now();
    const auto verdict = emogi::fuzz::run_one(image.data(), image.size());
    const auto us =
        uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count());
    if (us > slowest_us) slowest_us = us, slowest = i;
    if (verdict.accepted)
      ++accepted;
    else
      ++reasons[reason(verdict.message)];
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::remove(emogi::fuzz::scratch_file().c_str());
  std::printf("{\"seed\": %llu, \"inputs\": %llu, \"accepted\": %llu, \"rejected\": %llu, \"seconds\": %.3f, ",
              (unsigned long long)seed, (unsigned long long)count, (unsigned long long)accepted,
              (unsigned long long)(count - accepted), seconds);
  std::printf("\"slowest_input\": %llu, \"slowest_ms\": %.3f, \"reasons\": {", (unsigned long long)slowest,
              slowest_us / 1000.0);
  const char* sep = "";
  for (const auto& [kind, n] : reasons)
    std::printf("%s\"%s\": %llu", sep, kind.c_str(), (unsigned long long)n), sep = ", ";
  std::printf("}}\n");
  return 0;
}
