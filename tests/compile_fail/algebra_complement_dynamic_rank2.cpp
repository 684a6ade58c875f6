// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: complement: dynamic strides are supported for rank-1 layouts only
// Misuse: complement of a rank-2 layout with run-time strides (the modes cannot be sorted at compile time).
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto l = make_layout(make_shape(4, 8), make_stride(1, 4));
  return int(size(complement(l, 64)));
}
