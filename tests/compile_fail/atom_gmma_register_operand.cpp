// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: A and B must be shared-memory tensors
//
// The SS atoms read A and B from shared memory; a register fragment passed
// where the atom expects a shared-memory tile is refused by name.
#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

using namespace tessera;

int main() {
  auto rA = make_tensor<bfloat16_t>(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_64, _64>{}).layout_b());
  auto mma = make_tiled_mma(SM90_64x64x16_F32BF16BF16_SS<>{});
  auto frag = mma.get_slice(0).partition_fragment_A(rA);
  return int(size(frag));
}
