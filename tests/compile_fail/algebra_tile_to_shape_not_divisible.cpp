// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tile_to_shape: block shape does not divide the target shape
// Misuse: tiling an 8x8 block to a 12x16 target (8 does not divide 12).
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto block = make_layout(make_shape(_8{}, _8{}));
  return int(size(tile_to_shape(block, make_shape(_12{}, _16{}))));
}
