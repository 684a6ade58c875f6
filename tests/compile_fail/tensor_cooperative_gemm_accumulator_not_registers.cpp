// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: cooperative_gemm: the accumulator must be a register fragment
// Misuse: this thread's partition of C in shared memory passed where the register accumulator goes.
#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

using namespace tessera;

void misuse(float* a, float* b, float* c) {
  auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
  auto sA = make_tensor(a, make_shape(Int<32>{}, Int<8>{}));
  auto sB = make_tensor(b, make_shape(Int<32>{}, Int<8>{}));
  auto sC = make_tensor(make_smem_ptr(c), make_shape(Int<32>{}, Int<32>{}));
  cooperative_gemm(0u, mma, sA, sB, mma.get_slice(0).partition_C(sC));
}
