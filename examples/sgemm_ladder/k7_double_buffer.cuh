// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Rung 7: double buffer. Versus rung 6 (same tiles, same warp layout): shared
// memory holds two k tiles (ping-pong). In iteration t the threads first
// issue the global loads of tile t+1 into registers, then run the 8 k steps
// of FMAs on tile t from one buffer, and only then write the registers into
// the other buffer. The global-load latency (hundreds of cycles) is hidden
// behind the math instead of being waited for by every warp, and since the
// buffer being written is never the one being read, one __syncthreads per k
// tile suffices (rung 6 needs two). Cost: twice the shared memory (still
// under 17 KB) and the prefetch registers (2 float4 per thread).
//
// Why one barrier is enough: the write into buffer cur^1 in iteration t
// follows the barrier that ended iteration t-1, the last reader of cur^1;
// the barrier ending iteration t publishes it to iteration t+1.
#pragma once

#include "k6_warp_tile.cuh"

namespace tessera::ladder {

template <class S>
__global__ void __launch_bounds__(S::kThreads) k7_double_buffer_kernel(GemmParams p) {
  __shared__ __align__(16) float sA[2][S::kBK * S::kLdA];  // (PIPE, BLK_K, BLK_M) transposed
  __shared__ __align__(16) float sB[2][S::kBK * S::kBN];   // (PIPE, BLK_K, BLK_N)
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = warp / (S::kBN / S::kWN), warp_col = warp % (S::kBN / S::kWN);
  const int lane_row = lane / S::kLanesN, lane_col = lane % S::kLanesN;
  const int m0 = blockIdx.y * S::kBM, n0 = blockIdx.x * S::kBN;
  const bool vec_a = float4_ok(p.A, p.lda), vec_b = float4_ok(p.B, p.ldb);
  ATileLoader<S::kBM, S::kBK, S::kThreads> a_tile;
  BTileLoader<S::kBN, S::kBK, S::kThreads> b_tile;
  WarpTileAcc<S> acc{};
  const int num_k_tiles = (p.K + S::kBK - 1) / S::kBK;

  a_tile.fetch(p, m0, 0, vec_a);
  b_tile.fetch(p, n0, 0, vec_b);
  a_tile.template store<S::kLdA>(sA[0]);
  b_tile.template store<S::kBN>(sB[0]);
  __syncthreads();
  for (int t = 0; t < num_k_tiles; ++t) {
    const int cur = t & 1;
    const bool has_next = t + 1 < num_k_tiles;
    if (has_next) {  // in flight while the FMAs below run
      a_tile.fetch(p, m0, (t + 1) * S::kBK, vec_a);
      b_tile.fetch(p, n0, (t + 1) * S::kBK, vec_b);
    }
    warp_tile_fma<S>(acc, sA[cur], sB[cur], warp_row, warp_col, lane_row, lane_col);
    if (has_next) {
      a_tile.template store<S::kLdA>(sA[cur ^ 1]);
      b_tile.template store<S::kBN>(sB[cur ^ 1]);
    }
    __syncthreads();
  }
  warp_tile_store<S>(p, acc, m0, n0, warp_row, warp_col, lane_row, lane_col, float4_ok(p.C, p.ldc));
}

inline void k7_double_buffer_launch(const GemmParams& p, cudaStream_t s) {
  k7_double_buffer_kernel<K6Shape><<<tile_grid(p, K6Shape::kBM, K6Shape::kBN), K6Shape::kThreads, 0, s>>>(p);
}

inline const Rung k7_double_buffer{"k7_double_buffer", k7_double_buffer_launch,
                                   reinterpret_cast<const void*>(k7_double_buffer_kernel<K6Shape>), false};

}  // namespace tessera::ladder
