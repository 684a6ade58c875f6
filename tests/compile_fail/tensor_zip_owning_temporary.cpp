// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: make_zip_tensor: an owning tensor passed as a temporary would dangle
// Misuse: the zip would point into a register fragment destroyed at the end of the statement.
#include <tessera/tensor.hpp>

using namespace tessera;

void misuse(float* a) {
  auto tA = make_tensor(a, make_shape(Int<4>{}, Int<8>{}));
  auto z = make_zip_tensor(tA, make_tensor<int>(make_shape(Int<4>{}, Int<8>{})));
  (void)z;
}
