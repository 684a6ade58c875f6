// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: make_cotiled_copy: atom_tv_layout reaches an offset that data_layout does not hold
// Misuse: 32 threads x 4 values reach offsets 0..127, but the data layout holds only 64 elements.
#include <tessera/atom.hpp>

using namespace tessera;

int misuse() {
  auto cp = make_cotiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{},
                              Layout<Shape<_8, _8>, Stride<_8, _1>>{});
  return int(size(cp));
}
