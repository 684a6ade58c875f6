// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The wildcard `_` (and its alias X) used in coordinates to keep a mode when
// slicing, and in Step tuples to drop a mode; slice and dice on IntTuples.

#include "tessera/config.hpp"
#include "tessera/core/int_tuple.hpp"

namespace tessera {

struct Underscore {};
using X = Underscore;

// A namespace-scope constant object that kernels can name. nvcc's device pass
// treats a plain `inline constexpr` object of class type as a host variable
// ("identifier ... is undefined in device code") as soon as it is odr-used,
// e.g. bound to the `Coord const&` of a run-time slice; the device pass
// therefore gets its own __device__ copy. The host pass keeps the constexpr
// variable so `_` stays usable in constant expressions there.
#if !defined(TESSERA_INLINE_CONSTANT)
#  if defined(__CUDA_ARCH__)
#    define TESSERA_INLINE_CONSTANT static const __device__
#  else
#    define TESSERA_INLINE_CONSTANT inline constexpr
#  endif
#endif

TESSERA_INLINE_CONSTANT Underscore _{};

template <class T>
struct is_underscore : false_type {};
template <>
struct is_underscore<Underscore> : true_type {};
template <class T>
struct is_underscore<T const> : is_underscore<T> {};
template <class T>
struct is_underscore<T&> : is_underscore<std::remove_cv_t<T>> {};
template <class T>
inline constexpr bool is_underscore_v = is_underscore<T>::value;

// Whether any leaf of T is `_`.
template <class T>
struct has_underscore : is_underscore<T> {};
template <class... T>
struct has_underscore<tuple<T...>> : bool_constant<(false || ... || has_underscore<T>::value)> {};
template <class T>
struct has_underscore<T const> : has_underscore<T> {};
template <class T>
struct has_underscore<T&> : has_underscore<std::remove_cv_t<T>> {};
template <class T>
inline constexpr bool has_underscore_v = has_underscore<T>::value;

namespace detail {
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto lift_slice(A const& a, B const& b);
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto lift_dice(A const& a, B const& b);
}  // namespace detail

// The parts of b at the `_` positions of coordinate a, gathered into one flat
// level: slice((_,(1,_)), ((2,3),(4,5))) == ((2,3),5).
// @post rank(slice(a, b)) == number of `_` leaves in a
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto slice(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> == tuple_size_v<B>, "slice: coordinate and shape ranks differ");
    return [&]<int... I>(seq<I...>) { return tuple_cat(detail::lift_slice(get<I>(a), get<I>(b))...); }(tuple_seq<A>{});
  } else if constexpr (is_underscore_v<A>) {
    return b;
  } else {
    return tuple<>{};
  }
}

// The parts of b at the non-`_` positions of a (the complement of slice),
// gathered into one flat level.
// @post rank(slice(a, b)) + rank(dice(a, b)) == number of leaves of a
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto dice(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> == tuple_size_v<B>, "dice: coordinate and shape ranks differ");
    return [&]<int... I>(seq<I...>) { return tuple_cat(detail::lift_dice(get<I>(a), get<I>(b))...); }(tuple_seq<A>{});
  } else if constexpr (is_underscore_v<A>) {
    return tuple<>{};
  } else {
    return b;
  }
}

namespace detail {
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto lift_slice(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> == tuple_size_v<B>, "slice: coordinate and shape ranks differ");
    return [&]<int... I>(seq<I...>) { return tuple_cat(lift_slice(get<I>(a), get<I>(b))...); }(tuple_seq<A>{});
  } else if constexpr (is_underscore_v<A>) {
    return make_tuple(b);
  } else {
    return tuple<>{};
  }
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto lift_dice(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> == tuple_size_v<B>, "dice: coordinate and shape ranks differ");
    return [&]<int... I>(seq<I...>) { return tuple_cat(lift_dice(get<I>(a), get<I>(b))...); }(tuple_seq<A>{});
  } else if constexpr (is_underscore_v<A>) return tuple<>{};
  else return make_tuple(b);
}
}  // namespace detail

}  // namespace tessera
