// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: only 16-bit operands may be MN-major
//
// wgmma transposes f16/bf16 operands only; an 8-bit atom declared with an
// MN-major A is refused when the atom is named.
#include <tessera/atom.hpp>

using namespace tessera;

int main() {
  MMA_Atom<SM90_GMMA_SS<std::int32_t, std::int8_t, std::int8_t, 64, GMMA::Major::MN>> atom;
  (void)atom;
  return 0;
}
