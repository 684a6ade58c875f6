// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: the operand sub-tile is not the canonical wgmma layout
//
// A K-major tile (GMMA::Layout_K_SW128_Atom) handed to an atom declared
// MN-major for A: the element-by-element check against the MN-major
// canonical form fails, and the build says so.
#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

using namespace tessera;

int main() {
  auto sA = make_tensor(make_smem_ptr(static_cast<half_t*>(nullptr)),
                        tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64, _64>{}));
  auto mma = make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::K>{});
  auto frag = mma.get_slice(0).partition_fragment_A(sA);
  return int(size(frag));
}
