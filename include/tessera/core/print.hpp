// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Printing in CuTe's notation: static _4, dynamic 4, tuples (a,b), layouts
// shape:stride, bases _1@0, swizzles Sw<B,M,S>, composed layouts A o off o B.
//   print(x...)    printf-based, usable in device code
//   os << x        std::ostream, host only
//   print_layout   the 2-D index table of a rank-2 layout

#include <cstdio>
#include <ostream>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/core/composed_layout.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/swizzle.hpp"

namespace tessera {

namespace detail {

struct printf_sink {
  TESSERA_HOST_DEVICE void str(char const* s) const { printf("%s", s); }
  TESSERA_HOST_DEVICE void sint(long long v) const { printf("%lld", v); }
  TESSERA_HOST_DEVICE void uint(unsigned long long v) const { printf("%llu", v); }
};

// Host-only in effect: the device pass compiles the members to nothing, so
// the shared printer below instantiates cleanly under nvcc.
struct ostream_sink {
  std::ostream* os;
#if defined(__CUDA_ARCH__)
  TESSERA_HOST_DEVICE void str(char const*) const {}
  TESSERA_HOST_DEVICE void sint(long long) const {}
  TESSERA_HOST_DEVICE void uint(unsigned long long) const {}
#else
  TESSERA_HOST_DEVICE void str(char const* s) const { *os << s; }
  TESSERA_HOST_DEVICE void sint(long long v) const { *os << v; }
  TESSERA_HOST_DEVICE void uint(unsigned long long v) const { *os << v; }
#endif
};

template <class T>
struct is_swizzle_t : false_type {};
template <int B, int M, int S>
struct is_swizzle_t<Swizzle<B, M, S>> : true_type {};

template <class Sink, class T>
TESSERA_HOST_DEVICE void print_to(Sink const& sink, T const& t) {
  using U = std::remove_cvref_t<T>;
  if constexpr (is_static_int_v<U>) {
    sink.str("_");
    if constexpr (std::is_same_v<typename U::value_type, bool>) sink.str(U::value ? "true" : "false");
    else if constexpr (std::is_signed_v<typename U::value_type>) sink.sint(static_cast<long long>(U::value));
    else sink.uint(static_cast<unsigned long long>(U::value));
  } else if constexpr (std::is_same_v<U, bool>) {
    sink.str(t ? "true" : "false");
  } else if constexpr (std::is_integral_v<U>) {
    if constexpr (std::is_signed_v<U>) sink.sint(static_cast<long long>(t));
    else sink.uint(static_cast<unsigned long long>(t));
  } else if constexpr (is_tuple_v<U>) {
    sink.str("(");
    [&]<int... I>(seq<I...>) { ((I == 0 ? void() : sink.str(","), print_to(sink, get<I>(t))), ...); }(tuple_seq<U>{});
    sink.str(")");
  } else if constexpr (is_layout_v<U>) {
    print_to(sink, t.shape());
    sink.str(":");
    print_to(sink, t.stride());
  } else if constexpr (is_scaled_basis_v<U>) {
    print_to(sink, t.value());
    sink.str("@");
    sink.sint(U::mode);
  } else if constexpr (is_underscore_v<U>) {
    sink.str("_");
  } else if constexpr (is_swizzle_t<U>::value) {
    sink.str("Sw<");
    sink.sint(U::num_bits);
    sink.str(",");
    sink.sint(U::num_base);
    sink.str(",");
    sink.sint(U::num_shft);
    sink.str(">");
  } else if constexpr (is_composed_layout_v<U>) {
    print_to(sink, t.layout_a());
    sink.str(" o ");
    print_to(sink, t.offset());
    sink.str(" o ");
    print_to(sink, t.layout_b());
  } else if constexpr (std::is_convertible_v<U, char const*>) {
    sink.str(t);
  } else {
    static_assert(sizeof(U) == 0, "print: no printer for this type");
  }
}

template <class T>
TESSERA_HOST_DEVICE constexpr int num_digits(T x) {
  int n = 1;
  while (x >= 10) {
    x /= 10;
    ++n;
  }
  return n;
}

}  // namespace detail

// printf one value in CuTe's notation (device-safe).
template <class T>
TESSERA_HOST_DEVICE void print(T const& t) {
  detail::print_to(detail::printf_sink{}, t);
}

// A string prints as text (not as a pointer, which the ptr[..] overloads
// would otherwise take for a literal); a char as the character, floating
// point as printf's %f (CuTe's choices).
TESSERA_HOST_DEVICE inline void print(char const* s) { printf("%s", s); }
TESSERA_HOST_DEVICE inline void print(char c) { printf("%c", c); }
TESSERA_HOST_DEVICE inline void print(float v) { printf("%f", static_cast<double>(v)); }
TESSERA_HOST_DEVICE inline void print(double v) { printf("%f", v); }

// pretty_print(v): one value of a print_tensor table, right-aligned in
// CuTe's widths: bool %3d, integers %5d, float %10.2e, double %11.3e, and
// anything else (coordinates of an identity tensor, say) two spaces then
// print(v). The element types of tessera/atom/numeric.hpp add their own
// overloads (half_t, bfloat16_t and the 8-bit floats %8.2f, tfloat32_t
// %10.2e), found by argument-dependent lookup.
template <class T>
TESSERA_HOST_DEVICE void pretty_print(T const& v) {
  using U = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    printf("%3d", int(v));
  } else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>) {
    printf("%5lld", static_cast<long long>(v));
  } else if constexpr (std::is_integral_v<U>) {
    printf("%5llu", static_cast<unsigned long long>(v));
  } else if constexpr (std::is_same_v<U, float>) {
    printf("%10.2e", static_cast<double>(v));
  } else if constexpr (std::is_floating_point_v<U>) {
    printf("%11.3e", static_cast<double>(v));
  } else {
    printf("  ");
    print(v);
  }
}

namespace detail {
// What printf takes as a variadic argument: numbers, pointers, C strings.
template <class T>
inline constexpr bool printf_argument_v =
    std::is_arithmetic_v<T> || std::is_pointer_v<T> ||
    (std::is_array_v<T> && std::is_same_v<std::remove_cv_t<std::remove_extent_t<T>>, char>);
}  // namespace detail

// print(format, values...): CuTe's printf form, print("k = %d\n", k), when
// the first argument is a string and every other one a number, pointer or
// string. Otherwise print(a, b, ...) prints each argument through its own
// `print` overload, found at instantiation by argument-dependent lookup, so
// tensors, pointers and atoms mix with integers, layouts and strings:
// print(tAsA, "\n"), print("sA: ", sA, "\n").
template <class T0, class T1, class... T>
TESSERA_HOST_DEVICE void print(T0 const& t0, T1 const& t1, T const&... t) {
  if constexpr (std::is_convertible_v<T0 const&, char const*> && detail::printf_argument_v<T1> &&
                (detail::printf_argument_v<T> && ...)) {
    printf(static_cast<char const*>(t0), t1, t...);
  } else {
    print(t0);
    print(t1);
    (print(t), ...);
  }
}

// Stream output, host only.
template <auto v>
std::ostream& operator<<(std::ostream& os, C<v> const& t) {
  detail::print_to(detail::ostream_sink{&os}, t);
  return os;
}
template <class... T>
std::ostream& operator<<(std::ostream& os, tuple<T...> const& t) {
  detail::print_to(detail::ostream_sink{&os}, t);
  return os;
}
template <class S, class D>
std::ostream& operator<<(std::ostream& os, Layout<S, D> const& t) {
  detail::print_to(detail::ostream_sink{&os}, t);
  return os;
}
template <class T, int N>
std::ostream& operator<<(std::ostream& os, ScaledBasis<T, N> const& t) {
  detail::print_to(detail::ostream_sink{&os}, t);
  return os;
}
inline std::ostream& operator<<(std::ostream& os, Underscore const& t) {
  detail::print_to(detail::ostream_sink{&os}, t);
  return os;
}
template <int B, int M, int S>
std::ostream& operator<<(std::ostream& os, Swizzle<B, M, S> const& t) {
  detail::print_to(detail::ostream_sink{&os}, t);
  return os;
}
template <class A, class O, class B>
std::ostream& operator<<(std::ostream& os, ComposedLayout<A, O, B> const& t) {
  detail::print_to(detail::ostream_sink{&os}, t);
  return os;
}

namespace detail {
template <class Sink, class L>
TESSERA_HOST_DEVICE void print_layout_to(Sink const& sink, L const& layout) {
  static_assert(decltype(rank(layout))::value == 2, "print_layout: layout must have rank 2 [(m,n) -> idx]");
  int const idx_width = num_digits(int(cosize(layout))) + 2;
  char const* delim = "+-----------------------";
  char buf[64];
  auto put_int = [&](int width, int v) {
    // right-aligned integer in a field of `width`
    int nd = num_digits(v < 0 ? -v : v) + (v < 0 ? 1 : 0);
    for (int k = nd; k < width; ++k) sink.str(" ");
    sink.sint(v);
  };
  auto put_delim = [&](int n) {
    int k = 0;
    for (; k < n && delim[k] != '\0'; ++k) buf[k] = delim[k];
    buf[k] = '\0';
    sink.str(buf);
  };
  print_to(sink, layout);
  sink.str("\n");
  int const M = int(size<0>(layout));
  int const N = int(size<1>(layout));
  sink.str("    ");
  for (int n = 0; n < N; ++n) {
    sink.str("  ");
    put_int(idx_width - 2, n);
    sink.str(" ");
  }
  sink.str("\n");
  for (int m = 0; m < M; ++m) {
    sink.str("    ");
    for (int n = 0; n < N; ++n) put_delim(idx_width + 1);
    sink.str("+\n");
    put_int(2, m);
    sink.str("  ");
    for (int n = 0; n < N; ++n) {
      sink.str("| ");
      put_int(idx_width - 2, int(layout(m, n)));
      sink.str(" ");
    }
    sink.str("|\n");
  }
  sink.str("    ");
  for (int n = 0; n < N; ++n) put_delim(idx_width + 1);
  sink.str("+\n");
}
}  // namespace detail

// The (m,n) -> index table of a rank-2 layout, as CuTe prints it.
template <class L>
TESSERA_HOST_DEVICE void print_layout(L const& layout) {
  detail::print_layout_to(detail::printf_sink{}, layout);
}
template <class L>
void print_layout(std::ostream& os, L const& layout) {
  detail::print_layout_to(detail::ostream_sink{&os}, layout);
}

}  // namespace tessera
