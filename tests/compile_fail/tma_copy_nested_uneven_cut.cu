// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: is not a colexicographic prefix of its sub-modes
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// A tile of 12 rows along the nested mode (4,16,2): 4 whole, then 3 of the
// 16, which 3 does not divide, so the tile is no box of the sub-modes.
#include <tessera/tessera.hpp>

using namespace tessera;

int main() {
  auto g = make_tensor(make_gmem_ptr(static_cast<bfloat16_t const*>(nullptr)),
                       make_layout(make_shape(make_shape(_4{}, _16{}, _2{}), 64),
                                   make_stride(make_stride(64, 256, 4096), _1{})));
  using Box = Layout<Shape<_12, _8>, Stride<_8, _1>>;
  auto tma = make_tma_copy(SM90_TMA_LOAD{}, g, Box{});
  return tma.ok() ? 0 : 1;
}
