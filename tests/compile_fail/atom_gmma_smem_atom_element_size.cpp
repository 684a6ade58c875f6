// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: GMMA layout atoms: wgmma operands are 1-, 2- or 4-byte elements
//
// wgmma reads 1-, 2- and 4-byte elements; an atom of 8-byte elements has no
// hardware layout, and asking for one fails the build naming the rule.
#include <tessera/atom/gmma_smem_atoms.hpp>

int main() {
  tessera::GMMA::Layout_K_SW128_Atom<double> atom{};
  return int(tessera::size(atom));
}
