// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: the operand sub-tile is not the canonical wgmma layout
//
// An unswizzled operand tile is read in the interleaved mode, whose rows are
// one 16-byte core-matrix row: (8 rows x 16 bytes) blocks, LBO apart along K
// and SBO apart along M/N (GMMA::Layout_K_INTER_Atom tiled). A plain
// row-major 64 x 64 bf16 tile has 128-byte rows, so its sub-tiles are not
// that layout, and partitioning it for the atom fails the build.
#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

using namespace tessera;

int main() {
  auto sA = make_tensor(make_smem_ptr(static_cast<bfloat16_t*>(nullptr)), make_layout(Shape<_64, _64>{}, LayoutRight{}));
  auto mma = make_tiled_mma(SM90_64x64x16_F32BF16BF16_SS<GMMA::Major::K>{});
  auto frag = mma.get_slice(0).partition_fragment_A(sA);
  return int(size(frag));
}
