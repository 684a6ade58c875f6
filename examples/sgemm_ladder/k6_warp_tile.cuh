// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Rung 6: warp tiles. Versus rung 5 (same 128 x 128 x 8 block tile, same
// float4 loaders): the block tile is split into 2 x 4 warp tiles of 64 x 32,
// and each warp covers its tile in 2 x 2 steps of 32 x 16, each lane owning
// a 4 x 4 piece per step (still 64 accumulators per thread).
// Why it should be faster: in rung 5 a warp's 32 threads covered 16 rows x
// 128 columns, so per k step the warp read 16 A + 128 B = 144 distinct floats
// from shared memory for 2048 FMAs; here a warp reads 64 A + 32 B = 96 floats
// for the same 2048 FMAs, and every 128-bit shared load of a warp is either
// 8 distinct float4 (A) or 4 distinct float4 broadcast (B): no bank conflicts
// and a third fewer shared-memory wavefronts. The warp tile is also the unit
// that maps onto tensor-core instructions in rung 8.
#pragma once

#include "k5_vectorized.cuh"

namespace tessera::ladder {

// Geometry of the warp-tiled fp32 rungs (6 and 7).
template <int kBM_, int kBN_, int kBK_, int kWM_, int kWN_, int kTM_, int kTN_, int kWMIter_>
struct WarpTileShape {
  static constexpr int kBM = kBM_, kBN = kBN_, kBK = kBK_, kWM = kWM_, kWN = kWN_, kTM = kTM_, kTN = kTN_;
  static constexpr int kWarps = (kBM / kWM) * (kBN / kWN);
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kWMIter = kWMIter_;                             // warp steps along M
  static constexpr int kWNIter = kWM * kWN / (32 * kTM * kTN * kWMIter);  // warp steps along N
  static constexpr int kSubM = kWM / kWMIter, kSubN = kWN / kWNIter;   // (SUB_M, SUB_N) per step
  static constexpr int kLanesN = kSubN / kTN;                          // lanes along N in a step
  static constexpr int kLdA = kBM + 4;
  static_assert(kBM % kWM == 0 && kBN % kWN == 0, "WarpTileShape: warp tile must divide the block tile");
  static_assert(kWNIter >= 1 && kWM * kWN == 32 * kTM * kTN * kWMIter * kWNIter,
                "WarpTileShape: 32 lanes x thread tile x steps must cover the warp tile");
  static_assert(kLanesN * (kSubM / kTM) == 32, "WarpTileShape: lanes must form a (SUB_M/TM, SUB_N/TN) grid");
  static_assert(kTM == 4 && kTN == 4, "WarpTileShape: lanes read one float4 of A and of B per step [TM = TN = 4]");
};

// Per-thread accumulators of a warp-tiled rung: (WMIter, WNIter, TM, TN).
template <class S>
struct WarpTileAcc {
  float v[S::kWMIter][S::kWNIter][S::kTM][S::kTN];
};

// acc += sA(:, warp rows) * sB(:, warp cols) over one k tile held in shared memory.
template <class S>
__device__ __forceinline__ void warp_tile_fma(WarpTileAcc<S>& acc, const float* sA, const float* sB, int warp_row,
                                              int warp_col, int lane_row, int lane_col) {
  float4 ra[S::kWMIter], rb[S::kWNIter];
#pragma unroll
  for (int k = 0; k < S::kBK; ++k) {
#pragma unroll
    for (int wm = 0; wm < S::kWMIter; ++wm)
      ra[wm] = lds4(&sA[k * S::kLdA + warp_row * S::kWM + wm * S::kSubM + lane_row * S::kTM]);
#pragma unroll
    for (int wn = 0; wn < S::kWNIter; ++wn)
      rb[wn] = lds4(&sB[k * S::kBN + warp_col * S::kWN + wn * S::kSubN + lane_col * S::kTN]);
#pragma unroll
    for (int wm = 0; wm < S::kWMIter; ++wm)
#pragma unroll
      for (int wn = 0; wn < S::kWNIter; ++wn) {
        const float a[4] = {ra[wm].x, ra[wm].y, ra[wm].z, ra[wm].w};
        const float b[4] = {rb[wn].x, rb[wn].y, rb[wn].z, rb[wn].w};
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) acc.v[wm][wn][i][j] += a[i] * b[j];
      }
  }
}

template <class S>
__device__ __forceinline__ void warp_tile_store(const GemmParams& p, const WarpTileAcc<S>& acc, int m0, int n0,
                                                int warp_row, int warp_col, int lane_row, int lane_col, bool vec) {
#pragma unroll
  for (int wm = 0; wm < S::kWMIter; ++wm)
#pragma unroll
    for (int wn = 0; wn < S::kWNIter; ++wn)
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const float* a = acc.v[wm][wn][i];
        store_c4(p, m0 + warp_row * S::kWM + wm * S::kSubM + lane_row * S::kTM + i,
                 n0 + warp_col * S::kWN + wn * S::kSubN + lane_col * S::kTN, make_float4(a[0], a[1], a[2], a[3]),
                 vec);
      }
}

using K6Shape = WarpTileShape<128, 128, 8, 64, 32, 4, 4, 2>;

template <class S>
__global__ void __launch_bounds__(S::kThreads) k6_warp_tile_kernel(GemmParams p) {
  __shared__ __align__(16) float sA[S::kBK * S::kLdA];  // (BLK_K, BLK_M) transposed
  __shared__ __align__(16) float sB[S::kBK * S::kBN];   // (BLK_K, BLK_N)
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = warp / (S::kBN / S::kWN), warp_col = warp % (S::kBN / S::kWN);
  const int lane_row = lane / S::kLanesN, lane_col = lane % S::kLanesN;
  const int m0 = blockIdx.y * S::kBM, n0 = blockIdx.x * S::kBN;
  const bool vec_a = float4_ok(p.A, p.lda), vec_b = float4_ok(p.B, p.ldb);
  ATileLoader<S::kBM, S::kBK, S::kThreads> a_tile;
  BTileLoader<S::kBN, S::kBK, S::kThreads> b_tile;
  WarpTileAcc<S> acc{};
  for (int k0 = 0; k0 < p.K; k0 += S::kBK) {
    a_tile.fetch(p, m0, k0, vec_a);
    b_tile.fetch(p, n0, k0, vec_b);
    a_tile.template store<S::kLdA>(sA);
    b_tile.template store<S::kBN>(sB);
    __syncthreads();
    warp_tile_fma<S>(acc, sA, sB, warp_row, warp_col, lane_row, lane_col);
    __syncthreads();
  }
  warp_tile_store<S>(p, acc, m0, n0, warp_row, warp_col, lane_row, lane_col, float4_ok(p.C, p.ldc));
}

inline void k6_warp_tile_launch(const GemmParams& p, cudaStream_t s) {
  k6_warp_tile_kernel<K6Shape><<<tile_grid(p, K6Shape::kBM, K6Shape::kBN), K6Shape::kThreads, 0, s>>>(p);
}

inline const Rung k6_warp_tile{"k6_warp_tile", k6_warp_tile_launch,
                               reinterpret_cast<const void*>(k6_warp_tile_kernel<K6Shape>), false};

}  // namespace tessera::ladder
