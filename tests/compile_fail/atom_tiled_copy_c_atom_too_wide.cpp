// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: make_tiled_copy_C_atom: the copy atom moves more values than a thread holds in the MMA's C fragment
// Misuse: a 16x8 f32 accumulator holds 4 floats per thread; a 128-bit atom of halves moves 8.
#include <tessera/atom.hpp>

using namespace tessera;

int misuse() {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{});
  auto cp = make_tiled_copy_C_atom(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, mma);
  return int(size(cp));
}
