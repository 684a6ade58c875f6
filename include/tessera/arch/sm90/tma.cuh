// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// TMA: bulk tensor copies between global memory and shared memory driven by a
// CUtensorMap (encoded on the host, src/tma/tensor_map.hpp). Minimum
// architecture: sm_90.
//
//   cp.async.bulk.tensor.{1d..5d}.shared::cluster.global.mbarrier::complete_tx::bytes
//       [dst], [tmap, {c0, ..., c(R-1)}], [mbar];
//   ... .multicast::cluster [dst], [tmap, {...}], [mbar], ctaMask;
//   cp.async.bulk.tensor.{1d..5d}.global.shared::cta.bulk_group [tmap, {...}], [src];
//   cp.reduce.async.bulk.tensor.{1d..5d}.global.shared::cta.add.bulk_group [tmap, {...}], [src];
//   cp.async.bulk.commit_group;  cp.async.bulk.wait_group{.read} N;
//   prefetch.tensormap [tmap];
//   cp.async.bulk.prefetch.tensor.{1d..5d}.L2.global.tile [tmap, {...}];
// and the loads and the prefetch with an L2 cache policy (the
// .L2::cache_hint qualifier last, the 64-bit policy the last operand):
//   ... .mbarrier::complete_tx::bytes.L2::cache_hint [dst], [tmap, {...}], [mbar], policy;
//   ... .mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [dst], [tmap, {...}], [mbar], ctaMask, policy;
//   cp.async.bulk.prefetch.tensor.{1d..5d}.L2.global.tile.L2::cache_hint [tmap, {...}], policy;
//
// One function per operation, its rank the number of coordinates passed
// (1 to 5, the tensor map's rank; more or fewer fails the build):
//   tma_load(dst, tmap, bar, c0, c1, c2, c3)        a 4-D box
//   tma_load_multicast(dst, tmap, bar, mask, c...)  tma_store(tmap, src, c...)
//   tma_reduce_add(tmap, src, c...)                 tma_prefetch(tmap, c...)
//   tma_load_cache_hint(dst, tmap, bar, policy, c...)
//   tma_load_multicast_cache_hint(dst, tmap, bar, mask, policy, c...)
//   tma_prefetch_cache_hint(tmap, policy, c...)
// and the older fixed-rank names (tma_load_2d, tma_store_3d, ...), which
// call them. A policy is createpolicy's value (arch/sm80/cache_policy.cuh);
// the hinted forms copy exactly what the plain ones do (PTX ISA 8.0, sm_90,
// as the plain forms).
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
#include <type_traits>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>

namespace tessera::arch {

__device__ __forceinline__ uint64_t tmap_u64(const void* tmap) { return reinterpret_cast<uint64_t>(tmap); }

namespace detail {

// The coordinates of one TMA instruction, c[0] innermost; the entries past
// its rank are 0 (bound to the instruction's operands but never read).
struct TmaBoxCoords {
  int32_t c[5];
};

template <class... Coords>
__device__ __forceinline__ TmaBoxCoords tma_box_coords(Coords... coords) {
  static_assert(sizeof...(Coords) >= 1 && sizeof...(Coords) <= 5,
                "tma: a TMA box has 1 to 5 coordinates [one per dimension of the tensor map, innermost first]");
  static_assert((std::is_integral_v<Coords> && ...), "tma: TMA coordinates are integers (signed 32-bit)");
  return TmaBoxCoords{{static_cast<int32_t>(coords)...}};
}

}  // namespace detail

// The asm operands %0..%4 are the five coordinates; TESSERA_TMA_BY_RANK_
// expands ASM(".Rd", "{%0, ..., %(R-1)}") for the rank R, so each operation
// below is written once for all five ranks. (Macros, undefined at the end of
// this file: an asm template must be a string literal.)
#define TESSERA_TMA_COORD_OPERANDS_(b) "r"(b.c[0]), "r"(b.c[1]), "r"(b.c[2]), "r"(b.c[3]), "r"(b.c[4])
#define TESSERA_TMA_BY_RANK_(R, ASM)                \
  if constexpr ((R) == 1) {                         \
    ASM(".1d", "{%0}");                             \
  } else if constexpr ((R) == 2) {                  \
    ASM(".2d", "{%0, %1}");                         \
  } else if constexpr ((R) == 3) {                  \
    ASM(".3d", "{%0, %1, %2}");                     \
  } else if constexpr ((R) == 4) {                  \
    ASM(".4d", "{%0, %1, %2, %3}");                 \
  } else {                                          \
    ASM(".5d", "{%0, %1, %2, %3, %4}");             \
  }

// prefetch.tensormap [tmap]; sm_90.
__device__ __forceinline__ void tma_prefetch_descriptor(const void* tmap) {
#if TESSERA_SM90_ENABLED
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(tmap_u64(tmap)) : "memory");
#else
  (void)tmap;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Prefetch of a tile of rank 1-5 into L2 (no shared memory, no completion:
// a hint a later load of the same tile may find in L2). Coordinates as for
// the loads; a tile reaching past the tensor prefetches what lies inside.
//   cp.async.bulk.prefetch.tensor.{1d..5d}.L2.global.tile [tmap, {...}];  sm_90.
template <class... Coords>
__device__ __forceinline__ void tma_prefetch(const void* tmap, Coords... coords) {
  detail::TmaBoxCoords const b = detail::tma_box_coords(coords...);
#if TESSERA_SM90_ENABLED
  constexpr int R = int(sizeof...(Coords));
  uint64_t const map = tmap_u64(tmap);
#define TESSERA_TMA_PREFETCH_ASM_(DIM, COORDS)                                                                      \
  asm volatile("cp.async.bulk.prefetch.tensor" DIM ".L2.global.tile [%5, " COORDS "];\n" ::TESSERA_TMA_COORD_OPERANDS_( \
                   b),                                                                                              \
               "l"(map)                                                                                             \
               : "memory")
  TESSERA_TMA_BY_RANK_(R, TESSERA_TMA_PREFETCH_ASM_)
#undef TESSERA_TMA_PREFETCH_ASM_
#else
  (void)tmap;
  (void)b;
  tessera_error_requires_sm90_or_newer();
#endif
}

// The same with an L2 cache policy for the prefetched lines (createpolicy's
// value). sm_90.
//   cp.async.bulk.prefetch.tensor.{1d..5d}.L2.global.tile.L2::cache_hint [tmap, {...}], policy;
template <class... Coords>
__device__ __forceinline__ void tma_prefetch_cache_hint(const void* tmap, uint64_t policy, Coords... coords) {
  detail::TmaBoxCoords const b = detail::tma_box_coords(coords...);
#if TESSERA_SM90_ENABLED
  constexpr int R = int(sizeof...(Coords));
  uint64_t const map = tmap_u64(tmap);
#define TESSERA_TMA_PREFETCH_HINT_ASM_(DIM, COORDS)                                                        \
  asm volatile("cp.async.bulk.prefetch.tensor" DIM ".L2.global.tile.L2::cache_hint [%5, " COORDS "], %6;\n" :: \
                   TESSERA_TMA_COORD_OPERANDS_(b),                                                         \
               "l"(map), "l"(policy)                                                                       \
               : "memory")
  TESSERA_TMA_BY_RANK_(R, TESSERA_TMA_PREFETCH_HINT_ASM_)
#undef TESSERA_TMA_PREFETCH_HINT_ASM_
#else
  (void)tmap;
  (void)policy;
  (void)b;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Load of a box of rank 1-5 into this CTA's shared memory, completing on
// `bar` (complete_tx of the box's bytes). sm_90.
//   cp.async.bulk.tensor.{1d..5d}.shared::cluster.global.mbarrier::complete_tx::bytes
template <class... Coords>
__device__ __forceinline__ void tma_load(void* smem_dst, const void* tmap, uint64_t* bar, Coords... coords) {
  detail::TmaBoxCoords const b = detail::tma_box_coords(coords...);
#if TESSERA_SM90_ENABLED
  constexpr int R = int(sizeof...(Coords));
  uint32_t const dst = smem_u32(smem_dst), mbar = smem_u32(bar);
  uint64_t const map = tmap_u64(tmap);
#define TESSERA_TMA_LOAD_ASM_(DIM, COORDS)                                                                          \
  asm volatile("cp.async.bulk.tensor" DIM ".shared::cluster.global.mbarrier::complete_tx::bytes [%5], [%6, " COORDS \
               "], [%7];\n" ::TESSERA_TMA_COORD_OPERANDS_(b),                                                       \
               "r"(dst), "l"(map), "r"(mbar)                                                                        \
               : "memory")
  TESSERA_TMA_BY_RANK_(R, TESSERA_TMA_LOAD_ASM_)
#undef TESSERA_TMA_LOAD_ASM_
#else
  (void)smem_dst;
  (void)tmap;
  (void)bar;
  (void)b;
  tessera_error_requires_sm90_or_newer();
#endif
}

// The same with an L2 cache policy for the lines the load reads
// (createpolicy's value). sm_90.
//   cp.async.bulk.tensor.{1d..5d}.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint
template <class... Coords>
__device__ __forceinline__ void tma_load_cache_hint(void* smem_dst, const void* tmap, uint64_t* bar, uint64_t policy,
                                                    Coords... coords) {
  detail::TmaBoxCoords const b = detail::tma_box_coords(coords...);
#if TESSERA_SM90_ENABLED
  constexpr int R = int(sizeof...(Coords));
  uint32_t const dst = smem_u32(smem_dst), mbar = smem_u32(bar);
  uint64_t const map = tmap_u64(tmap);
#define TESSERA_TMA_LOAD_HINT_ASM_(DIM, COORDS)                                                                \
  asm volatile("cp.async.bulk.tensor" DIM                                                                      \
               ".shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%5], [%6, " COORDS        \
               "], [%7], %8;\n" ::TESSERA_TMA_COORD_OPERANDS_(b),                                              \
               "r"(dst), "l"(map), "r"(mbar), "l"(policy)                                                      \
               : "memory")
  TESSERA_TMA_BY_RANK_(R, TESSERA_TMA_LOAD_HINT_ASM_)
#undef TESSERA_TMA_LOAD_HINT_ASM_
#else
  (void)smem_dst;
  (void)tmap;
  (void)bar;
  (void)policy;
  (void)b;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Load of a box of rank 1-5 multicast to every CTA of the cluster whose bit
// is set in `cta_mask`: the box lands at the same shared offset in each, and
// each destination CTA's barrier at `bar`'s offset receives the bytes. sm_90.
//   cp.async.bulk.tensor.{1d..5d}.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
template <class... Coords>
__device__ __forceinline__ void tma_load_multicast(void* smem_dst, const void* tmap, uint64_t* bar, uint16_t cta_mask,
                                                   Coords... coords) {
  detail::TmaBoxCoords const b = detail::tma_box_coords(coords...);
#if TESSERA_SM90_ENABLED
  constexpr int R = int(sizeof...(Coords));
  uint32_t const dst = smem_u32(smem_dst), mbar = smem_u32(bar);
  uint64_t const map = tmap_u64(tmap);
#define TESSERA_TMA_LOAD_MULTICAST_ASM_(DIM, COORDS)                                                                  \
  asm volatile("cp.async.bulk.tensor" DIM                                                                             \
               ".shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%5], [%6, " COORDS "], [%7], " \
               "%8;\n" ::TESSERA_TMA_COORD_OPERANDS_(b),                                                              \
               "r"(dst), "l"(map), "r"(mbar), "h"(cta_mask)                                                           \
               : "memory")
  TESSERA_TMA_BY_RANK_(R, TESSERA_TMA_LOAD_MULTICAST_ASM_)
#undef TESSERA_TMA_LOAD_MULTICAST_ASM_
#else
  (void)smem_dst;
  (void)tmap;
  (void)bar;
  (void)cta_mask;
  (void)b;
  tessera_error_requires_sm90_or_newer();
#endif
}

// The same with an L2 cache policy for the lines the load reads
// (createpolicy's value). sm_90.
//   cp.async.bulk.tensor.{1d..5d}.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint
template <class... Coords>
__device__ __forceinline__ void tma_load_multicast_cache_hint(void* smem_dst, const void* tmap, uint64_t* bar,
                                                              uint16_t cta_mask, uint64_t policy, Coords... coords) {
  detail::TmaBoxCoords const b = detail::tma_box_coords(coords...);
#if TESSERA_SM90_ENABLED
  constexpr int R = int(sizeof...(Coords));
  uint32_t const dst = smem_u32(smem_dst), mbar = smem_u32(bar);
  uint64_t const map = tmap_u64(tmap);
#define TESSERA_TMA_LOAD_MULTICAST_HINT_ASM_(DIM, COORDS)                                                  \
  asm volatile("cp.async.bulk.tensor" DIM                                                                  \
               ".shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [%5], " \
               "[%6, " COORDS "], [%7], %8, %9;\n" ::TESSERA_TMA_COORD_OPERANDS_(b),                       \
               "r"(dst), "l"(map), "r"(mbar), "h"(cta_mask), "l"(policy)                                   \
               : "memory")
  TESSERA_TMA_BY_RANK_(R, TESSERA_TMA_LOAD_MULTICAST_HINT_ASM_)
#undef TESSERA_TMA_LOAD_MULTICAST_HINT_ASM_
#else
  (void)smem_dst;
  (void)tmap;
  (void)bar;
  (void)cta_mask;
  (void)policy;
  (void)b;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Store of a box of rank 1-5 from shared memory (bulk-group completion). sm_90.
//   cp.async.bulk.tensor.{1d..5d}.global.shared::cta.bulk_group
template <class... Coords>
__device__ __forceinline__ void tma_store(const void* tmap, const void* smem_src, Coords... coords) {
  detail::TmaBoxCoords const b = detail::tma_box_coords(coords...);
#if TESSERA_SM90_ENABLED
  constexpr int R = int(sizeof...(Coords));
  uint32_t const src = smem_u32(smem_src);
  uint64_t const map = tmap_u64(tmap);
#define TESSERA_TMA_STORE_ASM_(DIM, COORDS)                                                                 \
  asm volatile("cp.async.bulk.tensor" DIM ".global.shared::cta.bulk_group [%5, " COORDS "], [%6];\n" ::     \
                   TESSERA_TMA_COORD_OPERANDS_(b),                                                          \
               "l"(map), "r"(src)                                                                           \
               : "memory")
  TESSERA_TMA_BY_RANK_(R, TESSERA_TMA_STORE_ASM_)
#undef TESSERA_TMA_STORE_ASM_
#else
  (void)tmap;
  (void)smem_src;
  (void)b;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Element-wise add of a shared box of rank 1-5 into global memory
// (bulk-group completion; the element types the tensor map allows for .add).
// sm_90.
//   cp.reduce.async.bulk.tensor.{1d..5d}.global.shared::cta.add.bulk_group
template <class... Coords>
__device__ __forceinline__ void tma_reduce_add(const void* tmap, const void* smem_src, Coords... coords) {
  detail::TmaBoxCoords const b = detail::tma_box_coords(coords...);
#if TESSERA_SM90_ENABLED
  constexpr int R = int(sizeof...(Coords));
  uint32_t const src = smem_u32(smem_src);
  uint64_t const map = tmap_u64(tmap);
#define TESSERA_TMA_REDUCE_ADD_ASM_(DIM, COORDS)                                                                   \
  asm volatile("cp.reduce.async.bulk.tensor" DIM ".global.shared::cta.add.bulk_group [%5, " COORDS "], [%6];\n" :: \
                   TESSERA_TMA_COORD_OPERANDS_(b),                                                                 \
               "l"(map), "r"(src)                                                                                  \
               : "memory")
  TESSERA_TMA_BY_RANK_(R, TESSERA_TMA_REDUCE_ADD_ASM_)
#undef TESSERA_TMA_REDUCE_ADD_ASM_
#else
  (void)tmap;
  (void)smem_src;
  (void)b;
  tessera_error_requires_sm90_or_newer();
#endif
}

#undef TESSERA_TMA_BY_RANK_
#undef TESSERA_TMA_COORD_OPERANDS_

// The fixed-rank names (the GEMM kernels and older tests use them). sm_90.
__device__ __forceinline__ void tma_prefetch_2d(const void* tmap, int32_t c0, int32_t c1) {
  tma_prefetch(tmap, c0, c1);
}
__device__ __forceinline__ void tma_prefetch_3d(const void* tmap, int32_t c0, int32_t c1, int32_t c2) {
  tma_prefetch(tmap, c0, c1, c2);
}
__device__ __forceinline__ void tma_load_2d(void* smem_dst, const void* tmap, uint64_t* bar, int32_t c0,
                                            int32_t c1) {
  tma_load(smem_dst, tmap, bar, c0, c1);
}
__device__ __forceinline__ void tma_load_3d(void* smem_dst, const void* tmap, uint64_t* bar, int32_t c0,
                                            int32_t c1, int32_t c2) {
  tma_load(smem_dst, tmap, bar, c0, c1, c2);
}
__device__ __forceinline__ void tma_load_2d_multicast(void* smem_dst, const void* tmap, uint64_t* bar,
                                                      uint16_t cta_mask, int32_t c0, int32_t c1) {
  tma_load_multicast(smem_dst, tmap, bar, cta_mask, c0, c1);
}
__device__ __forceinline__ void tma_store_2d(const void* tmap, const void* smem_src, int32_t c0, int32_t c1) {
  tma_store(tmap, smem_src, c0, c1);
}
__device__ __forceinline__ void tma_store_3d(const void* tmap, const void* smem_src, int32_t c0, int32_t c1,
                                             int32_t c2) {
  tma_store(tmap, smem_src, c0, c1, c2);
}
__device__ __forceinline__ void tma_reduce_add_2d(const void* tmap, const void* smem_src, int32_t c0, int32_t c1) {
  tma_reduce_add(tmap, smem_src, c0, c1);
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
