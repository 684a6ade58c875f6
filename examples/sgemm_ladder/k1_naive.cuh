// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Rung 1: naive. One thread per element of C, a 32 x 32 thread block per
// 32 x 32 tile of C. Each thread walks one row of A and one column of B in
// global memory: 2K loads per 2K flops, and the 32 threads of a row of the
// block load the same A element, so everything rests on L1/L2 hits.
// threadIdx.x runs along N so that the B loads and C stores of a warp are
// coalesced (the A load is a broadcast).
#pragma once

#include "common.cuh"

namespace tessera::ladder {

__global__ void k1_naive_kernel(GemmParams p) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= p.M || col >= p.N) return;
  const float* a = p.A + static_cast<size_t>(row) * p.lda;
  float acc = 0.0f;
  for (int k = 0; k < p.K; ++k) acc += a[k] * p.B[static_cast<size_t>(k) * p.ldb + col];
  store_c(p, row, col, acc);
}

inline void k1_naive_launch(const GemmParams& p, cudaStream_t s) {
  k1_naive_kernel<<<tile_grid(p, 32, 32), dim3(32, 32), 0, s>>>(p);
}

inline const Rung k1_naive{"k1_naive", k1_naive_launch, reinterpret_cast<const void*>(k1_naive_kernel), false};

}  // namespace tessera::ladder
