// The host tests' one assertion: count it, print a line when it fails (host_tests.cpp prints the total).
#pragma once
#include <cstdio>

namespace emogi::testing {

inline int failures = 0, checks = 0;

template <class A, class B>
void expect_eq(const A& got, const B& want, const char* what) {
  ++checks;
  if (got == want) return;
  ++failures;
  std::printf("FAILED: %s\n", what);
}

}  // namespace emogi::testing
