// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: the operand tile is not swizzled for wgmma
//
// A GMMA SS atom reads its operands through descriptors of the swizzled
// canonical layouts; a plain row-major shared-memory tile (no swizzle) has
// none, and partitioning it for the atom fails the build naming the rule.
#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

using namespace tessera;

int main() {
  auto sA = make_tensor(make_smem_ptr(static_cast<bfloat16_t*>(nullptr)), make_layout(Shape<_64, _64>{}, LayoutRight{}));
  auto mma = make_tiled_mma(SM90_64x64x16_F32BF16BF16_SS<GMMA::Major::K>{});
  auto frag = mma.get_slice(0).partition_fragment_A(sA);
  return int(size(frag));
}
