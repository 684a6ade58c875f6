// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Rung 2: shared-memory tiles. Versus rung 1: the block first stages a
// 32 x 32 tile of A and a 32 x 32 tile of B in shared memory (one element per
// thread, coalesced), synchronises, then every thread reads its row of sA and
// column of sB from shared memory. Each global element is now loaded once per
// block instead of once per thread: global traffic for A and B falls by the
// tile width (32x). Still one output per thread, so every FMA needs two
// shared-memory loads: the kernel becomes shared-memory-bandwidth bound.
// Edge tiles are zero-filled, so the inner loop needs no guards.
#pragma once

#include "common.cuh"

namespace tessera::ladder {

template <int kTile>
__global__ void k2_smem_kernel(GemmParams p) {
  __shared__ float sA[kTile][kTile];      // (BLK_M, BLK_K)
  __shared__ float sB[kTile][kTile];  // (BLK_K, BLK_N)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < p.K; k0 += kTile) {
    sA[ty][tx] = load_or_zero(p.A, row, k0 + tx, p.M, p.K, p.lda);
    sB[ty][tx] = load_or_zero(p.B, k0 + ty, col, p.K, p.N, p.ldb);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTile; ++k) acc += sA[ty][k] * sB[k][tx];
    __syncthreads();
  }
  store_c(p, row, col, acc);
}

inline void k2_smem_launch(const GemmParams& p, cudaStream_t s) {
  k2_smem_kernel<32><<<tile_grid(p, 32, 32), dim3(32, 32), 0, s>>>(p);
}

inline const Rung k2_smem{"k2_smem", k2_smem_launch, reinterpret_cast<const void*>(k2_smem_kernel<32>), false};

}  // namespace tessera::ladder
