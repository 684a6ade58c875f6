// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CuTe's spelling of the bulk copy: Copy_Atom<SM90_BULK_COPY_AUTO, T>.
// cp.async.bulk without a tensor map, sm_90; one thread issues it.
//
//   Copy_Atom<SM90_BULK_COPY_AUTO, float> bulk;
//   if (threadIdx.x == 0) {
//     mbarrier_arrive_expect_tx(&mbar, size(sA) * sizeof(float));
//     copy(bulk.with(mbar), gA, sA);    // global -> shared, completes on mbar
//   }
//   mbarrier_wait(&mbar, phase);
//   ...
//   if (threadIdx.x == 0) {
//     copy(bulk, sD, gD);               // shared -> global, in the bulk group
//     tma_store_arrive();
//     tma_store_wait<0>();
//   }
//
// The copy is cut into the largest run that is contiguous in both tensors
// (max_common_layout of the two layouts) and issues one cp.async.bulk per
// run: a whole row-major tile moves as one instruction, a tile of a wider
// matrix (a run-time leading dimension) as one per row.
// @law after the copy (and its completion), dst(i) == src(i) for every i < size(src)
//
// Rules, each refused by name:
// - a global -> shared copy names its mbarrier (bulk.with(mbar)); a shared ->
//   global copy names none (it completes in the bulk group);
// - the element sizes of T and of both tensors agree; the sizes agree;
// - the common run is a positive multiple of 16 bytes, known at compile time
//   (both layouts static but for their strides; plain, not swizzled);
//   a run-time contiguous pair falls back to bulk_copy's one-run rules;
// - at run time every run's two addresses are 16-byte aligned: a misaligned
//   one traps (debug builds print the rule first).
// The mbarrier's transaction count is the whole copy, size(src) * sizeof(T):
// every run completes its bytes on it.

#include <cstdint>
#include <type_traits>

#include <tessera/atom/bulk_copy_sm90.cuh>
#include <tessera/atom/copy_atom.hpp>

namespace tessera {

// The operation tag: the run length is chosen from the tensors' layouts.
struct SM90_BULK_COPY_AUTO {};

namespace detail {
// What bulk.with(mbar) carries: the mbarrier a global -> shared copy completes on.
struct BulkCopyMbar {
  std::uint64_t* mbar = nullptr;
};

// One thread; the unit is one 16-byte piece (the smallest bulk copy). The
// copy itself never goes through Copy_Atom::call (see copy below).
struct bulk_copy_auto_traits_base {
  using ThrID = Layout<_1>;
  using SrcLayout = Layout<Shape<_1, _128>>;  // (thr, bits) -> bit
  using DstLayout = SrcLayout;
  using RefLayout = SrcLayout;
};
}  // namespace detail

// Without an mbarrier: shared -> global.
template <>
struct Copy_Traits<SM90_BULK_COPY_AUTO> : detail::bulk_copy_auto_traits_base {
  TESSERA_HOST_DEVICE constexpr Copy_Traits<SM90_BULK_COPY_AUTO, detail::BulkCopyMbar> with(std::uint64_t& mbar) const;
};

// With one: global -> shared.
template <>
struct Copy_Traits<SM90_BULK_COPY_AUTO, detail::BulkCopyMbar> : detail::bulk_copy_auto_traits_base {
  detail::BulkCopyMbar arg{};
};

TESSERA_HOST_DEVICE constexpr Copy_Traits<SM90_BULK_COPY_AUTO, detail::BulkCopyMbar>
Copy_Traits<SM90_BULK_COPY_AUTO>::with(std::uint64_t& mbar) const {
  Copy_Traits<SM90_BULK_COPY_AUTO, detail::BulkCopyMbar> t;
  t.arg.mbar = &mbar;
  return t;
}

namespace detail {

// The largest run contiguous in both layouts, as a layout into their common
// (1-D) domain; _1:_0 when it is not known at compile time. One of the two
// layouts must be wholly static (its right inverse is taken), the other
// static in shape.
template <class SL, class DL>
constexpr auto bulk_auto_run() {
  if constexpr (!is_layout_v<SL> || !is_layout_v<DL> ||
                !is_static_v<decltype(std::declval<SL const&>().shape())> ||
                !is_static_v<decltype(std::declval<DL const&>().shape())>) {
    return Layout<_1, _0>{};
  } else if constexpr (is_static_v<DL>) {
    return decltype(max_common_layout(std::declval<SL const&>(), std::declval<DL const&>())){};
  } else if constexpr (is_static_v<SL>) {
    return decltype(max_common_layout(std::declval<DL const&>(), std::declval<SL const&>())){};
  } else {
    return Layout<_1, _0>{};
  }
}

// One cp.async.bulk per run; issue(src_ptr, dst_ptr, bytes).
template <class T, class Src, class Dst, class Issue>
__device__ void bulk_copy_runs(Src const& src, Dst& dst, Issue const& issue) {
  using SL = typename Src::layout_type;
  using DL = typename std::remove_cvref_t<Dst>::layout_type;
  static_assert(sizeof(T) == sizeof(typename Src::value_type) &&
                    sizeof(T) == sizeof(typename std::remove_cvref_t<Dst>::value_type),
                "copy(Copy_Atom<SM90_BULK_COPY_AUTO, T>): T and the tensors' element sizes differ");
  using Run = decltype(bulk_auto_run<SL, DL>());
  constexpr int kRun = int(decltype(size(Run{}))::value);
  if constexpr (kRun * int(sizeof(T)) >= 16) {
    using SS = decltype(size(std::declval<SL const&>()));
    using DS = decltype(size(std::declval<DL const&>()));
    static_assert(SS::value == DS::value, "copy(Copy_Atom<SM90_BULK_COPY_AUTO, T>): the two tensors have different sizes");
    static_assert((kRun * sizeof(T)) % 16 == 0,
                  "copy(Copy_Atom<SM90_BULK_COPY_AUTO, T>): the run common to both layouts is not a multiple of 16 "
                  "bytes (cp.async.bulk moves 16-byte units) [pad the rows to 16 bytes, or use a TMA copy]");
    // (run, rest) -> index of the common domain; run i of rest r is
    // contiguous in both tensors from index runs(0, r).
    auto const runs = make_layout(Run{}, complement(Run{}, SS{}));
    constexpr int kRest = int(decltype(size<1>(runs))::value);
    for (int r = 0; r < kRest; ++r) {
      int const i = int(runs(0, r));
      void const* s = raw_pointer_cast(src.data() + src.layout()(i));
      void* d = raw_pointer_cast(dst.data() + dst.layout()(i));
      bulk_check(((reinterpret_cast<std::uintptr_t>(s) | reinterpret_cast<std::uintptr_t>(d)) & 15u) == 0,
                 "an address is not 16-byte aligned");
      issue(s, d, std::uint32_t(kRun * sizeof(T)));
    }
  } else {
    static_assert(bulk_contiguous<SL>() && bulk_contiguous<DL>(),
                  "copy(Copy_Atom<SM90_BULK_COPY_AUTO, T>): no run of 16 bytes or more is contiguous in both "
                  "tensors at compile time, and they are not each one contiguous run [make the shapes static and "
                  "the contiguous mode's stride _1 in both, or use a TMA copy for strided tiles]");
    void const* s = raw_pointer_cast(src.data());
    void* d = raw_pointer_cast(dst.data());
    issue(s, d, checked_bulk_bytes(src, dst, s, d));
  }
}

}  // namespace detail

namespace detail {
// Copy_Atom<SM90_BULK_COPY_AUTO, T> and what .with(mbar) makes of it.
template <class Atom>
struct bulk_copy_auto_atom : std::false_type {};
template <class T>
struct bulk_copy_auto_atom<Copy_Atom<SM90_BULK_COPY_AUTO, T>> : std::true_type {
  static constexpr bool kMbar = false;
};
template <class T>
struct bulk_copy_auto_atom<Copy_Atom<Copy_Traits<SM90_BULK_COPY_AUTO>, T>> : std::true_type {
  static constexpr bool kMbar = false;
};
template <class T>
struct bulk_copy_auto_atom<Copy_Atom<Copy_Traits<SM90_BULK_COPY_AUTO, BulkCopyMbar>, T>> : std::true_type {
  static constexpr bool kMbar = true;
};

// The generic copy(atom, src, dst) leaves these atoms to the overload below.
template <class Atom>
  requires bulk_copy_auto_atom<Atom>::value
struct copies_whole_tensor<Atom> : std::true_type {};
}  // namespace detail

// Global -> shared with bulk.with(mbar), completing on the mbarrier; shared
// -> global with bulk itself, in the thread's open bulk group
// (tma_store_arrive / tma_store_wait<N>).
template <class Atom, class SE, class SL, class DstTensor>
  requires(detail::bulk_copy_auto_atom<Atom>::value && is_tensor_v<std::remove_cvref_t<DstTensor>>)
__device__ void copy(Atom const& atom, Tensor<SE, SL> const& src, DstTensor&& dst) {
  using T = typename Atom::ValType;
  if constexpr (detail::bulk_copy_auto_atom<Atom>::kMbar) {
    static_assert(is_gmem_v<std::remove_cvref_t<decltype(src.data())>> &&
                      is_smem_v<std::remove_cvref_t<decltype(dst.data())>>,
                  "copy(bulk.with(mbar), src, dst): copies global memory into shared memory [make_gmem_ptr / "
                  "make_smem_ptr; a shared -> global copy takes the atom without an mbarrier]");
    std::uint64_t* const mbar = atom.arg.mbar;
    detail::bulk_copy_runs<T>(src, dst, [&](void const* s, void* d, std::uint32_t bytes) {
      SM90_BULK_COPY_G2S::copy(s, mbar, d, std::int32_t(bytes));
    });
  } else {
    static_assert(is_smem_v<std::remove_cvref_t<decltype(src.data())>> &&
                      is_gmem_v<std::remove_cvref_t<decltype(dst.data())>>,
                  "copy(bulk, src, dst): without an mbarrier the bulk copy goes from shared to global memory "
                  "[a global -> shared copy completes on an mbarrier: copy(bulk.with(mbar), gsrc, sdst)]");
    detail::bulk_copy_runs<T>(src, dst, [](void const* s, void* d, std::uint32_t bytes) {
      SM90_BULK_COPY_S2G::copy(s, d, std::int32_t(bytes));
    });
  }
}

}  // namespace tessera
