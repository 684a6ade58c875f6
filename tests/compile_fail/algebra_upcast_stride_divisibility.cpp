// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: upcast: stride divisibility condition broken
// Misuse: upcasting by 4 a layout whose static stride 6 is neither a divisor nor a multiple of 4.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto l = make_layout(_8{}, _6{});
  return int(size(upcast<4>(l)));
}
