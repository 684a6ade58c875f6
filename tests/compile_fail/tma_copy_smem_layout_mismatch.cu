// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: is not the one the TMA copy was made for
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// The TMA unit writes the box in the layout the copy was made for (here the
// 128B-swizzled K-major tile); copying into a shared-memory tensor of
// another layout (the same shape, unswizzled) would scramble it, so the
// build refuses it.
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
using Tma = TmaCopy<SM90_TMA_LOAD, bfloat16_t, Box>;

__global__ void kernel(__grid_constant__ const Tma tma) {
  __shared__ __align__(1024) bfloat16_t buf[128 * 64];
  __shared__ std::uint64_t bar;
  auto plain = make_tensor(make_smem_ptr(buf), make_layout(Shape<_128, _64>{}, LayoutRight{}));
  copy(tma.with(bar), make_coord(0, 0), plain);
}

int main() { return 0; }
