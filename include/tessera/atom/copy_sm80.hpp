// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// cp.async copy atoms (global -> shared without registers), sm_80+.
//
//   SM80_CP_ASYNC_CACHEALWAYS<S>        cp.async.ca, sizeof(S) in {4, 8, 16}
//   SM80_CP_ASYNC_CACHEGLOBAL<S>        cp.async.cg, sizeof(S) == 16
//   ..._ZFILL<S>                        predicated: when the atom's `pred` is
//                                       false nothing is read and the
//                                       destination is zero-filled
//   ..._ZFILL_N<S>                      predicated by a byte count: atom.with(n)
//                                       reads the first n <= sizeof(S) bytes
//                                       and zero-fills the rest (cp.async's
//                                       src-size operand; n = 0 reads nothing);
//                                       on the host an immediate copy, so that
//                                       kernels using it can be emulated
//
// The copies join the thread's current cp.async group: close it with
// cp_async_fence() and wait with cp_async_wait<N>().

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <tessera/atom/copy_traits.hpp>

#if defined(__CUDACC__)
#include <tessera/arch/sm80/cp_async.cuh>
#endif

namespace tessera {

namespace detail {

template <class S, class D, bool kGlobal, bool kZfill>
struct sm80_cp_async {
  using SRegisters = S[1];
  using DRegisters = D[1];
  static_assert(sizeof(S) == sizeof(D), "SM80_CP_ASYNC: source and destination units differ in size");
  static_assert(sizeof(S) == 4 || sizeof(S) == 8 || sizeof(S) == 16,
                "SM80_CP_ASYNC: cp.async moves 4, 8 or 16 bytes [use uint32_t, uint64_t or uint128_t]");
  static_assert(!kGlobal || sizeof(S) == 16,
                "SM80_CP_ASYNC_CACHEGLOBAL: cp.async.cg moves exactly 16 bytes [use CACHEALWAYS]");

#if defined(__CUDACC__)
  using Policy = std::conditional_t<kGlobal, arch::CacheGlobal, arch::CacheAlways>;
  // PTX: cp.async.{ca,cg}.shared.global [dst], [src], sizeof(S){, src-size}; sm_80+.
  __device__ static void copy(S const& gmem_src, D& smem_dst, bool pred = true) {
    if constexpr (kZfill) {
      arch::cp_async<int(sizeof(S)), Policy>(&smem_dst, &gmem_src, pred);
    } else {
      (void)pred;
      arch::cp_async<int(sizeof(S)), Policy>(&smem_dst, &gmem_src);
    }
  }
#endif
};

template <class S, class D, bool kZfill>
struct sm80_cp_async_traits {
  using ThrID = Layout<_1>;
  using SrcLayout = Layout<Shape<_1, Int<bits_of<S>>>>;  // (T1,bits) -> bit
  using DstLayout = Layout<Shape<_1, Int<bits_of<D>>>>;
  using RefLayout = SrcLayout;
};

}  // namespace detail

template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEALWAYS : detail::sm80_cp_async<S, D, false, false> {};
template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEGLOBAL : detail::sm80_cp_async<S, D, true, false> {};
template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEALWAYS_ZFILL : detail::sm80_cp_async<S, D, false, true> {};
template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEGLOBAL_ZFILL : detail::sm80_cp_async<S, D, true, true> {};

template <class S, class D>
struct Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<S, D>> : detail::sm80_cp_async_traits<S, D, false> {
  template <class STensor, class DTensor>
  TESSERA_HOST_DEVICE static void copy_unpack(Copy_Traits const&, STensor const& src, DTensor&& dst) {
#if defined(__CUDA_ARCH__)
    SM80_CP_ASYNC_CACHEALWAYS<S, D>::copy(*reinterpret_cast<S const*>(&src(0)), *reinterpret_cast<D*>(&dst(0)));
#else
    (void)src;
    (void)dst;
#endif
  }
};
template <class S, class D>
struct Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL<S, D>> : detail::sm80_cp_async_traits<S, D, false> {
  template <class STensor, class DTensor>
  TESSERA_HOST_DEVICE static void copy_unpack(Copy_Traits const&, STensor const& src, DTensor&& dst) {
#if defined(__CUDA_ARCH__)
    SM80_CP_ASYNC_CACHEGLOBAL<S, D>::copy(*reinterpret_cast<S const*>(&src(0)), *reinterpret_cast<D*>(&dst(0)));
#else
    (void)src;
    (void)dst;
#endif
  }
};

// The ZFILL traits carry the predicate: atom.with(pred) sets it.
template <class S, class D>
struct Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<S, D>> : detail::sm80_cp_async_traits<S, D, true> {
  bool pred = true;
  TESSERA_HOST_DEVICE constexpr Copy_Traits with(bool p) const { return Copy_Traits{{}, p}; }

  template <class STensor, class DTensor>
  TESSERA_HOST_DEVICE static void copy_unpack(Copy_Traits const& traits, STensor const& src, DTensor&& dst) {
#if defined(__CUDA_ARCH__)
    SM80_CP_ASYNC_CACHEALWAYS_ZFILL<S, D>::copy(*reinterpret_cast<S const*>(&src(0)),
                                                *reinterpret_cast<D*>(&dst(0)), traits.pred);
#else
    (void)traits;
    (void)src;
    (void)dst;
#endif
  }
};
template <class S, class D>
struct Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<S, D>> : detail::sm80_cp_async_traits<S, D, true> {
  bool pred = true;
  TESSERA_HOST_DEVICE constexpr Copy_Traits with(bool p) const { return Copy_Traits{{}, p}; }

  template <class STensor, class DTensor>
  TESSERA_HOST_DEVICE static void copy_unpack(Copy_Traits const& traits, STensor const& src, DTensor&& dst) {
#if defined(__CUDA_ARCH__)
    SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<S, D>::copy(*reinterpret_cast<S const*>(&src(0)),
                                                *reinterpret_cast<D*>(&dst(0)), traits.pred);
#else
    (void)traits;
    (void)src;
    (void)dst;
#endif
  }
};

// The byte-count form (..._ZFILL_N). The copy is cp.async's src-size form on
// the device; on the host the same bytes are moved at once (what the
// destination holds after cp_async_wait), for host tests and emulation.
namespace detail {
template <class Op, class S, class D, bool kGlobal>
struct sm80_cp_async_zfill_n_traits : sm80_cp_async_traits<S, D, true> {
  std::uint32_t src_bytes = sizeof(S);
  // The same traits, reading the first n bytes.
  TESSERA_HOST_DEVICE constexpr Copy_Traits<Op> with(std::uint32_t n) const {
    Copy_Traits<Op> t{};
    t.src_bytes = n;
    return t;
  }

  template <class STensor, class DTensor>
  TESSERA_HOST_DEVICE static void copy_unpack(sm80_cp_async_zfill_n_traits const& traits, STensor const& src,
                                              DTensor&& dst) {
    void const* s = &src(0);
    void* d = &dst(0);
#if defined(__CUDA_ARCH__)
    using Policy = std::conditional_t<kGlobal, arch::CacheGlobal, arch::CacheAlways>;
    arch::cp_async_zfill<int(sizeof(S)), Policy>(d, s, traits.src_bytes);
#else
    TESSERA_ASSERT(traits.src_bytes <= sizeof(S));
    TESSERA_ASSERT(reinterpret_cast<std::uintptr_t>(d) % sizeof(S) == 0);
    TESSERA_ASSERT(traits.src_bytes == 0 || reinterpret_cast<std::uintptr_t>(s) % sizeof(S) == 0);
    if (traits.src_bytes != 0) std::memcpy(d, s, traits.src_bytes);
    std::memset(static_cast<char*>(d) + traits.src_bytes, 0, sizeof(S) - traits.src_bytes);
#endif
  }
};
}  // namespace detail

template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N {
  using SRegisters = S[1];
  using DRegisters = D[1];
  static_assert(sizeof(S) == sizeof(D), "SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N: source and destination units differ in size");
  static_assert(sizeof(S) == 4 || sizeof(S) == 8 || sizeof(S) == 16,
                "SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N: cp.async moves 4, 8 or 16 bytes [use uint32_t, uint64_t or uint128_t]");
};
template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEGLOBAL_ZFILL_N {
  using SRegisters = S[1];
  using DRegisters = D[1];
  static_assert(sizeof(S) == sizeof(D), "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL_N: source and destination units differ in size");
  static_assert(sizeof(S) == 16, "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL_N: cp.async.cg moves exactly 16 bytes [use CACHEALWAYS]");
};

template <class S, class D>
struct Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N<S, D>> : detail::sm80_cp_async_zfill_n_traits<SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N<S, D>, S, D, false> {};
template <class S, class D>
struct Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL_N<S, D>> : detail::sm80_cp_async_zfill_n_traits<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL_N<S, D>, S, D, true> {};

#if defined(__CUDACC__)
// Closes this thread's current group of cp.async copies. PTX: cp.async.commit_group; sm_80+.
__device__ inline void cp_async_fence() { arch::cp_async_fence(); }

// Waits until at most kPending committed groups are in flight (then
// __syncthreads() to see other threads' copies). PTX: cp.async.wait_group; sm_80+.
template <int kPending>
__device__ inline void cp_async_wait() {
  arch::cp_async_wait<kPending>();
}
#endif

}  // namespace tessera
