// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: complement: non-injective layout
// Misuse: the complement of a layout whose modes overlap in the codomain.
#include <tessera/layout.hpp>

using namespace tessera;

int misuse() {
  auto l = make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _1{}));
  return int(size(complement(l, _8{})));
}
