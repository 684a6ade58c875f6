// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: composition: tiler has more modes than the layout
// Misuse: a three-mode tiler applied to a two-mode layout.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto a = make_layout(make_shape(_4{}, _8{}));
  return int(size(composition(a, make_tile(_2{}, _2{}, _2{}))));
}
