// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: make_zip_tensor: the tensors' shapes differ in a static mode size
// Misuse: a (4,8) tile zipped with its transpose (8,4); same rank and size, different domains.
#include <tessera/tensor.hpp>

using namespace tessera;

void misuse(float* a, int* b) {
  auto tA = make_tensor(a, make_shape(Int<4>{}, Int<8>{}));
  auto tB = make_tensor(b, make_shape(Int<8>{}, Int<4>{}));
  auto z = make_zip_tensor(tA, tB);
  (void)z;
}
