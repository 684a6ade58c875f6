// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Bulk copies without a tensor map: one contiguous run of bytes between
// global and shared memory, issued by one thread. Minimum architecture sm_90.
//
//   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar];
//   cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size;
//
// Both addresses 16-byte aligned, size a positive multiple of 16 (PTX ISA).
// The load completes `size` transaction bytes on mbar (arm it with
// mbarrier_arrive_expect_tx first); the store joins the open bulk group,
// closed by cp.async.bulk.commit_group and waited on with
// cp.async.bulk.wait_group{.read} (tma.cuh: tma_store_commit_group,
// tma_store_wait_read, tma_store_wait_writes).

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>
#include <tessera/arch/sm90/tma.cuh>

namespace tessera::arch {

// Global -> shared, completing on `bar`. sm_90.
__device__ __forceinline__ void bulk_copy_g2s(void* smem_dst, const void* gmem_src, uint32_t bytes, uint64_t* bar) {
#if TESSERA_SM90_ENABLED
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          smem_u32(smem_dst)),
      "l"(gmem_src), "r"(bytes), "r"(smem_u32(bar))
      : "memory");
#else
  (void)smem_dst;
  (void)gmem_src;
  (void)bytes;
  (void)bar;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Shared -> global, in the open bulk group. sm_90.
__device__ __forceinline__ void bulk_copy_s2g(void* gmem_dst, const void* smem_src, uint32_t bytes) {
#if TESSERA_SM90_ENABLED
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(gmem_dst),
               "r"(smem_u32(smem_src)), "r"(bytes)
               : "memory");
#else
  (void)gmem_dst;
  (void)smem_src;
  (void)bytes;
  tessera_error_requires_sm90_or_newer();
#endif
}

}  // namespace tessera::arch
