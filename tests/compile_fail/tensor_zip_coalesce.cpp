// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: coalesce: a zip's components may coalesce to different shapes
// Misuse: column-major coalesces to 32:1, row-major stays (4,8):(8,1); the zip would lose its common domain.
#include <tessera/tensor.hpp>

using namespace tessera;

void misuse(float* a, int* b) {
  auto tA = make_tensor(a, make_shape(Int<4>{}, Int<8>{}));
  auto tB = make_tensor(b, make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));
  auto z = coalesce(make_zip_tensor(tA, tB));
  (void)z;
}
