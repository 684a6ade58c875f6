// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: print_layout: layout must have rank 2
// Misuse: print_layout of a rank-1 layout.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  print_layout(make_layout(_8{}));
  return 0;
}
