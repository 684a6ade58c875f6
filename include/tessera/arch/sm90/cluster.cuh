// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Thread-block clusters and warp election. Minimum architecture: sm_90.
//
//   mov.u32 %r, %cluster_ctarank;   %cluster_nctarank; %cluster_ctaid.{x,y,z};
//   %cluster_nctaid.{x,y,z}
//   barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;
//   elect.sync %r|%p, membermask;

#include <cstdint>

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

#if TESSERA_SM90_ENABLED
#define TESSERA_SM90_SREG(NAME, REG)                        \
  __device__ __forceinline__ uint32_t NAME() {              \
    uint32_t r;                                             \
    asm volatile("mov.u32 %0, " REG ";\n" : "=r"(r));       \
    return r;                                               \
  }
#else
#define TESSERA_SM90_SREG(NAME, REG)           \
  __device__ __forceinline__ uint32_t NAME() { \
    tessera_error_requires_sm90_or_newer();    \
    return 0;                                  \
  }
#endif

// Rank of this CTA in its cluster, and the cluster size. sm_90.
TESSERA_SM90_SREG(cluster_ctarank, "%%cluster_ctarank")
TESSERA_SM90_SREG(cluster_nctarank, "%%cluster_nctarank")
// This CTA's position in its cluster, and the cluster shape. sm_90.
TESSERA_SM90_SREG(cluster_ctaid_x, "%%cluster_ctaid.x")
TESSERA_SM90_SREG(cluster_ctaid_y, "%%cluster_ctaid.y")
TESSERA_SM90_SREG(cluster_ctaid_z, "%%cluster_ctaid.z")
TESSERA_SM90_SREG(cluster_nctaid_x, "%%cluster_nctaid.x")
TESSERA_SM90_SREG(cluster_nctaid_y, "%%cluster_nctaid.y")
TESSERA_SM90_SREG(cluster_nctaid_z, "%%cluster_nctaid.z")
#undef TESSERA_SM90_SREG

// barrier.cluster.arrive.release.aligned; sm_90. Every thread of every CTA
// of the cluster arrives.
__device__ __forceinline__ void cluster_arrive() {
#if TESSERA_SM90_ENABLED
  asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
#else
  tessera_error_requires_sm90_or_newer();
#endif
}

// barrier.cluster.wait.acquire.aligned; sm_90.
__device__ __forceinline__ void cluster_wait() {
#if TESSERA_SM90_ENABLED
  asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#else
  tessera_error_requires_sm90_or_newer();
#endif
}

// arrive + wait: a full cluster-wide barrier. sm_90.
__device__ __forceinline__ void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}

// elect.sync _|p, 0xffffffff: true in exactly one active lane of the warp
// (the whole warp must execute it). sm_90.
__device__ __forceinline__ bool elect_one_sync() {
#if TESSERA_SM90_ENABLED
  uint32_t pred = 0;
  asm volatile(
      "{\n.reg .b32 r;\n.reg .pred p;\n"
      "elect.sync r|p, %1;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(pred)
      : "r"(0xffffffffu));
  return pred != 0;
#else
  tessera_error_requires_sm90_or_newer();
  return false;
#endif
}

}  // namespace tessera::arch
