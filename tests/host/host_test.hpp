// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Helpers shared by the host tests.

#include <cstddef>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tessera::test {

// What `os << t` prints (CuTe notation for shapes, strides and layouts);
// for a tensor what print(t) prints, the "ptr o layout" header (os << t
// also writes the values, which tests over fake addresses must not read).
template <class T>
std::string str(T const& t) {
  if constexpr (requires { t.layout(); t.data(); }) {
    testing::internal::CaptureStdout();
    print(t);
    return testing::internal::GetCapturedStdout();
  } else {
    std::ostringstream os;
    os << t;
    return os.str();
  }
}

// n reproducible values in [-1, 1) from `seed`.
inline std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

}  // namespace tessera::test
