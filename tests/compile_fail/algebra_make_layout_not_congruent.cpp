// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: make_layout: shape and stride are not congruent
// Misuse: a rank-2 shape with a rank-1 stride.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto l = make_layout(make_shape(_4{}, _8{}), make_stride(_1{}));
  return int(size(l));
}
