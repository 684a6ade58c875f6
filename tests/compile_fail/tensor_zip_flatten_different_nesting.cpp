// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: ZipLayout: the component layouts have different ranks
// Misuse: the zip of (4,8) and ((2,2),8) is fine (same mode sizes), but flattening gives ranks 2 and 3.
#include <tessera/tensor.hpp>

using namespace tessera;

void misuse(float* a, int* b) {
  auto tA = make_tensor(a, make_shape(Int<4>{}, Int<8>{}));
  auto tB = make_tensor(b, make_shape(make_shape(Int<2>{}, Int<2>{}), Int<8>{}));
  auto z = flatten(make_zip_tensor(tA, tB));
  (void)z;
}
