// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Hierarchical integer tuples ("IntTuple"): an integer, or a tuple of
// IntTuples. Shapes, strides and coordinates are IntTuples. This file holds
// the arithmetic on them: rank, depth, size, sum, inner_product, flatten,
// shape_div, ceil_div, the congruence predicates and the coordinate orders.

#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/core/integral_constant.hpp"
#include "tessera/core/tuple.hpp"

namespace tessera {

template <class T>
concept int_tuple = is_integral_v<T> || is_tuple_v<T>;

// --- Shape, Stride, Coord, Step, Tile vocabulary ----------------------------------

template <class... T>
using Shape = tuple<T...>;
template <class... T>
using Stride = tuple<T...>;
template <class... T>
using Coord = tuple<T...>;
template <class... T>
using Step = tuple<T...>;
template <class... T>
using Tile = tuple<T...>;
template <class... T>
using IntTuple = tuple<T...>;

template <class... T>
TESSERA_HOST_DEVICE constexpr Shape<T...> make_shape(T const&... t) { return {t...}; }
template <class... T>
TESSERA_HOST_DEVICE constexpr Stride<T...> make_stride(T const&... t) { return {t...}; }
template <class... T>
TESSERA_HOST_DEVICE constexpr Coord<T...> make_coord(T const&... t) { return {t...}; }
template <class... T>
TESSERA_HOST_DEVICE constexpr Step<T...> make_step(T const&... t) { return {t...}; }
template <class... T>
TESSERA_HOST_DEVICE constexpr Tile<T...> make_tile(T const&... t) { return {t...}; }
template <class... T>
TESSERA_HOST_DEVICE constexpr IntTuple<T...> make_int_tuple(T const&... t) { return {t...}; }

// --- rank, depth ------------------------------------------------------------------

// Number of top-level modes (1 for a non-tuple).
template <int... Is, class T>
TESSERA_HOST_DEVICE constexpr auto rank(T const& t) {
  if constexpr (sizeof...(Is) == 0) {
    if constexpr (is_tuple_v<T>) return Int<tuple_size_v<T>>{};
    else return Int<1>{};
  } else {
    return rank(get<Is...>(t));
  }
}
template <class T>
inline constexpr int rank_v = decltype(rank(std::declval<T>()))::value;

// Nesting depth: 0 for an integer, 1 + the deepest element for a tuple.
template <int... Is, class T>
TESSERA_HOST_DEVICE constexpr auto depth(T const& t) {
  if constexpr (sizeof...(Is) == 0) {
    if constexpr (is_tuple_v<T>) {
      return apply(t, [](auto const&... e) {
        constexpr int d = [] {
          int m = 0;
          ((m = decltype(depth(e))::value > m ? decltype(depth(e))::value : m), ...);
          return m;
        }();
        return Int<1 + d>{};
      });
    } else {
      return Int<0>{};
    }
  } else {
    return depth(get<Is...>(t));
  }
}
template <class T>
inline constexpr int depth_v = decltype(depth(std::declval<T>()))::value;

// --- product, size, sum, inner_product ------------------------------------------------

// Product of all leaves (1 for an empty tuple).
template <class T>
TESSERA_HOST_DEVICE constexpr auto product(T const& t) {
  if constexpr (is_tuple_v<T>) return apply(t, [](auto const&... e) { return (Int<1>{} * ... * product(e)); });
  else return t;
}

// Product of each top-level mode.
template <class T>
TESSERA_HOST_DEVICE constexpr auto product_each(T const& t) {
  return transform(t, [](auto const& e) { return product(e); });
}

// The products of `t` over the profile of `guide` (t is at least as deep).
template <class T, class G>
TESSERA_HOST_DEVICE constexpr auto product_like(T const& t, G const& guide) {
  if constexpr (is_tuple_v<G>) return transform(t, guide, [](auto const& a, auto const& g) { return product_like(a, g); });
  else return product(t);
}

template <int... Is, class T>
TESSERA_HOST_DEVICE constexpr auto size(T const& t) {
  if constexpr (sizeof...(Is) == 0) return product(t);
  else return product(get<Is...>(t));
}

template <class T>
TESSERA_HOST_DEVICE constexpr auto sum(T const& t) {
  if constexpr (is_tuple_v<T>) return apply(t, [](auto const&... e) { return (Int<0>{} + ... + sum(e)); });
  else return t;
}

// Sum over leaves of a_i * b_i; a and b congruent.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto inner_product(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(tuple_size_v<A> == tuple_size_v<B>, "inner_product: ranks differ [arguments must be congruent]");
    return [&]<int... I>(seq<I...>) { return (Int<0>{} + ... + inner_product(get<I>(a), get<I>(b))); }(tuple_seq<A>{});
  } else {
    return a * b;
  }
}

// Leaf-wise a_i * b_i.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto elem_scale(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) return transform(a, b, [](auto const& x, auto const& y) { return elem_scale(x, y); });
  else return a * product(b);
}

// Largest / smallest leaf.
template <class T>
TESSERA_HOST_DEVICE constexpr auto max_leaf(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return apply(t, [](auto const& e0, auto const&... e) {
      if constexpr (sizeof...(e) == 0) return max_leaf(e0);
      else return max(max_leaf(e0), max_leaf(e)...);
    });
  } else {
    return t;
  }
}
template <class T>
TESSERA_HOST_DEVICE constexpr auto min_leaf(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return apply(t, [](auto const& e0, auto const&... e) {
      if constexpr (sizeof...(e) == 0) return min_leaf(e0);
      else return min(min_leaf(e0), min_leaf(e)...);
    });
  } else {
    return t;
  }
}

// --- division -------------------------------------------------------------------------

// "Shape division" a / b, rounding away from zero: a/b when b divides a, and
// +-1 when a divides b. A tuple a is divided mode by mode, b consumed from the
// left (the remainder of b carried to the next mode).
// @post static a, b give a static result; static operands must divide one another
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto shape_div(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    if constexpr (is_tuple_v<B>) {
      static_assert(tuple_size_v<A> == tuple_size_v<B>, "shape_div: ranks differ");
      return transform(a, b, [](auto const& x, auto const& y) { return shape_div(x, y); });
    } else {
      auto r = fold(a, make_tuple(tuple<>{}, b), [](auto const& init, auto const& ai) {
        return make_tuple(append(get<0>(init), shape_div(ai, get<1>(init))), shape_div(get<1>(init), ai));
      });
      return get<0>(r);
    }
  } else if constexpr (is_tuple_v<B>) {
    return shape_div(a, product(b));
  } else if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    static_assert(B::value != 0 && (A::value % B::value == 0 || B::value % A::value == 0),
                  "shape_div: static operands do not divide one another [shape and tile must nest]");
    constexpr auto q = A::value / B::value;
    return C<(q != 0 ? q : decltype(q)(((A::value > 0) - (A::value < 0)) * ((B::value > 0) - (B::value < 0))))>{};
  } else {
    return a / b != 0 ? a / b : decltype(a / b)(signum(a) * signum(b));
  }
}

namespace detail {
// f(a_i, b_i) mode by mode; the modes only the longer tuple has: a's kept,
// b's as f(_0, b_i).
template <class A, class B, class F>
TESSERA_HOST_DEVICE constexpr auto padded_elementwise(A const& a, B const& b, F&& f) {
  constexpr int R = tuple_size_v<A> > tuple_size_v<B> ? tuple_size_v<A> : tuple_size_v<B>;
  return [&]<int... I>(seq<I...>) {
    return make_tuple([&]() {
      if constexpr (I < tuple_size_v<A> && I < tuple_size_v<B>) return f(get<I>(a), get<I>(b));
      else if constexpr (I < tuple_size_v<A>) return get<I>(a);
      else return f(Int<0>{}, get<I>(b));
    }()...);
  }(make_seq<R>{});
}
}  // namespace detail

// ceil(a / b). A tuple a is divided mode by mode, b consumed from the left.
// A tuple b divides the tuple a mode by mode (modes of a beyond b unchanged).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto ceil_div(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    if constexpr (is_tuple_v<B>) {
      static_assert(tuple_size_v<A> >= tuple_size_v<B>, "ceil_div: divisor has more modes than the dividend");
      return detail::padded_elementwise(a, b, [](auto const& x, auto const& y) { return ceil_div(x, y); });
    } else {
      auto r = fold(a, make_tuple(tuple<>{}, b), [](auto const& init, auto const& ai) {
        return make_tuple(append(get<0>(init), ceil_div(ai, get<1>(init))), ceil_div(get<1>(init), ai));
      });
      return get<0>(r);
    }
  } else if constexpr (is_tuple_v<B>) {
    return ceil_div(a, product(b));
  } else if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    return C<((A::value + B::value - 1) / B::value)>{};
  } else {
    return (a + b - Int<1>{}) / b;
  }
}

// a rounded up to a multiple of b (CuTe's round_up): leaves ceil(a / b) * b,
// static when both are; tuples mode by mode, a's modes beyond b's unchanged
// (as if rounded to 1); an integer b rounds every mode of a tuple a.
// @post round_up(a, b) % b == 0 and a <= round_up(a, b) < a + b (leaves, b > 0)
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto round_up(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    if constexpr (is_tuple_v<B>) {
      static_assert(tuple_size_v<A> >= tuple_size_v<B>, "round_up: the multiple has more modes than the value");
      return detail::padded_elementwise(a, b, [](auto const& x, auto const& y) { return round_up(x, y); });
    } else {
      return transform(a, [&](auto const& ai) { return round_up(ai, b); });
    }
  } else {
    static_assert(!is_tuple_v<B>, "round_up: an integer cannot be rounded to a tuple");
    return ceil_div(a, b) * b;
  }
}

// a / b where b must divide a exactly (checked when static).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto safe_div(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    static_assert(A::value % B::value == 0, "safe_div: divisor does not divide the dividend");
    return C<(A::value / B::value)>{};
  } else {
    TESSERA_ASSERT(b != 0 && a % b == 0);  // safe_div: divisor does not divide the dividend
    return a / b;
  }
}

// min(a, b) for shapes, keeping a static _1 static.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto shape_min(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> || is_tuple_v<B>) {
    static_assert(!is_tuple_v<A> && !is_tuple_v<B>, "shape_min: defined for integers only");
    return a;
  } else if constexpr (is_constant_v<1, A>) {
    return a;
  } else if constexpr (is_constant_v<1, B>) {
    return b;
  } else {
    return min(a, b);
  }
}

// --- structural predicates ------------------------------------------------------------

namespace detail {
// The walk the predicates below share: equal rank wherever both a and b are
// tuples, and `leaf(x, y)` wherever one of them is not (x, y the parts of a
// and b there); a static bool when every part is decided by the types.
template <class A, class B, class Leaf>
TESSERA_HOST_DEVICE constexpr auto all_modes(A const& a, B const& b, Leaf const& leaf) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    if constexpr (tuple_size_v<A> != tuple_size_v<B>) return false_type{};
    else return [&]<int... I>(seq<I...>) { return (true_type{} && ... && all_modes(get<I>(a), get<I>(b), leaf)); }(tuple_seq<A>{});
  } else {
    return leaf(a, b);
  }
}
template <class X>
inline constexpr bool is_tuple_part_v = is_tuple_v<std::remove_cvref_t<X>>;
}  // namespace detail

// Same nesting profile (a static bool).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto congruent(A const& a, B const& b) {
  return detail::all_modes(a, b, [](auto const& x, auto const& y) {
    return bool_constant<!detail::is_tuple_part_v<decltype(x)> && !detail::is_tuple_part_v<decltype(y)>>{};
  });
}

// congruent as a type: is_congruent<A, B>::value.
template <class A, class B>
using is_congruent = decltype(congruent(std::declval<A>(), std::declval<B>()));

// a's profile is a coarsening of b's: every leaf of a lines up with a subtree of b.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto weakly_congruent(A const& a, B const& b) {
  return detail::all_modes(a, b, [](auto const& x, auto const&) {
    return bool_constant<!detail::is_tuple_part_v<decltype(x)>>{};
  });
}

// Every coordinate of shape a is a coordinate of shape b: the sizes agree at
// every leaf of a (static when decidable from the types).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto compatible(A const& a, B const& b) {
  return detail::all_modes(a, b, [](auto const& x, auto const& y) {
    if constexpr (detail::is_tuple_part_v<decltype(x)>) return false_type{};
    else return x == size(y);
  });
}

// Some shape c congruent to a is compatible with b while a is compatible
// with c: a leaf of a stands for a subtree of b whose size it divides.
// @law compatible(a, b) => weakly_compatible(a, b)
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto weakly_compatible(A const& a, B const& b) {
  return detail::all_modes(a, b, [](auto const& x, auto const& y) {
    if constexpr (detail::is_tuple_part_v<decltype(x)>) return false_type{};
    else return size(y) % x == Int<0>{};
  });
}

// Each mode of b divides the matching mode of a (b may have fewer modes).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto evenly_divides(A const& a, B const& b) {
  if constexpr (is_tuple_v<B>) {
    if constexpr (!is_tuple_v<A> || tuple_size_v<B> > rank_v<A>) {
      return false_type{};
    } else {
      return [&]<int... I>(seq<I...>) { return (true_type{} && ... && evenly_divides(get<I>(a), get<I>(b))); }(tuple_seq<B>{});
    }
  } else {
    return (size(a) % size(b)) == Int<0>{};
  }
}

// --- orders on coordinates -------------------------------------------------------------

// Every leaf of a is less than the matching leaf of b.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto elem_less(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> <= tuple_size_v<B>, "elem_less: profiles differ");
    return [&]<int... I>(seq<I...>) { return (true_type{} && ... && elem_less(get<I>(a), get<I>(b))); }(tuple_seq<A>{});
  } else {
    return a < b;
  }
}
// Every leaf of a is at most the matching leaf of b.
// CuTe spells this !elem_less(b, a), which for rank > 1 says only "some leaf
// of b is not below a" (e.g. (0,5) vs (1,1)); Tessera's is elementwise, so
// elem_leq(a, b) && elem_leq(b, a) <=> a == b, as the name promises.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto elem_leq(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> <= tuple_size_v<B>, "elem_leq: profiles differ");
    return [&]<int... I>(seq<I...>) { return (true_type{} && ... && elem_leq(get<I>(a), get<I>(b))); }(tuple_seq<A>{});
  } else {
    return a <= b;
  }
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto elem_gtr(A const& a, B const& b) {
  return elem_less(b, a);
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto elem_geq(A const& a, B const& b) {
  return elem_leq(b, a);
}

namespace detail {
template <int I, class A, class B>
TESSERA_HOST_DEVICE constexpr bool lex_less_from(A const& a, B const& b);
template <int I, class A, class B>
TESSERA_HOST_DEVICE constexpr bool colex_less_from(A const& a, B const& b);
}  // namespace detail

// Lexicographic order: compare the first modes first, recursing into nested
// modes; a proper prefix is less than the longer tuple.
// @post exactly one of lex_less(a,b), lex_less(b,a), a == b holds
// @post over the coordinates of a shape, lex_less agrees with the row-major
//       index (the first mode slowest)
template <class A, class B>
TESSERA_HOST_DEVICE constexpr bool lex_less(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> || is_tuple_v<B>) {
    static_assert(is_tuple_v<A> && is_tuple_v<B>, "lex_less: a tuple compared with an integer (profiles differ)");
    return detail::lex_less_from<0>(a, b);
  } else {
    return a < b;
  }
}

// Colexicographic order: compare the last modes first, recursing into nested
// modes.
// @post over the coordinates of a shape, colex_less agrees with the
//       column-major index: colex_less(idx2crd(i,s), idx2crd(j,s)) <=> i < j
template <class A, class B>
TESSERA_HOST_DEVICE constexpr bool colex_less(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> == tuple_size_v<B>, "colex_less: profiles differ");
    return detail::colex_less_from<tuple_size_v<A> - 1>(a, b);
  } else {
    return a < b;
  }
}

namespace detail {
template <int I, class A, class B>
TESSERA_HOST_DEVICE constexpr bool lex_less_from(A const& a, B const& b) {
  if constexpr (I == tuple_size_v<B>) {
    return false;
  } else if constexpr (I == tuple_size_v<A>) {
    return true;
  } else {
    if (lex_less(get<I>(a), get<I>(b))) return true;
    if (lex_less(get<I>(b), get<I>(a))) return false;
    return lex_less_from<I + 1>(a, b);
  }
}
template <int I, class A, class B>
TESSERA_HOST_DEVICE constexpr bool colex_less_from(A const& a, B const& b) {
  if constexpr (I < 0) {
    return false;
  } else {
    if (colex_less(get<I>(a), get<I>(b))) return true;
    if (colex_less(get<I>(b), get<I>(a))) return false;
    return colex_less_from<I - 1>(a, b);
  }
}
}  // namespace detail

// The rest of each order from its strict form.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr bool lex_leq(A const& a, B const& b) { return !lex_less(b, a); }
template <class A, class B>
TESSERA_HOST_DEVICE constexpr bool lex_gtr(A const& a, B const& b) { return lex_less(b, a); }
template <class A, class B>
TESSERA_HOST_DEVICE constexpr bool lex_geq(A const& a, B const& b) { return !lex_less(a, b); }
template <class A, class B>
TESSERA_HOST_DEVICE constexpr bool colex_leq(A const& a, B const& b) { return !colex_less(b, a); }
template <class A, class B>
TESSERA_HOST_DEVICE constexpr bool colex_gtr(A const& a, B const& b) { return colex_less(b, a); }
template <class A, class B>
TESSERA_HOST_DEVICE constexpr bool colex_geq(A const& a, B const& b) { return !colex_less(a, b); }

// --- flatten, unflatten, zip -------------------------------------------------------------

// All leaves in a flat tuple (a non-tuple becomes a 1-tuple).
template <class T>
TESSERA_HOST_DEVICE constexpr auto flatten_to_tuple(T const& t) {
  if constexpr (is_tuple_v<T>) return apply(t, [](auto const&... e) { return tuple_cat(flatten_to_tuple(e)...); });
  else return make_tuple(t);
}

// All leaves in a flat tuple; a non-tuple stays a non-tuple.
template <class T>
TESSERA_HOST_DEVICE constexpr auto flatten(T const& t) {
  if constexpr (is_tuple_v<T>) return flatten_to_tuple(t);
  else return t;
}

namespace detail {
template <class Flat, class Profile>
TESSERA_HOST_DEVICE constexpr auto unflatten_impl(Flat const& flat, Profile const& profile) {
  if constexpr (is_tuple_v<Profile>) {
    return fold(profile, make_tuple(tuple<>{}, flat), [](auto const& init, auto const& p) {
      auto r = unflatten_impl(get<1>(init), p);
      return make_tuple(append(get<0>(init), get<0>(r)), get<1>(r));
    });
  } else {
    return make_tuple(get<0>(flat), take<1, tuple_size_v<Flat>>(flat));
  }
}
}  // namespace detail

// The leaves of flat_tuple regrouped with the nesting of target_profile.
// @post flatten(unflatten(t, p)) == t
template <class T, class P>
TESSERA_HOST_DEVICE constexpr auto unflatten(T const& flat_tuple, P const& target_profile) {
  if constexpr (is_tuple_v<P>) {
    static_assert(tuple_size_v<T> == tuple_size_v<decltype(flatten_to_tuple(target_profile))>,
                  "unflatten: leaf count differs from the profile");
    return get<0>(detail::unflatten_impl(flat_tuple, target_profile));
  } else {
    return unflatten(flat_tuple, make_tuple(target_profile));
  }
}

// zip((a0,a1,..),(b0,b1,..)) == ((a0,b0),(a1,b1),..); one argument: zip of its modes.
namespace detail {
template <int I, class... Ts>
TESSERA_HOST_DEVICE constexpr auto zip_at(Ts const&... ts) {
  return make_tuple(get<I>(ts)...);
}
}  // namespace detail

template <class T0, class T1, class... Ts>
TESSERA_HOST_DEVICE constexpr auto zip(T0 const& t0, T1 const& t1, Ts const&... ts) {
  return [&]<int... I>(seq<I...>) { return make_tuple(detail::zip_at<I>(t0, t1, ts...)...); }(tuple_seq<T0>{});
}
template <class T>
TESSERA_HOST_DEVICE constexpr auto zip(T const& t) {
  return apply(t, [](auto const&... e) { return zip(e...); });
}

// Zip `t` against the profile of `guide`: each leaf of guide must meet a rank-2
// pair (a, b) of t; the result gathers all a's into mode 0 and all b's (and the
// modes of t beyond guide) into mode 1.
template <class T, class G>
TESSERA_HOST_DEVICE constexpr auto zip2_by(T const& t, G const& guide) {
  if constexpr (is_tuple_v<G>) {
    constexpr int RG = tuple_size_v<G>;
    constexpr int RT = tuple_size_v<T>;
    static_assert(RG <= RT, "zip2_by: guide has more modes than the tuple");
    auto split = [&]<int... I>(seq<I...>) { return make_tuple(zip2_by(get<I>(t), get<I>(guide))...); }(make_seq<RG>{});
    return [&]<int... I, int... J>(seq<I...>, seq<J...>) {
      return make_tuple(make_tuple(get<0>(get<I>(split))...), make_tuple(get<1>(get<I>(split))..., get<J>(t)...));
    }(make_seq<RG>{}, make_range<RG, RT>{});
  } else {
    static_assert(is_tuple_v<T> && tuple_size_v<T> == 2, "zip2_by: expected a (tile, rest) pair at a leaf of the guide");
    return t;
  }
}

// --- compile-time sort helpers --------------------------------------------------------

// Exclusive prefix product of the top-level modes, starting at init.
template <class T, class Init>
TESSERA_HOST_DEVICE constexpr auto prefix_product(T const& t, Init const& init) {
  if constexpr (is_tuple_v<T>) {
    auto r = fold(t, make_tuple(tuple<>{}, init), [](auto const& acc, auto const& e) {
      return make_tuple(append(get<0>(acc), get<1>(acc)), get<1>(acc) * product(e));
    });
    return get<0>(r);
  } else {
    return init;
  }
}

// --- tuple arithmetic ---------------------------------------------------------------------


// Element-wise sum of coordinate tuples; the shorter one is padded with _0.
template <class... A, class... B>
TESSERA_HOST_DEVICE constexpr auto operator+(tuple<A...> const& a, tuple<B...> const& b) {
  return detail::padded_elementwise(a, b, [](auto const& x, auto const& y) { return x + y; });
}
template <class... A, class... B>
TESSERA_HOST_DEVICE constexpr auto operator-(tuple<A...> const& a, tuple<B...> const& b) {
  return detail::padded_elementwise(a, b, [](auto const& x, auto const& y) { return x - y; });
}
// _0 is the additive identity for coordinate tuples too.
template <class... A>
TESSERA_HOST_DEVICE constexpr auto operator+(tuple<A...> const& a, C<0>) { return a; }
template <class... A>
TESSERA_HOST_DEVICE constexpr auto operator+(C<0>, tuple<A...> const& a) { return a; }

}  // namespace tessera
