// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// prefetch: asks a cache level for the line that holds a global address.
// A hint: nothing comes back to the thread and nothing waits for it.
//
//   prefetch.global.L2 [a];               sm_20+ (every target Tessera builds)
//   prefetch.global.L2::evict_last [a];   sm_80+ (PTX 7.4): the line is kept
//                                         in L2 ahead of evict_normal lines
//   prefetch.global.L2::evict_normal [a]; sm_80+ (PTX 7.4)
//
// The tensor form, prefetch(gT) in tensor/algorithm/prefetch.hpp, issues the
// first once per 128-byte line a global tensor touches.

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

// NOTE: the "memory" clobber keeps the compiler from moving the loads the
// prefetch is for above it.

// The L2 line holding `gmem`, a global-memory address.
// PTX: prefetch.global.L2 [a]; sm_20+.
__device__ __forceinline__ void prefetch_l2(const void* gmem) {
#if TESSERA_DEVICE_PASS
  asm volatile("prefetch.global.L2 [%0];\n" ::"l"(__cvta_generic_to_global(gmem)) : "memory");
#else
  (void)gmem;
#endif
}

// The same with the evict_last eviction priority.
// PTX: prefetch.global.L2::evict_last [a]; sm_80+.
__device__ __forceinline__ void prefetch_l2_evict_last(const void* gmem) {
#if TESSERA_SM80_ENABLED
  asm volatile("prefetch.global.L2::evict_last [%0];\n" ::"l"(__cvta_generic_to_global(gmem)) : "memory");
#else
  (void)gmem;
  tessera_error_requires_sm80_or_newer();
#endif
}

// The same with the evict_normal eviction priority (what plain
// prefetch.global.L2 lines get, spelled out).
// PTX: prefetch.global.L2::evict_normal [a]; sm_80+ (PTX 7.4).
__device__ __forceinline__ void prefetch_l2_evict_normal(const void* gmem) {
#if TESSERA_SM80_ENABLED
  asm volatile("prefetch.global.L2::evict_normal [%0];\n" ::"l"(__cvta_generic_to_global(gmem)) : "memory");
#else
  (void)gmem;
  tessera_error_requires_sm80_or_newer();
#endif
}

}  // namespace tessera::arch
