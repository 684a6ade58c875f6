// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// TMA: bulk tensor copies between global memory and shared memory driven by a
// CUtensorMap (encoded on the host, src/tma/tensor_map.hpp). Minimum
// architecture: sm_90.
//
//   cp.async.bulk.tensor.{2d,3d}.shared::cluster.global.mbarrier::complete_tx::bytes
//       [dst], [tmap, {c0, c1(, c2)}], [mbar];
//   ... .multicast::cluster [dst], [tmap, {...}], [mbar], ctaMask;
//   cp.async.bulk.tensor.{2d,3d}.global.shared::cta.bulk_group [tmap, {...}], [src];
//   cp.reduce.async.bulk.tensor.{2d,3d}.global.shared::cta.add.bulk_group [tmap, {...}], [src];
//   cp.async.bulk.commit_group;  cp.async.bulk.wait_group{.read} N;
//   prefetch.tensormap [tmap];
//   cp.async.bulk.prefetch.tensor.{2d,3d}.L2.global.tile [tmap, {...}];
//
// Coordinates are signed 32-bit element indices, innermost dimension first.
// The innermost coordinate times the element size must be a multiple of 16
// bytes, also for boxes starting outside the tensor (negative coordinates):
// on an H200 a 2-byte box at x = -5 raised "illegal instruction" while boxes
// at 16-byte multiples loaded fine (tests/device/test_hopper_tma_sm90.cu,
// MisalignedInnerCoordinateFaults; not stated in the PTX ISA). The outer
// coordinates are free;
// boxes that reach past the tensor are zero-filled on load (and the full box
// still counts toward the mbarrier's transaction bytes) and clipped on store.
// The tensor map must live in global, const or parameter space (a
// `const __grid_constant__ CUtensorMap` kernel parameter is the usual home).
// `dst`/`src` shared addresses must be 128-byte aligned (1024 for 128B swizzle
// patterns to line up with the wgmma descriptor's view).

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>

namespace tessera::arch {

__device__ __forceinline__ uint64_t tmap_u64(const void* tmap) { return reinterpret_cast<uint64_t>(tmap); }

// prefetch.tensormap [tmap]; sm_90.
__device__ __forceinline__ void tma_prefetch_descriptor(const void* tmap) {
#if TESSERA_SM90_ENABLED
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(tmap_u64(tmap)) : "memory");
#else
  (void)tmap;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Prefetch of a 2D / 3D tile into L2 (no shared memory, no completion: a
// hint a later load of the same tile may find in L2). Coordinates as for the
// loads; a tile reaching past the tensor prefetches what lies inside.
//   cp.async.bulk.prefetch.tensor.{2d,3d}.L2.global.tile [tmap, {...}];  sm_90.
__device__ __forceinline__ void tma_prefetch_2d(const void* tmap, int32_t c0, int32_t c1) {
#if TESSERA_SM90_ENABLED
  asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];\n" ::"l"(tmap_u64(tmap)), "r"(c0),
               "r"(c1)
               : "memory");
#else
  (void)tmap;
  (void)c0;
  (void)c1;
  tessera_error_requires_sm90_or_newer();
#endif
}
__device__ __forceinline__ void tma_prefetch_3d(const void* tmap, int32_t c0, int32_t c1, int32_t c2) {
#if TESSERA_SM90_ENABLED
  asm volatile("cp.async.bulk.prefetch.tensor.3d.L2.global.tile [%0, {%1, %2, %3}];\n" ::"l"(tmap_u64(tmap)),
               "r"(c0), "r"(c1), "r"(c2)
               : "memory");
#else
  (void)tmap;
  (void)c0;
  (void)c1;
  (void)c2;
  tessera_error_requires_sm90_or_newer();
#endif
}

// 2D tile load completing on `bar`. sm_90.
__device__ __forceinline__ void tma_load_2d(void* smem_dst, const void* tmap, uint64_t* bar, int32_t c0,
                                            int32_t c1) {
#if TESSERA_SM90_ENABLED
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(
          smem_u32(smem_dst)),
      "l"(tmap_u64(tmap)), "r"(smem_u32(bar)), "r"(c0), "r"(c1)
      : "memory");
#else
  (void)smem_dst;
  (void)tmap;
  (void)bar;
  (void)c0;
  (void)c1;
  tessera_error_requires_sm90_or_newer();
#endif
}

// 3D tile load completing on `bar`. sm_90.
__device__ __forceinline__ void tma_load_3d(void* smem_dst, const void* tmap, uint64_t* bar, int32_t c0,
                                            int32_t c1, int32_t c2) {
#if TESSERA_SM90_ENABLED
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], "
      "[%2];\n" ::"r"(smem_u32(smem_dst)),
      "l"(tmap_u64(tmap)), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
#else
  (void)smem_dst;
  (void)tmap;
  (void)bar;
  (void)c0;
  (void)c1;
  (void)c2;
  tessera_error_requires_sm90_or_newer();
#endif
}

// 2D load multicast to every CTA of the cluster whose bit is set in
// `cta_mask`: the tile lands at the same shared offset in each, and each
// destination CTA's barrier at `bar`'s offset receives the bytes. sm_90.
__device__ __forceinline__ void tma_load_2d_multicast(void* smem_dst, const void* tmap, uint64_t* bar,
                                                      uint16_t cta_mask, int32_t c0, int32_t c1) {
#if TESSERA_SM90_ENABLED
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, "
      "{%4, %5}], [%2], %3;\n" ::"r"(smem_u32(smem_dst)),
      "l"(tmap_u64(tmap)), "r"(smem_u32(bar)), "h"(cta_mask), "r"(c0), "r"(c1)
      : "memory");
#else
  (void)smem_dst;
  (void)tmap;
  (void)bar;
  (void)cta_mask;
  (void)c0;
  (void)c1;
  tessera_error_requires_sm90_or_newer();
#endif
}

// 2D tile store from shared memory (bulk-group completion). sm_90.
__device__ __forceinline__ void tma_store_2d(const void* tmap, const void* smem_src, int32_t c0, int32_t c1) {
#if TESSERA_SM90_ENABLED
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(tmap_u64(tmap)),
               "r"(smem_u32(smem_src)), "r"(c0), "r"(c1)
               : "memory");
#else
  (void)tmap;
  (void)smem_src;
  (void)c0;
  (void)c1;
  tessera_error_requires_sm90_or_newer();
#endif
}

// 3D tile store from shared memory. sm_90.
__device__ __forceinline__ void tma_store_3d(const void* tmap, const void* smem_src, int32_t c0, int32_t c1,
                                             int32_t c2) {
#if TESSERA_SM90_ENABLED
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];\n" ::"l"(
                   tmap_u64(tmap)),
               "r"(smem_u32(smem_src)), "r"(c0), "r"(c1), "r"(c2)
               : "memory");
#else
  (void)tmap;
  (void)smem_src;
  (void)c0;
  (void)c1;
  (void)c2;
  tessera_error_requires_sm90_or_newer();
#endif
}

// 2D element-wise add of a shared tile into global memory. sm_90.
__device__ __forceinline__ void tma_reduce_add_2d(const void* tmap, const void* smem_src, int32_t c0, int32_t c1) {
#if TESSERA_SM90_ENABLED
  asm volatile(
      "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
          tmap_u64(tmap)),
      "r"(smem_u32(smem_src)), "r"(c0), "r"(c1)
      : "memory");
#else
  (void)tmap;
  (void)smem_src;
  (void)c0;
  (void)c1;
  tessera_error_requires_sm90_or_newer();
#endif
}

// cp.async.bulk.commit_group; sm_90.
__device__ __forceinline__ void tma_store_commit_group() {
#if TESSERA_SM90_ENABLED
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#else
  tessera_error_requires_sm90_or_newer();
#endif
}

// cp.async.bulk.wait_group.read N: the shared sources of all but the newest
// kPending bulk groups may be overwritten. sm_90.
template <int kPending>
__device__ __forceinline__ void tma_store_wait_read() {
  static_assert(kPending >= 0 && kPending <= 63, "tma_store_wait_read: N must be in [0, 63]");
#if TESSERA_SM90_ENABLED
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(kPending) : "memory");
#else
  tessera_error_requires_sm90_or_newer();
#endif
}

// cp.async.bulk.wait_group N: the writes to global memory are complete (not
// only the shared sources read, as tma_store_wait_read and CuTe's
// tessera::tma_store_wait wait for). sm_90.
template <int kPending>
__device__ __forceinline__ void tma_store_wait_writes() {
  static_assert(kPending >= 0 && kPending <= 63, "tma_store_wait_writes: N must be in [0, 63]");
#if TESSERA_SM90_ENABLED
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(kPending) : "memory");
#else
  tessera_error_requires_sm90_or_newer();
#endif
}

}  // namespace tessera::arch
