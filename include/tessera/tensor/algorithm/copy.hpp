// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// copy(src, dst)            element-wise, vectorised up to 128-bit accesses when
//                           both layouts and both pointers allow it
// copy_if(pred, src, dst)   element i copied iff pred(i)
// copy(atom, src, dst)      src/dst shaped (V, REST...): atom.call(src(_,r), dst(_,r))
//                           for every r -- works for a Copy_Atom and a TiledCopy
// copy_if(atom, pred, src, dst)  the same, rest-coordinate r predicated by pred(r)
// copy_zfill(atom, pred, src, dst)  the same with a zero-filling atom (cp.async
//                           ZFILL forms): every r copied by atom.with(pred(r)),
//                           which reads what pred(r) allows and zero-fills the
//                           rest of dst(_,r) (a bool, or a byte count for _N)
//
// @law after copy(src, dst): dst(i) == src(i) for every i < size(dst)

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/tensor_impl.hpp"
#include "tessera/tensor/partition.hpp"

namespace tessera {

namespace detail {
struct alignas(16) copy_vec128 {
  std::uint64_t lo, hi;
};
template <int Bytes> struct copy_vec;
template <> struct copy_vec<1> { using type = std::uint8_t; };
template <> struct copy_vec<2> { using type = std::uint16_t; };
template <> struct copy_vec<4> { using type = std::uint32_t; };
template <> struct copy_vec<8> { using type = std::uint64_t; };
template <> struct copy_vec<16> { using type = copy_vec128; };

template <class Iter>
concept addressable_iterator = requires(Iter const& it) {
  { raw_pointer_cast(it) };
  requires std::is_pointer_v<decltype(raw_pointer_cast(it))>;
};

template <class L>
using flat_shape_t = std::remove_cvref_t<decltype(wrap(flatten(std::declval<L const&>()).shape()))>;
template <class L>
using flat_stride_t = std::remove_cvref_t<decltype(wrap(flatten(std::declval<L const&>()).stride()))>;

template <int I, class T>
using elem_t = std::remove_cvref_t<decltype(get<I>(std::declval<T const&>()))>;

template <class T>
constexpr int static_or(int dflt) {
  if constexpr (is_static_int_v<T>) return int(T::value);
  else return dflt;
}

// How copy() walks two layouts: an order of their flat modes and the length of
// the run of indices (in that order) that is contiguous in both.
template <int N>
struct vector_plan {
  bool permute;
  int run;
  int order[N];
};

// With identical static flat shapes, the flat modes are reordered so that the
// modes contiguous in both layouts come first (chained: stride == run so far in
// both, static). Otherwise the index order is kept and the run is the common
// contiguous prefix (leading modes with stride == run so far, static).
template <class SL, class DL>
constexpr auto make_vector_plan() {
  using SS = flat_shape_t<SL>;
  using SD = flat_stride_t<SL>;
  using DS = flat_shape_t<DL>;
  using DD = flat_stride_t<DL>;
  constexpr int N = tuple_size_v<SS>;
  constexpr int ND = tuple_size_v<DS>;
  constexpr bool same_static_shape = std::is_same_v<SS, DS> && is_static_v<SS>;
  vector_plan<N> p{same_static_shape, 1, {}};
  int sh[N] = {}, ds[N] = {}, dd[N] = {};
  [&]<int... I>(seq<I...>) {
    ((sh[I] = static_or<elem_t<I, SS>>(-1), ds[I] = static_or<elem_t<I, SD>>(-1),
      dd[I] = (I < ND ? static_or<elem_t<(I < ND ? I : 0), DD>>(-1) : -1)),
     ...);
  }(make_seq<N>{});
  for (int k = 0; k < N; ++k) p.order[k] = k;
  if constexpr (same_static_shape) {
    bool used[N] = {};
    int pos = 0;
    for (bool grew = true; grew;) {
      grew = false;
      for (int k = 0; k < N; ++k) {
        if (!used[k] && sh[k] > 1 && ds[k] == p.run && dd[k] == p.run) {
          used[k] = true;
          p.order[pos++] = k;
          p.run *= sh[k];
          grew = true;
        }
      }
    }
    for (int k = 0; k < N; ++k)
      if (!used[k]) p.order[pos++] = k;
  } else {
    // Index order: the common contiguous prefix of the two (flattened) layouts.
    auto prefix = [](int const* shp, int const* str, int n) {
      int run = 1;
      for (int k = 0; k < n; ++k) {
        if (shp[k] == 1) continue;
        if (shp[k] < 0 || str[k] != run) break;
        run *= shp[k];
      }
      return run;
    };
    int dsh[ND > 0 ? ND : 1] = {}, dst[ND > 0 ? ND : 1] = {};
    [&]<int... I>(seq<I...>) {
      ((dsh[I] = static_or<elem_t<I, DS>>(-1), dst[I] = static_or<elem_t<I, DD>>(-1)), ...);
    }(make_seq<ND>{});
    int a = prefix(sh, ds, N);
    int b = prefix(dsh, dst, ND);
    int r = 1;
    while (a % (r * 2) == 0 && b % (r * 2) == 0) r *= 2;
    p.run = r;
  }
  return p;
}

// The common refinement of two layouts over the same domain: when both flat
// shapes are static, of one size, and the union of their prefix products is
// a divisibility chain, each flat mode splits into the factors between
// consecutive chain members, so both layouts get the same flat shape. A
// row-major (128,64):(ld,_1) tile and a GMMA-style ((8,16),(8,8)) smem tile
// both become (8,16,8,8); the plan can then pair their contiguous modes.
// @post refine_layout<...>(l)(i) == l(i) for every i < size(l)
struct refinement {
  bool ok = false;
  int count = 0;
  int size[32] = {};    // refined mode sizes, in domain (colex) order
  int source[2][32] = {};  // original flat mode of each refined mode (0: src, 1: dst)
  int inner[2][32] = {};   // product of the earlier pieces of that original mode
};

template <class SS, class DS>
constexpr refinement make_refinement() {
  refinement r{};
  if constexpr (!is_static_v<SS> || !is_static_v<DS> || std::is_same_v<SS, DS>) {
    return r;
  } else {
    constexpr int NS = tuple_size_v<SS>, ND = tuple_size_v<DS>;
    int sh[2][32] = {}, n[2] = {NS, ND};
    if (NS > 32 || ND > 32) return r;
    [&]<int... I>(seq<I...>) { ((sh[0][I] = int(elem_t<I, SS>::value)), ...); }(make_seq<NS>{});
    [&]<int... I>(seq<I...>) { ((sh[1][I] = int(elem_t<I, DS>::value)), ...); }(make_seq<ND>{});
    // walk both shapes' prefix products together; each step cuts at the
    // smaller next boundary, which the larger must be a multiple of
    long pos = 1;
    int k[2] = {0, 0};
    long done[2] = {1, 1};  // product of the current original mode already consumed
    auto skip_ones = [&](int side) {
      while (k[side] < n[side] && sh[side][k[side]] == 1) ++k[side];
    };
    skip_ones(0);
    skip_ones(1);
    while (k[0] < n[0] && k[1] < n[1]) {
      long next[2];
      for (int side = 0; side < 2; ++side) next[side] = pos * (sh[side][k[side]] / done[side]);
      long const cut = next[0] < next[1] ? next[0] : next[1];
      if (next[0] % cut != 0 || next[1] % cut != 0 || cut % pos != 0 || r.count == 32) return refinement{};
      int const piece = int(cut / pos);
      r.size[r.count] = piece;
      for (int side = 0; side < 2; ++side) {
        r.source[side][r.count] = k[side];
        r.inner[side][r.count] = int(done[side]);
        done[side] *= piece;
        if (done[side] == sh[side][k[side]]) {
          ++k[side];
          done[side] = 1;
          skip_ones(side);
        }
      }
      ++r.count;
      pos = cut;
    }
    r.ok = (k[0] == n[0] && k[1] == n[1]);
    return r;
  }
}

// Plain layouts only: a swizzled side is refined after it becomes a
// swizzle_ptr tensor over a plain layout.
template <class SL, class DL>
constexpr refinement make_layout_refinement() {
  if constexpr (is_layout_v<SL> && is_layout_v<DL>) return make_refinement<flat_shape_t<SL>, flat_shape_t<DL>>();
  else return refinement{};
}
template <class SL, class DL>
struct refinement_holder {
  static constexpr refinement value = make_layout_refinement<SL, DL>();
};

// l (side 0: src, 1: dst) over the refined modes: piece i of original mode k
// has stride d_k * inner.
template <class Holder, int Side, class L>
TESSERA_HOST_DEVICE constexpr auto refine_layout(L const& l) {
  constexpr refinement r = Holder::value;
  auto const fd = wrap(flatten(l).stride());
  return [&]<int... I>(seq<I...>) {
    return make_layout(make_shape(Int<r.size[I]>{}...),
                       make_stride((get<r.source[Side][I]>(fd) * Int<r.inner[Side][I]>{})...));
  }(make_seq<r.count>{});
}

// src and dst viewed over their common refinement (when
// refinement_holder<their layouts>::value.ok): the walk copy() and
// cooperative_copy take for two different static mode structures.
template <class SrcTensor, class DstTensor>
TESSERA_HOST_DEVICE constexpr auto refined_pair(SrcTensor const& src, DstTensor& dst) {
  using H = refinement_holder<typename SrcTensor::layout_type, typename std::remove_const_t<DstTensor>::layout_type>;
  return make_tuple(make_tensor(src.data(), refine_layout<H, 0>(src.layout())),
                    make_tensor(dst.data(), refine_layout<H, 1>(dst.layout())));
}

// Widest power-of-two element count V such that every aligned run of V
// consecutive indices (in the plan's order) is contiguous in both layouts,
// V * sizeof(T) <= 16 bytes, and the swizzle of either pointer keeps V
// elements together.
template <class T>
constexpr bool composed_copy_convertible();
template <class T>
TESSERA_HOST_DEVICE auto composed_copy_view(T const& t);

template <class SrcTensor, class DstTensor>
constexpr int static_vector_width() {
  using SLt = typename SrcTensor::layout_type;
  using DLt = typename DstTensor::layout_type;
  if constexpr (!is_composed<SLt>::value && !is_composed<DLt>::value && refinement_holder<SLt, DLt>::value.ok) {
    // different static flat shapes with a common refinement: the refined pair
    using Pair = decltype(refined_pair(std::declval<SrcTensor const&>(), std::declval<DstTensor&>()));
    return static_vector_width<std::remove_cvref_t<decltype(get<0>(std::declval<Pair const&>()))>,
                               std::remove_cvref_t<decltype(get<1>(std::declval<Pair const&>()))>>();
  } else if constexpr (is_composed<typename SrcTensor::layout_type>::value ||
                is_composed<typename DstTensor::layout_type>::value) {
    // Swizzled layouts copy through their swizzle_ptr form (see copy()).
    if constexpr (composed_copy_convertible<SrcTensor>() && composed_copy_convertible<DstTensor>()) {
      return static_vector_width<decltype(composed_copy_view(std::declval<SrcTensor const&>())),
                                 decltype(composed_copy_view(std::declval<DstTensor const&>()))>();
    } else {
      return 1;
    }
  } else {
  using ST = typename SrcTensor::value_type;
  using DT = typename DstTensor::value_type;
  using SI = typename SrcTensor::iterator;
  using DI = typename DstTensor::iterator;
  if constexpr (!std::is_same_v<ST, DT> || !std::is_trivially_copyable_v<ST> || !addressable_iterator<SI> ||
                !addressable_iterator<DI>) {
    return 1;
  } else {
    constexpr auto plan = make_vector_plan<typename SrcTensor::layout_type, typename DstTensor::layout_type>();
    constexpr int max_elems = 16 / int(sizeof(ST)) > 0 ? 16 / int(sizeof(ST)) : 1;
    constexpr int run = swizzle_run<SI>::value < swizzle_run<DI>::value ? swizzle_run<SI>::value
                                                                        : swizzle_run<DI>::value;
    int v = 1;
    while (v * 2 <= max_elems && v * 2 <= run && plan.run % (v * 2) == 0) v *= 2;
    return v;
  }
  }
}

template <class SL, class DL>
struct plan_holder {
  static constexpr auto value = make_vector_plan<SL, DL>();
};

// The layout walked in the plan's order (flat modes permuted when the plan says so).
template <class Plan, int N, class L>
TESSERA_HOST_DEVICE constexpr auto plan_layout(L const& l) {
  constexpr auto plan = Plan::value;
  if constexpr (plan.permute) {
    return [&]<int... I>(seq<I...>) { return select<plan.order[I]...>(flatten(l)); }(make_seq<N>{});
  } else {
    return l;
  }
}

template <class T>
TESSERA_HOST_DEVICE bool address_aligned(T const* p, std::uintptr_t bytes) {
  return (reinterpret_cast<std::uintptr_t>(p) & (bytes - 1)) == 0;
}

template <class VecT, class T>
TESSERA_HOST_DEVICE void move_vector(T const* s, T* d) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<VecT*>(d) = *reinterpret_cast<VecT const*>(s);
#else
  std::memcpy(static_cast<void*>(d), static_cast<void const*>(s), sizeof(VecT));
#endif
}

template <class SrcTensor, class DstTensor>
TESSERA_HOST_DEVICE void copy_elementwise(SrcTensor const& src, DstTensor& dst) {
  using DT = typename std::remove_cvref_t<DstTensor>::value_type;
  int const n = int(size(dst.layout()));
  TESSERA_UNROLL
  for (int i = 0; i < n; ++i) {
    dst(i) = static_cast<DT>(src(i));
  }
}
}  // namespace detail

namespace detail {
// A tensor copy() can hand to the swizzle_ptr form: a plain layout, or a
// swizzled layout over shared memory.
template <class T>
constexpr bool composed_copy_convertible() {
  using L = typename T::layout_type;
  if constexpr (is_composed<L>::value) {
    return swizzle_ptr_convertible_v<L, std::remove_cvref_t<decltype(std::declval<T const&>().data())>>;
  } else {
    return true;
  }
}
template <class T>
TESSERA_HOST_DEVICE bool composed_copy_aligned(T const& t) {
  if constexpr (is_composed<typename T::layout_type>::value) return swizzle_base_aligned(t);
  else return true;
}
template <class T>
TESSERA_HOST_DEVICE auto composed_copy_view(T const& t) {
  if constexpr (is_composed<typename T::layout_type>::value) return to_swizzle_ptr_tensor(t);
  else return make_tensor(t.data(), t.layout());
}
}  // namespace detail

template <class SE, class SL, class DstTensor>
  requires is_tensor_v<DstTensor>
TESSERA_HOST_DEVICE void copy(Tensor<SE, SL> const& src, DstTensor&& dst) {
  using Src = Tensor<SE, SL>;
  using Dst = std::remove_cvref_t<DstTensor>;
  TESSERA_ASSERT(int(size(src.layout())) == int(size(dst.layout())));
  if constexpr (detail::is_composed<typename Src::layout_type>::value ||
                detail::is_composed<typename Dst::layout_type>::value) {
    // A swizzled (composed) layout: through the swizzle_ptr form, which
    // vectorises up to 2^M elements, when the smem base is aligned to the
    // swizzle period (what that form needs); element-wise otherwise.
    if constexpr (detail::composed_copy_convertible<Src>() && detail::composed_copy_convertible<Dst>()) {
      if (detail::composed_copy_aligned(src) && detail::composed_copy_aligned(dst)) {
        copy(detail::composed_copy_view(src), detail::composed_copy_view(dst));
        return;
      }
    }
    detail::copy_elementwise(src, dst);
    return;
  } else if constexpr (detail::refinement_holder<typename Src::layout_type, typename Dst::layout_type>::value.ok) {
    // Different static flat shapes: copy over their common refinement, where
    // the plan can pair modes (e.g. a row-major tile into a GMMA-style one).
    auto refined = detail::refined_pair(src, dst);
    copy(get<0>(refined), get<1>(refined));
  } else {
  constexpr int V = detail::static_vector_width<Src, Dst>();
  if constexpr (V == 1) {
    detail::copy_elementwise(src, dst);
  } else {
    using T = typename Src::value_type;
    using VecT = typename detail::copy_vec<int(sizeof(T)) * V>::type;
    using PlanHolder = detail::plan_holder<typename Src::layout_type, typename Dst::layout_type>;
    constexpr int N = tuple_size_v<detail::flat_shape_t<typename Src::layout_type>>;
    auto const sl = detail::plan_layout<PlanHolder, N>(src.layout());
    auto const dl = detail::plan_layout<PlanHolder, N>(dst.layout());
    int const n = int(size(dst.layout()));
    // NOTE: checked once up front: both base addresses aligned to a vector and
    // every chunk offset a multiple of V (folds away for static layouts; a swizzle
    // keeps 2^M >= V elements together, so it cannot break the alignment). A
    // misaligned view (e.g. a column offset by one) falls back to element-wise.
    bool aligned = (n % V) == 0 && detail::address_aligned(raw_pointer_cast(src.data()), sizeof(VecT)) &&
                   detail::address_aligned(raw_pointer_cast(dst.data()), sizeof(VecT));
    TESSERA_UNROLL
    for (int j = 0; j < n; j += V) {
      aligned = aligned && (int(sl(j)) % V) == 0 && (int(dl(j)) % V) == 0;
    }
    if (aligned) {
      TESSERA_UNROLL
      for (int j = 0; j < n; j += V) {
        detail::move_vector<VecT>(raw_pointer_cast(src.data() + sl(j)), raw_pointer_cast(dst.data() + dl(j)));
      }
    } else {
      detail::copy_elementwise(src, dst);
    }
  }
  }
}

// Element-wise copy, element i taken iff pred(i). pred: a tensor of bool or a callable on the index.
template <class Pred, class SE, class SL, class DstTensor>
  requires is_tensor_v<DstTensor>
TESSERA_HOST_DEVICE void copy_if(Pred const& pred, Tensor<SE, SL> const& src, DstTensor&& dst) {
  using DT = typename std::remove_cvref_t<DstTensor>::value_type;
  int const n = int(size(dst.layout()));
  TESSERA_UNROLL
  for (int i = 0; i < n; ++i) {
    if (pred(i)) dst(i) = static_cast<DT>(src(i));
  }
}

namespace detail {
template <class Atom, class S, class D>
concept copy_atom_for = requires(Atom const& a, S const& s, D& d) { a.call(s, d); };
}  // namespace detail

namespace detail {
// A rank-1 (V) tensor whose V mode holds several atoms' values, e.g. (_8,_2) for
// an 8-value atom: split the mode so that copy() loops over the atoms.
template <class Atom, class L>
constexpr bool needs_value_split() {
  if constexpr (requires { Atom::NumValSrc; }) {
    using Sz = decltype(size(std::declval<L const&>()));
    using S0 = std::remove_cvref_t<decltype(shape<0>(std::declval<L const&>()))>;
    if constexpr (is_static_int_v<Sz> && is_tuple_v<S0>) {
      return int(Sz::value) != int(Atom::NumValSrc) && tuple_size_v<S0> > 1;
    } else {
      return false;
    }
  } else {
    return false;
  }
}
}  // namespace detail

namespace detail {
// f(src(_,r), dst(_,r), r) for every rest coordinate r of two (V,REST...)
// tensors of one rank; f(src, dst, 0) for rank <= 1.
template <class SE, class SL, class DstTensor, class F>
TESSERA_HOST_DEVICE void for_each_rest(Tensor<SE, SL> const& src, DstTensor&& dst, F&& f) {
  constexpr int R = SL::rank;
  if constexpr (R <= 1) {
    f(src, dst, 0);
  } else {
    auto src_v = group_modes<1, R>(src);  // (V,REST)
    auto dst_v = group_modes<1, R>(dst);  // (V,REST)
    int const n = int(size<1>(dst_v.layout()));
    TESSERA_UNROLL
    for (int r = 0; r < n; ++r) {
      auto d = dst_v(Underscore{}, r);
      f(src_v(Underscore{}, r), d, r);
    }
  }
}
}  // namespace detail

namespace detail {
// Atoms that copy whole tensors through their own copy() overload rather
// than value by value (Copy_Atom<SM90_BULK_COPY_AUTO, T>: one instruction
// per contiguous run, whatever the partition).
template <class Atom>
struct copies_whole_tensor : std::false_type {};
}  // namespace detail

// Copy with an atom (Copy_Atom or TiledCopy): mode 0 of src/dst is the atom's value mode.
template <class Atom, class SE, class SL, class DstTensor>
  requires(is_tensor_v<DstTensor> && !is_tensor_v<Atom> && !detail::copies_whole_tensor<Atom>::value)
TESSERA_HOST_DEVICE void copy(Atom const& atom, Tensor<SE, SL> const& src, DstTensor&& dst) {
  constexpr int R = SL::rank;
  static_assert(R == std::remove_cvref_t<DstTensor>::rank, "copy(atom): src and dst have different ranks [partition both with the same TiledCopy]");
  if constexpr (R <= 1) {
    if constexpr (detail::needs_value_split<Atom, SL>()) {
      copy(atom, make_tensor(src.data(), layout<0>(src.layout())), make_tensor(dst.data(), layout<0>(dst.layout())));
    } else {
      static_assert(requires { atom.call(src, dst); },
                    "copy(atom, src, dst): the atom has no call(src, dst) [wrap the operation: Copy_Atom<Op, T>]");
      atom.call(src, dst);
    }
  } else {
    detail::for_each_rest(src, dst, [&](auto const& s, auto& d, int) { copy(atom, s, d); });
  }
}

template <class Atom, class Pred, class SE, class SL, class DstTensor>
  requires(is_tensor_v<DstTensor> && !is_tensor_v<Atom>)
TESSERA_HOST_DEVICE void copy_if(Atom const& atom, Pred const& pred, Tensor<SE, SL> const& src, DstTensor&& dst) {
  static_assert(SL::rank == std::remove_cvref_t<DstTensor>::rank, "copy_if(atom): src and dst have different ranks");
  detail::for_each_rest(src, dst, [&](auto const& s, auto& d, int r) {
    if (pred(r)) copy(atom, s, d);
  });
}

// Every rest-coordinate r of (V,REST...) tensors copied by atom.with(pred(r)):
// a predicated atom (SM80_CP_ASYNC_*_ZFILL: bool; *_ZFILL_N: bytes) reads
// only what pred(r) allows and zero-fills the rest of dst(_,r), so a residue
// tile arrives padded with zeros instead of skipped.
// @post dst(v,r) == (the first pred(r) bytes of src(_,r), then zeros)
template <class Atom, class Pred, class SE, class SL, class DstTensor>
  requires(is_tensor_v<DstTensor> && !is_tensor_v<Atom>)
TESSERA_HOST_DEVICE void copy_zfill(Atom const& atom, Pred const& pred, Tensor<SE, SL> const& src, DstTensor&& dst) {
  static_assert(SL::rank == std::remove_cvref_t<DstTensor>::rank, "copy_zfill: src and dst have different ranks");
  static_assert(requires { atom.with(pred(0)); },
                "copy_zfill: the atom takes no predicate [use a ZFILL atom, e.g. SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N]");
  detail::for_each_rest(src, dst, [&](auto const& s, auto& d, int r) { copy(atom.with(pred(r)), s, d); });
}

}  // namespace tessera
