// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Functional composition of layouts, R = A o B, R(c) = A(B(c)).
//
// B is walked mode by mode (composition distributes over B's modes, so R
// keeps B's hierarchy). For one mode s:d of B, A (coalesced) is first
// "divided" by d (the first modes of A that d steps over are consumed) and then
// "modded" by s (only as many of the remaining modes as s covers are kept).

#include "tessera/config.hpp"
#include "tessera/core/composed_layout.hpp"
#include "tessera/core/layout.hpp"

namespace tessera {

namespace detail {

// "Mod out" a size s from the leading modes of A: each mode m in turn keeps
// min(|m|, rest), where rest (s at first) then becomes shape_div(rest, |m|):
// rest / |m|, or 1 once |m| covers it. Returns (the kept sizes, the final
// rest).
// @pre  each mode divides, or is a multiple of, what is left when it is
//       reached (static operands: a compile error naming the rule)
template <class Modes, class S>
TESSERA_HOST_DEVICE constexpr auto mod_out_shape(Modes const& modes, S const& s) {
  return fold(modes, make_tuple(tuple<>{}, s), [](auto const& init, auto const& si) {
    auto const& rest = get<1>(init);
    if constexpr (is_static_v<decltype(si)> && is_static_v<decltype(rest)>) {
      constexpr auto a = decltype(abs(si))::value;
      constexpr auto b = std::remove_cvref_t<decltype(rest)>::value;
      static_assert(a % b == 0 || b % a == 0,
                    "composition: shape divisibility condition broken [the tile size must divide, or be a multiple of, each mode it spans]");
    } else {
      // composition: shape divisibility condition (run-time operands)
      TESSERA_ASSERT(abs(si) % rest == 0 || rest % abs(si) == 0);
    }
    return make_tuple(append(get<0>(init), shape_min(abs(si), rest)), shape_div(rest, abs(si)));
  });
}

template <class LShape, class LStride, class RShape, class RStride>
TESSERA_HOST_DEVICE constexpr auto composition_impl(LShape const& lhs_shape, LStride const& lhs_stride, RShape const& rhs_shape,
                                                    RStride const& rhs_stride) {
  if constexpr (is_tuple_v<RShape>) {
    // Right-distributivity: A o (B0, B1, ...) == (A o B0, A o B1, ...).
    return [&]<int... I>(seq<I...>) {
      return make_layout(composition_impl(lhs_shape, lhs_stride, get<I>(rhs_shape), get<I>(rhs_stride))...);
    }(tuple_seq<RShape>{});
  } else if constexpr (is_scaled_basis_v<RStride>) {
    // A basis stride selects a sub-mode of A, then strides within it.
    return composition_impl(basis_get(rhs_stride, lhs_shape), basis_get(rhs_stride, lhs_stride), rhs_shape, basis_value(rhs_stride));
  } else if constexpr (is_constant_v<0, RStride>) {
    return Layout<RShape, RStride>(rhs_shape, rhs_stride);
  } else if constexpr (!is_tuple_v<LShape>) {
    return make_layout(rhs_shape, rhs_stride * lhs_stride);
  } else if constexpr (is_constant_v<1, RStride>) {
    constexpr int R = tuple_size_v<LShape>;
    // Mod out rhs_shape from the first R-1 modes of A.
    auto r = mod_out_shape(take<0, R - 1>(lhs_shape), rhs_shape);
    return bw_coalesce_all(get<0>(r), lhs_stride, get<1>(r), get<R - 1>(lhs_stride));
  } else {
    constexpr int R = tuple_size_v<LShape>;
    auto shape0 = take<0, R - 1>(lhs_shape);
    auto stride0 = take<0, R - 1>(lhs_stride);
    // Divide out rhs_stride from the first R-1 modes of A.
    auto r1 = fold(shape0, make_tuple(tuple<>{}, rhs_stride), [](auto const& init, auto const& si) {
      auto const& rest = get<1>(init);
      if constexpr (is_static_v<decltype(si)> && is_static_v<decltype(rest)>) {
        constexpr auto a = std::remove_cvref_t<decltype(si)>::value;
        constexpr auto b = decltype(abs(rest))::value;
        static_assert(a % b == 0 || b % a == 0,
                      "composition: stride divisibility condition broken [the stride must divide, or be a multiple of, each mode it steps over]");
      } else {
        // composition: stride divisibility condition (run-time operands)
        TESSERA_ASSERT(rest != 0 && (si % abs(rest) == 0 || abs(rest) % si == 0));
      }
      return make_tuple(append(get<0>(init), shape_div(si, rest)), shape_div(rest, si));
    });
    auto shape1 = get<0>(r1);
    auto rest_stride = get<1>(r1);
    // The modes that were divided step by a correspondingly larger stride.
    auto stride1 = elem_scale(stride0, shape_div(shape0, shape1));
    // Mod out rhs_shape.
    auto r2 = mod_out_shape(shape1, rhs_shape);
    return bw_coalesce_all(get<0>(r2), stride1, get<1>(r2), rest_stride * get<R - 1>(lhs_stride));
  }
}

}  // namespace detail

// A o B as a layout: same domain (and hierarchy) as B.
// @post compatible(B, R) and R(c) == A(B(c)) for every coordinate c of B
// @pre  (static) B's strides and sizes nest with A's modes (divisibility)
template <class LS, class LD, class RS, class RD>
TESSERA_HOST_DEVICE constexpr auto composition(Layout<LS, LD> const& lhs, Layout<RS, RD> const& rhs) {
  auto flat_lhs = coalesce(lhs, coprofile(rhs));
  return detail::composition_impl(flat_lhs.shape(), flat_lhs.stride(), rhs.shape(), rhs.stride());
}

// A o tiler, mode by mode: a tuple tiler applies its i-th element to mode i
// of A (modes beyond the tiler are kept), `_` keeps the mode, an integer n
// means the layout n:_1, a Layout composes functionally.
// @post composition(A, (t0, t1))(c0, c1) == A(t0(c0), t1(c1))
template <class LS, class LD, class Tiler>
TESSERA_HOST_DEVICE constexpr auto composition(Layout<LS, LD> const& lhs, Tiler const& tiler) {
  if constexpr (is_tuple_v<Tiler>) {
    static_assert(tuple_size_v<Tiler> <= rank_v<LS>, "composition: tiler has more modes than the layout");
    return transform_layout(lhs, tiler, [](auto const& l, auto const& t) { return composition(l, t); });
  } else if constexpr (is_underscore_v<Tiler>) {
    return lhs;
  } else {
    static_assert(is_integral_v<Tiler>, "composition: a tiler is a Layout, a tuple, `_` or an integer");
    return composition(lhs, make_layout(tiler));
  }
}

// ComposedLayout o tiler: the tiler applies to the inner layout.
template <class A, class O, class B, class Tiler>
TESSERA_HOST_DEVICE constexpr auto composition(ComposedLayout<A, O, B> const& c, Tiler const& tiler) {
  return composition(c.layout_a(), c.offset(), composition(c.layout_b(), tiler));
}

template <class S, class D>
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto Layout<S, D>::compose(Args const&... args) const {
  if constexpr (sizeof...(Args) == 1) return composition(*this, args...);
  else return composition(*this, make_tile(args...));
}

template <class S, class D>
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto Layout<S, D>::with_shape(Args const&... args) const {
  if constexpr (sizeof...(Args) == 1) return composition(*this, make_layout(args...));
  else return composition(*this, make_layout(make_shape(args...)));
}

template <class A, class O, class B>
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto ComposedLayout<A, O, B>::compose(Args const&... args) const {
  if constexpr (sizeof...(Args) == 1) return composition(*this, args...);
  else return composition(*this, make_tile(args...));
}

template <class A, class O, class B>
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto ComposedLayout<A, O, B>::with_shape(Args const&... args) const {
  if constexpr (sizeof...(Args) == 1) return composition(*this, make_layout(args...));
  else return composition(*this, make_layout(make_shape(args...)));
}

}  // namespace tessera
