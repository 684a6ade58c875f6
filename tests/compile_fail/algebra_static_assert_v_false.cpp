// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: the tile is 128 rows
// Misuse: a static condition that does not hold fails the build with the given message.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto tile = make_shape(_64{}, _64{});
  TESSERA_STATIC_ASSERT_V(size<0>(tile) == _128{}, "the tile is 128 rows");
  return int(size(tile));
}
