// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Copy_Atom, TiledCopy and ThrCopy.
//
//   Copy_Atom<Op, T>    one copy instruction on elements of type T: the
//                       traits' bit layouts re-expressed in units of T
//                       (ValLayoutSrc/Dst/Ref: (thr,val) -> element offset)
//                       and call(src, dst) on one atom's worth of values.
//   TiledCopy           atoms tiled over threads: TiledLayout_TV maps
//                       (thread, value) to a coordinate of the Tiler_MN tile.
//   ThrCopy             one thread's view: partition_S/partition_D cut a
//                       tensor into (CPY, CPY_M, CPY_N, ...) and retile_S/D
//                       reshape an already thread-owned fragment (such as an
//                       MMA register fragment) to the same (CPY, ...) form.

#include <type_traits>
#include <utility>

#include <tessera/atom/copy_traits.hpp>
#include <tessera/atom/mma_atom.hpp>

namespace tessera {

template <class... Args>
struct Copy_Atom;

template <class CopyOperation, class CopyInternalType>
struct Copy_Atom<CopyOperation, CopyInternalType> : Copy_Atom<Copy_Traits<CopyOperation>, CopyInternalType> {
  using Copy_Atom<Copy_Traits<CopyOperation>, CopyInternalType>::Copy_Atom;
  constexpr Copy_Atom() = default;
  TESSERA_HOST_DEVICE constexpr Copy_Atom(Copy_Atom<Copy_Traits<CopyOperation>, CopyInternalType> const& base)
      : Copy_Atom<Copy_Traits<CopyOperation>, CopyInternalType>(base) {}
};

template <class... Args, class CopyInternalType>
struct Copy_Atom<Copy_Traits<Args...>, CopyInternalType> : Copy_Traits<Args...> {
  using Traits = Copy_Traits<Args...>;

  using ThrID = typename Traits::ThrID;
  using BitLayoutSrc = typename Traits::SrcLayout;
  using BitLayoutDst = typename Traits::DstLayout;
  using BitLayoutRef = typename Traits::RefLayout;

  using ValType = CopyInternalType;

  // (thr, val) -> element offset
  using ValLayoutSrc = decltype(upcast<detail::bits_of<ValType>>(BitLayoutSrc{}));
  using ValLayoutDst = decltype(upcast<detail::bits_of<ValType>>(BitLayoutDst{}));
  using ValLayoutRef = decltype(upcast<detail::bits_of<ValType>>(BitLayoutRef{}));

  static_assert(decltype(size<0>(ValLayoutSrc{}))::value == decltype(size(ThrID{}))::value,
                "Copy_Atom: source layout threads differ from ThrID");
  static_assert(decltype(size<0>(ValLayoutDst{}))::value == decltype(size(ThrID{}))::value,
                "Copy_Atom: destination layout threads differ from ThrID");

  static constexpr int NumValSrc = decltype(size<1>(ValLayoutSrc{}))::value;
  static constexpr int NumValDst = decltype(size<1>(ValLayoutDst{}))::value;

  constexpr Copy_Atom() = default;
  TESSERA_HOST_DEVICE constexpr Copy_Atom(Traits const& traits) : Traits(traits) {}

  // The same atom with the traits' run-time state set (e.g. the zfill
  // predicate of SM80_CP_ASYNC_*_ZFILL).
  template <class... WithArgs>
  TESSERA_HOST_DEVICE constexpr auto with(WithArgs&&... args) const {
    return Copy_Atom<Traits, ValType>{Traits::with(std::forward<WithArgs>(args)...)};
  }

  // Copies one atom's values: src has NumValSrc values, dst NumValDst.
  template <class STensor, class DTensor>
  TESSERA_HOST_DEVICE void call(STensor const& src, DTensor&& dst) const {
    static_assert(decltype(size(src))::value == NumValSrc,
                  "Copy_Atom::call: source does not hold one atom's values [partition with a TiledCopy "
                  "and pass tXsX(_,m,n)]");
    static_assert(decltype(size(dst))::value == NumValDst,
                  "Copy_Atom::call: destination does not hold one atom's values");
    Traits::copy_unpack(static_cast<Traits const&>(*this), src, std::forward<DTensor>(dst));
  }
};

template <class TiledCopyType, class ThrIdx>
struct ThrCopy;

// Atoms over threads: (thr_idx, val_idx) -> coordinate in the (M,N) tile.
template <class CopyAtom, class LayoutCopy_TV, class ShapeTiler_MN>
struct TiledCopy : CopyAtom {
  using Atom = CopyAtom;
  using AtomThrID = typename CopyAtom::ThrID;
  using AtomLayoutSrc = typename CopyAtom::ValLayoutSrc;  // (thr,val) -> offset
  using AtomLayoutDst = typename CopyAtom::ValLayoutDst;
  using AtomLayoutRef = typename CopyAtom::ValLayoutRef;

  using AtomNumThr = decltype(size<0>(AtomLayoutRef{}));
  using AtomNumVal = decltype(size<1>(AtomLayoutRef{}));

  using Tiler_MN = ShapeTiler_MN;
  using TiledLayout_TV = LayoutCopy_TV;
  using TiledNumThr = decltype(size<0>(TiledLayout_TV{}));
  using TiledNumVal = decltype(size<1>(TiledLayout_TV{}));

  static_assert(TiledNumThr::value % AtomNumThr::value == 0,
                "TiledCopy: the tiled thread count is not a multiple of the atom's [check the thread layout]");
  static_assert(TiledNumVal::value % AtomNumVal::value == 0,
                "TiledCopy: values per thread are not a multiple of the atom's values [the value layout "
                "must cover whole atoms, e.g. (1,8) halves for a 128-bit atom]");

  constexpr TiledCopy() = default;
  TESSERA_HOST_DEVICE constexpr TiledCopy(CopyAtom const& atom) : CopyAtom(atom) {}

  // ((atom_thr, atom_val), (rest_thr, rest_val)) -> (m,n), moved to the
  // target side (src or dst) of the atom, then regrouped as
  // ((thr), (atom_val), (rest_val)) and applied to a tiled tensor layout
  // ((TileM,TileN), (RestM,RestN,...)).
  template <class TiledLayout, class Ref2Trg>
  TESSERA_HOST_DEVICE static constexpr auto tile2thrfrg(TiledLayout const& tiled, Ref2Trg const& ref2trg) {
    auto atom_layout_TV = zipped_divide(TiledLayout_TV{}, make_shape(AtomNumThr{}, AtomNumVal{}));
    // ((atom_tid,atom_val),(rest_tid,rest_val)) -> (m,n)
    auto trg_layout_TV = composition(atom_layout_TV, make_tile(ref2trg, Underscore{}));
    // ((trg_tid,trg_val),(rest_tid,rest_val)) -> (m,n)
    auto thrval2mn = coalesce(zip(trg_layout_TV), Shape<_1, Shape<_1, _1>>{});
    // ((trg_tid,rest_tid),(trg_val,rest_val)) -> (m,n)
    auto tv_layout = composition(tiled, make_tile(thrval2mn, Underscore{}));
    // ((thrid,val),(RestM,RestN,...)) -> offset
    return tv_layout(make_coord(Underscore{}, Underscore{}), Underscore{});
  }

  // (M,N,...) -> (thr_idx, (atom_val, rest_val), (RestM, RestN, ...)), source side.
  template <class SLayout>
  TESSERA_HOST_DEVICE static constexpr auto tidfrg_S(SLayout const& slayout) {
    static_assert(decltype(rank(slayout))::value >= decltype(rank(Tiler_MN{}))::value,
                  "TiledCopy::partition_S: the tensor has fewer modes than the copy tile");
    return tile2thrfrg(zipped_divide(slayout, Tiler_MN{}), composition(right_inverse(AtomLayoutRef{}), AtomLayoutSrc{}));
  }

  // Destination side.
  template <class DLayout>
  TESSERA_HOST_DEVICE static constexpr auto tidfrg_D(DLayout const& dlayout) {
    static_assert(decltype(rank(dlayout))::value >= decltype(rank(Tiler_MN{}))::value,
                  "TiledCopy::partition_D: the tensor has fewer modes than the copy tile");
    return tile2thrfrg(zipped_divide(dlayout, Tiler_MN{}), composition(right_inverse(AtomLayoutRef{}), AtomLayoutDst{}));
  }

  // A fragment this thread already owns, (V, REST...), reshaped to
  // ((atom_vals, rest_vals), REST...) in the order this copy produces them.
  // Mode 0 must be the first size<0> values of TiledLayout_TV's value order.
  template <class FrgLayout>
  TESSERA_HOST_DEVICE static constexpr auto retile(FrgLayout const& frg) {
    constexpr int R = decltype(rank(frg))::value;
    auto V = size<0>(frg);
    // (m,n) -> index of the V-sized value block
    auto frg_layout_mn =
        upcast<TiledNumThr::value * decltype(V)::value>(right_inverse(TiledLayout_TV{}).with_shape(Tiler_MN{}));
    // (atom_vals, rest_vals) -> (v, m, n)
    auto frg_layout_v =
        zipped_divide(logical_product(make_layout(V), right_inverse(frg_layout_mn)), make_layout(AtomNumVal{}));
    // ((TileV,TileM,TileN,...),(1,RestM,RestN,...))
    auto t_layout = zipped_divide(frg, prepend(product_each(shape(frg_layout_mn)), V));
    // ((atom_vals,rest_vals),(1,RestM,RestN,...))
    auto v_layout = composition(t_layout, make_tile(frg_layout_v, Underscore{}));
    return v_layout(Underscore{}, append<R>(make_coord(_0{}), Underscore{}));
  }

  // (thr_idx, val_idx) -> (m,n) coordinate of the tile, column-major index.
  // ref ((M,N),1) already has the ((TileM,TileN),(Rest)) form tile2thrfrg takes.
  TESSERA_HOST_DEVICE static constexpr auto get_layoutS_TV() {
    auto ref_S = make_layout(make_shape(product_each(Tiler_MN{}), _1{}));
    return tile2thrfrg(ref_S, composition(right_inverse(AtomLayoutRef{}), AtomLayoutSrc{}))(Underscore{}, Underscore{},
                                                                                          _0{});
  }
  TESSERA_HOST_DEVICE static constexpr auto get_layoutD_TV() {
    auto ref_D = make_layout(make_shape(product_each(Tiler_MN{}), _1{}));
    return tile2thrfrg(ref_D, composition(right_inverse(AtomLayoutRef{}), AtomLayoutDst{}))(Underscore{}, Underscore{},
                                                                                          _0{});
  }

  template <class ThrIdx>
  TESSERA_HOST_DEVICE constexpr auto get_slice(ThrIdx const& thr_idx) const {
    return ThrCopy<TiledCopy, ThrIdx>{*this, thr_idx};
  }
  template <class ThrIdx>
  TESSERA_HOST_DEVICE constexpr auto get_thread_slice(ThrIdx const& thr_idx) const {
    return get_slice(thr_idx);
  }
};

template <class TiledCopyType, class ThrIdx>
struct ThrCopy : TiledCopyType {
  ThrIdx thr_idx_;

  TESSERA_HOST_DEVICE constexpr ThrCopy(TiledCopyType const& tiled, ThrIdx const& thr_idx)
      : TiledCopyType(tiled), thr_idx_(thr_idx) {}

  // (M,N,...) -> (CPY, CPY_M, CPY_N, ...): this thread's source values.
  template <class STensor>
  TESSERA_HOST_DEVICE constexpr auto partition_S(STensor&& stensor) const {
    auto thr_tensor = make_tensor(std::forward<STensor>(stensor).data(), swizzle_split_layout(TiledCopyType::tidfrg_S(swizzle_split_layout(stensor.layout()))));
    constexpr int R = decltype(rank(stensor.layout()))::value;
    return thr_tensor(thr_idx_, Underscore{}, repeat<R>(Underscore{}));
  }

  // (M,N,...) -> (CPY, CPY_M, CPY_N, ...): this thread's destination values.
  template <class DTensor>
  TESSERA_HOST_DEVICE constexpr auto partition_D(DTensor&& dtensor) const {
    auto thr_tensor = make_tensor(std::forward<DTensor>(dtensor).data(), swizzle_split_layout(TiledCopyType::tidfrg_D(swizzle_split_layout(dtensor.layout()))));
    constexpr int R = decltype(rank(dtensor.layout()))::value;
    return thr_tensor(thr_idx_, Underscore{}, repeat<R>(Underscore{}));
  }

  template <class STensor>
  TESSERA_HOST_DEVICE static constexpr auto retile_S(STensor&& stensor) {
    return make_tensor(std::forward<STensor>(stensor).data(), TiledCopyType::retile(stensor.layout()));
  }
  template <class DTensor>
  TESSERA_HOST_DEVICE static constexpr auto retile_D(DTensor&& dtensor) {
    return make_tensor(std::forward<DTensor>(dtensor).data(), TiledCopyType::retile(dtensor.layout()));
  }
};

// TiledCopy from a (thr,val) -> (m,n) layout and the tile it covers.
template <class... Args, class LayoutCopy_TV, class Tiler>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_impl(Copy_Atom<Args...> const& atom, LayoutCopy_TV const&,
                                                    Tiler const&) {
  return TiledCopy<Copy_Atom<Args...>, LayoutCopy_TV, Tiler>{atom};
}

// TiledCopy from a thread layout (m,n) -> thr_idx and a value layout
// (m,n) -> val_idx: each thread copies a val_layout-shaped block, the blocks
// laid out by thr_layout.
template <class... Args, class ThrLayout, class ValLayout = Layout<_1>>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy(Copy_Atom<Args...> const& copy_atom, ThrLayout const& thr_layout = {},
                                               ValLayout const& val_layout = {}) {
  // (M,N) -> (thr_idx, val_idx)
  auto layout_mn = raked_product(thr_layout, val_layout);
  // (thr_idx, val_idx) -> (M,N)
  auto layout_tv = right_inverse(layout_mn).with_shape(make_shape(size(thr_layout), size(val_layout)));
  auto tiler = product_each(shape(layout_mn));
  return make_tiled_copy_impl(copy_atom, layout_tv, tiler);
}

// The copy that fills (or drains) a TiledMMA's A, B or C fragments: same
// threads, same values, same order.
template <class... CArgs, class... MArgs>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_A(Copy_Atom<CArgs...> const& copy_atom, TiledMMA<MArgs...> const& mma) {
  return make_tiled_copy_impl(copy_atom, mma.get_layoutA_TV(), make_shape(tile_size<0>(mma), tile_size<2>(mma)));
}
template <class... CArgs, class... MArgs>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_B(Copy_Atom<CArgs...> const& copy_atom, TiledMMA<MArgs...> const& mma) {
  return make_tiled_copy_impl(copy_atom, mma.get_layoutB_TV(), make_shape(tile_size<1>(mma), tile_size<2>(mma)));
}
template <class... CArgs, class... MArgs>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_C(Copy_Atom<CArgs...> const& copy_atom, TiledMMA<MArgs...> const& mma) {
  return make_tiled_copy_impl(copy_atom, mma.get_layoutC_TV(), make_shape(tile_size<0>(mma), tile_size<1>(mma)));
}

// Threads of a TiledCopy.
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto size(TiledCopy<Args...> const&) {
  return typename TiledCopy<Args...>::TiledNumThr{};
}

}  // namespace tessera
