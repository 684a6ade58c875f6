// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: crd2idx: coordinate and shape ranks differ
// Misuse: a rank-3 coordinate for a rank-2 layout.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto l = make_layout(make_shape(_4{}, _8{}));
  return int(l(make_coord(1, 2, 3)));
}
