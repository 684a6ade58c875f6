// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: cooperative_gemm: the accumulator's shape is not the (MMA, MMA_M, MMA_N) the TiledMMA gives this thread
// Misuse: an accumulator made for a 16x32 tile handed to a 32x32 problem (A is 32x8).
#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

using namespace tessera;

void misuse(float* a, float* b) {
  auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
  auto sA = make_tensor(a, make_shape(Int<32>{}, Int<8>{}));
  auto sB = make_tensor(b, make_shape(Int<32>{}, Int<8>{}));
  auto rC = partition_fragment_C(mma, make_shape(Int<16>{}, Int<32>{}));
  cooperative_gemm(0u, mma, sA, sB, rC);
}
