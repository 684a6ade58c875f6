// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Rung 3: 1D thread tile. Versus rung 2: each thread computes TM = 8 outputs
// of one column of C. Per k step it loads one B value from shared memory into
// a register and reuses it for 8 FMAs against 8 A values, so the shared-memory
// loads per FMA drop from 2 to 9/8. The block tile grows to 64 x 64 with
// BK = 8, so 512 threads load exactly one A and one B element each per k tile;
// global traffic per flop halves again versus rung 2 (tile 64 instead of 32).
#pragma once

#include "common.cuh"

namespace tessera::ladder {

template <int kBM, int kBN, int kBK, int kTM>
__global__ void __launch_bounds__(kBM * kBN / kTM) k3_thread_tile_1d_kernel(GemmParams p) {
  static_assert(kBM * kBK == kBM * kBN / kTM && kBN * kBK == kBM * kBN / kTM,
                "k3: one A and one B element per thread per k tile [BK = TM]");
  __shared__ float sA[kBM][kBK];  // (BLK_M, BLK_K)
  __shared__ float sB[kBK][kBN];  // (BLK_K, BLK_N)
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  const int t_row = tid / kBN;  // which group of kTM rows
  const int t_col = tid % kBN;  // which column
  const int a_r = tid / kBK, a_c = tid % kBK;
  const int b_r = tid / kBN, b_c = tid % kBN;
  float acc[kTM] = {};
  for (int k0 = 0; k0 < p.K; k0 += kBK) {
    sA[a_r][a_c] = load_or_zero(p.A, m0 + a_r, k0 + a_c, p.M, p.K, p.lda);
    sB[b_r][b_c] = load_or_zero(p.B, k0 + b_r, n0 + b_c, p.K, p.N, p.ldb);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kBK; ++k) {
      const float b = sB[k][t_col];
#pragma unroll
      for (int i = 0; i < kTM; ++i) acc[i] += sA[t_row * kTM + i][k] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kTM; ++i) store_c(p, m0 + t_row * kTM + i, n0 + t_col, acc[i]);
}

inline void k3_thread_tile_1d_launch(const GemmParams& p, cudaStream_t s) {
  k3_thread_tile_1d_kernel<64, 64, 8, 8><<<tile_grid(p, 64, 64), 64 * 64 / 8, 0, s>>>(p);
}

inline const Rung k3_thread_tile_1d{"k3_thread_tile_1d", k3_thread_tile_1d_launch,
                                         reinterpret_cast<const void*>(k3_thread_tile_1d_kernel<64, 64, 8, 8>), false};

}  // namespace tessera::ladder
