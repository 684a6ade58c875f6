// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: the CTA tile must be the shared-memory layout's shape
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// make_tma_copy copies one box per call, the shared-memory layout's shape;
// a CTA tile of another shape (here half of it) is refused when it is built.
#include <tessera/tessera.hpp>

using namespace tessera;

int main() {
  using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
  auto g = make_tensor(make_gmem_ptr(static_cast<bfloat16_t const*>(nullptr)),
                       make_layout(make_shape(1024, 1024), make_stride(1024, _1{})));
  auto tma = make_tma_copy(SM90_TMA_LOAD{}, g, Box{}, make_shape(_64{}, _64{}));
  return tma.ok() ? 0 : 1;
}
