// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: GMMA op selector: tf32 and 8-bit operands must be K-major
// Misuse: an MN-major tf32 operand; wgmma transposes 16-bit operands only.
#include <tessera/atom.hpp>
#include <tessera/atom/gmma_op_selector.hpp>

using namespace tessera;

int misuse() {
  auto op = GMMA::ss_op_selector<tfloat32_t, tfloat32_t, float, Shape<_128, _128, _32>, GMMA::Major::MN>();
  return int(sizeof(op));
}
