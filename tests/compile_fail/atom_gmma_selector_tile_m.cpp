// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: GMMA op selector: the tile's M must be a multiple of 64
// Misuse: a 96-row tile; one wgmma covers 64 rows.
#include <tessera/atom.hpp>
#include <tessera/atom/gmma_op_selector.hpp>

using namespace tessera;

int misuse() {
  auto op = GMMA::ss_op_selector<half_t, half_t, float, Shape<_96, _128, _64>>();
  return int(sizeof(op));
}
