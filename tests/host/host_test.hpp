// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Helpers shared by the host tests.

#include <sstream>
#include <string>

namespace tessera::test {

// What `os << t` prints (CuTe notation for shapes, strides and layouts).
template <class T>
std::string str(T const& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

}  // namespace tessera::test
