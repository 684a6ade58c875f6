// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: composition: stride divisibility condition broken
// Misuse: a right-hand stride (4) that neither divides nor is a multiple of the left mode (6) it steps over.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto a = make_layout(make_shape(_6{}, _4{}), make_stride(_1{}, _7{}));
  auto b = make_layout(_2{}, _4{});
  return int(composition(a, b)(1));
}
