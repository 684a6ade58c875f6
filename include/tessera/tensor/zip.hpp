// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Zip tensors: several tensors over one domain, read and written together.
//
//   Tensor z = make_zip_tensor(tA, tS);    // z(c) refers to (tA(c), tS(c))
//   tuple<float, int> v = z(c);            // reads both
//   get<0>(z(c)) = x;                      // writes tA(c)
//   z(c) = make_tuple(x, s);               // writes both
//   auto [a, s] = z(c);                    // a, s: references into tA, tS
//   Tensor zt = local_tile(z, tiler, blk); // every component tiled alike
//   auto [tAt, tSt] = unzip_tensor(zt);    // == (local_tile(tA, ...), local_tile(tS, ...))
//
// The layout is a ZipLayout: the component layouts side by side, each applied
// to the same coordinate. Its value at a coordinate is the tuple of the
// components' offsets, and a zip_iterator moves each component's iterator by
// its own offset. Slicing, the divides, local_tile and local_partition act on
// every component, so a view of a zip is the zip of the components' views
// (a swizzled component is sliced as a swizzled tensor would be).
//
// @law z(c) refers to (t0(c), t1(c), ...) for every coordinate c of the domain
// @law unzip_tensor(z(s)) == (t0(s), t1(s), ...) for a slice s (likewise local_tile, local_partition)

#include <cstddef>
#include <cstdio>
#include <ostream>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/engine.hpp"
#include "tessera/tensor/pointer.hpp"
#include "tessera/tensor/tensor_impl.hpp"

namespace tessera {

// ---- zip_reference ---------------------------------------------------------

// What *zip_iterator gives: the components' iterators at one element.
// Assigning to it writes every component (it never rebinds); converting it to
// a tuple reads them. Like vector<bool>'s reference, `auto r = z(c)` keeps the
// proxy, not the values.
template <class... Iters>
struct zip_reference {
  using value_type = tuple<typename iterator_traits_of<Iters>::value_type...>;

  tuple<Iters...> iters_;

  TESSERA_HOST_DEVICE constexpr explicit zip_reference(tuple<Iters...> const& its) : iters_(its) {}
  zip_reference(zip_reference const&) = default;

  // Element-wise writes.
  template <class... Vs>
    requires(sizeof...(Vs) == sizeof...(Iters))
  TESSERA_HOST_DEVICE constexpr zip_reference const& operator=(tuple<Vs...> const& v) const {
    [&]<int... I>(seq<I...>) { ((*get<I>(iters_) = get<I>(v)), ...); }(make_seq<sizeof...(Iters)>{});
    return *this;
  }
  TESSERA_HOST_DEVICE constexpr zip_reference const& operator=(zip_reference const& o) const {
    [&]<int... I>(seq<I...>) { ((*get<I>(iters_) = *get<I>(o.iters_)), ...); }(make_seq<sizeof...(Iters)>{});
    return *this;
  }
  template <class... Os>
    requires(sizeof...(Os) == sizeof...(Iters))
  TESSERA_HOST_DEVICE constexpr zip_reference const& operator=(zip_reference<Os...> const& o) const {
    [&]<int... I>(seq<I...>) { ((*get<I>(iters_) = *get<I>(o.iters_)), ...); }(make_seq<sizeof...(Iters)>{});
    return *this;
  }

  // Reads every component, converted to Vs (value_type, or any tuple the
  // components convert to).
  template <class... Vs>
    requires(sizeof...(Vs) == sizeof...(Iters))
  TESSERA_HOST_DEVICE constexpr operator tuple<Vs...>() const {
    return [&]<int... I>(seq<I...>) {
      return tuple<Vs...>(static_cast<Vs>(*get<I>(iters_))...);
    }(make_seq<sizeof...(Iters)>{});
  }
};

// get<I>(z(c)): component I's element (a reference: assignable).
template <std::size_t I, class... Iters>
TESSERA_HOST_DEVICE constexpr decltype(auto) get(zip_reference<Iters...> const& r) {
  static_assert(I < sizeof...(Iters), "get: index out of range [the zip has fewer components]");
  return *get<I>(r.iters_);
}

// ---- zip_iterator -----------------------------------------------------------

// A tuple of iterators moved asymmetrically: it + (o0, o1, ...) moves
// iterator k by o_k (the offsets a ZipLayout gives). A plain integer offset
// is not accepted; every component has its own layout.
template <class... Iters>
struct zip_iterator {
  using value_type = tuple<typename iterator_traits_of<Iters>::value_type...>;
  using element_type = value_type;
  using reference = zip_reference<Iters...>;

  tuple<Iters...> iters_;

  TESSERA_HOST_DEVICE constexpr explicit zip_iterator(Iters const&... its) : iters_(its...) {}
  TESSERA_HOST_DEVICE constexpr explicit zip_iterator(tuple<Iters...> const& its) : iters_(its) {}

  TESSERA_HOST_DEVICE constexpr reference operator*() const { return reference{iters_}; }

  template <class... Offs>
  TESSERA_HOST_DEVICE constexpr auto operator+(tuple<Offs...> const& offs) const {
    static_assert(sizeof...(Offs) == sizeof...(Iters), "zip_iterator: needs one offset per component");
    return [&]<int... I>(seq<I...>) {
      return zip_iterator<std::remove_cvref_t<decltype(get<I>(iters_) + get<I>(offs))>...>(get<I>(iters_) +
                                                                                            get<I>(offs)...);
    }(make_seq<sizeof...(Iters)>{});
  }
  template <class... Offs>
  TESSERA_HOST_DEVICE constexpr auto operator[](tuple<Offs...> const& offs) const {
    return *(*this + offs);
  }
};

// A zip is in a memory space when every component is.
template <class... Iters>
struct is_gmem<zip_iterator<Iters...>> : std::bool_constant<(is_gmem<Iters>::value && ...)> {};
template <class... Iters>
struct is_smem<zip_iterator<Iters...>> : std::bool_constant<(is_smem<Iters>::value && ...)> {};
template <class... Iters>
struct is_rmem<zip_iterator<Iters...>> : std::bool_constant<(is_rmem<Iters>::value && ...)> {};

// ---- ZipLayout --------------------------------------------------------------

template <class... Ls>
struct ZipLayout;

namespace detail {
template <class... Ls>
TESSERA_HOST_DEVICE constexpr auto zip_layout_of(tuple<Ls...> const& ls) {
  return ZipLayout<Ls...>(ls);
}
// ZipLayout(f(L0), f(L1), ...).
template <class... Ls, class F>
TESSERA_HOST_DEVICE constexpr auto zip_map(ZipLayout<Ls...> const& z, F&& f) {
  return zip_layout_of(transform(z.layouts_, f));
}
}  // namespace detail

// Layouts over one domain, applied side by side: L(c) == (L0(c), L1(c), ...).
// Shape questions (shape, size, rank, depth) are answered by the first
// component. The components need the same rank; after an operation their
// inner nesting may differ (composition coalesces by stride), so a
// hierarchical coordinate must suit every component, while a 1-D index, a
// coordinate of top-level integers or `_` always does.
template <class... Ls>
struct ZipLayout {
  static_assert(sizeof...(Ls) > 0, "ZipLayout: needs at least one layout");
  static constexpr int rank = std::tuple_element_t<0, std::tuple<Ls...>>::rank;
  static_assert(((Ls::rank == rank) && ...),
                "ZipLayout: the component layouts have different ranks "
                "[an operation nested the components differently; zip tensors of congruent shapes]");

  tuple<Ls...> layouts_;

  TESSERA_HOST_DEVICE constexpr explicit ZipLayout(Ls const&... ls) : layouts_(ls...) {}
  TESSERA_HOST_DEVICE constexpr explicit ZipLayout(tuple<Ls...> const& ls) : layouts_(ls) {}

  template <int... I>
  TESSERA_HOST_DEVICE constexpr decltype(auto) shape() const {
    return get<0>(layouts_).template shape<I...>();
  }
  TESSERA_HOST_DEVICE constexpr auto size() const { return get<0>(layouts_).size(); }

  // (L0(c), L1(c), ...); a coordinate with `_` gives the sliced ZipLayout.
  template <class Coord>
  TESSERA_HOST_DEVICE constexpr auto operator()(Coord const& coord) const {
    if constexpr (has_underscore_v<Coord>) {
      return detail::zip_map(*this, [&](auto const& l) { return l(coord); });
    } else {
      return transform(layouts_, [&](auto const& l) { return l(coord); });
    }
  }
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return operator()(make_coord(c0, c1, cs...));
  }
};

template <class T>
struct is_zip_layout : false_type {};
template <class... Ls>
struct is_zip_layout<ZipLayout<Ls...>> : true_type {};
template <class T>
inline constexpr bool is_zip_layout_v = is_zip_layout<std::remove_cvref_t<T>>::value;

template <int... I, class... Ls>
TESSERA_HOST_DEVICE constexpr decltype(auto) shape(ZipLayout<Ls...> const& z) {
  return shape<I...>(get<0>(z.layouts_));
}
template <int... I, class... Ls>
TESSERA_HOST_DEVICE constexpr auto size(ZipLayout<Ls...> const& z) {
  return size<I...>(get<0>(z.layouts_));
}
template <int... I, class... Ls>
TESSERA_HOST_DEVICE constexpr auto rank(ZipLayout<Ls...> const& z) {
  return rank<I...>(get<0>(z.layouts_));
}
template <int... I, class... Ls>
TESSERA_HOST_DEVICE constexpr auto depth(ZipLayout<Ls...> const& z) {
  return depth<I...>(get<0>(z.layouts_));
}

// Mode I... of every component.
template <int... I, class... Ls>
TESSERA_HOST_DEVICE constexpr auto layout(ZipLayout<Ls...> const& z) {
  return detail::zip_map(z, [](auto const& l) { return layout<I...>(l); });
}
template <std::size_t I, class... Ls>
TESSERA_HOST_DEVICE constexpr auto get(ZipLayout<Ls...> const& z) {
  return detail::zip_map(z, [](auto const& l) { return get<I>(l); });
}

// (sliced ZipLayout, tuple of offsets): each component sliced exactly as a
// tensor with that layout is (detail::slice_for_tensor), so a swizzled
// component decays to a plain layout where that is exact.
// @post z(coord with x at the `_` modes) == get<0>(r)(x) + get<1>(r), component-wise
template <class Coord, class... Ls>
TESSERA_HOST_DEVICE constexpr auto slice_and_offset(Coord const& coord, ZipLayout<Ls...> const& z) {
  auto so = transform(z.layouts_, [&](auto const& l) { return detail::slice_for_tensor(coord, l); });
  return make_tuple(detail::zip_layout_of(transform(so, [](auto const& p) { return get<0>(p); })),
                    transform(so, [](auto const& p) { return get<1>(p); }));
}
template <class Coord, class... Ls>
TESSERA_HOST_DEVICE constexpr auto slice(Coord const& coord, ZipLayout<Ls...> const& z) {
  return z(coord);
}
// (ZipLayout, tuple of offsets) with the origin moved to coord in every component.
template <class Coord, class... Ls>
TESSERA_HOST_DEVICE constexpr auto domain_offset(Coord const& coord, ZipLayout<Ls...> const& z) {
  auto lo = transform(z.layouts_, [&](auto const& l) { return domain_offset(coord, l); });
  return make_tuple(detail::zip_layout_of(transform(lo, [](auto const& p) { return get<0>(p); })),
                    transform(lo, [](auto const& p) { return get<1>(p); }));
}

// The algebra a tensor view uses, component by component.
template <class... Ls, class... Tilers>
TESSERA_HOST_DEVICE constexpr auto composition(ZipLayout<Ls...> const& z, Tilers const&... tilers) {
  return detail::zip_map(z, [&](auto const& l) { return composition(l, tilers...); });
}
template <class... Ls, class Tiler>
TESSERA_HOST_DEVICE constexpr auto logical_divide(ZipLayout<Ls...> const& z, Tiler const& tiler) {
  return detail::zip_map(z, [&](auto const& l) { return logical_divide(l, tiler); });
}
template <class... Ls, class Tiler>
TESSERA_HOST_DEVICE constexpr auto zipped_divide(ZipLayout<Ls...> const& z, Tiler const& tiler) {
  return detail::zip_map(z, [&](auto const& l) { return zipped_divide(l, tiler); });
}
template <class... Ls, class Tiler>
TESSERA_HOST_DEVICE constexpr auto tiled_divide(ZipLayout<Ls...> const& z, Tiler const& tiler) {
  return detail::zip_map(z, [&](auto const& l) { return tiled_divide(l, tiler); });
}
template <class... Ls, class Tiler>
TESSERA_HOST_DEVICE constexpr auto flat_divide(ZipLayout<Ls...> const& z, Tiler const& tiler) {
  return detail::zip_map(z, [&](auto const& l) { return flat_divide(l, tiler); });
}
template <class... Ls>
TESSERA_HOST_DEVICE constexpr auto flatten(ZipLayout<Ls...> const& z) {
  return detail::zip_map(z, [](auto const& l) { return flatten(l); });
}
template <int B, int E, class... Ls>
TESSERA_HOST_DEVICE constexpr auto group(ZipLayout<Ls...> const& z) {
  return detail::zip_map(z, [](auto const& l) { return group<B, E>(l); });
}
template <int B, int E, class... Ls>
TESSERA_HOST_DEVICE constexpr auto take(ZipLayout<Ls...> const& z) {
  return detail::zip_map(z, [](auto const& l) { return take<B, E>(l); });
}
template <int... I, class... Ls>
  requires(sizeof...(I) > 0)
TESSERA_HOST_DEVICE constexpr auto select(ZipLayout<Ls...> const& z) {
  return detail::zip_map(z, [](auto const& l) { return select<I...>(l); });
}
template <int N, class... Ls, class X = Layout<Int<1>, Int<0>>>
TESSERA_HOST_DEVICE constexpr auto append(ZipLayout<Ls...> const& z, X const& x = {}) {
  return detail::zip_map(z, [&](auto const& l) { return append<N>(l, x); });
}
template <int N, class... Ls, class X = Layout<Int<1>, Int<0>>>
TESSERA_HOST_DEVICE constexpr auto prepend(ZipLayout<Ls...> const& z, X const& x = {}) {
  return detail::zip_map(z, [&](auto const& l) { return prepend<N>(l, x); });
}

namespace detail {
template <class T>
inline constexpr bool dependent_false_v = false;
}  // namespace detail

// Refused: components with different strides coalesce to different shapes.
template <class... Ls>
TESSERA_HOST_DEVICE constexpr auto coalesce(ZipLayout<Ls...> const& z) {
  static_assert(detail::dependent_false_v<ZipLayout<Ls...>>,
                "coalesce: a zip's components may coalesce to different shapes [coalesce each tensor, then zip]");
  return z;
}
template <class... Ls, class P>
TESSERA_HOST_DEVICE constexpr auto coalesce(ZipLayout<Ls...> const& z, P const&) {
  static_assert(detail::dependent_false_v<ZipLayout<Ls...>>,
                "coalesce: a zip's components may coalesce to different shapes [coalesce each tensor, then zip]");
  return z;
}

// ---- make_zip_tensor / unzip_tensor ----------------------------------------

namespace detail {
// Whether the static sizes of mode M agree across the layouts (dynamic ones
// are checked at run time).
template <int M, class... Ls>
constexpr bool static_mode_sizes_agree() {
  long long first = -1;
  bool ok = true;
  (
      [&] {
        using Sz = decltype(size<M>(std::declval<Ls const&>()));
        if constexpr (is_static_int_v<Sz>) {
          if (first < 0) first = (long long)(Sz::value);
          else ok = ok && first == (long long)(Sz::value);
        }
      }(),
      ...);
  return ok;
}
template <class L0, class... Ls>
constexpr bool static_shapes_agree() {
  return [&]<int... M>(seq<M...>) {
    return (static_mode_sizes_agree<M, L0, Ls...>() && ...);
  }(make_seq<L0::rank>{});
}
template <class L0, class... Ls>
TESSERA_HOST_DEVICE constexpr bool dynamic_shapes_agree(L0 const& l0, Ls const&... ls) {
  return [&]<int... M>(seq<M...>) {
    auto mode_agrees = [&](auto m) {
      constexpr int k = decltype(m)::value;
      return (true && ... && (int(size<k>(ls)) == int(size<k>(l0))));
    };
    return (mode_agrees(Int<M>{}) && ...);
  }(make_seq<L0::rank>{});
}
}  // namespace detail

// A tensor whose element c refers to (ts(c)...): a view, nothing copied.
// The tensors need the same rank and, mode by mode, the same size (checked at
// compile time where static, with TESSERA_ASSERT otherwise). A zip of an
// owning fragment points into it: pass the fragment itself (an lvalue), never
// a temporary; a const fragment gives a read-only component.
template <class... Ts>
  requires(sizeof...(Ts) > 0 && (is_tensor_v<Ts> && ...))
TESSERA_HOST_DEVICE constexpr auto make_zip_tensor(Ts&&... ts) {
  static_assert(((!std::is_rvalue_reference_v<Ts&&> ||
                  !detail::is_owning_engine_v<typename std::remove_cvref_t<Ts>::engine_type>) &&
                 ...),
                "make_zip_tensor: an owning tensor passed as a temporary would dangle [zip a named fragment]");
  constexpr int r0 = std::remove_cvref_t<std::tuple_element_t<0, std::tuple<Ts...>>>::rank;
  constexpr bool same_rank = ((std::remove_cvref_t<Ts>::rank == r0) && ...);
  static_assert(same_rank, "make_zip_tensor: the tensors have different ranks [zip tensors over one domain]");
  if constexpr (same_rank) {
    static_assert(detail::static_shapes_agree<typename std::remove_cvref_t<Ts>::layout_type...>(),
                  "make_zip_tensor: the tensors' shapes differ in a static mode size [zip tensors over one domain]");
    TESSERA_ASSERT(detail::dynamic_shapes_agree(ts.layout()...) &&
                   "make_zip_tensor: the tensors' shapes differ in a mode size");
    using It = zip_iterator<std::remove_cvref_t<decltype(ts.data())>...>;
    using L = ZipLayout<typename std::remove_cvref_t<Ts>::layout_type...>;
    return Tensor<ViewEngine<It>, L>{ViewEngine<It>{It{ts.data()...}}, L{ts.layout()...}};
  }
}

// The components of a zip tensor as separate views: (t0, t1, ...).
template <class... Iters, class... Ls>
TESSERA_HOST_DEVICE constexpr auto unzip_tensor(Tensor<ViewEngine<zip_iterator<Iters...>>, ZipLayout<Ls...>> const& z) {
  return [&]<int... I>(seq<I...>) {
    return make_tuple(detail::make_view(get<I>(z.data().iters_), get<I>(z.layout().layouts_))...);
  }(make_seq<sizeof...(Iters)>{});
}

// ---- printing ---------------------------------------------------------------

namespace detail {
// Prints open, then part(Int<0>{}), ",", part(Int<1>{}), ..., then ")".
template <int N, class Part>
TESSERA_HOST_DEVICE void print_joined(char const* open, Part const& part) {
  printf("%s", open);
  [&]<int... I>(seq<I...>) { (((I == 0 ? void() : void(printf(","))), part(Int<I>{})), ...); }(make_seq<N>{});
  printf(")");
}
}  // namespace detail

template <class... Iters>
TESSERA_HOST_DEVICE void print(zip_iterator<Iters...> const& it) {
  detail::print_joined<sizeof...(Iters)>("zip(", [&](auto i) { print(get<decltype(i)::value>(it.iters_)); });
}
template <class... Ls>
TESSERA_HOST_DEVICE void print(ZipLayout<Ls...> const& z) {
  detail::print_joined<sizeof...(Ls)>("zip(", [&](auto i) { print(get<decltype(i)::value>(z.layouts_)); });
}
// The components' values, "(a,b)" (what print_tensor shows for a zip).
template <class... Iters>
TESSERA_HOST_DEVICE void print(zip_reference<Iters...> const& r) {
  detail::print_joined<sizeof...(Iters)>("(", [&](auto i) { print(get<decltype(i)::value>(r)); });
}
template <class... Ls>
std::ostream& operator<<(std::ostream& os, ZipLayout<Ls...> const& z) {
  os << "zip(";
  [&]<int... I>(seq<I...>) { ((os << (I == 0 ? "" : ",") << get<I>(z.layouts_)), ...); }(make_seq<sizeof...(Ls)>{});
  return os << ")";
}

}  // namespace tessera

// Structured bindings: auto [a, s] = z(c); binds references into the components.
template <class... Iters>
struct std::tuple_size<tessera::zip_reference<Iters...>> : std::integral_constant<std::size_t, sizeof...(Iters)> {};
template <std::size_t I, class... Iters>
struct std::tuple_element<I, tessera::zip_reference<Iters...>> {
  using type = typename tessera::iterator_traits_of<std::tuple_element_t<I, std::tuple<Iters...>>>::reference;
};
