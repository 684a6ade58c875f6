// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: lazy::transform: an owning tensor passed as a temporary would dangle
// Misuse: the lazy view would read a register fragment destroyed at the end of the statement.
#include <tessera/tensor.hpp>

using namespace tessera;

float misuse() {
  auto neg = lazy::transform(make_tensor<float>(make_shape(Int<4>{}, Int<8>{})), [](float x) { return -x; });
  return neg(0);
}
