// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// GPU-scope atomics with explicit memory-order semantics (PTX memory model,
// sm_70 and later; Tessera's floor is sm_80), and float reductions in L2
// (scalar; the vector form on sm_90).
//
// The counting pattern they serve (split-K in sm90_ws_gemm, the tail split
// of the sm80 kernels): every thread of
// a group stores its data, the group meets at a barrier, then one thread
// increments a counter with acq_rel: the release half publishes the whole
// group's stores (the barrier made them precede the increment), the acquire
// half makes every earlier incrementer's data visible to this group once it
// meets at the next barrier. Unlike __threadfence() in every thread (a
// sequentially consistent fence per thread), this costs one ordered atomic
// per group.

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

// atom.add.acq_rel.gpu.s32: returns the value before the addition.
__device__ __forceinline__ int atomic_add_acq_rel_gpu(int* address, int value) {
#if TESSERA_SM80_ENABLED
  int before = 0;
  asm volatile("atom.add.acq_rel.gpu.s32 %0, [%1], %2;\n" : "=r"(before) : "l"(address), "r"(value) : "memory");
  return before;
#else
  tessera_error_requires_sm80_or_newer();
  return 0;
#endif
}

// st.relaxed.gpu.s32: a store other threads' atomics on `address` see
// coherently (no ordering of other memory operations).
__device__ __forceinline__ void store_relaxed_gpu(int* address, int value) {
#if TESSERA_SM80_ENABLED
  asm volatile("st.relaxed.gpu.s32 [%0], %1;\n" ::"l"(address), "r"(value) : "memory");
#else
  tessera_error_requires_sm80_or_newer();
#endif
}

// red.global.add.f32 (relaxed, gpu scope): adds v to the float at `address`
// in L2, no value returned.
__device__ __forceinline__ void red_add_f32(float* address, float v) {
#if TESSERA_SM80_ENABLED
  asm volatile("red.global.add.f32 [%0], %1;\n" ::"l"(address), "f"(v) : "memory");
#else
  tessera_error_requires_sm80_or_newer();
#endif
}

// Adds (v0, v1, v2, v3) to the four floats at `address` (16-byte
// aligned): one red.global.add.v4.f32 on sm_90, four scalar reductions on
// sm_80.
__device__ __forceinline__ void red_add_quad_f32(float* address, float v0, float v1, float v2, float v3) {
#if TESSERA_SM90_ENABLED
  asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"l"(address), "f"(v0), "f"(v1), "f"(v2), "f"(v3)
               : "memory");
#elif TESSERA_SM80_ENABLED
  red_add_f32(address, v0);
  red_add_f32(address + 1, v1);
  red_add_f32(address + 2, v2);
  red_add_f32(address + 3, v3);
#else
  tessera_error_requires_sm80_or_newer();
#endif
}

}  // namespace tessera::arch
