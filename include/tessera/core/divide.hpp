// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Division of a layout by a tiler: split every element into (element within
// the tile, tile index).
//   logical_divide(A, B) == A o (B, complement(B, size(A)))      ((tile), (rest))
//   zipped_divide : ((tile modes...), (rest modes...))
//   tiled_divide  : ((tile modes...), rest0, rest1, ...)
//   flat_divide   : (tile0, tile1, ..., rest0, rest1, ...)
// A tuple tiler divides mode by mode; `_` keeps a mode; an integer n is n:_1.

#include "tessera/config.hpp"
#include "tessera/core/complement.hpp"
#include "tessera/core/composed_layout.hpp"
#include "tessera/core/composition.hpp"
#include "tessera/core/layout.hpp"

namespace tessera {

// (tile, rest): the elements of each tile first, then the tiles.
// @post size(result) == size(layout) when the tiler divides it;
//       result(i, j) == layout(tiler(i) + complement(tiler)(j)) in A's domain
// @pre  (static) the tiler has no more modes than the layout
template <class S, class D, class Tiler>
TESSERA_HOST_DEVICE constexpr auto logical_divide(Layout<S, D> const& layout, Tiler const& tiler) {
  if constexpr (is_layout_v<Tiler>) {
    return composition(layout, make_layout(tiler, complement(tiler, shape(layout))));
  } else if constexpr (is_tuple_v<Tiler>) {
    static_assert(tuple_size_v<Tiler> <= rank_v<S>, "logical_divide: tiler has more modes than the layout");
    return transform_layout(layout, tiler, [](auto const& l, auto const& t) { return logical_divide(l, t); });
  } else if constexpr (is_underscore_v<Tiler>) {
    return layout;
  } else {
    static_assert(is_integral_v<Tiler>, "logical_divide: a tiler is a Layout, a tuple, `_` or an integer");
    return logical_divide(layout, make_layout(tiler));
  }
}

// Regroup a divided/producted layout: all tile parts in mode 0, all rest
// parts (and the modes beyond the tiler) in mode 1.
// @post same function as `layout`, rank 2
template <class S, class D, class Tiler>
TESSERA_HOST_DEVICE constexpr auto tile_unzip(Layout<S, D> const& layout, Tiler const& tiler) {
  return make_layout(zip2_by(layout.shape(), tiler), zip2_by(layout.stride(), tiler));
}

// ((tile modes), (rest modes)).
// @post layout<0>(result) == the tile, size<0>(result) == size(tiler)
template <class S, class D, class Tiler>
TESSERA_HOST_DEVICE constexpr auto zipped_divide(Layout<S, D> const& layout, Tiler const& tiler) {
  return tile_unzip(logical_divide(layout, tiler), tiler);
}

// ((tile modes), rest0, rest1, ...).
// @post result(t, r0, r1, ...) == zipped_divide(layout, tiler)(t, (r0, r1, ...))
template <class S, class D, class Tiler>
TESSERA_HOST_DEVICE constexpr auto tiled_divide(Layout<S, D> const& layout, Tiler const& tiler) {
  auto result = zipped_divide(layout, tiler);
  constexpr int R1 = decltype(rank<1>(result))::value;
  return result(_, repeat<R1>(_));
}

// (tile0, tile1, ..., rest0, rest1, ...).
// @post result(t0, t1, ..., r0, r1, ...) == zipped_divide(layout, tiler)((t0, t1, ...), (r0, r1, ...))
template <class S, class D, class Tiler>
TESSERA_HOST_DEVICE constexpr auto flat_divide(Layout<S, D> const& layout, Tiler const& tiler) {
  auto result = zipped_divide(layout, tiler);
  constexpr int R0 = decltype(rank<0>(result))::value;
  constexpr int R1 = decltype(rank<1>(result))::value;
  return result(repeat<R0>(_), repeat<R1>(_));
}

// --- the same on composed (swizzled) layouts: the tiling acts on the inner layout ---

template <class A, class O, class B, class Tiler>
TESSERA_HOST_DEVICE constexpr auto logical_divide(ComposedLayout<A, O, B> const& c, Tiler const& tiler) {
  return composition(c.layout_a(), c.offset(), logical_divide(c.layout_b(), tiler));
}
template <class A, class O, class B, class Tiler>
TESSERA_HOST_DEVICE constexpr auto zipped_divide(ComposedLayout<A, O, B> const& c, Tiler const& tiler) {
  return composition(c.layout_a(), c.offset(), zipped_divide(c.layout_b(), tiler));
}
template <class A, class O, class B, class Tiler>
TESSERA_HOST_DEVICE constexpr auto tiled_divide(ComposedLayout<A, O, B> const& c, Tiler const& tiler) {
  return composition(c.layout_a(), c.offset(), tiled_divide(c.layout_b(), tiler));
}
template <class A, class O, class B, class Tiler>
TESSERA_HOST_DEVICE constexpr auto flat_divide(ComposedLayout<A, O, B> const& c, Tiler const& tiler) {
  return composition(c.layout_a(), c.offset(), flat_divide(c.layout_b(), tiler));
}

template <class S, class D>
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto Layout<S, D>::tile(Args const&... args) const {
  return tiled_divide(*this, make_tile(args...));
}
template <class A, class O, class B>
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto ComposedLayout<A, O, B>::tile(Args const&... args) const {
  return tiled_divide(*this, make_tile(args...));
}

// How many tiles of `tiler` cover `target` (a shape): the rest mode of
// logical_divide, e.g. the grid of a generalised tiler:
// dim3 grid(size(ceil_div(M, cta_tiler_M))).
// @post shape(logical_divide(make_layout(target), tiler)) == (shape(tiler), result)  (when the tiler divides)
template <class Target, class S, class D>
TESSERA_HOST_DEVICE constexpr auto ceil_div(Target const& target, Layout<S, D> const& tiler) {
  return shape(complement(tiler, shape(target)));
}

}  // namespace tessera
