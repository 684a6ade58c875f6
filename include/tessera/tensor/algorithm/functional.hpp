// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CuTe's function objects, for transform(t, f), transform(a, b, dst, f) and
// hand-written reductions: host and device, any argument types the
// operators accept.
//
//   transform(tCrC, tCrD, negate{});                      // d = -c
//   transform(tCrA, tCrB, tCrC, max_fn{});                // c = max(a, b)
//
//   identity{}(x) == x      negate{}(x) == -x          abs_fn{}(x) == |x|
//   square{}(x) == x * x    plus, minus, multiplies, divides, modulus: a op b
//   max_fn / min_fn: the larger / smaller of a and b (a when they compare
//   equal or unordered, as NaN)

#include <utility>

#include "tessera/config.hpp"

namespace tessera {

struct identity {
  template <class T>
  TESSERA_HOST_DEVICE constexpr T&& operator()(T&& x) const {
    return static_cast<T&&>(x);
  }
};

struct negate {
  template <class T>
  TESSERA_HOST_DEVICE constexpr auto operator()(T const& x) const {
    return -x;
  }
};

struct abs_fn {
  template <class T>
  TESSERA_HOST_DEVICE constexpr auto operator()(T const& x) const {
    return x < T(0) ? -x : x;
  }
};

struct square {
  template <class T>
  TESSERA_HOST_DEVICE constexpr auto operator()(T const& x) const {
    return x * x;
  }
};

#define TESSERA_BINARY_FUNCTION_OBJECT(name, op)                       \
  struct name {                                                        \
    template <class A, class B>                                        \
    TESSERA_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { \
      return a op b;                                                   \
    }                                                                  \
  };
TESSERA_BINARY_FUNCTION_OBJECT(plus, +)
TESSERA_BINARY_FUNCTION_OBJECT(minus, -)
TESSERA_BINARY_FUNCTION_OBJECT(multiplies, *)
TESSERA_BINARY_FUNCTION_OBJECT(divides, /)
TESSERA_BINARY_FUNCTION_OBJECT(modulus, %)
#undef TESSERA_BINARY_FUNCTION_OBJECT

struct max_fn {
  template <class T>
  TESSERA_HOST_DEVICE constexpr T operator()(T const& a, T const& b) const {
    return a < b ? b : a;
  }
};

struct min_fn {
  template <class T>
  TESSERA_HOST_DEVICE constexpr T operator()(T const& a, T const& b) const {
    return b < a ? b : a;
  }
};

}  // namespace tessera
