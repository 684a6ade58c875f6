// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Bulk copies of contiguous tensors between global and shared memory, no
// tensor map (cp.async.bulk; sm_90):
//
//   bulk_copy(gsrc, sdst, mbar)   global -> shared, one thread; completes
//                                 bulk_bytes(gsrc) transaction bytes on mbar
//   bulk_copy(ssrc, gdst)         shared -> global, in the open bulk group
//                                 (tma_store_arrive / tma_store_wait<N>)
//
//   if (threadIdx.x == 0) {
//     mbarrier_arrive_expect_tx(&mbar, bulk_bytes(gBias));
//     bulk_copy(gBias, sBias, mbar);     // e.g. a bias vector or a row of scales
//   }
//   mbarrier_wait(&mbar, phase);
//
// CuTe's instruction-level names are here too: SM90_BULK_COPY_G2S::copy(
// gmem_ptr, mbar_ptr, smem_ptr, bytes) and SM90_BULK_COPY_S2G::copy(smem_ptr,
// gmem_ptr, bytes). CuTe's Copy_Atom<SM90_BULK_COPY_AUTO, T>, which also
// cuts a copy into several runs, is in bulk_copy_auto_sm90.cuh.
//
// Rules, each refused by name: the global side views global memory and the
// shared side shared memory; one element size; both layouts one contiguous
// run (coalesce(layout) == n:_1, or a static bijection onto [0, size) such
// as a row-major tile) that places elements alike; the same size; the run a positive multiple
// of 16 bytes (at compile time when static). At run time both addresses
// must be 16-byte aligned: a misaligned one traps (debug builds print the
// rule first).

#include <cstdint>
#include <type_traits>

#include <tessera/arch/sm90/bulk_copy.cuh>
#include <tessera/tensor.hpp>

namespace tessera {

struct SM90_BULK_COPY_G2S {
  __device__ static void copy(void const* gmem_ptr, std::uint64_t* mbar_ptr, void* smem_ptr, std::int32_t load_bytes) {
    arch::bulk_copy_g2s(smem_ptr, gmem_ptr, std::uint32_t(load_bytes), mbar_ptr);
  }
};
struct SM90_BULK_COPY_S2G {
  __device__ static void copy(void const* smem_ptr, void* gmem_ptr, std::int32_t store_bytes) {
    arch::bulk_copy_s2g(gmem_ptr, smem_ptr, std::uint32_t(store_bytes));
  }
};

namespace detail {
// One contiguous run: coalesces to n:_1 (any shape, run-time included), or
// a static layout that is a bijection onto [0, size) in another mode order
// (row-major, say: its right inverse covers the whole run).
template <class L>
constexpr bool bulk_contiguous() {
  if constexpr (!is_layout_v<L>) {
    return false;  // a swizzled (composed) layout is not one run in memory order
  } else {
    using C = decltype(coalesce(std::declval<L const&>()));
    using CS = std::remove_cvref_t<decltype(std::declval<C const&>().shape())>;
    using CD = std::remove_cvref_t<decltype(std::declval<C const&>().stride())>;
    if constexpr (!is_tuple_v<CS> && (is_constant_v<1, CD> || is_constant_v<1, CS>)) {
      return true;
    } else if constexpr (is_static_v<L>) {
      return decltype(size(right_inverse(L{})))::value == decltype(size(L{}))::value;
    } else {
      return false;
    }
  }
}

template <class Src, class Dst>
__device__ void check_bulk_pair() {
  static_assert(sizeof(typename Src::value_type) == sizeof(typename Dst::value_type),
                "bulk_copy: the two tensors' element sizes differ");
  static_assert(bulk_contiguous<typename Src::layout_type>() && bulk_contiguous<typename Dst::layout_type>(),
                "bulk_copy: each tensor must be one contiguous run (coalesce(layout) == n:_1, or a static layout "
                "onto [0, size) in another mode order) [copy rows one by one, or use a TMA copy for strided tiles]");
  using CSrc = decltype(coalesce(std::declval<typename Src::layout_type const&>()));
  using CDst = decltype(coalesce(std::declval<typename Dst::layout_type const&>()));
  static_assert(std::is_same_v<CSrc, CDst> ||
                    (!is_tuple_v<std::remove_cvref_t<decltype(std::declval<CSrc const&>().shape())>> &&
                     !is_tuple_v<std::remove_cvref_t<decltype(std::declval<CDst const&>().shape())>>),
                "bulk_copy: the two layouts place elements differently in their runs (a bulk copy moves bytes in "
                "order and cannot transpose) [give both tensors the same layout]");
  using SS = decltype(size(std::declval<typename Src::layout_type const&>()));
  using DS = decltype(size(std::declval<typename Dst::layout_type const&>()));
  if constexpr (is_static_v<SS> && is_static_v<DS>) {
    static_assert(SS::value == DS::value, "bulk_copy: the two tensors have different sizes");
    static_assert((SS::value * sizeof(typename Src::value_type)) % 16 == 0 && SS::value > 0,
                  "bulk_copy: the run is not a positive multiple of 16 bytes (cp.async.bulk moves 16-byte units)");
  }
}

__device__ inline void bulk_check(bool ok, char const* rule) {
  if (!ok) {
#if !defined(NDEBUG)
    printf("tessera bulk_copy: %s\n", rule);
#endif
    (void)rule;
    __trap();
  }
}
}  // namespace detail

// The bytes a bulk_copy of `t` moves (the mbarrier's transaction count).
template <class E, class L>
__device__ std::uint32_t bulk_bytes(Tensor<E, L> const& t) {
  return std::uint32_t(size(t.layout())) * std::uint32_t(sizeof(typename Tensor<E, L>::value_type));
}

namespace detail {
// Both directions' rules, at compile time and at run time (a and b: the two
// addresses); the bytes to move.
template <class Src, class Dst>
__device__ std::uint32_t checked_bulk_bytes(Src const& src, Dst const& dst, void const* a, void const* b) {
  check_bulk_pair<Src, Dst>();
  std::uint32_t const bytes = bulk_bytes(src);
  bulk_check(bytes == bulk_bytes(dst) && bytes % 16 == 0 && bytes > 0,
             "the sizes differ or are not a positive multiple of 16 bytes");
  bulk_check(((reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(b)) & 15u) == 0,
             "an address is not 16-byte aligned");
  return bytes;
}
}  // namespace detail

template <class GE, class GL, class STensor>
  requires is_tensor_v<std::remove_cvref_t<STensor>>
__device__ void bulk_copy(Tensor<GE, GL> const& gsrc, STensor&& sdst, std::uint64_t& mbar) {
  static_assert(is_gmem_v<std::remove_cvref_t<decltype(gsrc.data())>> &&
                    is_smem_v<std::remove_cvref_t<decltype(sdst.data())>>,
                "bulk_copy(gsrc, sdst, mbar): the source must view global memory and the destination shared memory "
                "[make_gmem_ptr / make_smem_ptr]");
  void const* g = raw_pointer_cast(gsrc.data());
  void* s = raw_pointer_cast(sdst.data());
  std::uint32_t const bytes = detail::checked_bulk_bytes(gsrc, sdst, g, s);
  SM90_BULK_COPY_G2S::copy(g, &mbar, s, std::int32_t(bytes));
}

template <class SE, class SL, class GTensor>
  requires is_tensor_v<std::remove_cvref_t<GTensor>>
__device__ void bulk_copy(Tensor<SE, SL> const& ssrc, GTensor&& gdst) {
  static_assert(is_smem_v<std::remove_cvref_t<decltype(ssrc.data())>> &&
                    is_gmem_v<std::remove_cvref_t<decltype(gdst.data())>>,
                "bulk_copy(ssrc, gdst): the source must view shared memory and the destination global memory "
                "[make_smem_ptr / make_gmem_ptr]");
  void const* s = raw_pointer_cast(ssrc.data());
  void* g = raw_pointer_cast(gdst.data());
  std::uint32_t const bytes = detail::checked_bulk_bytes(ssrc, gdst, s, g);
  SM90_BULK_COPY_S2G::copy(s, g, std::int32_t(bytes));
}

}  // namespace tessera
