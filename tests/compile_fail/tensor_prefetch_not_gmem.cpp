// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: prefetch: the tensor is not in global memory
// Misuse: a shared-memory tile handed to the global-memory prefetch.
#include <tessera/tensor.hpp>

using namespace tessera;

void misuse(float* s) {
  auto sA = make_tensor(make_smem_ptr(s), Layout<Shape<_64, _32>>{});
  prefetch(sA);
}
