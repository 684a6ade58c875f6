// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// cp.async: asynchronous global -> shared copies that bypass the register file.
// Minimum architecture: sm_80.
//
//   cp.async.ca.shared.global [dst], [src], cp-size{, src-size};   cp-size 4, 8, 16
//   cp.async.cg.shared.global [dst], [src], 16{, src-size};
//   cp.async.commit_group;
//   cp.async.wait_group N;
//   cp.async.wait_all;
//   cp.async.mbarrier.arrive.noinc.shared.b64 [bar];
//
// .ca caches the line in L1 and L2 ("cache always"); .cg caches in L2 only
// ("cache global") and exists only for 16-byte copies. With the src-size
// operand only src-size bytes are read and the rest of the cp-size bytes in
// shared memory are written as zeros; src-size 0 reads nothing from src, which
// is how partial tiles are zero-filled without touching out-of-bounds memory.
//
// Addresses: dst must be a shared-memory pointer aligned to cp-size, src a
// global-memory pointer aligned to cp-size.

#include <cstdint>
#include <type_traits>

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

// Cache policy tags for cp_async.
struct CacheAlways {};  // cp.async.ca: L1 + L2
struct CacheGlobal {};  // cp.async.cg: L2 only, 16 bytes only

namespace detail {

template <int kBytes, class CachePolicy>
__device__ __forceinline__ constexpr void cp_async_check() {
  static_assert(kBytes == 4 || kBytes == 8 || kBytes == 16,
                "cp_async: copy size must be 4, 8 or 16 bytes");
  static_assert(std::is_same_v<CachePolicy, CacheAlways> || std::is_same_v<CachePolicy, CacheGlobal>,
                "cp_async: cache policy must be CacheAlways or CacheGlobal");
  static_assert(!std::is_same_v<CachePolicy, CacheGlobal> || kBytes == 16,
                "cp_async: CacheGlobal (cp.async.cg) copies exactly 16 bytes [use CacheAlways for 4 or 8]");
}

}  // namespace detail

// Copies kBytes from global `gmem_src` to shared `smem_dst`, asynchronously.
// The copy joins the current cp.async group; see cp_async_fence().
// PTX: cp.async.{ca,cg}.shared.global [dst], [src], kBytes; sm_80+.
template <int kBytes, class CachePolicy = CacheAlways>
__device__ __forceinline__ void cp_async(void* smem_dst, const void* gmem_src) {
  detail::cp_async_check<kBytes, CachePolicy>();
#if TESSERA_SM80_ENABLED
  const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst));
  const auto src = __cvta_generic_to_global(gmem_src);
  if constexpr (std::is_same_v<CachePolicy, CacheGlobal>) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(kBytes) : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(kBytes) : "memory");
  }
#else
  (void)smem_dst;
  (void)gmem_src;
  tessera_error_requires_sm80_or_newer();
#endif
}

// Copies the first `src_bytes` (0 <= src_bytes <= kBytes) of `gmem_src` into
// `smem_dst` and writes zeros to the remaining kBytes - src_bytes bytes.
// src_bytes == 0 reads nothing: `gmem_src` may then point out of bounds.
// PTX: cp.async.{ca,cg}.shared.global [dst], [src], kBytes, src_bytes; sm_80+.
template <int kBytes, class CachePolicy = CacheAlways>
__device__ __forceinline__ void cp_async_zfill(void* smem_dst, const void* gmem_src, uint32_t src_bytes) {
  detail::cp_async_check<kBytes, CachePolicy>();
#if TESSERA_SM80_ENABLED
  const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst));
  const auto src = __cvta_generic_to_global(gmem_src);
  if constexpr (std::is_same_v<CachePolicy, CacheGlobal>) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(src), "n"(kBytes),
                 "r"(src_bytes)
                 : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(src), "n"(kBytes),
                 "r"(src_bytes)
                 : "memory");
  }
#else
  (void)smem_dst;
  (void)gmem_src;
  (void)src_bytes;
  tessera_error_requires_sm80_or_newer();
#endif
}

// Predicated copy: all kBytes when `pred` is true, otherwise kBytes of zeros
// written to `smem_dst` and nothing read from `gmem_src` (which may then be
// out of bounds). This is the ZFILL form used for partial tiles.
// PTX: cp.async.{ca,cg}.shared.global [dst], [src], kBytes, (pred ? kBytes : 0); sm_80+.
template <int kBytes, class CachePolicy = CacheAlways>
__device__ __forceinline__ void cp_async(void* smem_dst, const void* gmem_src, bool pred) {
  cp_async_zfill<kBytes, CachePolicy>(smem_dst, gmem_src, pred ? uint32_t{kBytes} : uint32_t{0});
}

// Closes the current group of cp.async operations issued by this thread.
// PTX: cp.async.commit_group; sm_80+.
__device__ __forceinline__ void cp_async_fence() {
#if TESSERA_SM80_ENABLED
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#else
  tessera_error_requires_sm80_or_newer();
#endif
}

// Waits until at most kPending of this thread's committed groups are still in
// flight. Visibility to other threads needs a barrier (__syncthreads) after.
// PTX: cp.async.wait_group kPending; sm_80+.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  static_assert(kPending >= 0, "cp_async_wait: the number of pending groups cannot be negative");
#if TESSERA_SM80_ENABLED
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#else
  tessera_error_requires_sm80_or_newer();
#endif
}

// Waits for every cp.async issued by this thread, committed or not.
// PTX: cp.async.wait_all; sm_80+.
__device__ __forceinline__ void cp_async_wait_all() {
#if TESSERA_SM80_ENABLED
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#else
  tessera_error_requires_sm80_or_newer();
#endif
}

// Makes the mbarrier at `bar` (shared memory, initialised) track this
// thread's cp.async copies issued so far: one arrival on `bar` once they have
// all landed, without raising its pending count first (.noinc), so the
// barrier's expected arrivals must count these. Threads that wait on the
// phase then see the copies' data (the phase's completion orders them).
// PTX: cp.async.mbarrier.arrive.noinc.shared.b64 [bar]; sm_80+.
__device__ __forceinline__ void cp_async_mbarrier_arrive_noinc(uint64_t* bar) {
#if TESSERA_SM80_ENABLED
  auto const addr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];\n" ::"r"(addr) : "memory");
#else
  (void)bar;
  tessera_error_requires_sm80_or_newer();
#endif
}

}  // namespace tessera::arch
