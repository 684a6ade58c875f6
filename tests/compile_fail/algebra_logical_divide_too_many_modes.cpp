// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: logical_divide: tiler has more modes than the layout
// Misuse: dividing a rank-2 layout by a rank-3 tiler.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto a = make_layout(make_shape(_4{}, _8{}));
  return int(size(logical_divide(a, make_shape(_2{}, _2{}, _2{}))));
}
