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
//
// Builders: make_tiled_copy (thread and value layouts), make_tiled_copy_A/B/C
// (a TiledMMA's fragments), make_tiled_copy_C_atom (one atom's worth of the
// C fragment), make_tiled_copy_S/D (another copy's source or destination
// side), make_cotiled_copy ((tid,vid) -> offset over a data layout).

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
  // (Traits::with may return other traits, e.g. SM90_BULK_COPY_AUTO's with an
  // mbarrier; the atom then has those.)
  template <class... WithArgs>
  TESSERA_HOST_DEVICE constexpr auto with(WithArgs&&... args) const {
    using WithTraits = std::remove_cvref_t<decltype(Traits::with(std::forward<WithArgs>(args)...))>;
    return Copy_Atom<WithTraits, ValType>{Traits::with(std::forward<WithArgs>(args)...)};
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

namespace detail {
// The shape a tiler cuts: a shape stays itself; a tile of layouts gives the
// shape of each layout's domain.
template <class Tiler>
TESSERA_HOST_DEVICE constexpr auto tiler_shape(Tiler const& tiler) {
  if constexpr (is_tuple_v<Tiler>) {
    return transform(tiler, [](auto const& m) {
      if constexpr (is_layout_v<std::remove_cvref_t<decltype(m)>>) return shape(m);
      else return m;
    });
  } else if constexpr (is_layout_v<Tiler>) {
    return shape(tiler);
  } else {
    return tiler;
  }
}
}  // namespace detail

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
  // The tile's (M,N) extents in TiledLayout_TV's codomain: the tiler itself
  // when it is a shape, the domain of each layout when it is a tile of
  // layouts (make_tiled_copy_C_atom, make_cotiled_copy).
  using TileShape_MN = decltype(detail::tiler_shape(Tiler_MN{}));
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
        upcast<TiledNumThr::value * decltype(V)::value>(right_inverse(TiledLayout_TV{}).with_shape(TileShape_MN{}));
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
    auto ref_S = make_layout(make_shape(product_each(TileShape_MN{}), _1{}));
    return tile2thrfrg(ref_S, composition(right_inverse(AtomLayoutRef{}), AtomLayoutSrc{}))(Underscore{}, Underscore{},
                                                                                          _0{});
  }
  TESSERA_HOST_DEVICE static constexpr auto get_layoutD_TV() {
    auto ref_D = make_layout(make_shape(product_each(TileShape_MN{}), _1{}));
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

namespace detail {
// Every (tid,vid) of atom_tv reaches an offset that data holds: going to the
// data coordinate and back gives the same offset.
template <class Data, class TVData, class AtomTV>
constexpr bool cotiled_covers() {
  Data const data{};
  TVData const tv_data{};
  AtomTV const atom_tv{};
  // data(int) reads the int as a column-major index over data's shape
  for (int i = 0; i < int(size(atom_tv)); ++i) {
    int const idx = int(tv_data(i));
    if (idx >= int(size(data)) || data(idx) != atom_tv(i)) return false;
  }
  return true;
}
}  // namespace detail

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

// The copy with the same threads, values and tile as `tiled` reads them
// (make_tiled_copy_S) or writes them (make_tiled_copy_D), issued through
// another atom: e.g. the smem -> gmem half of a copy whose other half is a
// register -> smem TiledCopy.
// @post make_tiled_copy_S(a, t).get_layoutS_TV() == t.get_layoutS_TV() (same for D)
template <class... CArgs, class... TArgs>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_S(Copy_Atom<CArgs...> const& copy_atom,
                                                 TiledCopy<TArgs...> const& tiled) {
  using TC = TiledCopy<TArgs...>;
  return make_tiled_copy_impl(copy_atom, TC::get_layoutS_TV(), typename TC::Tiler_MN{});
}
template <class... CArgs, class... TArgs>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_D(Copy_Atom<CArgs...> const& copy_atom,
                                                 TiledCopy<TArgs...> const& tiled) {
  using TC = TiledCopy<TArgs...>;
  return make_tiled_copy_impl(copy_atom, TC::get_layoutD_TV(), typename TC::Tiler_MN{});
}

namespace detail {
// From layout_tv, (tid,vid) -> column-major index into a box of shape
// `box` (M,N,...), the tile of layouts that picks just the coordinates it
// touches -- mode i: tile index -> the i-th coordinates reached, in the
// order layout_tv first reaches them -- and layout_tv re-expressed as
// (tid,vid) -> column-major index into that tile.
// @pre layout_tv reaches each coordinate of a mode through one stride chain
//      (filter of its projection is injective), as MMA and smem tilings do
// @post composition(make_layout(box), get<0>(r)) o get<1>(r) == layout_tv
template <class LayoutTV, class Box>
TESSERA_HOST_DEVICE constexpr auto touched_tiler(LayoutTV const& layout_tv, Box const& box) {
  constexpr int R = decltype(rank(box))::value;
  auto zeros = repeat<R>(_0{});
  auto tiler = [&]<int... I>(seq<I...>) {
    // box index -> coordinate along mode I only, then the coordinates the
    // (tid,vid) walk reaches there, zero strides and repeats merged away.
    return make_tile(filter(composition(make_layout(box, replace<I>(zeros, _1{})), layout_tv))...);
  }(make_seq<R>{});
  // tile index -> box index, and its inverse on the tile's image
  auto tile2box = composition(make_layout(box), tiler);
  return make_tuple(tiler, composition(left_inverse(tile2box), layout_tv));
}
}  // namespace detail

// A copy of one atom's worth of values per thread over a TiledMMA's C
// fragment: each thread's first NumValSrc accumulator values (in the MMA's
// value order), on a tile made of just the (m,n) coordinates those values
// cover -- the epilogue's register -> shared-memory step at atom size
// rather than over the whole fragment.
// @post every (tid, v) of the result names the element
//       mma.get_layoutC_TV()(tid, v) of the MMA tile, v < NumValSrc
template <class... CArgs, class... MArgs>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_C_atom(Copy_Atom<CArgs...> const& copy_atom,
                                                      TiledMMA<MArgs...> const& mma) {
  auto layoutC_TV = mma.get_layoutC_TV();
  constexpr int kCopyV = Copy_Atom<CArgs...>::NumValSrc;
  static_assert(kCopyV <= decltype(size<1>(layoutC_TV))::value,
                "make_tiled_copy_C_atom: the copy atom moves more values than a thread holds in the MMA's C "
                "fragment [use a narrower atom]");
  // (tid, first kCopyV values) -> index into the (M,N) tile of the MMA
  auto layout_tv = composition(layoutC_TV, make_layout(make_shape(size<0>(layoutC_TV), Int<kCopyV>{})));
  auto tt = detail::touched_tiler(layout_tv, make_shape(tile_size<0>(mma), tile_size<1>(mma)));
  return make_tiled_copy_impl(copy_atom, get<1>(tt), get<0>(tt));
}

// A TiledCopy from what one side of it looks like in memory: atom_tv_layout
// maps (tid,vid) to an offset in the data that data_layout lays out ((M,N)
// coordinate -> offset). The copy's tile is the (m,n) coordinates those
// offsets hold, so partition_S/D of a tensor laid out by data_layout hands
// each thread exactly the offsets atom_tv_layout gives it.
// @pre both layouts static; every offset of atom_tv_layout lies in data_layout's image
// @post for every (t,v): data_layout(tile coordinate of (t,v)) == atom_tv_layout(t,v)
template <class... Args, class AtomTVLayout, class DataLayout>
TESSERA_HOST_DEVICE constexpr auto make_cotiled_copy(Copy_Atom<Args...> const& copy_atom,
                                                 AtomTVLayout const& atom_tv_layout, DataLayout const& data_layout) {
  static_assert(is_static_v<AtomTVLayout> && is_static_v<DataLayout>,
                "make_cotiled_copy: the (tid,vid) and data layouts must be static");
  // offset -> column-major index of the data coordinate; the trailing 1:0
  // sends offsets past the data's image to 0 rather than off the end.
  auto inv_data = make_layout(left_inverse(data_layout), Layout<_1, _0>{});
  auto layout_tv_data = composition(inv_data, atom_tv_layout);  // (tid,vid) -> data index
  static_assert(detail::cotiled_covers<DataLayout, decltype(layout_tv_data), AtomTVLayout>(),
                "make_cotiled_copy: atom_tv_layout reaches an offset that data_layout does not hold");
  auto tt = detail::touched_tiler(layout_tv_data, product_each(shape(data_layout)));
  return make_tiled_copy_impl(copy_atom, get<1>(tt), get<0>(tt));
}

// Threads of a TiledCopy.
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto size(TiledCopy<Args...> const&) {
  return typename TiledCopy<Args...>::TiledNumThr{};
}

}  // namespace tessera
