// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Views of a tensor through the layout algebra: the data pointer stays, the
// layout changes (plus a pointer offset where a coordinate is fixed).
//
//   zipped_divide(t, tiler)                 ((TILE...),(REST...))
//   local_tile(t, tiler, coord)             the tile at `coord`: (TILE..., REST left by _)
//   local_tile(t, tiler, coord, Step<>)     only the modes the Step keeps (X drops one)
//   local_partition(t, thr_layout, idx)     what thread idx of thr_layout owns: (REST...)
//   inner_partition / outer_partition       the two halves of the above
//   recast<U>(t) group_modes<B,E>(t) flatten(t) coalesce(t) domain_offset(c, t)

#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/tensor_impl.hpp"

namespace tessera {

namespace detail {
template <class Iter, class L>
TESSERA_HOST_DEVICE constexpr auto view(Iter const& it, L const& l) {
  return Tensor<ViewEngine<Iter>, L>{ViewEngine<Iter>{it}, l};
}

// (_, _, ..., _) with R underscores.
template <int R>
TESSERA_HOST_DEVICE constexpr auto underscores() {
  return []<int... Is>(std::integer_sequence<int, Is...>) {
    return make_tuple(((void)Is, Underscore{})...);
  }(std::make_integer_sequence<int, R>{});
}

// `c` padded with trailing _ to R modes.
template <int R, class Coord>
TESSERA_HOST_DEVICE constexpr auto pad_with_underscores(Coord const& c) {
  constexpr int n = int(std::tuple_size_v<Coord>);
  static_assert(n <= R, "local_tile: the coordinate has more modes than the tiler");
  return [&]<int... Is, int... Js>(std::integer_sequence<int, Is...>, std::integer_sequence<int, Js...>) {
    return make_tuple(get<Is>(c)..., ((void)Js, Underscore{})...);
  }(std::make_integer_sequence<int, n>{}, std::make_integer_sequence<int, R - n>{});
}

template <class T> struct is_tuple_like : std::false_type {};
template <class... Ts> struct is_tuple_like<tuple<Ts...>> : std::true_type {};
}  // namespace detail

// ---- algebra applied to a tensor's layout ----------------------------------

template <class E, class L, class... Tilers>
TESSERA_HOST_DEVICE constexpr auto composition(Tensor<E, L> const& t, Tilers const&... tilers) {
  return detail::view(t.data(), composition(t.layout(), tilers...));
}
template <class E, class L, class Tiler>
TESSERA_HOST_DEVICE constexpr auto logical_divide(Tensor<E, L> const& t, Tiler const& tiler) {
  return detail::view(t.data(), logical_divide(t.layout(), tiler));
}
template <class E, class L, class Tiler>
TESSERA_HOST_DEVICE constexpr auto zipped_divide(Tensor<E, L> const& t, Tiler const& tiler) {
  return detail::view(t.data(), zipped_divide(t.layout(), tiler));
}
template <class E, class L, class Tiler>
TESSERA_HOST_DEVICE constexpr auto tiled_divide(Tensor<E, L> const& t, Tiler const& tiler) {
  return detail::view(t.data(), tiled_divide(t.layout(), tiler));
}
template <class E, class L, class Tiler>
TESSERA_HOST_DEVICE constexpr auto flat_divide(Tensor<E, L> const& t, Tiler const& tiler) {
  return detail::view(t.data(), flat_divide(t.layout(), tiler));
}

template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto flatten(Tensor<E, L> const& t) {
  return detail::view(t.data(), flatten(t.layout()));
}
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto coalesce(Tensor<E, L> const& t) {
  return detail::view(t.data(), coalesce(t.layout()));
}
template <class E, class L, class Profile>
TESSERA_HOST_DEVICE constexpr auto coalesce(Tensor<E, L> const& t, Profile const& p) {
  return detail::view(t.data(), coalesce(t.layout(), p));
}

// The sub-tensor of mode I (nested: tensor<I, J>(t)): same data, layout<I...>(t.layout()).
template <int... Is, class E, class L>
  requires(sizeof...(Is) > 0)
TESSERA_HOST_DEVICE constexpr auto tensor(Tensor<E, L> const& t) {
  return detail::view(t.data(), layout<Is...>(t.layout()));
}

// Modes [B,E) of t (take), or the listed modes (select), as a view.
template <int B, int E_, class E, class L>
TESSERA_HOST_DEVICE constexpr auto take(Tensor<E, L> const& t) {
  return detail::view(t.data(), take<B, E_>(t.layout()));
}
template <int... Is, class E, class L>
  requires(sizeof...(Is) > 0)
TESSERA_HOST_DEVICE constexpr auto select(Tensor<E, L> const& t) {
  return detail::view(t.data(), select<Is...>(t.layout()));
}

// Modes [B,E) of t folded into one mode.
template <int B, int E_, class E, class L>
TESSERA_HOST_DEVICE constexpr auto group_modes(Tensor<E, L> const& t) {
  return detail::view(t.data(), group<B, E_>(t.layout()));
}

// The same memory seen with element type NewT (a view; owning tensors are viewed, not copied).
// @pre the layout's contiguous run is divisible by the width ratio (recast_layout's rule)
template <class NewT, class E, class L>
TESSERA_HOST_DEVICE constexpr auto recast(Tensor<E, L> const& t) {
  using OldT = typename E::value_type;
  if constexpr (std::is_same_v<OldT, std::remove_cv_t<NewT>>) {
    return detail::view(t.data(), t.layout());
  } else {
    auto p = recast_ptr<NewT>(t.data());
    return detail::view(p, recast_layout<OldT, std::remove_cv_t<NewT>>(t.layout()));
  }
}

// The tensor with its origin moved to `coord`: result(c) == t(coord + c).
// The layout's domain_offset says how: a plain layout moves the iterator, a
// swizzled one keeps the iterator and moves its offset under the swizzle.
template <class Coord, class E, class L>
TESSERA_HOST_DEVICE constexpr auto domain_offset(Coord const& coord, Tensor<E, L> const& t) {
  auto lo = domain_offset(coord, t.layout());
  return detail::view(t.data() + get<1>(lo), get<0>(lo));
}

// ---- tiling and partitioning -----------------------------------------------

// The tile of t at `coord` in the tiling by `tiler` ("inner" modes kept).
// @post shape = (TILE..., REST modes that coord leaves as _)
template <class E, class L, class Tiler, class Coord>
TESSERA_HOST_DEVICE constexpr auto inner_partition(Tensor<E, L> const& t, Tiler const& tiler, Coord const& coord) {
  auto tiled = zipped_divide(t, tiler);
  constexpr int r0 = decltype(rank<0>(tiled.layout()))::value;
  if constexpr (detail::is_tuple_like<Coord>::value) {
    constexpr int r1 = decltype(rank<1>(tiled.layout()))::value;
    return tiled(make_coord(detail::underscores<r0>(), detail::pad_with_underscores<r1>(coord)));
  } else {
    return tiled(make_coord(detail::underscores<r0>(), coord));
  }
}

// The elements at position `coord` of every tile ("outer" modes kept).
// @post shape = (REST...)
template <class E, class L, class Tiler, class Coord>
TESSERA_HOST_DEVICE constexpr auto outer_partition(Tensor<E, L> const& t, Tiler const& tiler, Coord const& coord) {
  auto tiled = zipped_divide(t, tiler);
  constexpr int r1 = decltype(rank<1>(tiled.layout()))::value;
  if constexpr (detail::is_tuple_like<Coord>::value) {
    constexpr int r0 = decltype(rank<0>(tiled.layout()))::value;
    return tiled(make_coord(detail::pad_with_underscores<r0>(coord), detail::underscores<r1>()));
  } else {
    return tiled(make_coord(coord, detail::underscores<r1>()));
  }
}

// gA = local_tile(mA, make_shape(bM,bN,bK), make_coord(m,n,_), Step<_1,X,_1>{});  // (BLK_M,BLK_K,k)
template <class E, class L, class Tiler, class Coord>
TESSERA_HOST_DEVICE constexpr auto local_tile(Tensor<E, L> const& t, Tiler const& tiler, Coord const& coord) {
  return inner_partition(t, tiler, coord);
}
template <class E, class L, class Tiler, class Coord, class Proj>
TESSERA_HOST_DEVICE constexpr auto local_tile(Tensor<E, L> const& t, Tiler const& tiler, Coord const& coord,
                                              Proj const& proj) {
  return local_tile(t, dice(proj, tiler), dice(proj, coord));
}

namespace detail {
// Coordinate of index `idx` in each top-level mode of `thr` (1-D within the mode),
// inverting thr's strides: the coordinate c with thr(c) == idx when thr is a bijection.
template <class S, class D, class Index>
TESSERA_HOST_DEVICE constexpr auto flat_coord_of(Layout<S, D> const& thr, Index const& idx) {
  return transform(thr.shape(), thr.stride(), [&](auto const& s, auto const& d) {
    auto fs = flatten(make_tuple(s));
    auto fd = flatten(make_tuple(d));
    constexpr int n = int(std::tuple_size_v<decltype(fs)>);
    return [&]<int... Is>(std::integer_sequence<int, Is...>) {
      int c = 0;
      int scale = 1;
      ((c += (int(get<Is>(fd)) == 0 ? 0 : int((idx / int(get<Is>(fd))) % int(get<Is>(fs)))) * scale,
        scale *= int(get<Is>(fs))),
       ...);
      return c;
    }(std::make_integer_sequence<int, n>{});
  });
}
}  // namespace detail

// tCsA = local_partition(sA, thr_layout, threadIdx.x);                 // (THR_M',THR_K')
// tCsA = local_partition(sA, thr_layout, threadIdx.x, Step<_1,X>{});   // modes kept by the Step
template <class E, class L, class S, class D, class Index>
TESSERA_HOST_DEVICE constexpr auto local_partition(Tensor<E, L> const& t, Layout<S, D> const& thr, Index const& idx) {
  static_assert(std::is_integral_v<Index> || is_static<Index>::value,
                "local_partition: the thread index must be an integer");
  return outer_partition(t, product_each(thr.shape()), detail::flat_coord_of(thr, idx));
}
template <class E, class L, class S, class D, class Index, class Proj>
TESSERA_HOST_DEVICE constexpr auto local_partition(Tensor<E, L> const& t, Layout<S, D> const& thr, Index const& idx,
                                                   Proj const& proj) {
  return local_partition(t, dice(proj, thr), idx);
}

}  // namespace tessera
