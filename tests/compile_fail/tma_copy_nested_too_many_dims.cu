// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: the gmem layout flattens to more than 5 TMA dimensions
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// A gmem layout whose nested modes flatten to six run-time sub-modes (none
// can merge: their strides are not static) has no TMA map of rank <= 5; the
// copy's type needs its rank, so make_tma_copy refuses it at compile time.
#include <tessera/tessera.hpp>

using namespace tessera;

int main() {
  auto g = make_tensor(make_gmem_ptr(static_cast<bfloat16_t const*>(nullptr)),
                       make_layout(make_shape(make_shape(2, 2, 2), make_shape(2, 2), 64),
                                   make_stride(make_stride(64, 128, 256), make_stride(512, 1024), _1{})));
  using Box = Layout<Shape<_8, _4, _8>, Stride<_8, _64, _1>>;
  auto tma = make_tma_copy(SM90_TMA_LOAD{}, g, Box{});
  return tma.ok() ? 0 : 1;
}
