// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: ss_smem_selector: the contiguous extent (K for K-major, M/N for MN-major) must be a positive multiple of 16 bytes
//
// A K-major tile of 16-bit elements whose K is 4 (8 bytes) has no wgmma
// layout atom: core matrices are 16 bytes wide.
#include <tessera/atom/gmma_smem_atoms.hpp>

int main() {
  auto atom = tessera::GMMA::ss_smem_selector<tessera::GMMA::Major::K, unsigned short, 64, 4>();
  return int(tessera::size(atom));
}
