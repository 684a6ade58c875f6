// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// ComposedLayout<A, O, B>: the function c -> A(O + B(c)). The usual use is a
// swizzled shared-memory layout, Sw<3,3,3> o _0 o (_8,_64):(_64,_1): B is an
// ordinary Layout that gives the shape, A a Swizzle applied to its offsets.
// Shape-level questions (shape, size, rank, slicing, tiling) go to B.

#include "tessera/config.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/swizzle.hpp"

namespace tessera {

template <class LayoutA, class Offset, class LayoutB>
struct ComposedLayout : private tuple<LayoutA, Offset, LayoutB> {
  using base = tuple<LayoutA, Offset, LayoutB>;
  static constexpr int rank = LayoutB::rank;

  TESSERA_HOST_DEVICE constexpr ComposedLayout(LayoutA const& a = {}, Offset const& o = {}, LayoutB const& b = {}) : base(a, o, b) {}

  TESSERA_HOST_DEVICE constexpr LayoutA const& layout_a() const { return get<0>(static_cast<base const&>(*this)); }
  TESSERA_HOST_DEVICE constexpr Offset const& offset() const { return get<1>(static_cast<base const&>(*this)); }
  TESSERA_HOST_DEVICE constexpr LayoutB const& layout_b() const { return get<2>(static_cast<base const&>(*this)); }

  template <int... I>
  TESSERA_HOST_DEVICE constexpr decltype(auto) shape() const {
    return layout_b().template shape<I...>();
  }

  // A(O + B(c)); a coordinate with `_` gives the sliced composed layout.
  template <class Coord>
  TESSERA_HOST_DEVICE constexpr auto operator()(Coord const& coord) const {
    if constexpr (has_underscore_v<Coord>) return slice(coord, *this);
    else return layout_a()(offset() + layout_b()(coord));
  }
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return operator()(make_coord(c0, c1, cs...));
  }

  TESSERA_HOST_DEVICE constexpr auto size() const { return tessera::product(shape()); }

  template <class... Args>
  TESSERA_HOST_DEVICE constexpr auto compose(Args const&... args) const;
  template <class... Args>
  TESSERA_HOST_DEVICE constexpr auto tile(Args const&... args) const;
  template <class... Args>
  TESSERA_HOST_DEVICE constexpr auto with_shape(Args const&... args) const;
};

template <class T>
struct is_composed_layout : false_type {};
template <class A, class O, class B>
struct is_composed_layout<ComposedLayout<A, O, B>> : true_type {};
template <class T>
inline constexpr bool is_composed_layout_v = is_composed_layout<std::remove_cvref_t<T>>::value;

template <class T>
concept layout_like = is_layout_v<T> || is_composed_layout_v<T>;

// The Swizzle<B, M, S> a layout applies to its offsets: `swizzled` (with
// bits/base/shift = B/M/S) for Swizzle<B,M,S> o offset o layout; not for a
// plain Layout or a composition with any other outer function.
template <class T>
struct swizzle_of_layout {
  static constexpr bool swizzled = false;
  static constexpr int bits = 0, base = 0, shift = 0;
};
template <int B, int M, int S, class O, class L>
struct swizzle_of_layout<ComposedLayout<Swizzle<B, M, S>, O, L>> {
  static constexpr bool swizzled = true;
  static constexpr int bits = B, base = M, shift = S;
};

// The composed function a o (offset + b).
template <class A, class O, class S, class D>
TESSERA_HOST_DEVICE constexpr auto composition(A const& a, O const& offset, Layout<S, D> const& b) {
  return ComposedLayout<A, O, Layout<S, D>>(a, offset, b);
}
// A swizzle applied to the offsets of a layout.
template <int B, int M, int S, class LS, class LD>
TESSERA_HOST_DEVICE constexpr auto composition(Swizzle<B, M, S> const& sw, Layout<LS, LD> const& l) {
  return composition(sw, Int<0>{}, l);
}
// ComposedLayout from its three parts: c -> a(offset + b(c)).
template <class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto make_composed_layout(A const& a, O const& offset, B const& b) {
  return ComposedLayout<A, O, B>(a, offset, b);
}

// The swizzle of a swizzled layout (Swizzle<0,4,3>, the identity, for a plain layout).
template <class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto get_swizzle_portion(ComposedLayout<A, O, B> const& c) {
  return c.layout_a();
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto get_swizzle_portion(Layout<S, D> const&) {
  return Swizzle<0, 4, 3>{};
}
// The ordinary layout under the swizzle (the layout itself for a plain layout).
template <class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto get_nonswizzle_portion(ComposedLayout<A, O, B> const& c) {
  return c.layout_b();
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto get_nonswizzle_portion(Layout<S, D> const& l) {
  return l;
}

template <int... I, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr decltype(auto) shape(ComposedLayout<A, O, B> const& c) {
  return shape<I...>(c.layout_b());
}
template <int... I, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto size(ComposedLayout<A, O, B> const& c) {
  return size<I...>(c.layout_b());
}
template <int... I, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto rank(ComposedLayout<A, O, B> const& c) {
  return rank<I...>(c.layout_b());
}
template <int... I, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto depth(ComposedLayout<A, O, B> const& c) {
  return depth<I...>(c.layout_b());
}
// Codomain size of the inner layout (a swizzle permutes within aligned blocks,
// so for the usual power-of-two tiles the outer codomain is the same).
template <int... I, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto cosize(ComposedLayout<A, O, B> const& c) {
  return cosize<I...>(c.layout_b());
}

// Sub-layout at mode I: the same outer function over mode I of the inner layout.
template <int... I, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto layout(ComposedLayout<A, O, B> const& c) {
  return composition(c.layout_a(), c.offset(), layout<I...>(c.layout_b()));
}
template <std::size_t I, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto get(ComposedLayout<A, O, B> const& c) {
  return composition(c.layout_a(), c.offset(), get<I>(c.layout_b()));
}

// Modes [B, E) of the inner layout folded into one: the same function,
// regrouped coordinates (group_modes<0, 2>(sA) of a swizzled smem tile).
// @law group<B, E>(c)(i) == c(i) for every index i in [0, size(c))
// @law size(group<B, E>(c)) == size(c), rank == rank(c) - (E - B) + 1
template <int B, int E, class A, class O, class L>
TESSERA_HOST_DEVICE constexpr auto group(ComposedLayout<A, O, L> const& c) {
  return composition(c.layout_a(), c.offset(), group<B, E>(c.layout_b()));
}

// Slicing moves the fixed coordinates' contribution into the offset.
// @post slice(c, L)(x) == L(c with x at the `_` modes)
template <class Coord, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto slice(Coord const& coord, ComposedLayout<A, O, B> const& c) {
  auto so = slice_and_offset(coord, c.layout_b());
  return composition(c.layout_a(), c.offset() + get<1>(so), get<0>(so));
}
// (slice(coord, c), _0): the fixed modes' offset has to stay inside, under
// A, since A(O + k + x) is not A(O + x) + k for a swizzle.
// @post c(coord with x at the `_` modes) == get<0>(r)(x) + get<1>(r)
template <class Coord, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto slice_and_offset(Coord const& coord, ComposedLayout<A, O, B> const& c) {
  return make_tuple(slice(coord, c), Int<0>{});
}
// (A o (O + B(coord)) o B, _0): the same composed layout, its origin moved to
// coord inside A (see slice_and_offset).
// @post get<0>(r)(x) + get<1>(r) == c(coord + x) for coordinates x, coord + x of c
template <class Coord, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto domain_offset(Coord const& coord, ComposedLayout<A, O, B> const& c) {
  auto const& b = c.layout_b();
  return make_tuple(composition(c.layout_a(), c.offset() + crd2idx(coord, b.shape(), b.stride()), b), Int<0>{});
}
template <class Coord, class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto dice(Coord const& coord, ComposedLayout<A, O, B> const& c) {
  return composition(c.layout_a(), c.offset(), dice(coord, c.layout_b()));
}

template <class A, class O, class B>
TESSERA_HOST_DEVICE constexpr auto coalesce(ComposedLayout<A, O, B> const& c) {
  return composition(c.layout_a(), c.offset(), coalesce(c.layout_b()));
}
template <class A, class O, class B, class P>
TESSERA_HOST_DEVICE constexpr auto coalesce(ComposedLayout<A, O, B> const& c, P const& profile) {
  return composition(c.layout_a(), c.offset(), coalesce(c.layout_b(), profile));
}

}  // namespace tessera
