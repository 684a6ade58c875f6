// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm90a
//
// A GMMA atom issues wgmma.mma_async, so gemm with one keeps that
// instruction's rule: built for the default compile_fail targets (sm_80 and
// sm_90a), the sm_80 pass fails and names sm_90a.
#include <tessera/tessera.hpp>

using namespace tessera;

__global__ void kernel(float* out) {
  __shared__ __align__(1024) bfloat16_t a[64 * 64];
  __shared__ __align__(1024) bfloat16_t b[64 * 64];
  auto sA = make_tensor(make_smem_ptr(a), tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_64, _64>{}));
  auto sB = make_tensor(make_smem_ptr(b), tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_64, _64>{}));
  auto mma = make_tiled_mma(SM90_64x64x16_F32BF16BF16_SS<>{});
  auto thr = mma.get_slice(threadIdx.x);
  auto tCrC = thr.partition_fragment_C(make_shape(_64{}, _64{}));
  clear(tCrC);
  gemm(mma, thr.partition_fragment_A(sA), thr.partition_fragment_B(sB), tCrC);
  out[threadIdx.x] = tCrC(0);
}

int main() { return 0; }
