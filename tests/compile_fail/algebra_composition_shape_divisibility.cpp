// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: composition: shape divisibility condition broken
// Misuse: a right-hand size (3) that neither divides nor is a multiple of the left mode (4) it spans.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto a = make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, _5{}));
  auto b = make_layout(_3{}, _1{});
  return int(composition(a, b)(1));
}
