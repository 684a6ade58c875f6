// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Products of layouts: repeat a block over a tiler layout.
//   logical_product(A, B) == (A, complement(A, size(A)*cosize(B)) o B)
//   zipped / tiled / flat_product : regroupings as for the divides
//   blocked_product : ((A0,B0),(A1,B1),...)  - A's elements stay together
//   raked_product   : ((B0,A0),(B1,A1),...)  - A's elements interleave
//   tile_to_shape   : blocked_product of a block up to a target shape

#include "tessera/config.hpp"
#include "tessera/core/complement.hpp"
#include "tessera/core/composed_layout.hpp"
#include "tessera/core/composition.hpp"
#include "tessera/core/divide.hpp"
#include "tessera/core/layout.hpp"

namespace tessera {

// (block, block repeated by tiler): mode 0 is `block`, mode 1 walks copies
// of the block placed where `tiler` says, in units of the block's extent.
// @post layout<0>(result) == block; size(result) == size(block) * size(tiler)
template <class S, class D, class Tiler>
TESSERA_HOST_DEVICE constexpr auto logical_product(Layout<S, D> const& block, Tiler const& tiler) {
  if constexpr (is_layout_v<Tiler>) {
    return make_layout(block, composition(complement(block, size(block) * cosize(tiler)), tiler));
  } else if constexpr (is_tuple_v<Tiler>) {
    static_assert(tuple_size_v<Tiler> <= rank_v<S>, "logical_product: tiler has more modes than the layout");
    return transform_layout(block, tiler, [](auto const& l, auto const& t) { return logical_product(l, t); });
  } else if constexpr (is_underscore_v<Tiler>) {
    return block;
  } else {
    static_assert(is_integral_v<Tiler>, "logical_product: a tiler is a Layout, a tuple, `_` or an integer");
    return logical_product(block, make_layout(tiler));
  }
}

// ((block modes), (tiler modes)): logical_product regrouped by tile_unzip.
// @post result(b, t) == logical_product(block, tiler) at the matching coordinates
template <class S, class D, class Tiler>
TESSERA_HOST_DEVICE constexpr auto zipped_product(Layout<S, D> const& block, Tiler const& tiler) {
  return tile_unzip(logical_product(block, tiler), tiler);
}

// ((block modes), tiler0, tiler1, ...).
// @post result(b, t0, t1, ...) == zipped_product(block, tiler)(b, (t0, t1, ...))
template <class S, class D, class Tiler>
TESSERA_HOST_DEVICE constexpr auto tiled_product(Layout<S, D> const& block, Tiler const& tiler) {
  auto result = zipped_product(block, tiler);
  constexpr int R1 = decltype(rank<1>(result))::value;
  return result(_, repeat<R1>(_));
}

// (block0, block1, ..., tiler0, tiler1, ...).
// @post the same function as zipped_product with both modes unpacked
template <class S, class D, class Tiler>
TESSERA_HOST_DEVICE constexpr auto flat_product(Layout<S, D> const& block, Tiler const& tiler) {
  auto result = zipped_product(block, tiler);
  constexpr int R0 = decltype(rank<0>(result))::value;
  constexpr int R1 = decltype(rank<1>(result))::value;
  return result(repeat<R0>(_), repeat<R1>(_));
}

// Mode i of the result is (block mode i, tiler mode i): copies of the block
// laid out by the tiler, each block contiguous in its own extent.
// @post size<i>(result) == size<i>(block) * size<i>(tiler)
template <class S, class D, class TS, class TD>
TESSERA_HOST_DEVICE constexpr auto blocked_product(Layout<S, D> const& block, Layout<TS, TD> const& tiler) {
  constexpr int R = rank_v<S> > rank_v<TS> ? rank_v<S> : rank_v<TS>;
  auto result = logical_product(append<R>(block), append<R>(tiler));
  return zip(get<0>(result), get<1>(result));
}

// Mode i of the result is (tiler mode i, block mode i): the block's elements
// are spread out (raked) across the tiler's copies.
// @post size<i>(result) == size<i>(block) * size<i>(tiler)
template <class S, class D, class TS, class TD>
TESSERA_HOST_DEVICE constexpr auto raked_product(Layout<S, D> const& block, Layout<TS, TD> const& tiler) {
  constexpr int R = rank_v<S> > rank_v<TS> ? rank_v<S> : rank_v<TS>;
  auto result = logical_product(append<R>(block), append<R>(tiler));
  return zip(get<1>(result), get<0>(result));
}

// Repeat `block` (blocked_product) until it covers `trg_shape`; the copies
// are ordered by `ord` (LayoutLeft: column-major; or a Step of mode ranks).
// Each mode is coalesced.
// @post product_each(shape(result)) == product_each(trg_shape)
// @pre  (static) each block mode size divides the matching target size
template <class S, class D, class TrgShape, class ModeOrder = LayoutLeft>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape(Layout<S, D> const& block, TrgShape const& trg_shape, ModeOrder const& ord = {}) {
  constexpr int R = rank_v<TrgShape>;
  static_assert(rank_v<S> <= R, "tile_to_shape: layout has more modes than the target shape");
  auto padded = append<R>(block);
  auto block_shape = product_each(padded.shape());
  auto target_shape = product_each(wrap(trg_shape));
  if constexpr (is_static_v<decltype(target_shape)> && is_static_v<decltype(block_shape)>) {
    static_assert(decltype(evenly_divides(target_shape, block_shape))::value,
                  "tile_to_shape: block shape does not divide the target shape [pick a target that is a multiple of the block]");
  }
  auto product_shape = ceil_div(target_shape, block_shape);
  return coalesce(blocked_product(padded, make_ordered_layout(product_shape, ord)), product_shape);
}

// --- the same on composed (swizzled) layouts: the product acts on the inner layout ---

template <class A, class O, class B, class Tiler>
TESSERA_HOST_DEVICE constexpr auto logical_product(ComposedLayout<A, O, B> const& c, Tiler const& tiler) {
  return composition(c.layout_a(), c.offset(), logical_product(c.layout_b(), tiler));
}
template <class A, class O, class B, class Tiler>
TESSERA_HOST_DEVICE constexpr auto zipped_product(ComposedLayout<A, O, B> const& c, Tiler const& tiler) {
  return composition(c.layout_a(), c.offset(), zipped_product(c.layout_b(), tiler));
}
template <class A, class O, class B, class Tiler>
TESSERA_HOST_DEVICE constexpr auto tiled_product(ComposedLayout<A, O, B> const& c, Tiler const& tiler) {
  return composition(c.layout_a(), c.offset(), tiled_product(c.layout_b(), tiler));
}
template <class A, class O, class B, class Tiler>
TESSERA_HOST_DEVICE constexpr auto flat_product(ComposedLayout<A, O, B> const& c, Tiler const& tiler) {
  return composition(c.layout_a(), c.offset(), flat_product(c.layout_b(), tiler));
}
template <class A, class O, class B, class TS, class TD>
TESSERA_HOST_DEVICE constexpr auto blocked_product(ComposedLayout<A, O, B> const& c, Layout<TS, TD> const& tiler) {
  return composition(c.layout_a(), c.offset(), blocked_product(c.layout_b(), tiler));
}
template <class A, class O, class B, class TS, class TD>
TESSERA_HOST_DEVICE constexpr auto raked_product(ComposedLayout<A, O, B> const& c, Layout<TS, TD> const& tiler) {
  return composition(c.layout_a(), c.offset(), raked_product(c.layout_b(), tiler));
}
// On a swizzled block the modes the block does not have (appended as _1:_0)
// keep the blocked product's (_1,n):(_0,s) form instead of coalescing to n:s:
// the same function, written the way seed 000's CuTe build prints the pipe
// mode of its tiled partitions, ((_8,_1),_8,_1,(_1,_3)):((_1,_0),_1024,_0,(_0,_8192)).
template <class A, class O, class B, class TrgShape, class ModeOrder = LayoutLeft>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape(ComposedLayout<A, O, B> const& c, TrgShape const& trg_shape, ModeOrder const& ord = {}) {
  auto t = tile_to_shape(c.layout_b(), trg_shape, ord);
  constexpr int RB = B::rank;
  constexpr int R = decltype(t)::rank;
  auto padded_mode = [&](auto i) {
    constexpr int I = decltype(i)::value;
    auto m = layout<I>(t);
    if constexpr (I >= RB && !is_tuple_v<std::remove_cvref_t<decltype(m.shape())>> &&
                  !is_constant<1, std::remove_cvref_t<decltype(m.shape())>>::value) {
      return make_layout(make_shape(Int<1>{}, m.shape()), make_stride(Int<0>{}, m.stride()));
    } else {
      return m;
    }
  };
  auto modes = [&]<int... I>(seq<I...>) { return make_layout(padded_mode(Int<I>{})...); }(make_seq<R>{});
  return composition(c.layout_a(), c.offset(), modes);
}

}  // namespace tessera
