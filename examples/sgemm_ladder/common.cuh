// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Shared vocabulary of the SGEMM ladder: the problem description every rung
// receives and the guarded global-memory helpers the tiled rungs use.
//
// Convention (all rungs, the reference and the cuBLAS call):
//   C = alpha * A * B + beta * C, fp32, row-major:
//   A is M x K with row stride lda >= K, B is K x N with ldb >= N,
//   C is M x N with ldc >= N. When beta == 0, C is not read (BLAS rule), so
//   a NaN-poisoned C must come out fully finite.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace tessera::ladder {

struct GemmParams {
  int M, N, K;
  const float* A; int lda;
  const float* B; int ldb;
  float* C;       int ldc;
  float alpha, beta;
};

// A ladder rung as the driver sees it.
struct Rung {
  const char* name;
  void (*launch)(const GemmParams&, cudaStream_t);
  const void* kernel;  // for cudaFuncGetAttributes (registers per thread)
  bool tf32;           // computes with tf32 inputs: checked with the tf32 tolerance
};

// Element (r, c) of a row-major matrix with row stride ld, 0 outside rows x cols.
__device__ __forceinline__ float load_or_zero(const float* p, int r, int c, int rows, int cols, int ld) {
  return (r < rows && c < cols) ? p[static_cast<size_t>(r) * ld + c] : 0.0f;
}

// True when p and every row start p + r*ld are 16-byte aligned, i.e. a float4
// load at a column that is a multiple of 4 is legal.
__device__ __forceinline__ bool float4_ok(const float* p, int ld) {
  return (reinterpret_cast<uintptr_t>(p) % 16 == 0) && (ld % 4 == 0);
}

// Four consecutive elements (r, c..c+3); c must be a multiple of 4.
// Vector load when allowed and fully inside, otherwise guarded scalar loads
// with zero fill: the edge tiles never touch memory outside rows x cols.
__device__ __forceinline__ float4 load4_or_zero(const float* p, int r, int c, int rows, int cols, int ld,
                                                bool vec) {
  if (vec && r < rows && c + 3 < cols)
    return *reinterpret_cast<const float4*>(p + static_cast<size_t>(r) * ld + c);
  return make_float4(load_or_zero(p, r, c, rows, cols, ld), load_or_zero(p, r, c + 1, rows, cols, ld),
                     load_or_zero(p, r, c + 2, rows, cols, ld), load_or_zero(p, r, c + 3, rows, cols, ld));
}

// C(r, c) = alpha * acc + beta * C(r, c), skipped outside the matrix; C is not
// read when beta == 0.
__device__ __forceinline__ void store_c(const GemmParams& p, int r, int c, float acc) {
  if (r >= p.M || c >= p.N) return;
  float* dst = p.C + static_cast<size_t>(r) * p.ldc + c;
  *dst = p.beta == 0.0f ? p.alpha * acc : p.alpha * acc + p.beta * *dst;
}

// Four consecutive outputs (r, c..c+3), c a multiple of 4: one float4
// read-modify-write when aligned and inside, scalar stores at the edges.
__device__ __forceinline__ void store_c4(const GemmParams& p, int r, int c, float4 acc, bool vec) {
  if (r >= p.M) return;
  if (vec && c + 3 < p.N) {
    float4* dst = reinterpret_cast<float4*>(p.C + static_cast<size_t>(r) * p.ldc + c);
    float4 out = make_float4(p.alpha * acc.x, p.alpha * acc.y, p.alpha * acc.z, p.alpha * acc.w);
    if (p.beta != 0.0f) {
      const float4 old = *dst;
      out.x += p.beta * old.x; out.y += p.beta * old.y; out.z += p.beta * old.z; out.w += p.beta * old.w;
    }
    *dst = out;
    return;
  }
  store_c(p, r, c, acc.x); store_c(p, r, c + 1, acc.y); store_c(p, r, c + 2, acc.z); store_c(p, r, c + 3, acc.w);
}

inline dim3 tile_grid(const GemmParams& p, int block_m, int block_n) {
  return dim3((p.N + block_n - 1) / block_n, (p.M + block_m - 1) / block_m);
}

}  // namespace tessera::ladder
