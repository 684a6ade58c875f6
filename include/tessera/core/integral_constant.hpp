// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Compile-time integers C<v> / Int<N>, the named constants _0, _1, ..., and
// the arithmetic that keeps static values static.
//
// Rules (as in CuTe): an operation on two static integers is static; an
// operation that mixes a static and a run-time integer is run-time, except
// where the answer does not depend on the run-time value:
//   _0 * x == _0,  x * _0 == _0,  _0 / x == _0,  x % _1 == _0,  _0 & x == _0,
// and the identities that return the other operand unchanged:
//   _1 * x == x,  x * _1 == x,  x / _1 == x,  _0 + x == x,  x + _0 == x,  x - _0 == x.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"

namespace tessera {

// A value carried in the type. Empty, so layouts built from it take no storage.
template <auto v>
struct C {
  using type = C<v>;
  using value_type = decltype(v);
  static constexpr value_type value = v;
  TESSERA_HOST_DEVICE constexpr operator value_type() const noexcept { return value; }
  TESSERA_HOST_DEVICE constexpr value_type operator()() const noexcept { return value; }
};

template <int v>
using Int = C<v>;

template <bool b>
using bool_constant = C<b>;
using true_type = bool_constant<true>;
using false_type = bool_constant<false>;

// --- traits --------------------------------------------------------------------

template <class T>
struct is_static_int : std::false_type {};
template <auto v>
struct is_static_int<C<v>> : std::true_type {};
template <class T>
inline constexpr bool is_static_int_v = is_static_int<std::remove_cvref_t<T>>::value;

template <class T>
inline constexpr bool is_std_integral_v = std::is_integral_v<std::remove_cvref_t<T>>;

// An integer in the algebra: a run-time integer or a static C<v>.
template <class T>
struct is_integral : bool_constant<is_std_integral_v<T> || is_static_int_v<T>> {};
template <class T>
inline constexpr bool is_integral_v = is_integral<T>::value;

// Static means "known from the type alone": every empty type qualifies.
template <class T>
struct is_static : bool_constant<std::is_empty_v<std::remove_cvref_t<T>>> {};
template <class T>
inline constexpr bool is_static_v = is_static<T>::value;

// static_assert on a static condition (a C<b>, such as the result of
// comparing static sizes): TESSERA_STATIC_ASSERT_V(size(copy_a) == size(mma)),
// with an optional message. CuTe's CUTE_STATIC_ASSERT_V; <tessera/cute_compat.hpp>
// spells it that way.
#define TESSERA_STATIC_ASSERT_V(cond, ...) \
  static_assert(::tessera::detail::static_condition<decltype(cond)>() __VA_OPT__(, ) __VA_ARGS__)

namespace detail {
// The value of a static condition, for TESSERA_STATIC_ASSERT_V; a run-time
// condition is refused by name rather than with "bool is not a class".
template <class T>
constexpr bool static_condition() {
  static_assert(is_static_int_v<T>,
                "TESSERA_STATIC_ASSERT_V: the condition is a run-time value, not a static C<b> [compare static "
                "integers, e.g. size(Layout<...>{}) == _128{}, or use static_assert / TESSERA_ASSERT]");
  if constexpr (is_static_int_v<T>) return bool(std::remove_cvref_t<T>::value);
  else return true;
}
}  // namespace detail

// is_constant<n, T>: T is a static integer whose value equals n.
template <auto n, class T>
struct is_constant : false_type {};
template <auto n, auto v>
struct is_constant<n, C<v>> : bool_constant<(v == n)> {};
template <auto n, class T>
struct is_constant<n, T const> : is_constant<n, T> {};
template <auto n, class T>
struct is_constant<n, T&> : is_constant<n, T> {};
template <auto n, class T>
struct is_constant<n, T const&> : is_constant<n, T> {};
template <auto n, class T>
struct is_constant<n, T&&> : is_constant<n, T> {};
template <auto n, class T>
inline constexpr bool is_constant_v = is_constant<n, T>::value;

// Concepts used at public entry points (kept shallow on purpose).
template <class T>
concept static_int = is_static_int_v<T>;
template <class T>
concept integral_like = is_integral_v<T>;

// --- integer sequences -------------------------------------------------------

template <int... Is>
using seq = std::integer_sequence<int, Is...>;
template <int N>
using make_seq = std::make_integer_sequence<int, N>;

namespace detail {
template <int B, class S>
struct offset_seq;
template <int B, int... Is>
struct offset_seq<B, seq<Is...>> {
  using type = seq<(B + Is)...>;
};
}  // namespace detail

// make_range<B,E>: seq<B, B+1, ..., E-1>.
template <int B, int E>
using make_range = typename detail::offset_seq<B, make_seq<(E > B ? E - B : 0)>>::type;

// --- unary operators ------------------------------------------------------------

template <auto t>
TESSERA_HOST_DEVICE constexpr C<-t> operator-(C<t>) { return {}; }
template <auto t>
TESSERA_HOST_DEVICE constexpr C<+t> operator+(C<t>) { return {}; }
template <auto t>
TESSERA_HOST_DEVICE constexpr C<~t> operator~(C<t>) { return {}; }
template <auto t>
TESSERA_HOST_DEVICE constexpr C<!t> operator!(C<t>) { return {}; }

// --- static op static -----------------------------------------------------------

#define TESSERA_C_BINARY_OP(OP)                                                  \
  template <auto t, auto u>                                                      \
  TESSERA_HOST_DEVICE constexpr C<(t OP u)> operator OP(C<t>, C<u>) { return {}; }

TESSERA_C_BINARY_OP(+)
TESSERA_C_BINARY_OP(-)
TESSERA_C_BINARY_OP(*)
TESSERA_C_BINARY_OP(/)
TESSERA_C_BINARY_OP(%)
TESSERA_C_BINARY_OP(&)
TESSERA_C_BINARY_OP(|)
TESSERA_C_BINARY_OP(^)
TESSERA_C_BINARY_OP(<<)
TESSERA_C_BINARY_OP(>>)
TESSERA_C_BINARY_OP(&&)
TESSERA_C_BINARY_OP(||)
TESSERA_C_BINARY_OP(==)
TESSERA_C_BINARY_OP(!=)
TESSERA_C_BINARY_OP(<)
TESSERA_C_BINARY_OP(>)
TESSERA_C_BINARY_OP(<=)
TESSERA_C_BINARY_OP(>=)
#undef TESSERA_C_BINARY_OP

// --- static op run-time ----------------------------------------------------------

template <class U>
concept rt_int = is_std_integral_v<U>;

template <auto t, rt_int U>
TESSERA_HOST_DEVICE constexpr auto operator*(C<t>, U u) {
  if constexpr (t == 0) return C<0>{};
  else if constexpr (t == 1) return u;
  else return t * u;
}
template <rt_int U, auto t>
TESSERA_HOST_DEVICE constexpr auto operator*(U u, C<t>) {
  if constexpr (t == 0) return C<0>{};
  else if constexpr (t == 1) return u;
  else return u * t;
}
template <auto t, rt_int U>
TESSERA_HOST_DEVICE constexpr auto operator+(C<t>, U u) {
  if constexpr (t == 0) return u;
  else return t + u;
}
template <rt_int U, auto t>
TESSERA_HOST_DEVICE constexpr auto operator+(U u, C<t>) {
  if constexpr (t == 0) return u;
  else return u + t;
}
template <auto t, rt_int U>
TESSERA_HOST_DEVICE constexpr auto operator-(C<t>, U u) { return t - u; }
template <rt_int U, auto t>
TESSERA_HOST_DEVICE constexpr auto operator-(U u, C<t>) {
  if constexpr (t == 0) return u;
  else return u - t;
}
template <auto t, rt_int U>
TESSERA_HOST_DEVICE constexpr auto operator/(C<t>, U u) {
  if constexpr (t == 0) return C<0>{};
  else return t / u;
}
template <rt_int U, auto t>
TESSERA_HOST_DEVICE constexpr auto operator/(U u, C<t>) {
  if constexpr (t == 1) return u;
  else return u / t;
}
template <auto t, rt_int U>
TESSERA_HOST_DEVICE constexpr auto operator%(C<t>, U u) {
  if constexpr (t == 0) return C<0>{};
  else return t % u;
}
template <rt_int U, auto t>
TESSERA_HOST_DEVICE constexpr auto operator%(U u, C<t>) {
  if constexpr (t == 1 || t == -1) return C<0>{};
  else return u % t;
}
template <auto t, rt_int U>
TESSERA_HOST_DEVICE constexpr auto operator&(C<t>, U u) {
  if constexpr (t == 0) return C<0>{};
  else return t & u;
}
template <rt_int U, auto t>
TESSERA_HOST_DEVICE constexpr auto operator&(U u, C<t>) {
  if constexpr (t == 0) return C<0>{};
  else return u & t;
}

#define TESSERA_C_MIXED_OP(OP)                                                          \
  template <auto t, rt_int U>                                                           \
  TESSERA_HOST_DEVICE constexpr auto operator OP(C<t>, U u) { return t OP u; }          \
  template <rt_int U, auto t>                                                           \
  TESSERA_HOST_DEVICE constexpr auto operator OP(U u, C<t>) { return u OP t; }

TESSERA_C_MIXED_OP(|)
TESSERA_C_MIXED_OP(^)
TESSERA_C_MIXED_OP(<<)
TESSERA_C_MIXED_OP(>>)
TESSERA_C_MIXED_OP(==)
TESSERA_C_MIXED_OP(!=)
TESSERA_C_MIXED_OP(<)
TESSERA_C_MIXED_OP(>)
TESSERA_C_MIXED_OP(<=)
TESSERA_C_MIXED_OP(>=)
#undef TESSERA_C_MIXED_OP

// --- named constants -------------------------------------------------------------

using _m32 = Int<-32>;
using _m16 = Int<-16>;
using _m8 = Int<-8>;
using _m4 = Int<-4>;
using _m2 = Int<-2>;
using _m1 = Int<-1>;
using _0 = Int<0>;
using _1 = Int<1>;
using _2 = Int<2>;
using _3 = Int<3>;
using _4 = Int<4>;
using _5 = Int<5>;
using _6 = Int<6>;
using _7 = Int<7>;
using _8 = Int<8>;
using _9 = Int<9>;
using _10 = Int<10>;
using _11 = Int<11>;
using _12 = Int<12>;
using _13 = Int<13>;
using _14 = Int<14>;
using _15 = Int<15>;
using _16 = Int<16>;
using _18 = Int<18>;
using _20 = Int<20>;
using _24 = Int<24>;
using _28 = Int<28>;
using _32 = Int<32>;
using _40 = Int<40>;
using _48 = Int<48>;
using _56 = Int<56>;
using _64 = Int<64>;
using _72 = Int<72>;
using _80 = Int<80>;
using _96 = Int<96>;
using _112 = Int<112>;
using _128 = Int<128>;
using _144 = Int<144>;
using _160 = Int<160>;
using _192 = Int<192>;
using _224 = Int<224>;
using _256 = Int<256>;
using _384 = Int<384>;
using _512 = Int<512>;
using _768 = Int<768>;
using _1024 = Int<1024>;
using _2048 = Int<2048>;
using _4096 = Int<4096>;
using _8192 = Int<8192>;
using _16384 = Int<16384>;
using _32768 = Int<32768>;
using _65536 = Int<65536>;

// --- integer math that keeps static-ness ----------------------------------------

// Larger of the arguments; static when every argument is static.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto max(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) return C<(A::value < B::value ? B::value : A::value)>{};
  else return (a < b) ? static_cast<decltype(a + b)>(b) : static_cast<decltype(a + b)>(a);
}
template <class A, class B, class... Rest>
TESSERA_HOST_DEVICE constexpr auto max(A const& a, B const& b, Rest const&... rest)
  requires(sizeof...(Rest) > 0)
{
  return max(max(a, b), rest...);
}

// Smaller of the arguments; static when every argument is static.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto min(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) return C<(A::value < B::value ? A::value : B::value)>{};
  else return (a < b) ? static_cast<decltype(a + b)>(a) : static_cast<decltype(a + b)>(b);
}
template <class A, class B, class... Rest>
TESSERA_HOST_DEVICE constexpr auto min(A const& a, B const& b, Rest const&... rest)
  requires(sizeof...(Rest) > 0)
{
  return min(min(a, b), rest...);
}

template <class T>
TESSERA_HOST_DEVICE constexpr auto abs(T const& t) {
  if constexpr (is_static_int_v<T>) return C<(T::value < 0 ? -T::value : T::value)>{};
  else return t < 0 ? -t : t;
}

// -1, 0 or 1.
template <class T>
TESSERA_HOST_DEVICE constexpr auto signum(T const& t) {
  if constexpr (is_static_int_v<T>) return C<int((T::value > 0) - (T::value < 0))>{};
  else return int((t > 0) - (t < 0));
}

namespace detail {
template <class T>
TESSERA_HOST_DEVICE constexpr T gcd_value(T a, T b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b != 0) {
    T r = a % b;
    a = b;
    b = r;
  }
  return a;
}
}  // namespace detail

template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto gcd(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) return C<detail::gcd_value<decltype(A::value + B::value)>(A::value, B::value)>{};
  else return detail::gcd_value<decltype(a + b)>(a, b);
}

template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto lcm(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    constexpr auto g = detail::gcd_value<decltype(A::value + B::value)>(A::value, B::value);
    return C<(g == 0 ? 0 : (A::value / g) * B::value)>{};
  } else {
    auto g = detail::gcd_value<decltype(a + b)>(a, b);
    return g == 0 ? decltype(a + b)(0) : decltype(a + b)((a / g) * b);
  }
}

// floor(log2(n)) for n > 0; static for a static argument.
template <class T>
TESSERA_HOST_DEVICE constexpr auto log_2(T const& t) {
  auto f = [](auto n) {
    int r = -1;
    while (n > 0) { n >>= 1; ++r; }
    return r;
  };
  if constexpr (is_static_int_v<T>) return C<f(T::value)>{};
  else return f(t);
}

template <class T>
TESSERA_HOST_DEVICE constexpr bool has_single_bit(T const& t) {
  return t > 0 && (t & (t - 1)) == 0;
}

// The first argument when B is true, the second otherwise (types may differ).
template <bool B, class T, class F>
TESSERA_HOST_DEVICE constexpr decltype(auto) conditional_return(T&& t, F&& f) {
  if constexpr (B) return static_cast<T&&>(t);
  else return static_cast<F&&>(f);
}
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto conditional_return(bool b, T const& t, F const& f) {
  return b ? t : f;
}

}  // namespace tessera
