// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// tessera::tuple: a device-usable tuple with empty-base optimisation (a tuple
// of static integers is an empty type), plus the structural algorithms the
// algebra is written in: transform, fold, take, select, append, ...
//
// Algorithms expand over index sequences with fold expressions instead of
// recursion, to keep instantiation depth (and compile time) low.

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/core/integral_constant.hpp"

namespace tessera {

namespace detail {

// One element. An empty, non-final element is a base (takes no storage).
// `Owner` makes every leaf type unique to its tuple, so nested tuples that
// hold the same element type never make a base class ambiguous.
template <std::size_t I, class T, class Owner, bool = std::is_empty_v<T> && !std::is_final_v<T>>
struct tuple_leaf {
  T value_;
  TESSERA_HOST_DEVICE constexpr tuple_leaf() : value_() {}
  template <class U>
  TESSERA_HOST_DEVICE constexpr tuple_leaf(U&& u) : value_(static_cast<U&&>(u)) {}
  TESSERA_HOST_DEVICE constexpr T& leaf_get() & { return value_; }
  TESSERA_HOST_DEVICE constexpr T const& leaf_get() const& { return value_; }
};

template <std::size_t I, class T, class Owner>
struct tuple_leaf<I, T, Owner, true> : T {
  TESSERA_HOST_DEVICE constexpr tuple_leaf() : T() {}
  template <class U>
  TESSERA_HOST_DEVICE constexpr tuple_leaf(U&& u) : T(static_cast<U&&>(u)) {}
  TESSERA_HOST_DEVICE constexpr T& leaf_get() & { return *this; }
  TESSERA_HOST_DEVICE constexpr T const& leaf_get() const& { return *this; }
};

template <class Owner, class Seq, class... T>
struct tuple_base;

template <class Owner, std::size_t... Is, class... T>
struct tuple_base<Owner, std::index_sequence<Is...>, T...> : tuple_leaf<Is, T, Owner>... {
  TESSERA_HOST_DEVICE constexpr tuple_base() : tuple_leaf<Is, T, Owner>()... {}
  template <class... U>
  TESSERA_HOST_DEVICE constexpr explicit tuple_base(int, U&&... u) : tuple_leaf<Is, T, Owner>(static_cast<U&&>(u))... {}
};

template <std::size_t I, class Owner, class T>
TESSERA_HOST_DEVICE constexpr tuple_leaf<I, T, Owner>& leaf_of(tuple_leaf<I, T, Owner>& l) { return l; }
template <std::size_t I, class Owner, class T>
TESSERA_HOST_DEVICE constexpr tuple_leaf<I, T, Owner> const& leaf_of(tuple_leaf<I, T, Owner> const& l) { return l; }

}  // namespace detail

template <class... T>
struct tuple : detail::tuple_base<tuple<T...>, std::index_sequence_for<T...>, T...> {
  using base = detail::tuple_base<tuple<T...>, std::index_sequence_for<T...>, T...>;
  TESSERA_HOST_DEVICE constexpr tuple() : base() {}
  TESSERA_HOST_DEVICE constexpr tuple(T const&... t)
    requires(sizeof...(T) > 0)
      : base(0, t...) {}
};

template <class... T>
tuple(T...) -> tuple<T...>;

// --- traits -------------------------------------------------------------------------

template <class T>
struct is_tuple : false_type {};
template <class... T>
struct is_tuple<tuple<T...>> : true_type {};
template <class T>
struct is_tuple<T const> : is_tuple<T> {};
template <class T>
struct is_tuple<T&> : is_tuple<std::remove_cv_t<T>> {};
template <class T>
struct is_tuple<T&&> : is_tuple<std::remove_cv_t<T>> {};
template <class T>
inline constexpr bool is_tuple_v = is_tuple<T>::value;

template <class T>
concept tuple_like = is_tuple_v<T>;

template <class T>
struct tuple_size_of;
template <class... T>
struct tuple_size_of<tuple<T...>> : std::integral_constant<int, int(sizeof...(T))> {};

// Number of elements of a tessera::tuple as an int constant.
template <class T>
inline constexpr int tuple_size_v = tuple_size_of<std::remove_cvref_t<T>>::value;

template <class T>
using tuple_seq = make_seq<tuple_size_v<T>>;

// --- access -------------------------------------------------------------------------

// get<I> finds its leaf by deducing the element type from the unique base
// tuple_leaf<I, T, tuple<...>>; no std::tuple is instantiated.
template <std::size_t I, class... T>
TESSERA_HOST_DEVICE constexpr auto& get(tuple<T...>& t) {
  static_assert(I < sizeof...(T), "get: index out of range [the tuple has fewer modes]");
  return detail::leaf_of<I, tuple<T...>>(t).leaf_get();
}
template <std::size_t I, class... T>
TESSERA_HOST_DEVICE constexpr auto const& get(tuple<T...> const& t) {
  static_assert(I < sizeof...(T), "get: index out of range [the tuple has fewer modes]");
  return detail::leaf_of<I, tuple<T...>>(t).leaf_get();
}
template <std::size_t I, class... T>
TESSERA_HOST_DEVICE constexpr auto&& get(tuple<T...>&& t) {
  static_assert(I < sizeof...(T), "get: index out of range [the tuple has fewer modes]");
  using E = std::remove_reference_t<decltype(detail::leaf_of<I, tuple<T...>>(t).leaf_get())>;
  return static_cast<E&&>(detail::leaf_of<I, tuple<T...>>(t).leaf_get());
}

// get<0> of a non-tuple is the value itself (an integer is a rank-1 tuple).
template <std::size_t I, class T>
  requires(!is_tuple_v<T>)
TESSERA_HOST_DEVICE constexpr T const& get(T const& t) {
  static_assert(I == 0, "get: index out of range [a non-tuple has only mode 0]");
  return t;
}

// Nested access: get<I, J, K>(t) == get<K>(get<J>(get<I>(t))).
template <std::size_t I0, std::size_t I1, std::size_t... Is, class T>
TESSERA_HOST_DEVICE constexpr decltype(auto) get(T&& t) {
  return get<I1, Is...>(get<I0>(static_cast<T&&>(t)));
}

template <class... T>
TESSERA_HOST_DEVICE constexpr tuple<T...> make_tuple(T const&... t) {
  return tuple<T...>(t...);
}

// --- algorithms -----------------------------------------------------------------------

// Apply f to the elements as separate arguments.
template <class T, class F>
TESSERA_HOST_DEVICE constexpr decltype(auto) apply(T&& t, F&& f) {
  return [&]<int... I>(seq<I...>) -> decltype(auto) { return f(get<I>(static_cast<T&&>(t))...); }(tuple_seq<T>{});
}

// f(get<I>(t)...) for the listed indices.
template <class T, class F, int... I>
TESSERA_HOST_DEVICE constexpr decltype(auto) apply(T&& t, F&& f, seq<I...>) {
  return f(get<I>(static_cast<T&&>(t))...);
}

// (f(t0), f(t1), ...); with several tuples, f(a_i, b_i, ...) over the rank of the first.
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto transform(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) return [&]<int... I>(seq<I...>) { return make_tuple(f(get<I>(t))...); }(tuple_seq<T>{});
  else return f(t);
}
template <class T0, class T1, class F>
TESSERA_HOST_DEVICE constexpr auto transform(T0 const& t0, T1 const& t1, F&& f) {
  if constexpr (is_tuple_v<T0>) {
    return [&]<int... I>(seq<I...>) { return make_tuple(f(get<I>(t0), get<I>(t1))...); }(tuple_seq<T0>{});
  } else {
    return f(t0, t1);
  }
}
template <class T0, class T1, class T2, class F>
TESSERA_HOST_DEVICE constexpr auto transform(T0 const& t0, T1 const& t1, T2 const& t2, F&& f) {
  if constexpr (is_tuple_v<T0>) {
    return [&]<int... I>(seq<I...>) { return make_tuple(f(get<I>(t0), get<I>(t1), get<I>(t2))...); }(tuple_seq<T0>{});
  } else {
    return f(t0, t1, t2);
  }
}

// f applied to every leaf, the nesting kept.
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto transform_leaf(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) return transform(t, [&](auto const& e) { return transform_leaf(e, f); });
  else return f(t);
}
template <class T0, class T1, class F>
TESSERA_HOST_DEVICE constexpr auto transform_leaf(T0 const& t0, T1 const& t1, F&& f) {
  if constexpr (is_tuple_v<T0>) return transform(t0, t1, [&](auto const& a, auto const& b) { return transform_leaf(a, b, f); });
  else return f(t0, t1);
}

template <class T, class F>
TESSERA_HOST_DEVICE constexpr void for_each(T&& t, F&& f) {
  if constexpr (is_tuple_v<T>) [&]<int... I>(seq<I...>) { (f(get<I>(static_cast<T&&>(t))), ...); }(tuple_seq<T>{});
  else f(static_cast<T&&>(t));
}

template <class T, class F>
TESSERA_HOST_DEVICE constexpr void for_each_leaf(T&& t, F&& f) {
  if constexpr (is_tuple_v<T>) for_each(static_cast<T&&>(t), [&](auto&& e) { for_each_leaf(static_cast<decltype(e)&&>(e), f); });
  else f(static_cast<T&&>(t));
}

namespace detail {
// Left fold through operator% on a carrier type: a flat fold expression,
// no recursive instantiation.
template <class F, class V>
struct fold_carrier {
  F* f;
  V v;
};
template <class F, class V, class X>
TESSERA_HOST_DEVICE constexpr auto operator%(fold_carrier<F, V>&& c, X const& x) {
  using R = decltype((*c.f)(c.v, x));
  return fold_carrier<F, R>{c.f, (*c.f)(c.v, x)};
}
}  // namespace detail

// f(...f(f(init, t0), t1)..., tn).
template <class T, class V, class F>
TESSERA_HOST_DEVICE constexpr auto fold(T const& t, V const& init, F&& f) {
  if constexpr (is_tuple_v<T>) {
    using FF = std::remove_reference_t<F>;
    return [&]<int... I>(seq<I...>) {
      return (detail::fold_carrier<FF, V>{&f, init} % ... % get<I>(t)).v;
    }(tuple_seq<T>{});
  } else {
    return f(init, t);
  }
}

// Fold over a seq<I...> of indices, f(init, C<I>).
template <int... I, class V, class F>
TESSERA_HOST_DEVICE constexpr auto fold(seq<I...>, V const& init, F&& f) {
  using FF = std::remove_reference_t<F>;
  return (detail::fold_carrier<FF, V>{&f, init} % ... % Int<I>{}).v;
}

// fold with the first element as the initial value: f(...f(t0, t1)..., tn);
// a non-tuple is its own fold.
// @pre t is not the empty tuple
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto fold_first(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) {
    static_assert(tuple_size_v<T> > 0, "fold_first: the empty tuple has no first element");
    using FF = std::remove_reference_t<F>;
    return [&]<int... I>(seq<I...>) {
      return (detail::fold_carrier<FF, std::remove_cvref_t<decltype(get<0>(t))>>{&f, get<0>(t)} % ... %
              get<I + 1>(t)).v;
    }(make_seq<tuple_size_v<T> - 1>{});
  } else {
    return t;
  }
}

// Exclusive scan over the top-level elements: r_0 = init,
// r_i = f(r_{i-1}, t_{i-1}). Inclusive scan: r_i = f(...f(init, t_0)..., t_i).
// @post rank(escan(t, v, f)) == rank(iscan(t, v, f)) == rank(t)
// @post get<i+1>(escan(t, v, f)) == get<i>(iscan(t, v, f))
// @post fold(t, v, f) == f(get<n-1>(escan(t, v, f)), get<n-1>(t)) for n = rank(t) > 0
template <class T, class V, class F>
TESSERA_HOST_DEVICE constexpr auto iscan(T const& t, V const& init, F&& f) {
  static_assert(is_tuple_v<T>, "iscan: scans the elements of a tuple");
  if constexpr (tuple_size_v<T> == 0) {
    return tuple<>{};
  } else {
    auto first = f(init, get<0>(t));
    auto rest = [&]<int... I>(seq<I...>) { return make_tuple(get<I + 1>(t)...); }(make_seq<tuple_size_v<T> - 1>{});
    return tuple_cat(make_tuple(first), iscan(rest, first, f));
  }
}
template <class T, class V, class F>
TESSERA_HOST_DEVICE constexpr auto escan(T const& t, V const& init, F&& f) {
  static_assert(is_tuple_v<T>, "escan: scans the elements of a tuple");
  if constexpr (tuple_size_v<T> == 0) {
    return tuple<>{};
  } else {
    auto most = [&]<int... I>(seq<I...>) { return make_tuple(get<I>(t)...); }(make_seq<tuple_size_v<T> - 1>{});
    return tuple_cat(make_tuple(init), iscan(most, init, f));
  }
}

// Elements [B, E).
template <int B, int E, class T>
TESSERA_HOST_DEVICE constexpr auto take(T const& t) {
  static_assert(0 <= B && B <= E && E <= tuple_size_v<T>, "take: range [B,E) outside the tuple");
  return [&]<int... I>(seq<I...>) { return make_tuple(get<I>(t)...); }(make_range<B, E>{});
}

// The elements at I... (in that order).
template <int... I, class T>
TESSERA_HOST_DEVICE constexpr auto select(T const& t) {
  return make_tuple(get<I>(t)...);
}

// Concatenation of tuples.
template <class... Ts>
TESSERA_HOST_DEVICE constexpr auto tuple_cat(Ts const&... ts);

namespace detail {
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto tuple_cat2(A const& a, B const& b) {
  return [&]<int... I, int... J>(seq<I...>, seq<J...>) { return make_tuple(get<I>(a)..., get<J>(b)...); }(tuple_seq<A>{},
                                                                                                            tuple_seq<B>{});
}
template <class Acc>
struct cat_carrier {
  Acc v;
};
template <class Acc, class X>
TESSERA_HOST_DEVICE constexpr auto operator%(cat_carrier<Acc>&& c, X const& x) {
  return cat_carrier<decltype(tuple_cat2(c.v, x))>{tuple_cat2(c.v, x)};
}
}  // namespace detail

template <class... Ts>
TESSERA_HOST_DEVICE constexpr auto tuple_cat(Ts const&... ts) {
  if constexpr (sizeof...(Ts) == 0) return tuple<>{};
  else return (detail::cat_carrier<tuple<>>{tuple<>{}} % ... % ts).v;
}

// t with x added at the end; a non-tuple t is first made a 1-tuple.
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return [&]<int... I>(seq<I...>) { return make_tuple(get<I>(t)..., x); }(tuple_seq<T>{});
  else return make_tuple(t, x);
}
// t padded with copies of x up to N elements.
template <int N, class T, class X>
TESSERA_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) {
    static_assert(tuple_size_v<T> <= N, "append: tuple already longer than N");
    return [&]<int... I, int... J>(seq<I...>, seq<J...>) {
      return make_tuple(get<I>(t)..., ((void)J, x)...);
    }(tuple_seq<T>{}, make_seq<N - tuple_size_v<T>>{});
  } else {
    return append<N>(make_tuple(t), x);
  }
}

// t with x added at the front.
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto prepend(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return [&]<int... I>(seq<I...>) { return make_tuple(x, get<I>(t)...); }(tuple_seq<T>{});
  else return make_tuple(x, t);
}
template <int N, class T, class X>
TESSERA_HOST_DEVICE constexpr auto prepend(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) {
    static_assert(tuple_size_v<T> <= N, "prepend: tuple already longer than N");
    return [&]<int... I, int... J>(seq<I...>, seq<J...>) {
      return make_tuple(((void)J, x)..., get<I>(t)...);
    }(tuple_seq<T>{}, make_seq<N - tuple_size_v<T>>{});
  } else {
    return prepend<N>(make_tuple(t), x);
  }
}

// t without element N.
template <int N, class T>
TESSERA_HOST_DEVICE constexpr auto remove(T const& t) {
  return tuple_cat(take<0, N>(t), take<N + 1, tuple_size_v<T>>(t));
}

// t with element N replaced by x.
template <int N, class T, class X>
TESSERA_HOST_DEVICE constexpr auto replace(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return tuple_cat(take<0, N>(t), make_tuple(x), take<N + 1, tuple_size_v<T>>(t));
  else return x;
}
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto replace_front(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return replace<0>(t, x);
  else return x;
}
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto replace_back(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return replace<tuple_size_v<T> - 1>(t, x);
  else return x;
}

template <class T>
TESSERA_HOST_DEVICE constexpr decltype(auto) front(T const& t) {
  if constexpr (is_tuple_v<T>) return front(get<0>(t));
  else return t;
}
template <class T>
TESSERA_HOST_DEVICE constexpr decltype(auto) back(T const& t) {
  if constexpr (is_tuple_v<T>) return back(get<tuple_size_v<T> - 1>(t));
  else return t;
}

// Elements [B, E) gathered into one nested mode.
template <int B, int E, class T>
TESSERA_HOST_DEVICE constexpr auto group(T const& t) {
  constexpr int R = tuple_size_v<T>;
  constexpr int EE = E < 0 ? R : E;
  return tuple_cat(take<0, B>(t), make_tuple(take<B, EE>(t)), take<EE, R>(t));
}

// N copies of x in a tuple; for N == 1, x itself.
template <int N, class X>
TESSERA_HOST_DEVICE constexpr auto repeat(X const& x) {
  if constexpr (N == 1) return x;
  else return [&]<int... I>(seq<I...>) { return make_tuple(((void)I, x)...); }(make_seq<N>{});
}

// A tuple of N copies of x, a tuple even for N == 1 (repeat<1> gives x).
template <int N, class X>
TESSERA_HOST_DEVICE constexpr auto tuple_repeat(X const& x) {
  return [&]<int... I>(seq<I...>) { return make_tuple(((void)I, x)...); }(make_seq<N>{});
}

// x in the shape of t: a tuple of x with t's nesting, or x for a non-tuple t.
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto repeat_like(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return transform(t, [&](auto const& e) { return repeat_like(e, x); });
  else return x;
}

template <class T>
TESSERA_HOST_DEVICE constexpr auto reverse(T const& t) {
  if constexpr (is_tuple_v<T>) {
    constexpr int R = tuple_size_v<T>;
    return [&]<int... I>(seq<I...>) { return make_tuple(get<R - 1 - I>(t)...); }(make_seq<R>{});
  } else {
    return t;
  }
}

// A 1-tuple becomes its element; anything else is unchanged.
template <class T>
TESSERA_HOST_DEVICE constexpr auto unwrap(T const& t) {
  if constexpr (is_tuple_v<T>) {
    if constexpr (tuple_size_v<T> == 1) return unwrap(get<0>(t));
    else return t;
  } else {
    return t;
  }
}
// A non-tuple becomes a 1-tuple; a tuple is unchanged.
template <class T>
TESSERA_HOST_DEVICE constexpr auto wrap(T const& t) {
  if constexpr (is_tuple_v<T>) return t;
  else return make_tuple(t);
}

// Index of the first element for which pred(e) is a true static constant or
// true at run time is not allowed: pred must return a static bool. Returns
// C<rank> when none matches.
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto find_if(T const& t, F&& pred) {
  if constexpr (is_tuple_v<T>) {
    constexpr int R = tuple_size_v<T>;
    constexpr int idx = [&]<int... I>(seq<I...>) {
      constexpr bool hits[] = {bool(decltype(pred(get<I>(t)))::value)..., true};
      int k = 0;
      while (!hits[k]) ++k;
      return k;
    }(make_seq<R>{});
    return Int<idx>{};
  } else {
    return Int<(decltype(pred(t))::value ? 0 : 1)>{};
  }
}

// Index of the first element statically equal to x.
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto find(T const& t, X const&) {
  return find_if(t, [](auto const& e) { return bool_constant<std::is_same_v<std::remove_cvref_t<decltype(e)>, X>>{}; });
}

template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto any_of(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) return apply(t, [&](auto const&... e) { return (false_type{} || ... || any_of(e, f)); });
  else return f(t);
}
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto all_of(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) return apply(t, [&](auto const&... e) { return (true_type{} && ... && all_of(e, f)); });
  else return f(t);
}
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto none_of(T const& t, F&& f) {
  return !any_of(t, f);
}

// Element-wise comparison of two tuples of the same structure.
template <class... A, class... B>
TESSERA_HOST_DEVICE constexpr auto operator==(tuple<A...> const& a, tuple<B...> const& b) {
  if constexpr (sizeof...(A) != sizeof...(B)) {
    return false_type{};
  } else {
    return [&]<int... I>(seq<I...>) { return (true_type{} && ... && (get<I>(a) == get<I>(b))); }(make_seq<sizeof...(A)>{});
  }
}
template <class... A, class... B>
TESSERA_HOST_DEVICE constexpr auto operator!=(tuple<A...> const& a, tuple<B...> const& b) {
  return !(a == b);
}

}  // namespace tessera

// Structured bindings: auto [a, b] = t;
template <class... T>
struct std::tuple_size<tessera::tuple<T...>> : std::integral_constant<std::size_t, sizeof...(T)> {};
template <std::size_t I, class... T>
struct std::tuple_element<I, tessera::tuple<T...>> {
  using type = std::tuple_element_t<I, std::tuple<T...>>;
};
