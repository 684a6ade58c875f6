// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The epilogue of seed 004: accumulators (registers, mma.sync C-fragment
// order) -> a swizzled f32 tile in shared memory (the mainloop's memory,
// reused) -> 128-bit coalesced global stores, D = alpha * acc + beta * C,
// converted to the output type. Predicated at the M/N edges; beta == 0 never
// reads C.
//
// Why through shared memory: a thread's C fragment is 2 consecutive columns
// on 2 rows per mma tile, so direct stores are 4-byte (f16) or 8-byte (f32)
// pieces scattered over 8 rows per warp instruction. Re-reading the tile
// row-wise from shared memory lets each thread write 16 contiguous bytes and
// a warp whole 128-byte lines.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include <tessera/config.hpp>
#include <tessera/arch/gpu_atomic.cuh>
#include <tessera/gemm/f16_accumulator.cuh>
#include <tessera/gemm/sm80_config.hpp>
#include <tessera/gemm/sm80_split.cuh>

namespace tessera::kernels::sm80 {

template <class T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ float from_float<float>(float x) { return x; }
template <>
__device__ __forceinline__ __half from_float<__half>(float x) { return __float2half_rn(x); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

__device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }

// The 4 values (row g: cols 2t, 2t+1; row g+8: cols 2t, 2t+1) of one
// m16n8 accumulator fragment, as f32.
__device__ __forceinline__ void fragment_values(const float (&acc)[4], float (&v)[4]) {
#pragma unroll
  for (int i = 0; i < 4; ++i) v[i] = acc[i];
}
__device__ __forceinline__ void fragment_values(const uint32_t (&acc)[2], float (&v)[4]) { widen_f16_block(acc, v); }

// kBlockM is the rows of one staged band: the whole tile, or
// Cfg::kBlockM / Cfg::kEpiloguePasses rows when the epilogue runs in passes
// (stage() then takes the warp's row within the band).
template <class Cfg>
struct Sm80Epilogue {
  static constexpr int kBlockM = Cfg::kBlockM / Cfg::kEpiloguePasses;
  static constexpr int kBandWarpsM = Cfg::kWarpsM / Cfg::kEpiloguePasses;
  static constexpr int kBlockN = Cfg::kBlockN;
  static constexpr int kThreads = Cfg::kThreads;
  static constexpr int kRowBytes = kBlockN * 4;

  // (row, col) of the f32 staging tile -> byte offset. 16-byte chunks of a
  // row are XOR-swizzled with row % 8.
  // NOTE: the fragment writes (8 rows x 2 chunks per warp instruction) then
  // hit each 16-byte bank group exactly twice -- 2 wavefronts for 256 bytes,
  // the minimum; unswizzled, the 8 rows (512/1024-byte stride) would all
  // fall in the same two bank groups, an 8-way conflict.
  TESSERA_HOST_DEVICE TESSERA_INLINE static int offset(int row, int col) {
    return row * kRowBytes + ((((col >> 2) ^ (row & 7))) << 4) + (col & 3) * 4;
  }

  // Tile coordinates of the first of the value pair `half` (0: c0,c1; 1:
  // c2,c3) of accumulator tile (mi, ni) of `lane` in warp (warp_m, warp_n).
  TESSERA_HOST_DEVICE TESSERA_INLINE static void fragment_coord(int warp_m, int warp_n, int lane, int mi, int ni, int half,
                                                 int& row, int& col) {
    row = warp_m * Cfg::kWarpM + mi * 16 + (lane >> 2) + half * 8;
    col = warp_n * Cfg::kWarpN + ni * 8 + 2 * (lane & 3);
  }

  // Step 1: registers -> shared memory (all threads, after the mainloop).
  template <class FragD>
  __device__ static void stage(char* smem, const FragD (&acc)[Cfg::kMmaM][Cfg::kMmaN], int warp_m,
                               int warp_n) {
    int const lane = int(threadIdx.x) & 31;
#pragma unroll
    for (int mi = 0; mi < Cfg::kMmaM; ++mi)
#pragma unroll
      for (int ni = 0; ni < Cfg::kMmaN; ++ni) {
        float v[4];
        fragment_values(acc[mi][ni], v);
        int row, col;
        fragment_coord(warp_m, warp_n, lane, mi, ni, 0, row, col);
        *reinterpret_cast<float2*>(smem + offset(row, col)) = make_float2(v[0], v[1]);
        *reinterpret_cast<float2*>(smem + offset(row + 8, col)) = make_float2(v[2], v[3]);
      }
  }

  // Tile coordinates of output vector i (kVec elements) of thread tid.
  template <int kVec>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void store_coord(int tid, int i, int& row, int& col) {
    constexpr int kVecPerRow = kBlockN / kVec;
    int const v = tid + i * kThreads;
    row = v / kVecPerRow;
    col = (v % kVecPerRow) * kVec;
  }

  // Step 2: shared memory -> global, kVec outputs (16 bytes) per access.
  template <class TC>
  __device__ static void store(const char* smem, const EpilogueParams& p, int m0, int n0, int m, int n) {
    constexpr int kVec = 16 / int(sizeof(TC));
    constexpr int kVecPerRow = kBlockN / kVec;
    constexpr int kPerThread = kBlockM * kVecPerRow / kThreads;
    static_assert(kBlockM * kVecPerRow % kThreads == 0, "Sm80Epilogue: tile must split evenly over the threads");
    TC* const d = static_cast<TC*>(p.d);
    const TC* const c = static_cast<const TC*>(p.c);
    bool const read_c = p.beta != 0.0f;

    // NOTE: with the epilogue in passes, the warps of later bands hold their
    // accumulators while a band is written: no unrolling there (unrolled by
    // 4, t128x256_w4s2 spilled 40 bytes at 255 registers; not unrolled, 12).
#pragma unroll(Cfg::kEpiloguePasses > 1 ? 1 : 4)
    for (int i = 0; i < kPerThread; ++i) {
      int row, col;
      store_coord<kVec>(int(threadIdx.x), i, row, col);
      int const gm = m0 + row;
      int const gn = n0 + col;
      if (gm >= m || gn >= n) continue;

      float acc[kVec];
#pragma unroll
      for (int q = 0; q < kVec / 4; ++q) {
        float4 f = *reinterpret_cast<const float4*>(smem + offset(row, col + 4 * q));
        acc[4 * q + 0] = f.x;
        acc[4 * q + 1] = f.y;
        acc[4 * q + 2] = f.z;
        acc[4 * q + 3] = f.w;
      }
      bool const full = gn + kVec <= n;
      float src[kVec];
      if (read_c) {
        const TC* crow = c + int64_t(gm) * p.c_row;
        if (full && p.c_vec_ok) {
          union {
            uint4 u;
            TC e[kVec];
          } cv;
          cv.u = *reinterpret_cast<const uint4*>(crow + gn);
#pragma unroll
          for (int e = 0; e < kVec; ++e) src[e] = to_float(cv.e[e]);
        } else {
#pragma unroll
          for (int e = 0; e < kVec; ++e)
            src[e] = gn + e < n ? to_float(crow[int64_t(gn + e) * p.c_col]) : 0.0f;
        }
      }
      union {
        uint4 u;
        TC e[kVec];
      } out;
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        float x = p.alpha * acc[e];
        if (read_c) x = fmaf(p.beta, src[e], x);
        out.e[e] = from_float<TC>(x);
      }
      TC* drow = d + int64_t(gm) * p.ldd;
      if (full && p.d_vec_ok) {
        *reinterpret_cast<uint4*>(drow + gn) = out.u;
      } else {
#pragma unroll
        for (int e = 0; e < kVec; ++e)
          if (gn + e < n) drow[gn + e] = out.e[e];
      }
    }
  }

  // Tail split (sm80_split.hpp), the epilogue of a K-slice of a split tile,
  // after stage() (or the tiled kernel's staging through partition_C) and a
  // barrier: add the staged unscaled sums into the tile's f32 buffer `ws`
  // (kBlockM x kBlockN, row-major) in L2 with red.global.add, count in on
  // `counter`, and in the CTA that counts last of `splits` stage the
  // buffer's sums instead and zero it. Returns whether this CTA then writes
  // D (write()); true in every thread of that CTA only.
  // NOTE: from the staged tile, not from the accumulator registers: the
  // registers' version (a reduction per fragment pair) needed 228 registers
  // in the seed f16-accumulating kernel against 222 from shared memory, and
  // the f32-accumulating one spilled 64 bytes at 255 (ptxas, sm_90a).
  // From shared memory the accumulators are dead, and each warp reduces
  // whole 512-byte rows. The order of the additions in L2 is not fixed, so
  // a split tile's results may differ in the last bits from launch to
  // launch.
  // NOTE: kBatch chunks of the buffer are loaded before any is stored: a
  // store between two loads might alias the second (the compiler cannot
  // tell), which serialised each load behind the previous store in the
  // Hopper kernel's first split-K epilogue (docs/performance.md, run 12).
  __device__ static bool reduce_split(char* smem, float* ws, int* counter, int splits) {
    constexpr int kPerRow = kBlockN / 4, kChunks = kBlockM * kPerRow, kBatch = 4;
    static_assert(kChunks % (kThreads * kBatch) == 0, "Sm80Epilogue: the split buffer must split evenly over the threads");
    float4* const chunks = reinterpret_cast<float4*>(ws);
    auto staged = [smem](int c) -> float4& {
      return *reinterpret_cast<float4*>(smem + offset(c / kPerRow, (c % kPerRow) * 4));
    };
#pragma unroll 4
    for (int c = int(threadIdx.x); c < kChunks; c += kThreads) {
      float4 const v = staged(c);
      arch::red_add_quad_f32(reinterpret_cast<float*>(chunks + c), v.x, v.y, v.z, v.w);
    }
    // The count's flag takes the first word of the staging tile: every
    // thread has read its chunks by the count's first barrier.
    if (!sm80_split_count_in(counter, splits, reinterpret_cast<int*>(smem))) return false;
    for (int c0 = int(threadIdx.x); c0 < kChunks; c0 += kThreads * kBatch) {
      float4 v[kBatch];
#pragma unroll
      for (int i = 0; i < kBatch; ++i) v[i] = __ldcg(chunks + c0 + i * kThreads);
#pragma unroll
      for (int i = 0; i < kBatch; ++i) {
        __stcg(chunks + c0 + i * kThreads, make_float4(0.0f, 0.0f, 0.0f, 0.0f));
        staged(c0 + i * kThreads) = v[i];
      }
    }
    __syncthreads();
    return true;
  }

  // Step 2 for the output type of `p`, from a staged tile (stage(), or the
  // tiled kernel's partition_C of the same swizzled map).
  __device__ static void write(const char* smem, const EpilogueParams& p, int m0, int n0, int m, int n) {
    switch (p.out) {
      case OutputType::f16: store<__half>(smem, p, m0, n0, m, n); break;
      case OutputType::bf16: store<__nv_bfloat16>(smem, p, m0, n0, m, n); break;
      case OutputType::f32: store<float>(smem, p, m0, n0, m, n); break;
    }
  }
};

}  // namespace tessera::kernels::sm80
