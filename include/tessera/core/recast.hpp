// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Re-express a layout in units of a wider (upcast) or narrower (downcast)
// element: upcast<N> merges N consecutive elements into one, downcast<N>
// splits each element into N. recast_layout<Old, New> picks the factor from
// the element sizes. Also with_shape-style helpers live with composition.

#include <cstddef>

#include "tessera/config.hpp"
#include "tessera/core/composed_layout.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/swizzle.hpp"

namespace tessera {

// Size of T in bits; specialise for sub-byte types.
template <class T>
struct sizeof_bits : std::integral_constant<std::size_t, sizeof(T) * 8> {};
template <class T>
struct sizeof_bits<T const> : sizeof_bits<T> {};
template <class T>
inline constexpr std::size_t sizeof_bits_v = sizeof_bits<T>::value;

namespace detail {
template <int N>
struct upcast_leaf_shape {
  template <class S, class D>
  TESSERA_HOST_DEVICE constexpr auto operator()(S const& s, D const& d) const {
    if constexpr (is_constant_v<0, D>) {
      return s;
    } else if constexpr (is_static_v<D>) {
      constexpr auto ad = decltype(abs(d))::value;
      static_assert(ad % N == 0 || N % ad == 0,
                    "upcast: stride divisibility condition broken [a static stride must divide, or be a multiple of, N]");
      return shape_div(s, shape_div(Int<N>{}, abs(d)));
    } else {
      return s;
    }
  }
};
template <int N>
struct upcast_leaf_stride {
  template <class S, class D>
  TESSERA_HOST_DEVICE constexpr auto operator()(S const&, D const& d) const {
    if constexpr (is_constant_v<0, D>) return d;
    else if constexpr (is_static_v<D>) return shape_div(d, Int<N>{});
    else {
      TESSERA_ASSERT(d % N == 0);  // upcast: a run-time stride must be a multiple of N
      return d / Int<N>{};
    }
  }
};
template <int N>
struct downcast_leaf_shape {
  template <class S, class D>
  TESSERA_HOST_DEVICE constexpr auto operator()(S const& s, D const&) const {
    if constexpr (is_constant_v<1, D> || is_constant_v<-1, D>) return s * Int<N>{};
    else return s;
  }
};
template <int N>
struct downcast_leaf_stride {
  template <class S, class D>
  TESSERA_HOST_DEVICE constexpr auto operator()(S const&, D const& d) const {
    if constexpr (is_constant_v<1, D> || is_constant_v<-1, D>) return d;
    else return d * Int<N>{};
  }
};
}  // namespace detail

// The layout in units of N elements: unit-stride modes shrink by N, other
// strides are divided by N.
// @post upcast<N>(l)(c) == l(c * N along the unit-stride mode) / N for compatible l
template <int N, class S, class D>
TESSERA_HOST_DEVICE constexpr auto upcast(Layout<S, D> const& l) {
  static_assert(N > 0, "upcast: factor must be positive");
  return make_layout(transform_leaf(l.shape(), l.stride(), detail::upcast_leaf_shape<N>{}),
                     transform_leaf(l.shape(), l.stride(), detail::upcast_leaf_stride<N>{}));
}

// The layout in units of 1/N elements: unit-stride modes grow by N, other
// strides are multiplied by N.
// @post size(downcast<N>(l)) == size(l) * N when l has a unit-stride mode
template <int N, class S, class D>
TESSERA_HOST_DEVICE constexpr auto downcast(Layout<S, D> const& l) {
  static_assert(N > 0, "downcast: factor must be positive");
  return make_layout(transform_leaf(l.shape(), l.stride(), detail::downcast_leaf_shape<N>{}),
                     transform_leaf(l.shape(), l.stride(), detail::downcast_leaf_stride<N>{}));
}

// An offset in units of N elements.
template <int N, class T>
  requires(is_integral_v<T>)
TESSERA_HOST_DEVICE constexpr auto upcast(T const& offset) {
  if constexpr (is_static_v<T>) return C<(T::value / N)>{};
  else return offset / N;
}
template <int N, class T>
  requires(is_integral_v<T>)
TESSERA_HOST_DEVICE constexpr auto downcast(T const& offset) {
  return offset * Int<N>{};
}

template <int N, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto upcast(ComposedLayout<A, O, B> const& c) {
  return composition(upcast<N>(c.layout_a()), upcast<N>(c.offset()), upcast<N>(c.layout_b()));
}
template <int N, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto downcast(ComposedLayout<A, O, B> const& c) {
  return composition(downcast<N>(c.layout_a()), downcast<N>(c.offset()), downcast<N>(c.layout_b()));
}

// --- max_alignment -----------------------------------------------------------------------------

namespace detail {
// The gcd of the contiguous run (the chain of modes with strides 1, s_0,
// s_0 * s_1, ... that a right inverse follows) and the strides of every
// other mode of size > 1. Only static values count: a dynamic shape is
// taken as 1 and a dynamic stride as a multiple of anything (0).
template <class T>
constexpr long static_value_or(long dynamic) {
  if constexpr (is_static_int_v<T>) return T::value < 0 ? -long(T::value) : long(T::value);
  else return dynamic;
}

template <class FS, class FD, int... I>
constexpr long max_alignment_flat(seq<I...>) {
  static_assert((is_integral_v<std::remove_cvref_t<decltype(get<I>(std::declval<FD>()))>> && ...),
                "max_alignment: the strides must be integers (not bases)");
  constexpr int n = sizeof...(I);
  long const s[n + 1] = {static_value_or<std::remove_cvref_t<decltype(get<I>(std::declval<FS>()))>>(1)..., 1};
  long const d[n + 1] = {static_value_or<std::remove_cvref_t<decltype(get<I>(std::declval<FD>()))>>(0)..., 0};
  bool used[n + 1] = {};
  long run = 1;
  for (bool grew = true; grew;) {
    grew = false;
    for (int k = 0; k < n; ++k) {
      if (!used[k] && s[k] > 1 && d[k] == run) {
        used[k] = true;
        run *= s[k];
        grew = true;
      }
    }
  }
  long g = run;
  for (int k = 0; k < n; ++k)
    if (!used[k] && s[k] > 1) g = gcd_value<long>(g, d[k]);
  return g;
}

template <class S, class D>
constexpr long max_alignment_value() {
  using FS = decltype(flatten_to_tuple(std::declval<S>()));
  using FD = decltype(flatten_to_tuple(std::declval<D>()));
  return max_alignment_flat<FS, FD>(make_seq<tuple_size_v<FS>>{});
}
}  // namespace detail

// The largest N such that l visits memory in aligned blocks of N: N divides
// the contiguous run that starts at offset 0 and every other stride, so
// N-element vectors (N * sizeof(T) bytes) can move the whole image. Static
// shapes and strides only, as CuTe's: a dynamic shape counts as 1, a
// dynamic stride as a multiple of N.
// @post with every offset x it reaches, l reaches [x - x % N, x - x % N + N)
// @post for injective l, not so for 2N while 2N <= cosize(l) (the run is followed by a gap)
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto max_alignment(Layout<S, D> const&) {
  return C<detail::max_alignment_value<S, D>()>{};
}

// A swizzle XORs bits at or above M: aligned blocks of 2^M stay whole and in order.
template <int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto max_alignment(Swizzle<B, M, S> const&) {
  return C<(1 << M)>{};
}

// Sw o off o L: the blocks of L, moved by the offset (a dynamic offset is
// assumed aligned), then kept whole by the swizzle.
// @post as for layouts, over the image of the composed function
template <int B, int M, int S, class O, class L>
TESSERA_HOST_DEVICE constexpr auto max_alignment(ComposedLayout<Swizzle<B, M, S>, O, L> const& c) {
  auto g = [&] {
    if constexpr (B == 0) return max_alignment(c.layout_b());  // Swizzle<0,M,S> is the identity
    else return gcd(max_alignment(c.layout_a()), max_alignment(c.layout_b()));
  }();
  if constexpr (is_static_int_v<O>) return gcd(g, C<(O::value < 0 ? -O::value : O::value)>{});
  else return g;
}

// The layout of the same memory seen as NewT elements instead of OldT.
// @post for widening, recast_layout<Old,New> == upcast<bits(New)/bits(Old)>
template <class OldT, class NewT, class L>
TESSERA_HOST_DEVICE constexpr auto recast_layout(L const& layout) {
  constexpr std::size_t nb = sizeof_bits_v<NewT>;
  constexpr std::size_t ob = sizeof_bits_v<OldT>;
  constexpr std::size_t g = detail::gcd_value<std::size_t>(nb, ob);
  constexpr int num = int(nb / g);
  constexpr int den = int(ob / g);
  if constexpr (num == 1 && den == 1) return layout;
  else if constexpr (num == 1) return downcast<den>(layout);
  else if constexpr (den == 1) return upcast<num>(layout);
  else return downcast<den>(upcast<num>(layout));
}

}  // namespace tessera
