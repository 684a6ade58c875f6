// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: GMMA op selector: the tile's K must be a multiple of the instruction's K
// Misuse: a K extent of 24 halves; the f16 instruction consumes 16 at a time.
#include <tessera/atom.hpp>
#include <tessera/atom/gmma_op_selector.hpp>

using namespace tessera;

int misuse() {
  auto op = GMMA::ss_op_selector<half_t, half_t, float, Shape<_128, _128, _24>>();
  return int(sizeof(op));
}
