// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: cooperative_gemm: A and B need static shapes
// Misuse: a run-time M; each thread's register fragments are sized at compile time.
#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

using namespace tessera;

void misuse(float* a, float* b, float* c, int m) {
  auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
  auto sA = make_tensor(a, make_shape(m, Int<8>{}));
  auto sB = make_tensor(b, make_shape(Int<32>{}, Int<8>{}));
  auto sC = make_tensor(c, make_shape(m, Int<32>{}));
  cooperative_gemm(0u, mma, 1.0f, sA, sB, 0.0f, sC);
}
