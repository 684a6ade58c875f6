// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: Swizzle: |SShift| must be at least BBits
// Misuse: a swizzle whose source and target bit ranges overlap (B=3, S=2).
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  Swizzle<3, 3, 2> sw;
  return int(sw(64));
}
