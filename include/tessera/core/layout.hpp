// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Layout = (Shape, Stride): a function from coordinates to indices.
//   L(c) = sum over leaves of c_i * d_i, for a coordinate congruent to the shape;
// an integer coordinate is first split colexicographically (idx2crd).
// Also here: the make_* builders, the structural accessors, slicing, and
// coalesce / filter, on which the rest of the algebra is built.

#include "tessera/config.hpp"
#include "tessera/core/arithmetic_tuple.hpp"
#include "tessera/core/int_tuple.hpp"
#include "tessera/core/stride.hpp"
#include "tessera/core/underscore.hpp"

namespace tessera {

template <class ShapeT, class StrideT = LayoutLeft::Apply<ShapeT>>
struct Layout;

template <class T>
struct is_layout : false_type {};
template <class S, class D>
struct is_layout<Layout<S, D>> : true_type {};
template <class T>
struct is_layout<T const> : is_layout<T> {};
template <class T>
struct is_layout<T&> : is_layout<std::remove_cv_t<T>> {};
template <class T>
inline constexpr bool is_layout_v = is_layout<T>::value;

template <class T>
concept layout_type = is_layout_v<T>;

template <class ShapeT, class StrideT>
struct Layout : private tuple<ShapeT, StrideT> {
  using shape_type = ShapeT;
  using stride_type = StrideT;

  static constexpr int rank = rank_v<ShapeT>;

  TESSERA_HOST_DEVICE constexpr Layout(ShapeT const& shape = {}, StrideT const& stride = {}) : tuple<ShapeT, StrideT>(shape, stride) {
    static_assert(decltype(congruent(shape, stride))::value, "Layout: shape and stride are not congruent [same nesting required]");
  }

  // Shape (or the sub-shape get<I...>).
  template <int... I>
  TESSERA_HOST_DEVICE constexpr decltype(auto) shape() const {
    if constexpr (sizeof...(I) == 0) return get<0>(static_cast<tuple<ShapeT, StrideT> const&>(*this));
    else return get<I...>(get<0>(static_cast<tuple<ShapeT, StrideT> const&>(*this)));
  }
  template <int... I>
  TESSERA_HOST_DEVICE constexpr decltype(auto) shape() {
    if constexpr (sizeof...(I) == 0) return get<0>(static_cast<tuple<ShapeT, StrideT>&>(*this));
    else return get<I...>(get<0>(static_cast<tuple<ShapeT, StrideT>&>(*this)));
  }
  template <int... I>
  TESSERA_HOST_DEVICE constexpr decltype(auto) stride() const {
    if constexpr (sizeof...(I) == 0) return get<1>(static_cast<tuple<ShapeT, StrideT> const&>(*this));
    else return get<I...>(get<1>(static_cast<tuple<ShapeT, StrideT> const&>(*this)));
  }
  template <int... I>
  TESSERA_HOST_DEVICE constexpr decltype(auto) stride() {
    if constexpr (sizeof...(I) == 0) return get<1>(static_cast<tuple<ShapeT, StrideT>&>(*this));
    else return get<I...>(get<1>(static_cast<tuple<ShapeT, StrideT>&>(*this)));
  }

  TESSERA_HOST_DEVICE constexpr auto size() const { return tessera::product(shape()); }
  TESSERA_HOST_DEVICE constexpr auto cosize() const;

  // Index of a coordinate; a coordinate with `_` gives the sliced sub-layout.
  template <class Coord>
  TESSERA_HOST_DEVICE constexpr auto operator()(Coord const& coord) const {
    if constexpr (has_underscore_v<Coord>) return slice(coord, *this);
    else return crd2idx(coord, shape(), stride());
  }
  // L(i, j, ...) == L(make_coord(i, j, ...)).
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return operator()(make_coord(c0, c1, cs...));
  }

  // The (hierarchical) coordinate whose image is the index `idx`, for a
  // compact layout (each mode's coordinate is idx / stride % shape).
  // @post crd2idx(get_hier_coord(i), shape(), stride()) == i  (compact layouts)
  template <class Index>
  TESSERA_HOST_DEVICE constexpr auto get_hier_coord(Index const& idx) const {
    return idx2crd(idx, shape(), stride());
  }
  // The same coordinate with one integer per top-level mode (each mode's
  // coordinate made 1-D, colexicographically).
  // @post rank(get_flat_coord(i)) == rank and depth == 1;
  //       crd2idx(get_flat_coord(i), shape(), stride()) == i  (compact layouts)
  template <class Index>
  TESSERA_HOST_DEVICE constexpr auto get_flat_coord(Index const& idx) const {
    return crd2crd(get_hier_coord(idx), shape(), repeat<rank>(Int<1>{}));
  }
  // The same coordinate as one colexicographic integer over the whole domain.
  // @post crd2idx(get_1d_coord(i), shape(), stride()) == i  (compact layouts)
  template <class Index>
  TESSERA_HOST_DEVICE constexpr auto get_1d_coord(Index const& idx) const {
    return crd2idx(get_hier_coord(idx), shape());
  }

  // Member spellings of the algebra (defined with the free functions).
  template <class... Args>
  TESSERA_HOST_DEVICE constexpr auto compose(Args const&... args) const;
  template <class... Args>
  TESSERA_HOST_DEVICE constexpr auto tile(Args const&... args) const;
  template <class... Args>
  TESSERA_HOST_DEVICE constexpr auto with_shape(Args const&... args) const;
};

template <class S, class D>
Layout(S, D) -> Layout<S, D>;

// --- builders -------------------------------------------------------------------------------

// Layout from a shape and a stride (congruent IntTuples), or a compact layout
// from a shape (column-major, or as the LayoutLeft / LayoutRight tag says).
template <class ShapeT, class StrideT>
  requires(!is_layout_v<ShapeT>)
TESSERA_HOST_DEVICE constexpr auto make_layout(ShapeT const& shape, StrideT const& stride) {
  if constexpr (std::is_same_v<StrideT, LayoutLeft> || std::is_same_v<StrideT, LayoutRight>) {
    return Layout(shape, compact_major<StrideT>(shape));
  } else {
    static_assert(int_tuple<ShapeT>, "make_layout: shape must be an integer or a tuple of integers");
    static_assert(decltype(congruent(shape, stride))::value, "make_layout: shape and stride are not congruent [same nesting required]");
    return Layout<ShapeT, StrideT>(shape, stride);
  }
}
template <class ShapeT>
  requires(!is_layout_v<ShapeT>)
TESSERA_HOST_DEVICE constexpr auto make_layout(ShapeT const& shape) {
  static_assert(int_tuple<ShapeT>, "make_layout: shape must be an integer or a tuple of integers");
  return Layout(shape, compact_col_major(shape));
}
// Concatenation: the layouts become the modes of the result.
template <layout_type L0, layout_type... Ls>
TESSERA_HOST_DEVICE constexpr auto make_layout(L0 const& l0, Ls const&... ls) {
  return Layout(make_shape(l0.shape(), ls.shape()...), make_stride(l0.stride(), ls.stride()...));
}

// --- accessors ----------------------------------------------------------------------------------

template <int... I, class S, class D>
TESSERA_HOST_DEVICE constexpr decltype(auto) shape(Layout<S, D> const& l) {
  return l.template shape<I...>();
}
template <int... I, class T>
  requires(!is_layout_v<T> && int_tuple<T>)
TESSERA_HOST_DEVICE constexpr decltype(auto) shape(T const& t) {
  if constexpr (sizeof...(I) == 0) return t;
  else return get<I...>(t);
}
template <int... I, class S, class D>
TESSERA_HOST_DEVICE constexpr decltype(auto) stride(Layout<S, D> const& l) {
  return l.template stride<I...>();
}

// Sub-layout at mode I (nested: layout<I, J>).
// @post layout<I>(l)(c) == l(0, ..., c, ..., 0) with c at mode I
template <int... I, class S, class D>
TESSERA_HOST_DEVICE constexpr auto layout(Layout<S, D> const& l) {
  if constexpr (sizeof...(I) == 0) return l;
  else return make_layout(get<I...>(l.shape()), get<I...>(l.stride()));
}
template <std::size_t I, class S, class D>
TESSERA_HOST_DEVICE constexpr auto get(Layout<S, D> const& l) {
  return make_layout(get<I>(l.shape()), get<I>(l.stride()));
}

template <int... I, class S, class D>
TESSERA_HOST_DEVICE constexpr auto size(Layout<S, D> const& l) {
  return size(shape<I...>(l));
}
template <int... I, class S, class D>
TESSERA_HOST_DEVICE constexpr auto rank(Layout<S, D> const& l) {
  return rank(shape<I...>(l));
}
template <int... I, class S, class D>
TESSERA_HOST_DEVICE constexpr auto depth(Layout<S, D> const& l) {
  return depth(shape<I...>(l));
}

// Extent of the codomain along each axis: L(shape - 1) + 1 with |strides|.
// An IntTuple for ScaledBasis strides, an integer otherwise.
template <int... I, class S, class D>
TESSERA_HOST_DEVICE constexpr auto coshape(Layout<S, D> const& l) {
  if constexpr (sizeof...(I) > 0) {
    return coshape(layout<I...>(l));
  } else {
    auto m1 = transform_leaf(l.shape(), [](auto const& s) { return s - Int<1>{}; });
    auto ad = transform_leaf(l.stride(), [](auto const& d) { return abs(d); });
    auto co = as_arithmetic_tuple(inner_product(m1, ad));
    return transform_leaf(co, [](auto const& c) { return c + Int<1>{}; });
  }
}

// Size of the codomain: 1 + the largest index reached (for non-negative strides).
template <int... I, class S, class D>
TESSERA_HOST_DEVICE constexpr auto cosize(Layout<S, D> const& l) {
  return size(coshape<I...>(l));
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto Layout<S, D>::cosize() const {
  return tessera::cosize(*this);
}

template <class L>
inline constexpr int cosize_v = decltype(cosize(std::declval<L>()))::value;
template <class L>
inline constexpr int size_v = decltype(size(std::declval<L>()))::value;

// The codomain profile: coshape with every leaf _0.
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto coprofile(Layout<S, D> const& l) {
  return repeat_like(coshape(l), Int<0>{});
}

template <class S0, class D0, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto operator==(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  if constexpr (!decltype(congruent(a.shape(), b.shape()))::value) {
    return false_type{};
  } else {
    return (a.shape() == b.shape()) && (a.stride() == b.stride());
  }
}
template <class S0, class D0, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto operator!=(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return !(a == b);
}

// --- slicing -------------------------------------------------------------------------------------

// The sub-layout over the `_` modes of coord.
template <class Coord, class S, class D>
TESSERA_HOST_DEVICE constexpr auto slice(Coord const& coord, Layout<S, D> const& l) {
  return make_layout(slice(coord, l.shape()), slice(coord, l.stride()));
}
// (slice(coord, l), the index of coord with `_` read as 0).
// @post l(c) == get<0>(r)(c restricted to the `_` modes) + get<1>(r)
template <class Coord, class S, class D>
TESSERA_HOST_DEVICE constexpr auto slice_and_offset(Coord const& coord, Layout<S, D> const& l) {
  return make_tuple(slice(coord, l), crd2idx(coord, l.shape(), l.stride()));
}
// The layout seen from `coord` as its origin: (l, l(coord)), the layout
// unchanged and the codomain offset of coord (a linear layout moves its whole
// image by l(coord)). ComposedLayout has its own, which keeps the offset
// inside (a swizzle is not linear).
// @post get<0>(r)(x) + get<1>(r) == l(coord + x) for coordinates x, coord + x of l
template <class Coord, class S, class D>
TESSERA_HOST_DEVICE constexpr auto domain_offset(Coord const& coord, Layout<S, D> const& l) {
  return make_tuple(l, crd2idx(coord, l.shape(), l.stride()));
}
// The sub-layout over the non-`_` modes of coord.
template <class Coord, class S, class D>
TESSERA_HOST_DEVICE constexpr auto dice(Coord const& coord, Layout<S, D> const& l) {
  return make_layout(dice(coord, l.shape()), dice(coord, l.stride()));
}

// --- structural operations on layouts ----------------------------------------------------------------

template <int B, int E, class S, class D>
TESSERA_HOST_DEVICE constexpr auto take(Layout<S, D> const& l) {
  return make_layout(take<B, E>(wrap(l.shape())), take<B, E>(wrap(l.stride())));
}
template <int... I, class S, class D>
TESSERA_HOST_DEVICE constexpr auto select(Layout<S, D> const& l) {
  return make_layout(select<I...>(wrap(l.shape())), select<I...>(wrap(l.stride())));
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto flatten(Layout<S, D> const& l) {
  return make_layout(flatten(l.shape()), flatten(l.stride()));
}
template <class S, class D, class P>
TESSERA_HOST_DEVICE constexpr auto unflatten(Layout<S, D> const& l, P const& profile) {
  return make_layout(unflatten(wrap(l.shape()), profile), unflatten(wrap(l.stride()), profile));
}
template <int B, int E, class S, class D>
TESSERA_HOST_DEVICE constexpr auto group(Layout<S, D> const& l) {
  return make_layout(group<B, E>(wrap(l.shape())), group<B, E>(wrap(l.stride())));
}
// CuTe's other spelling of group<B, E> (the Tensor form lives with the partitions).
template <int B, int E, class S, class D>
TESSERA_HOST_DEVICE constexpr auto group_modes(Layout<S, D> const& l) {
  return group<B, E>(l);
}
template <class S, class D, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto append(Layout<S, D> const& l, Layout<S1, D1> const& x) {
  return make_layout(append(l.shape(), x.shape()), append(l.stride(), x.stride()));
}
// Pad with `x` (default _1:_0) up to N modes.
template <int N, class S, class D, class X = Layout<Int<1>, Int<0>>>
TESSERA_HOST_DEVICE constexpr auto append(Layout<S, D> const& l, X const& x = {}) {
  return make_layout(append<N>(l.shape(), x.shape()), append<N>(l.stride(), x.stride()));
}
template <class S, class D, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto prepend(Layout<S, D> const& l, Layout<S1, D1> const& x) {
  return make_layout(prepend(l.shape(), x.shape()), prepend(l.stride(), x.stride()));
}
template <int N, class S, class D, class X = Layout<Int<1>, Int<0>>>
TESSERA_HOST_DEVICE constexpr auto prepend(Layout<S, D> const& l, X const& x = {}) {
  return make_layout(prepend<N>(l.shape(), x.shape()), prepend<N>(l.stride(), x.stride()));
}

// zip of layouts: the i-th modes of every argument grouped into mode i.
template <class S0, class D0, class S1, class D1, class... Ls>
TESSERA_HOST_DEVICE constexpr auto zip(Layout<S0, D0> const& a, Layout<S1, D1> const& b, Ls const&... ls) {
  return make_layout(zip(a.shape(), b.shape(), ls.shape()...), zip(a.stride(), b.stride(), ls.stride()...));
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto zip(Layout<S, D> const& l) {
  return make_layout(zip(l.shape()), zip(l.stride()));
}

// f applied to each mode of l (sub-layouts); the results become the modes.
template <class S, class D, class F>
TESSERA_HOST_DEVICE constexpr auto transform_layout(Layout<S, D> const& l, F&& f) {
  if constexpr (is_tuple_v<S>) {
    return [&]<int... I>(seq<I...>) { return make_layout(f(get<I>(l))...); }(make_seq<rank_v<S>>{});
  } else {
    return f(l);
  }
}
// f(mode_i of l, get<i>(t)) for the first rank(t) modes; the other modes kept.
template <class S, class D, class T, class F>
  requires(is_tuple_v<T>)
TESSERA_HOST_DEVICE constexpr auto transform_layout(Layout<S, D> const& l, T const& t, F&& f) {
  constexpr int R0 = rank_v<S>;
  constexpr int R1 = tuple_size_v<T>;
  static_assert(R1 <= R0, "transform_layout: more modes in the tuple than in the layout");
  auto wl = make_layout(wrap(l.shape()), wrap(l.stride()));
  return [&]<int... I, int... J>(seq<I...>, seq<J...>) {
    return make_layout(f(get<I>(wl), get<I>(t))..., get<J>(wl)...);
  }(make_seq<R1>{}, make_range<R1, R0>{});
}

// --- special layouts -------------------------------------------------------------------------

// Identity: each coordinate maps to itself (strides are unit bases E<i>).
// @post make_identity_layout(s)(c) == c for every natural coordinate c of s
template <class ShapeT>
TESSERA_HOST_DEVICE constexpr auto make_identity_layout(ShapeT const& shape) {
  return make_layout(shape, make_basis_like(shape));
}

// Compact layout whose modes are ordered by `order` (smallest = contiguous).
// @post the result is a bijection onto [0, size(shape))
template <class ShapeT, class Order>
TESSERA_HOST_DEVICE constexpr auto make_ordered_layout(ShapeT const& shape, Order const& order) {
  return make_layout(shape, compact_order(shape, order));
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_ordered_layout(Layout<S, D> const& l) {
  return make_ordered_layout(l.shape(), l.stride());
}

// Leaf-wise: shape _1 where the stride is a static _0.
template <class StrideT, class ShapeT>
TESSERA_HOST_DEVICE constexpr auto filter_zeros(StrideT const& stride, ShapeT const& shape) {
  return transform_leaf(stride, shape, [](auto const& d, auto const& s) {
    if constexpr (is_constant_v<0, std::remove_cvref_t<decltype(d)>>) return Int<1>{};
    else return s;
  });
}

// Compact layout of the same shape whose strides follow the order of l's
// strides; modes with a static _0 stride keep stride _0.
// @post the result is injective over the modes of l with nonzero stride
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_layout_like(Layout<S, D> const& l) {
  auto shape_nz = filter_zeros(l.stride(), l.shape());
  auto d = compact_order(shape_nz, l.stride());
  return make_layout(l.shape(), d);
}

// --- coalesce ----------------------------------------------------------------------------------

namespace detail {
// Walk the flat modes from right to left, merging mode i into the front of the
// accumulated layout when s_i * d_i == d_front is statically known to hold.
template <class OS, class OD, class NS, class ND, int... I>
TESSERA_HOST_DEVICE constexpr auto bw_coalesce(OS const& os, OD const& od, NS const& ns, ND const& nd, seq<I...>) {
  auto r = fold(seq<I...>{}, make_tuple(ns, nd), [&](auto const& acc, auto i) {
    constexpr int K = decltype(i)::value;
    auto const& s = get<0>(acc);
    auto const& d = get<1>(acc);
    auto const& si = get<K>(os);
    auto const& di = get<K>(od);
    using SI = std::remove_cvref_t<decltype(si)>;
    using S = std::remove_cvref_t<decltype(s)>;
    if constexpr (is_constant_v<1, SI>) {
      return acc;
    } else if constexpr (is_constant_v<1, S>) {
      return make_tuple(si, di);
    } else if constexpr (is_constant_v<true, decltype(si * di == get<0>(d))>) {
      return make_tuple(replace_front(s, si * get<0>(s)), replace_front(d, di));
    } else {
      return make_tuple(prepend(s, si), prepend(d, di));
    }
  });
  using RS = std::remove_cvref_t<decltype(get<0>(r))>;
  if constexpr (is_constant_v<1, RS>) return Layout<Int<1>, Int<0>>{};
  else return Layout(get<0>(r), get<1>(r));
}

template <int N, class S = make_seq<N>>
struct reverse_seq_impl;
template <int N, int... I>
struct reverse_seq_impl<N, seq<I...>> {
  using type = seq<(N - 1 - I)...>;
};
template <int N>
using reverse_seq = typename reverse_seq_impl<N>::type;

// bw_coalesce over modes [0, R-1) of (os, od), starting from (ns, nd).
template <class OS, class OD, class NS, class ND>
TESSERA_HOST_DEVICE constexpr auto bw_coalesce_all(OS const& os, OD const& od, NS const& ns, ND const& nd) {
  return bw_coalesce(os, od, ns, nd, reverse_seq<tuple_size_v<OS>>{});
}
}  // namespace detail

// The same function with the fewest modes: static size-1 modes dropped,
// adjacent modes with s_i * d_i == d_{i+1} merged (when statically known).
// @post coalesce(l)(i) == l(i) for every i < size(l); depth(result) <= 1
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& l) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  constexpr int R = tuple_size_v<decltype(fs)>;
  if constexpr (R == 0) {
    return Layout<Int<1>, Int<0>>{};
  } else {
    return detail::bw_coalesce_all(take<0, R - 1>(fs), take<0, R - 1>(fd), get<R - 1>(fs), get<R - 1>(fd));
  }
}

// Coalesce each mode of l separately as far as `profile` reaches; a
// non-tuple profile coalesces the whole layout.
// @post result(c) == l(c); rank(result) == rank(l) when profile is a tuple
template <class S, class D, class P>
TESSERA_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& l, P const& profile) {
  if constexpr (is_tuple_v<P>) {
    static_assert(tuple_size_v<P> <= rank_v<S>, "coalesce: profile has more modes than the layout");
    return transform_layout(l, profile, [](auto const& m, auto const& p) { return coalesce(m, p); });
  } else {
    return coalesce(l);
  }
}

// A shape with its adjacent leaves merged while both are static or both
// dynamic (CuTe's coalesce of an IntTuple): (_2,(_3,n),m,_4) -> (_6,n*m,_4).
// A single remaining mode comes back as an integer, () as _1.
// @post size(coalesce(s)) == size(s); depth(coalesce(s)) <= 1
// @post no two adjacent modes of the result are both static or both dynamic
template <int_tuple T>
TESSERA_HOST_DEVICE constexpr auto coalesce(T const& shape) {
  auto flat = flatten_to_tuple(shape);
  constexpr int R = tuple_size_v<decltype(flat)>;
  if constexpr (R == 0) {
    return Int<1>{};
  } else {
    auto merged = fold(take<1, R>(flat), make_tuple(get<0>(flat)), [](auto const& acc, auto const& a) {
      constexpr int B = tuple_size_v<std::remove_cvref_t<decltype(acc)>> - 1;
      if constexpr (is_static_int_v<decltype(get<B>(acc))> == is_static_int_v<decltype(a)>) {
        return replace_back(acc, get<B>(acc) * a);
      } else {
        return append(acc, a);
      }
    });
    if constexpr (tuple_size_v<decltype(merged)> == 1) return get<0>(merged);
    else return merged;
  }
}

// l with static-zero-stride modes given size 1.
// @post filter_zeros(l)(c) == l(c) wherever c is a coordinate of the result
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto filter_zeros(Layout<S, D> const& l) {
  return make_layout(filter_zeros(l.stride(), l.shape()), l.stride());
}

// Coalesced layout without the static-zero-stride modes: the image of l,
// walked once.
// @post the image of filter(l) equals the image of l (static-zero strides only)
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto filter(Layout<S, D> const& l) {
  return coalesce(filter_zeros(l));
}
template <class S, class D, class P>
TESSERA_HOST_DEVICE constexpr auto filter(Layout<S, D> const& l, P const& profile) {
  return coalesce(filter_zeros(l), profile);
}

// Compact layout with the shape of l: mode 0 column-major, the other modes
// ordered like l's strides (the register-fragment convention).
// @post shape(result) == shape(l) and the result is a bijection onto [0, size(l))
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_fragment_like(Layout<S, D> const& l) {
  constexpr int R = rank_v<S>;
  if constexpr (R > 1 && is_static_v<decltype(get<0>(l.shape()))>) {
    auto m0 = make_layout(get<0>(l.shape()));
    auto rest = make_ordered_layout(take<1, R>(l.shape()), take<1, R>(l.stride()));
    auto co = size(m0);
    return [&]<int... I>(seq<I...>) {
      return make_layout(make_shape(get<0>(l.shape()), get<I>(rest.shape())...),
                         make_stride(m0.stride(), transform_leaf(get<I>(rest.stride()), [&](auto const& x) { return co * x; })...));
    }(make_seq<R - 1>{});
  } else {
    return make_layout(l.shape());
  }
}

}  // namespace tessera
