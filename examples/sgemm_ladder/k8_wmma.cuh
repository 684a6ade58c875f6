// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Rung 8: tensor cores through nvcuda::wmma, tf32 inputs, fp32 accumulate.
// Versus rung 7 (same double buffer with register prefetch, same 2 x 4 warps
// of 64 x 32): the per-lane 4 x 4 FMA outer products are replaced by
// wmma::mma_sync on 16 x 16 x 8 tf32 fragments; each warp keeps 4 x 2
// accumulator fragments and BK grows to 16 (two k8 steps per tile).
// Why it should be faster: a tensor-core MMA does 2048 multiply-adds per warp
// instruction; fp32 FMAs on the CUDA cores cap rungs 1-7 at the fp32 peak,
// tf32 tensor cores have several times that peak (A100: 8x, H100: ~7x dense).
//
// Precision: operands are rounded to tf32 (10-bit mantissa) when written to
// shared memory, so this rung does NOT compute an fp32 GEMM; its relative
// error is about 2^-11 instead of 2^-24 * sqrt(K), and the driver checks it
// against the tf32 tolerance. cuBLAS in the same table runs true fp32.
//
// Epilogue: wmma's fragment-to-element mapping is opaque, so each warp parks
// one 16 x 16 accumulator at a time in (reused) shared memory and its lanes
// apply alpha/beta with bounds checks; this keeps ragged edges correct.
// NOTE: sA rows are BM + 4 = 132 floats: wmma needs 32-byte aligned fragment
// pointers; the k8 steps start at rows 0 and 8 (8 * 528 bytes) so that holds.
#pragma once

#include <mma.h>

#include "k5_vectorized.cuh"

namespace tessera::ladder {

template <int kBM_, int kBN_, int kBK_, int kWM_, int kWN_>
struct WmmaShape {
  static constexpr int kBM = kBM_, kBN = kBN_, kBK = kBK_, kWM = kWM_, kWN = kWN_;
  static constexpr int kFragM = 16, kFragN = 16, kFragK = 8;  // m16n16k8, the tf32 wmma shape
  static constexpr int kWarps = (kBM / kWM) * (kBN / kWN);
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kWMIter = kWM / kFragM, kWNIter = kWN / kFragN, kWKIter = kBK / kFragK;
  static constexpr int kLdA = kBM + 4, kLdB = kBN + 4;
  static_assert(kBM % kWM == 0 && kBN % kWN == 0, "WmmaShape: warp tile must divide the block tile");
  static_assert(kWM % kFragM == 0 && kWN % kFragN == 0 && kBK % kFragK == 0,
                "WmmaShape: tiles must be whole 16x16x8 fragments");
  static_assert((kFragK * kLdA) % 8 == 0 && (kFragK * kLdB) % 8 == 0,
                "WmmaShape: fragment row offsets must stay 32-byte aligned [check the padding]");
  static_assert(2 * kBK * kLdA >= kWarps * kFragM * kFragN,
                "WmmaShape: epilogue staging must fit in the sA buffers");
};

using K8Shape = WmmaShape<128, 128, 16, 64, 32>;

template <int kVecs>
__device__ __forceinline__ void round_to_tf32(float4 (&v)[kVecs]) {
#pragma unroll
  for (int i = 0; i < kVecs; ++i) {
    v[i].x = nvcuda::wmma::__float_to_tf32(v[i].x);
    v[i].y = nvcuda::wmma::__float_to_tf32(v[i].y);
    v[i].z = nvcuda::wmma::__float_to_tf32(v[i].z);
    v[i].w = nvcuda::wmma::__float_to_tf32(v[i].w);
  }
}

// NOTE: without the minimum of 2 blocks per SM, ptxas gives this kernel
// ~180 registers, i.e. one block (8 warps) per SM; with it, 128 registers and
// a 4-byte spill, two blocks per SM to hide the fragment-load latency. Not
// yet measured against the unbounded variant.
template <class S>
__global__ void __launch_bounds__(S::kThreads, 2) k8_wmma_kernel(GemmParams p) {
  namespace wmma = nvcuda::wmma;
  using FragA = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::col_major>;
  using FragB = wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
  using FragC = wmma::fragment<wmma::accumulator, 16, 16, 8, float>;

  __shared__ __align__(128) float sA[2][S::kBK * S::kLdA];  // (PIPE, BLK_K, BLK_M) transposed = col-major A
  __shared__ __align__(128) float sB[2][S::kBK * S::kLdB];  // (PIPE, BLK_K, BLK_N) row-major B
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = warp / (S::kBN / S::kWN), warp_col = warp % (S::kBN / S::kWN);
  const int m0 = blockIdx.y * S::kBM, n0 = blockIdx.x * S::kBN;
  const bool vec_a = float4_ok(p.A, p.lda), vec_b = float4_ok(p.B, p.ldb);
  ATileLoader<S::kBM, S::kBK, S::kThreads> a_tile;
  BTileLoader<S::kBN, S::kBK, S::kThreads> b_tile;
  FragC acc[S::kWMIter][S::kWNIter];
#pragma unroll
  for (int i = 0; i < S::kWMIter; ++i)
#pragma unroll
    for (int j = 0; j < S::kWNIter; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  const int num_k_tiles = (p.K + S::kBK - 1) / S::kBK;

  a_tile.fetch(p, m0, 0, vec_a);
  b_tile.fetch(p, n0, 0, vec_b);
  round_to_tf32(a_tile.v);
  round_to_tf32(b_tile.v);
  a_tile.template store<S::kLdA>(sA[0]);
  b_tile.template store<S::kLdB>(sB[0]);
  __syncthreads();
  for (int t = 0; t < num_k_tiles; ++t) {
    const int cur = t & 1;
    const bool has_next = t + 1 < num_k_tiles;
    if (has_next) {
      a_tile.fetch(p, m0, (t + 1) * S::kBK, vec_a);
      b_tile.fetch(p, n0, (t + 1) * S::kBK, vec_b);
    }
#pragma unroll
    for (int kk = 0; kk < S::kWKIter; ++kk) {
      FragA fa[S::kWMIter];
      FragB fb[S::kWNIter];
#pragma unroll
      for (int i = 0; i < S::kWMIter; ++i)
        wmma::load_matrix_sync(fa[i], &sA[cur][kk * S::kFragK * S::kLdA + warp_row * S::kWM + i * S::kFragM],
                               S::kLdA);
#pragma unroll
      for (int j = 0; j < S::kWNIter; ++j)
        wmma::load_matrix_sync(fb[j], &sB[cur][kk * S::kFragK * S::kLdB + warp_col * S::kWN + j * S::kFragN],
                               S::kLdB);
#pragma unroll
      for (int i = 0; i < S::kWMIter; ++i)
#pragma unroll
        for (int j = 0; j < S::kWNIter; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    if (has_next) {
      round_to_tf32(a_tile.v);
      round_to_tf32(b_tile.v);
      a_tile.template store<S::kLdA>(sA[cur ^ 1]);
      b_tile.template store<S::kLdB>(sB[cur ^ 1]);
    }
    __syncthreads();
  }

  // Epilogue: the loop ended on a barrier, so sA is free to reuse as staging.
  float* stage = &sA[0][0] + warp * S::kFragM * S::kFragN;  // (16,16) row-major per warp
  const bool vec_c = float4_ok(p.C, p.ldc);
  const int r = lane / 2, c = lane % 2 * 8;  // each lane: 1 row x 8 columns of the fragment
#pragma unroll
  for (int i = 0; i < S::kWMIter; ++i)
#pragma unroll
    for (int j = 0; j < S::kWNIter; ++j) {
      wmma::store_matrix_sync(stage, acc[i][j], S::kFragN, wmma::mem_row_major);
      __syncwarp();
      const int row = m0 + warp_row * S::kWM + i * S::kFragM + r;
      const int col = n0 + warp_col * S::kWN + j * S::kFragN + c;
      store_c4(p, row, col, lds4(&stage[r * S::kFragN + c]), vec_c);
      store_c4(p, row, col + 4, lds4(&stage[r * S::kFragN + c + 4]), vec_c);
      __syncwarp();
    }
}

inline void k8_wmma_launch(const GemmParams& p, cudaStream_t s) {
  k8_wmma_kernel<K8Shape><<<tile_grid(p, K8Shape::kBM, K8Shape::kBN), K8Shape::kThreads, 0, s>>>(p);
}

inline const Rung k8_wmma{"k8_wmma", k8_wmma_launch, reinterpret_cast<const void*>(k8_wmma_kernel<K8Shape>), true};

}  // namespace tessera::ladder
