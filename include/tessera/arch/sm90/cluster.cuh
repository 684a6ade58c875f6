// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Thread-block clusters and warp election. Minimum architecture: sm_90.
//
//   mov.u32 %r, %cluster_ctarank;   %cluster_nctarank; %cluster_ctaid.{x,y,z};
//   %cluster_nctaid.{x,y,z}; %clusterid.{x,y,z}; %nclusterid.{x,y,z}
//   mov.pred %p, %is_explicit_cluster;
//   barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;
//   elect.sync %r|%p, membermask;
//   mapa.u64 d, a, rank;   (distributed shared memory)

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
// This cluster's position in the grid, and the grid's extent in clusters,
// per dimension. sm_90. A launch without clusters runs as clusters of one
// CTA, so these are then %ctaid and %nctaid.
TESSERA_SM90_SREG(clusterid_x, "%%clusterid.x")
TESSERA_SM90_SREG(clusterid_y, "%%clusterid.y")
TESSERA_SM90_SREG(clusterid_z, "%%clusterid.z")
TESSERA_SM90_SREG(nclusterid_x, "%%nclusterid.x")
TESSERA_SM90_SREG(nclusterid_y, "%%nclusterid.y")
TESSERA_SM90_SREG(nclusterid_z, "%%nclusterid.z")
#undef TESSERA_SM90_SREG

// mov.pred %p, %is_explicit_cluster: whether the launch asked for clusters
// (__cluster_dims__ or the cluster-dimension launch attribute), rather
// than running as implicit clusters of one CTA. sm_90.
__device__ __forceinline__ bool is_explicit_cluster() {
#if TESSERA_SM90_ENABLED
  uint32_t r;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mov.pred p, %%is_explicit_cluster;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(r));
  return r != 0;
#else
  tessera_error_requires_sm90_or_newer();
  return false;
#endif
}

// barrier.cluster.arrive.release.aligned; sm_90. Every thread of every CTA
// of the cluster arrives.
__device__ __forceinline__ void cluster_arrive() {
#if TESSERA_SM90_ENABLED
  asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
#else
  tessera_error_requires_sm90_or_newer();
#endif
}

// barrier.cluster.arrive.relaxed.aligned; sm_90. An arrival that orders
// none of the thread's earlier memory accesses (no membar is emitted, where
// the release form waits for the thread's outstanding writes at GPU scope).
// Law: after thread t's mbarrier.init and fence_mbarrier_init() (a release
// of the inits at cluster scope), any thread of the cluster that passes the
// matching cluster_wait() may use those barriers, remotely or through the
// TMA unit; nothing else t wrote before the arrival is ordered by it.
__device__ __forceinline__ void cluster_arrive_relaxed() {
#if TESSERA_SM90_ENABLED
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
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

// elect.sync r|p, 0xffffffff, both results: is_leader is true in exactly
// one lane of the warp, and leader_lane is that lane's %laneid, in every
// lane (the PTX ISA promises the same leader for the same membermask every
// time, not which lane). All 32 lanes must execute it together. sm_90.
struct ElectedLane {
  bool is_leader;
  uint32_t leader_lane;
};
__device__ __forceinline__ ElectedLane elect_one_lane_sync() {
#if TESSERA_SM90_ENABLED
  uint32_t lane = 0, pred = 0;
  asm volatile(
      "{\n.reg .pred p;\n"
      "elect.sync %0|p, %2;\n"
      "selp.u32 %1, 1, 0, p;\n}\n"
      : "=r"(lane), "=r"(pred)
      : "r"(0xffffffffu));
  return {pred != 0, lane};
#else
  tessera_error_requires_sm90_or_newer();
  return {false, 0};
#endif
}

// Distributed shared memory. `p` is a generic pointer into this CTA's shared
// memory; the result is the generic pointer to the same offset in the shared
// memory of CTA `cta_rank` of this cluster (mapa.u64 d, a, rank), so that
// ordinary loads, stores and atomics through it reach that CTA (rank ==
// cluster_ctarank() gives p back). The instructions that take shared-window
// addresses (ldmatrix, cp.async, TMA, wgmma descriptors) cannot use it: they
// address this CTA only. The peer's memory is valid while it runs: make its
// writes visible with a cluster barrier (cluster_sync) before reading them,
// and keep it from exiting (a cluster_sync after the last remote access)
// while others still access its memory. sm_90.
// @pre p points into this CTA's shared memory; cta_rank < cluster_nctarank()
template <class T>
__device__ __forceinline__ T* map_shared_rank(T* p, uint32_t cta_rank) {
#if TESSERA_SM90_ENABLED
  uint64_t out;
  asm volatile("mapa.u64 %0, %1, %2;\n" : "=l"(out) : "l"(reinterpret_cast<uint64_t>(p)), "r"(cta_rank));
  return reinterpret_cast<T*>(out);
#else
  (void)cta_rank;
  tessera_error_requires_sm90_or_newer();
  return p;
#endif
}

}  // namespace tessera::arch
