// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// ScaledBasis: a stride that points along one coordinate axis, value@N. A
// layout with ScaledBasis strides maps coordinates to coordinates (the
// identity layout maps each coordinate to itself). E<0>, E<1>, E<1,0> are the
// unit bases; printed _1@0, _1@1, _1@0@1.

#include "tessera/config.hpp"
#include "tessera/core/int_tuple.hpp"

namespace tessera {

// value * e_N, where value may itself be a ScaledBasis (a nested axis).
template <class T, int N>
struct ScaledBasis : private tuple<T> {
  static constexpr int mode = N;
  using value_type = T;
  TESSERA_HOST_DEVICE constexpr ScaledBasis() : tuple<T>() {}
  TESSERA_HOST_DEVICE constexpr explicit ScaledBasis(T const& t) : tuple<T>(t) {}
  TESSERA_HOST_DEVICE constexpr T const& value() const { return get<0>(static_cast<tuple<T> const&>(*this)); }
};

template <class T>
struct is_scaled_basis : false_type {};
template <class T, int N>
struct is_scaled_basis<ScaledBasis<T, N>> : true_type {};
template <class T>
struct is_scaled_basis<T const> : is_scaled_basis<T> {};
template <class T>
struct is_scaled_basis<T&> : is_scaled_basis<std::remove_cv_t<T>> {};
template <class T>
inline constexpr bool is_scaled_basis_v = is_scaled_basis<T>::value;

namespace detail {
template <int N, int... Ns>
struct E_impl {
  using type = ScaledBasis<typename E_impl<Ns...>::type, N>;
};
template <int N>
struct E_impl<N> {
  using type = ScaledBasis<Int<1>, N>;
};
}  // namespace detail

// Unit basis along (nested) axis N, Ns...: E<1,0> is sub-axis 0 of axis 1.
template <int N, int... Ns>
using E = typename detail::E_impl<N, Ns...>::type;

// The coordinate tuple a ScaledBasis stands for: value@1 == (_0, value).
template <class T>
TESSERA_HOST_DEVICE constexpr auto as_arithmetic_tuple(T const& t) {
  if constexpr (is_scaled_basis_v<T>) {
    constexpr int N = std::remove_cvref_t<T>::mode;
    return append(repeat<N>(Int<0>{}), as_arithmetic_tuple(t.value()));
  } else {
    return t;
  }
}

// The part of `t` that the basis selects: get<N>(t) for E<N>, nested for E<N,M>.
template <class T, int N, class Tup>
TESSERA_HOST_DEVICE constexpr auto basis_get(ScaledBasis<T, N> const& b, Tup const& t) {
  if constexpr (is_scaled_basis_v<T>) return basis_get(b.value(), get<N>(t));
  else return get<N>(t);
}
template <class T, class Tup>
  requires(!is_scaled_basis_v<T>)
TESSERA_HOST_DEVICE constexpr auto const& basis_get(T const&, Tup const& t) {
  return t;
}

// The scalar that the basis carries (innermost value).
template <class T>
TESSERA_HOST_DEVICE constexpr auto basis_value(T const& t) {
  if constexpr (is_scaled_basis_v<T>) return basis_value(t.value());
  else return t;
}

template <class T, int N>
TESSERA_HOST_DEVICE constexpr auto make_scaled_basis(T const& t) {
  return ScaledBasis<T, N>(t);
}

// --- arithmetic -------------------------------------------------------------------------------

// Scaling a basis scales its value.
template <class A, class T, int N>
  requires(is_integral_v<A>)
TESSERA_HOST_DEVICE constexpr auto operator*(A const& a, ScaledBasis<T, N> const& b) {
  using R = decltype(a * b.value());
  return ScaledBasis<R, N>(a * b.value());
}
template <class T, int N, class A>
  requires(is_integral_v<A>)
TESSERA_HOST_DEVICE constexpr auto operator*(ScaledBasis<T, N> const& b, A const& a) {
  using R = decltype(b.value() * a);
  return ScaledBasis<R, N>(b.value() * a);
}
template <class T, int N, class A>
  requires(is_integral_v<A>)
TESSERA_HOST_DEVICE constexpr auto operator/(ScaledBasis<T, N> const& b, A const& a) {
  using R = decltype(b.value() / a);
  return ScaledBasis<R, N>(b.value() / a);
}
template <class T, int N>
TESSERA_HOST_DEVICE constexpr auto operator-(ScaledBasis<T, N> const& b) {
  using R = decltype(-b.value());
  return ScaledBasis<R, N>(-b.value());
}

// Sums of bases are coordinate tuples.
template <class T, int N, class U, int M>
TESSERA_HOST_DEVICE constexpr auto operator+(ScaledBasis<T, N> const& a, ScaledBasis<U, M> const& b) {
  return as_arithmetic_tuple(a) + as_arithmetic_tuple(b);
}
template <class T, int N, class... U>
TESSERA_HOST_DEVICE constexpr auto operator+(ScaledBasis<T, N> const& a, tuple<U...> const& b) {
  return as_arithmetic_tuple(a) + b;
}
template <class... U, class T, int N>
TESSERA_HOST_DEVICE constexpr auto operator+(tuple<U...> const& b, ScaledBasis<T, N> const& a) {
  return b + as_arithmetic_tuple(a);
}
template <class T, int N>
TESSERA_HOST_DEVICE constexpr auto operator+(ScaledBasis<T, N> const& a, C<0>) { return a; }
template <class T, int N>
TESSERA_HOST_DEVICE constexpr auto operator+(C<0>, ScaledBasis<T, N> const& a) { return a; }

template <class T, int N, class U, int M>
TESSERA_HOST_DEVICE constexpr auto operator==(ScaledBasis<T, N> const& a, ScaledBasis<U, M> const& b) {
  if constexpr (N != M) return false_type{};
  else return a.value() == b.value();
}
template <class T, int N, class U, int M>
TESSERA_HOST_DEVICE constexpr auto operator!=(ScaledBasis<T, N> const& a, ScaledBasis<U, M> const& b) {
  return !(a == b);
}

template <class T, int N>
TESSERA_HOST_DEVICE constexpr auto abs(ScaledBasis<T, N> const& b) {
  using R = decltype(abs(b.value()));
  return ScaledBasis<R, N>(abs(b.value()));
}

template <class ShapeT>
TESSERA_HOST_DEVICE constexpr auto make_basis_like(ShapeT const& shape);

namespace detail {
template <int I>
struct prepend_axis {
  template <class T>
  TESSERA_HOST_DEVICE constexpr auto operator()(T const& e) const {
    return ScaledBasis<T, I>(e);
  }
};
template <int I, class ShapeT>
TESSERA_HOST_DEVICE constexpr auto basis_mode(ShapeT const& s) {
  return transform_leaf(make_basis_like(s), prepend_axis<I>{});
}
}  // namespace detail

// Unit bases with the profile of `shape`: (E<0>, (E<1,0>, E<1,1>)) for (a,(b,c)).
// @post congruent(result, shape); crd2idx(c, shape, result) == c
template <class ShapeT>
TESSERA_HOST_DEVICE constexpr auto make_basis_like(ShapeT const& shape) {
  if constexpr (is_tuple_v<ShapeT>) {
    return [&]<int... I>(seq<I...>) { return make_tuple(detail::basis_mode<I>(get<I>(shape))...); }(tuple_seq<ShapeT>{});
  } else {
    return Int<1>{};
  }
}

}  // namespace tessera
