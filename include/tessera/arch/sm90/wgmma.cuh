// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// wgmma: warpgroup-level asynchronous matrix multiply-accumulate. Minimum
// architecture: sm_90a (the architecture-specific target; plain sm_90 lacks it).
//
//   wgmma.fence.sync.aligned;
//   wgmma.commit_group.sync.aligned;
//   wgmma.wait_group.sync.aligned N;
//   wgmma.mma_async.sync.aligned.m64nNkK.<d>.<a>.<b> d, a-desc|{a}, b-desc, scale-d, ...;
//
// A warpgroup is 4 consecutive warps whose first warp index is a multiple of
// 4; all 128 threads issue each instruction. The accumulator of m64nN holds
// 64xN values spread over the warpgroup: thread t (warp w = t/32, g = lane/4,
// q = lane%4) holds, for each 8-column block j, the f32/s32 values
//   d[4j+0] = (16w+g,   8j+2q)   d[4j+1] = (16w+g,   8j+2q+1)
//   d[4j+2] = (16w+g+8, 8j+2q)   d[4j+3] = (16w+g+8, 8j+2q+1)
// and for an f16 accumulator the pairs packed: d[2j] = row 16w+g, d[2j+1] =
// row 16w+g+8, columns 8j+2q (low half) and 8j+2q+1 (high half).
// The RS form's A registers (4 x b32) follow mma.sync's m16nXk16 A fragment
// per warp (rows 16w..16w+15): a0 (g, k 0-7 part), a1 (g+8), a2 (g, k+8),
// a3 (g+8, k+8); see docs/hopper.md for each element width.
//
// Wgmma<Family, N>::ss<tnspA, tnspB, scaleA, scaleB>(d, desc_a, desc_b, scale_d)
// Wgmma<Family, N>::rs<tnspB, scaleA, scaleB>(d, a, desc_b, scale_d)
// scale_d == 0 computes d = A*B (the old d is ignored), otherwise d += A*B.
// tnspA/tnspB (16-bit families only): 0 = K-major, 1 = MN-major in shared
// memory. scaleA/scaleB: 1 or -1.

#include <cstdint>

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

// Families: <accumulator><A><B>. K is 16 for 16-bit inputs, 8 for tf32, 32
// for 8-bit inputs.
struct F16F16F16 {};
struct F32F16F16 {};
struct F32BF16BF16 {};
struct F32TF32TF32 {};
struct F32E4M3E4M3 {};
struct F32E4M3E5M2 {};
struct F32E5M2E4M3 {};
struct F32E5M2E5M2 {};
struct S32S8S8 {};
struct S32U8U8 {};

// Which immediates follow scale-d in the instruction.
enum class WgmmaImmKind { TNSP, SCALE, NONE };

template <class Family, int N>
struct Wgmma {
  static_assert(N >= 8 && N <= 256 && N % 8 == 0,
                "Wgmma: N must be a multiple of 8 in [8, 256] [m64nNkK shapes]");
  static_assert(sizeof(Family) == 0,
                "Wgmma: unknown family [use one of F16F16F16, F32F16F16, F32BF16BF16, F32TF32TF32, "
                "F32E4M3E4M3, F32E4M3E5M2, F32E5M2E4M3, F32E5M2E5M2, S32S8S8, S32U8U8]");
};

// wgmma.fence.sync.aligned: orders register accesses (accumulators, RS A
// fragments) before the next wgmma.mma_async. sm_90a.
__device__ __forceinline__ void wgmma_fence() {
#if TESSERA_SM90A_ENABLED
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  tessera_error_requires_sm90a();
#endif
}

// wgmma.commit_group.sync.aligned: closes the group of prior wgmma ops. sm_90a.
__device__ __forceinline__ void wgmma_commit_group() {
#if TESSERA_SM90A_ENABLED
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#else
  tessera_error_requires_sm90a();
#endif
}

// wgmma.wait_group.sync.aligned N: waits until at most kPending groups are
// in flight. sm_90a.
template <int kPending>
__device__ __forceinline__ void wgmma_wait_group() {
  static_assert(kPending >= 0 && kPending <= 7, "wgmma_wait_group: N must be in [0, 7]");
#if TESSERA_SM90A_ENABLED
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
#else
  tessera_error_requires_sm90a();
#endif
}

// A compiler-only barrier on registers: keeps the compiler from moving reads
// or writes of `r` across the wgmma fence/commit/wait (it cannot see that the
// asynchronous op owns them). Emits no instruction.
__device__ __forceinline__ void wgmma_fence_operand(float& r) { asm volatile("" : "+f"(r)::"memory"); }
__device__ __forceinline__ void wgmma_fence_operand(uint32_t& r) { asm volatile("" : "+r"(r)::"memory"); }
__device__ __forceinline__ void wgmma_fence_operand(int32_t& r) { asm volatile("" : "+r"(r)::"memory"); }
template <class T, int kN>
__device__ __forceinline__ void wgmma_fence_operand(T (&r)[kN]) {
#pragma unroll
  for (int i = 0; i < kN; ++i) wgmma_fence_operand(r[i]);
}

}  // namespace tessera::arch

#include <tessera/arch/sm90/wgmma_ops.cuh>
