// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Rung 5: float4 loads, A transposed (K-major) and padded in shared memory.
// Versus rung 4 (same 128 x 128 x 8 tile, same 8 x 8 thread tile):
//  - global -> shared copies move 16 bytes per instruction (one float4 of A
//    and one of B per thread per k tile instead of 4 + 4 scalar loads);
//  - A is stored transposed, sA is (BLK_K, BLK_M), so the 8 A values a thread
//    needs at step k are contiguous and come in as two 128-bit shared loads
//    (rung 4 needed 8 scalar loads with a stride of BK); B, C likewise;
//  - the transposed store scatters a float4 over 4 rows of sA; rows are
//    padded to BM + 4 floats so that the two column groups a warp writes land
//    in different bank halves (row stride 132 = 4 mod 32) instead of 2-way
//    conflicting, and 132 floats keep every row 16-byte aligned.
// The vector path needs 16-byte aligned rows (pointer and ld multiple of 4):
// otherwise, and at the right/bottom edges, the loaders use scalar loads.
#pragma once

#include "common.cuh"

namespace tessera::ladder {

// One (BLK_M, BLK_K) tile of A: fetch() reads global memory into registers,
// store() writes it transposed into shared memory (BLK_K, BLK_M) with row
// stride kLd. Rung 7 separates the two halves to prefetch.
template <int kBM, int kBK, int kThreads>
struct ATileLoader {
  static_assert(kBK % 4 == 0 && (kBM * kBK) % (4 * kThreads) == 0,
                "ATileLoader: tile must split into whole float4 per thread [BK multiple of 4]");
  static constexpr int kVecs = kBM * kBK / 4 / kThreads;
  float4 v[kVecs];

  __device__ void fetch(const GemmParams& p, int m0, int k0, bool vec) {
#pragma unroll
    for (int i = 0; i < kVecs; ++i) {
      const int j = threadIdx.x + i * kThreads;
      v[i] = load4_or_zero(p.A, m0 + j / (kBK / 4), k0 + j % (kBK / 4) * 4, p.M, p.K, p.lda, vec);
    }
  }
  template <int kLd>
  __device__ void store(float* sA) const {  // sA: (BLK_K, BLK_M), row stride kLd
#pragma unroll
    for (int i = 0; i < kVecs; ++i) {
      const int j = threadIdx.x + i * kThreads;
      const int r = j / (kBK / 4), c = j % (kBK / 4) * 4;
      sA[(c + 0) * kLd + r] = v[i].x;
      sA[(c + 1) * kLd + r] = v[i].y;
      sA[(c + 2) * kLd + r] = v[i].z;
      sA[(c + 3) * kLd + r] = v[i].w;
    }
  }
};

// One (BLK_K, BLK_N) tile of B, stored as is (row stride kLd, multiple of 4).
template <int kBN, int kBK, int kThreads>
struct BTileLoader {
  static_assert(kBN % 4 == 0 && (kBN * kBK) % (4 * kThreads) == 0,
                "BTileLoader: tile must split into whole float4 per thread [BN multiple of 4]");
  static constexpr int kVecs = kBN * kBK / 4 / kThreads;
  float4 v[kVecs];

  __device__ void fetch(const GemmParams& p, int n0, int k0, bool vec) {
#pragma unroll
    for (int i = 0; i < kVecs; ++i) {
      const int j = threadIdx.x + i * kThreads;
      v[i] = load4_or_zero(p.B, k0 + j / (kBN / 4), n0 + j % (kBN / 4) * 4, p.K, p.N, p.ldb, vec);
    }
  }
  template <int kLd>
  __device__ void store(float* sB) const {  // sB: (BLK_K, BLK_N), row stride kLd
    static_assert(kLd % 4 == 0, "BTileLoader::store: row stride must keep float4 alignment");
#pragma unroll
    for (int i = 0; i < kVecs; ++i) {
      const int j = threadIdx.x + i * kThreads;
      *reinterpret_cast<float4*>(sB + (j / (kBN / 4)) * kLd + j % (kBN / 4) * 4) = v[i];
    }
  }
};

__device__ __forceinline__ float4 lds4(const float* p) { return *reinterpret_cast<const float4*>(p); }

template <int kBM, int kBN, int kBK, int kTM, int kTN>
__global__ void __launch_bounds__(kBM * kBN / (kTM * kTN)) k5_vectorized_kernel(GemmParams p) {
  constexpr int kThreads = kBM * kBN / (kTM * kTN);
  constexpr int kLdA = kBM + 4;  // NOTE: padding, see the header comment
  static_assert(kTM % 4 == 0 && kTN % 4 == 0, "k5: thread tile must be whole float4 [TM, TN multiple of 4]");
  __shared__ __align__(16) float sA[kBK * kLdA];  // (BLK_K, BLK_M) transposed
  __shared__ __align__(16) float sB[kBK * kBN];   // (BLK_K, BLK_N)
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  const int t_row = tid / (kBN / kTN);
  const int t_col = tid % (kBN / kTN);
  const bool vec_a = float4_ok(p.A, p.lda), vec_b = float4_ok(p.B, p.ldb), vec_c = float4_ok(p.C, p.ldc);
  ATileLoader<kBM, kBK, kThreads> a_tile;
  BTileLoader<kBN, kBK, kThreads> b_tile;
  float acc[kTM][kTN] = {};
  float ra[kTM], rb[kTN];
  for (int k0 = 0; k0 < p.K; k0 += kBK) {
    a_tile.fetch(p, m0, k0, vec_a);
    b_tile.fetch(p, n0, k0, vec_b);
    a_tile.template store<kLdA>(sA);
    b_tile.template store<kBN>(sB);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kBK; ++k) {
#pragma unroll
      for (int i = 0; i < kTM; i += 4) {
        const float4 a = lds4(&sA[k * kLdA + t_row * kTM + i]);
        ra[i] = a.x; ra[i + 1] = a.y; ra[i + 2] = a.z; ra[i + 3] = a.w;
      }
#pragma unroll
      for (int j = 0; j < kTN; j += 4) {
        const float4 b = lds4(&sB[k * kBN + t_col * kTN + j]);
        rb[j] = b.x; rb[j + 1] = b.y; rb[j + 2] = b.z; rb[j + 3] = b.w;
      }
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
    for (int j = 0; j < kTN; j += 4)
      store_c4(p, m0 + t_row * kTM + i, n0 + t_col * kTN + j,
               make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]), vec_c);
}

inline void k5_vectorized_launch(const GemmParams& p, cudaStream_t s) {
  k5_vectorized_kernel<128, 128, 8, 8, 8><<<tile_grid(p, 128, 128), 256, 0, s>>>(p);
}

inline const Rung k5_vectorized{"k5_vectorized", k5_vectorized_launch,
                                reinterpret_cast<const void*>(k5_vectorized_kernel<128, 128, 8, 8, 8>), false};

}  // namespace tessera::ladder
