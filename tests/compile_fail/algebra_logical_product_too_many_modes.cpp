// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: logical_product: tiler has more modes than the layout
// Misuse: a mode-wise product with more tiler modes than the block has.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto a = make_layout(_4{});
  return int(size(logical_product(a, make_tile(_2{}, _2{}))));
}
