// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// st.async: a store into the shared memory of a CTA of this cluster that
// reports its bytes to an mbarrier of that same CTA when it lands.
// PTX ISA 8.1, sm_90.
//
//   st.async.shared::cluster.mbarrier::complete_tx::bytes{.v2,.v4}.b32 [dst], v, [mbar];
//
// Rules (PTX ISA, st.async): dst and mbar are shared::cluster addresses in
// the same CTA; the cluster has more than one CTA (%cluster_nctarank > 1),
// otherwise the behaviour is undefined. The store itself is weak; the
// complete_tx it performs on mbar releases at cluster scope, so a thread of
// the destination CTA that acquires at cluster scope on mbar
// (mbarrier_wait_acquire_cluster) and sees the phase complete sees the data.
// The destination's barrier must expect the bytes (expect_tx) in the phase
// they complete; a dst of 4 (b32) or 16 (v4.b32) bytes, aligned to its size.

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>

namespace tessera::arch {

// 4 bytes into CTA `cta_rank`'s copy of `dst` (an address in this CTA's
// shared memory, mapped with mapa), completing 4 bytes on its copy of `bar`.
__device__ __forceinline__ void st_async_b32(void* dst, uint32_t value, uint64_t* bar, uint32_t cta_rank) {
#if TESSERA_SM90_ENABLED
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];\n" ::"r"(
                   cluster_smem_u32(dst, cta_rank)),
               "r"(value), "r"(cluster_smem_u32(bar, cta_rank))
               : "memory");
#else
  (void)dst;
  (void)value;
  (void)bar;
  (void)cta_rank;
  tessera_error_requires_sm90_or_newer();
#endif
}

// 16 bytes (dst 16-byte aligned), completing 16 bytes on CTA `cta_rank`'s `bar`.
__device__ __forceinline__ void st_async_v4_b32(void* dst, uint32_t v0, uint32_t v1, uint32_t v2, uint32_t v3,
                                                uint64_t* bar, uint32_t cta_rank) {
#if TESSERA_SM90_ENABLED
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];\n" ::"r"(
                   cluster_smem_u32(dst, cta_rank)),
               "r"(v0), "r"(v1), "r"(v2), "r"(v3), "r"(cluster_smem_u32(bar, cta_rank))
               : "memory");
#else
  (void)dst;
  (void)v0;
  (void)v1;
  (void)v2;
  (void)v3;
  (void)bar;
  (void)cta_rank;
  tessera_error_requires_sm90_or_newer();
#endif
}

}  // namespace tessera::arch
