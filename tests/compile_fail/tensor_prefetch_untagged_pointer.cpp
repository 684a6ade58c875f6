// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: prefetch: the tensor is not in global memory
// Misuse: an untagged pointer (a register fragment, as far as the tags say):
// which memory it points into is not known, so it is not prefetched.
#include <tessera/tensor.hpp>

using namespace tessera;

void misuse(float* g) {
  auto gA = make_tensor(g, make_shape(Int<64>{}, 32));
  prefetch(gA);
}
