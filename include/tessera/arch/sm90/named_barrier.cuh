// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Named CTA barriers: a subset of the CTA's warps synchronises on one of the
// 16 hardware barriers (id 0 is the one __syncthreads uses).
//
//   bar.sync id, nthreads;     (PTX 2.0+, sm_20+; used here by sm_90 kernels
//                              and the copy-warp Ampere kernel)
//   bar.arrive id, nthreads;   (the same, without waiting)
//
// `nthreads` counts threads, a multiple of 32; every warp taking part
// executes the instruction with the same id and count.

#include <cstdint>

namespace tessera::arch {

// bar.sync id, nthreads; any architecture this library targets.
__device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t nthreads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(nthreads) : "memory");
}

// bar.arrive id, nthreads; any architecture this library targets. Counts
// this warp towards barrier `id` and goes on. When the barrier completes,
// this thread's earlier memory accesses are performed relative to the
// threads that waited on it with named_barrier_sync: a consumer frees a
// buffer for a producer this way (the copy-warp Ampere kernel).
__device__ __forceinline__ void named_barrier_arrive(uint32_t id, uint32_t nthreads) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(nthreads) : "memory");
}

}  // namespace tessera::arch
