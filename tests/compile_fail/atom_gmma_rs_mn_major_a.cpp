// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: A comes from registers, where it is K-major
//
// The RS form reads A from registers in the mma.sync fragment, which is
// K-major; naming an MN-major A for it fails the build.
#include <tessera/atom.hpp>

using namespace tessera;

int main() {
  MMA_Atom<SM90_64x64x16_F32BF16BF16_RS<GMMA::Major::MN, GMMA::Major::K>> atom;
  (void)atom;
  return 0;
}
