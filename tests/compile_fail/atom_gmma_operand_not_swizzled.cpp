// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: the operand tile's swizzle is not a wgmma mode
//
// A GMMA SS atom reads its operands through descriptors of the canonical
// layouts: unswizzled (interleaved) or Swizzle<B, 4 - log2(sizeof(T)), 3>.
// A swizzle of another base (here Swizzle<3,4,3> on 16-bit elements, the
// 128B pattern of 32-bit ones) is none of them, and partitioning a tile
// under it for the atom fails the build naming the rule.
#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

using namespace tessera;

int main() {
  auto layout = composition(Swizzle<3, 4, 3>{}, make_layout(Shape<_64, _64>{}, LayoutRight{}));
  auto sA = make_tensor(make_smem_ptr(static_cast<bfloat16_t*>(nullptr)), layout);
  auto mma = make_tiled_mma(SM90_64x64x16_F32BF16BF16_SS<GMMA::Major::K>{});
  auto frag = mma.get_slice(0).partition_fragment_A(sA);
  return int(size(frag));
}
