// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: cooperative_gemm: the MMA must take A and B from registers
// Misuse: a GMMA (wgmma SS) TiledMMA, which reads A and B from shared memory through descriptors.
#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

using namespace tessera;

using SmemA = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64, _64>{}));

void misuse(half_t* a, half_t* b, float* c) {
  auto mma = make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});
  auto sA = make_tensor(make_smem_ptr(a), SmemA{});
  auto sB = make_tensor(make_smem_ptr(b), SmemA{});
  auto sC = make_tensor(c, make_shape(_64{}, _64{}));
  cooperative_gemm(0u, mma, 1.0f, sA, sB, 0.0f, sC);
}
