// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: get: index out of range
// Misuse: get<2> of a two-element tuple.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto t = make_tuple(1, 2);
  return get<2>(t);
}
