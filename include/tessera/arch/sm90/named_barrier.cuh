// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Named CTA barriers: a subset of the CTA's warps synchronises on one of the
// 16 hardware barriers (id 0 is the one __syncthreads uses).
//
//   bar.sync id, nthreads;     (PTX 2.0+, sm_20+; used here by sm_90 kernels)
//
// `nthreads` counts threads, a multiple of 32; every warp taking part
// executes the instruction with the same id and count.

#include <cstdint>

namespace tessera::arch {

// bar.sync id, nthreads; any architecture this library targets.
__device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t nthreads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(nthreads) : "memory");
}

}  // namespace tessera::arch
