// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Rung 4: 2D thread tile. Versus rung 3: each thread computes an 8 x 8 block
// of C (outer product of 8 A values and 8 B values held in registers), so a k
// step costs 16 shared-memory loads for 64 FMAs (0.25 loads per FMA instead of
// 1.125). The block tile grows to 128 x 128 (BK = 8, 256 threads), which
// halves the global traffic per flop again. The price: 64 accumulators plus
// 16 operands per thread, so about 100+ registers and fewer resident warps.
#pragma once

#include "common.cuh"

namespace tessera::ladder {

template <int kBM, int kBN, int kBK, int kTM, int kTN>
__global__ void __launch_bounds__(kBM * kBN / (kTM * kTN)) k4_thread_tile_2d_kernel(GemmParams p) {
  constexpr int kThreads = kBM * kBN / (kTM * kTN);
  static_assert((kBM * kBK) % kThreads == 0 && (kBN * kBK) % kThreads == 0,
                "k4: tile loads must split evenly over the threads");
  __shared__ float sA[kBM][kBK];  // (BLK_M, BLK_K)
  __shared__ float sB[kBK][kBN];  // (BLK_K, BLK_N)
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  const int t_row = tid / (kBN / kTN);
  const int t_col = tid % (kBN / kTN);
  float acc[kTM][kTN] = {};
  float ra[kTM], rb[kTN];
  for (int k0 = 0; k0 < p.K; k0 += kBK) {
#pragma unroll
    for (int j = tid; j < kBM * kBK; j += kThreads)
      sA[j / kBK][j % kBK] = load_or_zero(p.A, m0 + j / kBK, k0 + j % kBK, p.M, p.K, p.lda);
#pragma unroll
    for (int j = tid; j < kBK * kBN; j += kThreads)
      sB[j / kBN][j % kBN] = load_or_zero(p.B, k0 + j / kBN, n0 + j % kBN, p.K, p.N, p.ldb);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kBK; ++k) {
#pragma unroll
      for (int i = 0; i < kTM; ++i) ra[i] = sA[t_row * kTM + i][k];
#pragma unroll
      for (int j = 0; j < kTN; ++j) rb[j] = sB[k][t_col * kTN + j];
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += ra[i] * rb[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; ++j) store_c(p, m0 + t_row * kTM + i, n0 + t_col * kTN + j, acc[i][j]);
}

inline void k4_thread_tile_2d_launch(const GemmParams& p, cudaStream_t s) {
  k4_thread_tile_2d_kernel<128, 128, 8, 8, 8><<<tile_grid(p, 128, 128), 256, 0, s>>>(p);
}

inline const Rung k4_thread_tile_2d{"k4_thread_tile_2d", k4_thread_tile_2d_launch,
                                    reinterpret_cast<const void*>(k4_thread_tile_2d_kernel<128, 128, 8, 8, 8>), false};

}  // namespace tessera::ladder
