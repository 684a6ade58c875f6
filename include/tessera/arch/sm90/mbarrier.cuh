// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// mbarrier: 64-bit shared-memory barriers with an arrival count and a
// transaction (byte) count; the completion mechanism of TMA. Minimum
// architecture: sm_90 for everything here (expect_tx, try_wait, the cluster
// forms) except mbarrier_init and mbarrier_test_wait_parity, sm_80, which
// with cp.async's arrive (sm80/cp_async.cuh) complete a cp.async ring's
// stages.
//
// A phase completes when its pending arrival count reaches 0 and its
// transaction count is 0; the barrier then flips its phase parity. Waiting on
// parity P returns once the phase with parity P has completed: on a freshly
// initialised barrier (phase 0 in progress) a wait on parity 1 returns at
// once, which is how a producer starts on "empty" barriers.

#include <cstdint>

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// The shared::cluster address of p's offset in the shared memory of CTA
// `cta_rank` of this cluster: mapa.shared::cluster.u32 d, a, rank; sm_90.
// For the .shared::cluster forms below (remote mbarrier operations).
// @pre p points into this CTA's shared memory; cta_rank < %cluster_nctarank
__device__ __forceinline__ uint32_t cluster_smem_u32(const void* p, uint32_t cta_rank) {
#if TESSERA_SM90_ENABLED
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(smem_u32(p)), "r"(cta_rank));
  return remote;
#else
  (void)p;
  (void)cta_rank;
  tessera_error_requires_sm90_or_newer();
  return 0;
#endif
}

// mbarrier.init.shared::cta.b64 [bar], count; sm_80 (the Ampere kernel fed
// by a copy warp, sm80_ws_gemm.cuh, uses it with cp.async).
__device__ __forceinline__ void mbarrier_init(uint64_t* bar, uint32_t arrive_count) {
#if TESSERA_SM80_ENABLED
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(arrive_count) : "memory");
#else
  (void)bar;
  (void)arrive_count;
  tessera_error_requires_sm80_or_newer();
#endif
}

// mbarrier.inval.shared::cta.b64 [bar]; sm_90. Needed before the memory is
// reused for anything but an mbarrier.
__device__ __forceinline__ void mbarrier_inval(uint64_t* bar) {
#if TESSERA_SM90_ENABLED
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" ::"r"(smem_u32(bar)) : "memory");
#else
  (void)bar;
  tessera_error_requires_sm90_or_newer();
#endif
}

// mbarrier.arrive.shared::cta.b64 _, [bar]; (release, CTA scope) sm_90.
__device__ __forceinline__ void mbarrier_arrive(uint64_t* bar) {
#if TESSERA_SM90_ENABLED
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
#else
  (void)bar;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Arrive on the barrier at the same offset in CTA `cta_rank` of the cluster:
// mbarrier.arrive.shared::cluster.b64 _, [remote]; sm_90. Release at CTA
// scope (the default): it orders this thread's own accesses, which is what
// "done reading my copy of a stage" needs; data written for the peer to read
// needs a cluster-scope fence before it.
// NOTE: the .release.cluster form compiles to a memory barrier in front of
// every arrive. In the clustered GEMM's consumer loop that stalled warps for
// 13.3 cycles per issued instruction and ran at 0.68x the unclustered kernel
// (ncu, run 91, H100, 8192^3).
__device__ __forceinline__ void mbarrier_arrive_cluster(uint64_t* bar, uint32_t cta_rank) {
#if TESSERA_SM90_ENABLED
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_smem_u32(bar, cta_rank)) : "memory");
#else
  (void)bar;
  (void)cta_rank;
  tessera_error_requires_sm90_or_newer();
#endif
}

// The same remote arrive with release semantics at cluster scope:
// mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote]; PTX ISA
// 8.0, sm_90. Every memory access this thread made before it, shared memory
// of any CTA of the cluster included (distributed shared memory written
// through mapa / cluster_local_smem_ptr), is visible to a thread of the
// cluster whose cluster-scope acquire (mbarrier_wait_acquire_cluster on the
// owning CTA) observes the phase this arrive helps complete. So a CTA can
// publish data it wrote into a peer's shared memory without a separate
// __threadfence() / fence.acq_rel.cluster.
// NOTE: opt-in, not the default of mbarrier_arrive_cluster: the stronger
// release is what made the clustered GEMM's consumer loop slow (the NOTE
// above); use it where the arrive publishes data, not where it only says
// "done reading".
__device__ __forceinline__ void mbarrier_arrive_release_cluster(uint64_t* bar, uint32_t cta_rank) {
#if TESSERA_SM90_ENABLED
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_smem_u32(bar, cta_rank))
               : "memory");
#else
  (void)bar;
  (void)cta_rank;
  tessera_error_requires_sm90_or_newer();
#endif
}

// `count` arrivals at once (one thread standing for several):
// mbarrier.arrive.shared::cta.b64 _, [bar], count; sm_90.
__device__ __forceinline__ void mbarrier_arrive_count(uint64_t* bar, uint32_t count) {
#if TESSERA_SM90_ENABLED
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count) : "memory");
#else
  (void)bar;
  (void)count;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Arrive and add `tx_bytes` to the expected transaction count:
// mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], tx; sm_90.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t tx_bytes) {
#if TESSERA_SM90_ENABLED
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(tx_bytes)
               : "memory");
#else
  (void)bar;
  (void)tx_bytes;
  tessera_error_requires_sm90_or_newer();
#endif
}

// The same on the barrier at bar's offset in CTA `cta_rank` of the cluster
// (cta_rank may be this CTA's own):
// mbarrier.arrive.expect_tx.shared::cluster.b64 _, [remote], tx; sm_90.
// Release at CTA scope, as mbarrier_arrive_cluster.
__device__ __forceinline__ void mbarrier_arrive_expect_tx_cluster(uint64_t* bar, uint32_t cta_rank, uint32_t tx_bytes) {
#if TESSERA_SM90_ENABLED
  asm volatile("mbarrier.arrive.expect_tx.shared::cluster.b64 _, [%0], %1;\n" ::"r"(cluster_smem_u32(bar, cta_rank)),
               "r"(tx_bytes)
               : "memory");
#else
  (void)bar;
  (void)cta_rank;
  (void)tx_bytes;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Expect more bytes without arriving: mbarrier.expect_tx.shared::cta.b64 [bar], tx; sm_90.
__device__ __forceinline__ void mbarrier_expect_tx(uint64_t* bar, uint32_t tx_bytes) {
#if TESSERA_SM90_ENABLED
  asm volatile("mbarrier.expect_tx.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(tx_bytes) : "memory");
#else
  (void)bar;
  (void)tx_bytes;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Expect `tx_bytes` more bytes without arriving, on the barrier at bar's
// offset in CTA `cta_rank` of the cluster (possibly this one):
// mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [remote], tx; PTX
// ISA 8.0, sm_90. Relaxed: it orders no memory access. For producers whose
// bytes land in a peer CTA (st.async, bulk copies into shared::cluster).
__device__ __forceinline__ void mbarrier_expect_tx_cluster(uint64_t* bar, uint32_t cta_rank, uint32_t tx_bytes) {
#if TESSERA_SM90_ENABLED
  asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;\n" ::"r"(
                   cluster_smem_u32(bar, cta_rank)),
               "r"(tx_bytes)
               : "memory");
#else
  (void)bar;
  (void)cta_rank;
  (void)tx_bytes;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Count `tx_bytes` transactions as done, without moving data, on the barrier
// at bar's offset in CTA `cta_rank` of the cluster:
// mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [remote], tx;
// sm_90. Relaxed: it orders no memory access, so it can stand in for bytes
// that arrived some other way (or for a test), not publish data by itself.
__device__ __forceinline__ void mbarrier_complete_tx_cluster(uint64_t* bar, uint32_t cta_rank, uint32_t tx_bytes) {
#if TESSERA_SM90_ENABLED
  asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;\n" ::"r"(
                   cluster_smem_u32(bar, cta_rank)),
               "r"(tx_bytes)
               : "memory");
#else
  (void)bar;
  (void)cta_rank;
  (void)tx_bytes;
  tessera_error_requires_sm90_or_newer();
#endif
}

// A test that never suspends: mbarrier.test_wait.parity.shared::cta.b64 p,
// [bar], parity; sm_80. True once the phase with `parity` has completed
// (acquire, CTA scope).
__device__ __forceinline__ bool mbarrier_test_wait_parity(uint64_t* bar, uint32_t parity) {
#if TESSERA_SM80_ENABLED
  uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(smem_u32(bar)), "r"(parity)
      : "memory");
  return done != 0;
#else
  (void)bar;
  (void)parity;
  tessera_error_requires_sm80_or_newer();
  return false;
#endif
}

// One probe: mbarrier.try_wait.parity.shared::cta.b64 p, [bar], parity; sm_90.
// True once the phase with `parity` has completed (acquire, CTA scope).
__device__ __forceinline__ bool mbarrier_try_wait_parity(uint64_t* bar, uint32_t parity) {
#if TESSERA_SM90_ENABLED
  uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(smem_u32(bar)), "r"(parity)
      : "memory");
  return done != 0;
#else
  (void)bar;
  (void)parity;
  tessera_error_requires_sm90_or_newer();
  return false;
#endif
}

// Blocks until the phase with `parity` has completed (try_wait loop; the
// instruction itself suspends for a hardware-chosen time). sm_90.
__device__ __forceinline__ void mbarrier_wait(uint64_t* bar, uint32_t parity) {
#if TESSERA_SM90_ENABLED
  asm volatile(
      "{\n.reg .pred p;\n"
      "TESSERA_WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      "@!p bra TESSERA_WAIT_%=;\n}\n" ::"r"(smem_u32(bar)),
      "r"(parity)
      : "memory");
#else
  (void)bar;
  (void)parity;
  tessera_error_requires_sm90_or_newer();
#endif
}

// The waits above acquire at CTA scope: they see what this CTA's threads
// released. Data a peer CTA published into this CTA's shared memory (by
// mbarrier_arrive_release_cluster, or by st.async, whose complete_tx
// releases at cluster scope) needs the acquire at cluster scope, so that the
// release and the acquire are in each other's scope (PTX memory model,
// "morally strong"). The .acquire.cluster forms below, PTX ISA 8.0, sm_90;
// the barrier is still this CTA's own (.shared::cta).

// mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [bar], parity; sm_90.
__device__ __forceinline__ bool mbarrier_test_wait_parity_acquire_cluster(uint64_t* bar, uint32_t parity) {
#if TESSERA_SM90_ENABLED
  uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(smem_u32(bar)), "r"(parity)
      : "memory");
  return done != 0;
#else
  (void)bar;
  (void)parity;
  tessera_error_requires_sm90_or_newer();
  return false;
#endif
}

// mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [bar], parity; sm_90.
__device__ __forceinline__ bool mbarrier_try_wait_parity_acquire_cluster(uint64_t* bar, uint32_t parity) {
#if TESSERA_SM90_ENABLED
  uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(smem_u32(bar)), "r"(parity)
      : "memory");
  return done != 0;
#else
  (void)bar;
  (void)parity;
  tessera_error_requires_sm90_or_newer();
  return false;
#endif
}

// Blocks until the phase with `parity` has completed, acquiring at cluster
// scope (a try_wait.parity.acquire.cluster loop). sm_90.
__device__ __forceinline__ void mbarrier_wait_acquire_cluster(uint64_t* bar, uint32_t parity) {
#if TESSERA_SM90_ENABLED
  asm volatile(
      "{\n.reg .pred p;\n"
      "TESSERA_WAIT_CLUSTER_%=:\n"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], %1;\n"
      "@!p bra TESSERA_WAIT_CLUSTER_%=;\n}\n" ::"r"(smem_u32(bar)),
      "r"(parity)
      : "memory");
#else
  (void)bar;
  (void)parity;
  tessera_error_requires_sm90_or_newer();
#endif
}

}  // namespace tessera::arch
