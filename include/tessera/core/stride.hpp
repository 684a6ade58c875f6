// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Coordinate <-> index maps (colexicographic) and the compact strides:
// crd2idx, idx2crd, compact_major (LayoutLeft / LayoutRight), compact_order.

#include "tessera/config.hpp"
#include "tessera/core/int_tuple.hpp"
#include "tessera/core/underscore.hpp"

namespace tessera {

// --- crd2idx ----------------------------------------------------------------------------

// Index of coordinate `coord` under (shape, stride). The coordinate may be
// hierarchical (congruent to shape), flat-er (an integer into a tuple mode is
// split colexicographically over that mode), or hold `_` (contributes 0).
// @post crd2idx(idx2crd(i, s), s) == i for 0 <= i < size(s)
template <class Coord, class ShapeT, class StrideT>
TESSERA_HOST_DEVICE constexpr auto crd2idx(Coord const& coord, ShapeT const& shape, StrideT const& stride) {
  if constexpr (is_tuple_v<Coord>) {
    static_assert(is_tuple_v<ShapeT>, "crd2idx: tuple coordinate for an integer shape [coordinate deeper than the shape]");
    static_assert(tuple_size_v<Coord> == tuple_size_v<ShapeT>, "crd2idx: coordinate and shape ranks differ");
    return [&]<int... I>(seq<I...>) {
      return (Int<0>{} + ... + crd2idx(get<I>(coord), get<I>(shape), get<I>(stride)));
    }(tuple_seq<Coord>{});
  } else if constexpr (is_underscore_v<Coord>) {
    return Int<0>{};
  } else if constexpr (is_tuple_v<ShapeT>) {
    constexpr int R = tuple_size_v<ShapeT>;
    if constexpr (R == 0) {
      return Int<0>{};
    } else {
      auto r = fold(make_seq<R - 1>{}, make_tuple(Int<0>{}, coord), [&](auto const& acc, auto i) {
        constexpr int I = decltype(i)::value;
        auto si = product(get<I>(shape));
        return make_tuple(get<0>(acc) + crd2idx(get<1>(acc) % si, get<I>(shape), get<I>(stride)), get<1>(acc) / si);
      });
      return get<0>(r) + crd2idx(get<1>(r), get<R - 1>(shape), get<R - 1>(stride));
    }
  } else {
    return coord * stride;
  }
}

// --- compact strides ----------------------------------------------------------------------

// Column-major generator: the leftmost mode is contiguous.
struct LayoutLeft;
// Row-major generator: the rightmost mode is contiguous.
struct LayoutRight;

// Compact strides for `shape` starting at `current`, in the given major order,
// applied at every level of nesting. A static mode of size 1 gets stride _0.
// @post the layout (shape, result) is a bijection onto [0, size(shape)) * current
template <class Major, class ShapeT, class Current = Int<1>>
TESSERA_HOST_DEVICE constexpr auto compact_major(ShapeT const& shape, Current const& current = {}) {
  if constexpr (is_tuple_v<ShapeT>) {
    if constexpr (std::is_same_v<Major, LayoutLeft>) {
      auto r = fold(shape, make_tuple(tuple<>{}, current), [](auto const& acc, auto const& si) {
        return make_tuple(append(get<0>(acc), compact_major<Major>(si, get<1>(acc))), get<1>(acc) * product(si));
      });
      return get<0>(r);
    } else {
      auto r = fold(reverse(shape), make_tuple(tuple<>{}, current), [](auto const& acc, auto const& si) {
        return make_tuple(prepend(get<0>(acc), compact_major<Major>(si, get<1>(acc))), get<1>(acc) * product(si));
      });
      return get<0>(r);
    }
  } else if constexpr (is_constant_v<1, ShapeT>) {
    return Int<0>{};
  } else {
    return current;
  }
}

struct LayoutLeft {
  template <class ShapeT>
  using Apply = decltype(compact_major<LayoutLeft>(std::declval<ShapeT>()));
};
struct LayoutRight {
  template <class ShapeT>
  using Apply = decltype(compact_major<LayoutRight>(std::declval<ShapeT>()));
};
using GenColMajor = LayoutLeft;
using GenRowMajor = LayoutRight;

template <class ShapeT, class Current = Int<1>>
TESSERA_HOST_DEVICE constexpr auto compact_col_major(ShapeT const& shape, Current const& current = {}) {
  return compact_major<LayoutLeft>(shape, current);
}
template <class ShapeT, class Current = Int<1>>
TESSERA_HOST_DEVICE constexpr auto compact_row_major(ShapeT const& shape, Current const& current = {}) {
  return compact_major<LayoutRight>(shape, current);
}

// Index of a coordinate in the compact column-major order of shape.
template <class Coord, class ShapeT>
TESSERA_HOST_DEVICE constexpr auto crd2idx(Coord const& coord, ShapeT const& shape) {
  return crd2idx(coord, shape, compact_col_major(shape));
}

// --- idx2crd ----------------------------------------------------------------------------

// Natural (hierarchical) coordinate of index `idx` under (shape, stride); the
// stride is compact column-major when omitted.
// @post idx2crd(i, s) is congruent to s and crd2idx(idx2crd(i, s), s) == i
template <class Index, class ShapeT, class StrideT>
TESSERA_HOST_DEVICE constexpr auto idx2crd(Index const& idx, ShapeT const& shape, StrideT const& stride) {
  if constexpr (is_tuple_v<Index>) {
    static_assert(is_tuple_v<ShapeT> && tuple_size_v<Index> == tuple_size_v<ShapeT>, "idx2crd: coordinate and shape ranks differ");
    return transform(idx, shape, stride, [](auto const& i, auto const& s, auto const& d) { return idx2crd(i, s, d); });
  } else if constexpr (is_tuple_v<ShapeT>) {
    return transform(shape, stride, [&](auto const& s, auto const& d) { return idx2crd(idx, s, d); });
  } else if constexpr (is_constant_v<1, ShapeT>) {
    return Int<0>{};
  } else {
    return (idx / stride) % shape;
  }
}
template <class Index, class ShapeT>
TESSERA_HOST_DEVICE constexpr auto idx2crd(Index const& idx, ShapeT const& shape) {
  return idx2crd(idx, shape, compact_col_major(shape));
}

// --- crd2crd -------------------------------------------------------------------------------

// A coordinate of `src_shape` rewritten for `dst_shape` (equal sizes): mode
// by mode where both are tuples; a tuple coordinate meeting an integer
// destination becomes its colexicographic index in src_shape (crd2idx), an
// integer coordinate meeting a tuple destination that index's natural
// coordinate (idx2crd); an integer meeting an integer stays as it is.
// @post crd2idx(crd2crd(c, s, d), d) == crd2idx(c, s) when size(s) == size(d)
//       mode by mode
template <class Coord, class SrcShape, class DstShape>
TESSERA_HOST_DEVICE constexpr auto crd2crd(Coord const& coord, SrcShape const& src_shape, DstShape const& dst_shape) {
  if constexpr (is_tuple_v<Coord> && is_tuple_v<DstShape>) {
    static_assert(is_tuple_v<SrcShape> && tuple_size_v<Coord> == tuple_size_v<SrcShape> &&
                      tuple_size_v<Coord> == tuple_size_v<DstShape>,
                  "crd2crd: coordinate, source and destination shapes have different ranks");
    return transform(coord, src_shape, dst_shape,
                     [](auto const& c, auto const& s, auto const& d) { return crd2crd(c, s, d); });
  } else if constexpr (is_tuple_v<Coord>) {
    return crd2idx(coord, src_shape);
  } else if constexpr (is_tuple_v<DstShape>) {
    return idx2crd(coord, dst_shape);
  } else {
    return coord;
  }
}

// --- compact_order -------------------------------------------------------------------------

namespace detail {
template <class O>
TESSERA_HOST_DEVICE constexpr int static_order_value() {
  if constexpr (is_static_int_v<O>) return int(O::value);
  else return 0;
}

template <class ShapeT, class Order, class RefShape, class RefOrder>
TESSERA_HOST_DEVICE constexpr auto compact_order_impl(ShapeT const& shape, Order const& order, RefShape const& ref_shape,
                                                      RefOrder const& ref_order) {
  if constexpr (is_tuple_v<Order>) {
    return transform(shape, order, [&](auto const& s, auto const& o) { return compact_order_impl(s, o, ref_shape, ref_order); });
  } else {
    auto d = product(transform(ref_shape, ref_order, [&](auto const& s, auto const& o) {
      return conditional_return<decltype(o < order)::value>(product(s), Int<1>{});
    }));
    return compact_col_major(shape, d);
  }
}
}  // namespace detail

// Compact strides where the modes are laid out in increasing `order` (order 0
// is contiguous). Dynamic order entries come after all static ones, in place.
// @post the layout (shape, result) is a bijection onto [0, size(shape))
template <class ShapeT, class Order>
TESSERA_HOST_DEVICE constexpr auto compact_order(ShapeT const& shape, Order const& order) {
  if constexpr (std::is_same_v<Order, LayoutLeft>) {
    return compact_col_major(shape);
  } else if constexpr (std::is_same_v<Order, LayoutRight>) {
    return compact_row_major(shape);
  } else if constexpr (!is_tuple_v<Order>) {
    return compact_col_major(shape);
  } else {
    auto ref_shape = flatten_to_tuple(product_like(shape, order));
    auto flat_order = flatten_to_tuple(order);
    constexpr int max_order = []<class... O>(tuple<O...>*) {
      int m = 0;
      ((m = detail::static_order_value<O>() > m ? detail::static_order_value<O>() : m), ...);
      return m;
    }(static_cast<decltype(flat_order)*>(nullptr));
    auto ref_order = [&]<int... I>(seq<I...>) {
      return make_tuple([&]() {
        if constexpr (is_static_int_v<std::remove_cvref_t<decltype(get<I>(flat_order))>>) return get<I>(flat_order);
        else return Int<max_order + 1 + I>{};
      }()...);
    }(tuple_seq<decltype(flat_order)>{});
    auto new_order = unflatten(ref_order, order);
    return detail::compact_order_impl(shape, new_order, ref_shape, ref_order);
  }
}

}  // namespace tessera
