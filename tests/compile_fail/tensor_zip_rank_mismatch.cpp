// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: make_zip_tensor: the tensors have different ranks
// Misuse: a (4,8) tile zipped with its 32 elements seen as a vector; the zip needs one domain.
#include <tessera/tensor.hpp>

using namespace tessera;

void misuse(float* a, int* b) {
  auto tA = make_tensor(a, make_shape(Int<4>{}, Int<8>{}));
  auto tB = make_tensor(b, make_shape(Int<32>{}));
  auto z = make_zip_tensor(tA, tB);
  (void)z;
}
