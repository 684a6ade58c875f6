// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Inverses and common sub-layouts: right_inverse, left_inverse,
// max_common_layout, max_common_vector, nullspace.

#include "tessera/config.hpp"
#include "tessera/core/complement.hpp"
#include "tessera/core/composition.hpp"
#include "tessera/core/layout.hpp"

namespace tessera {

namespace detail {
// Follow the static strides 1, s_a*d_a, s_b*d_b, ... through the modes;
// the visited mode indices in order.
template <int NextStride, class ShapeT, class StrideT, int... Is>
TESSERA_HOST_DEVICE constexpr auto inverse_seq(ShapeT const& shape, StrideT const& stride, seq<Is...>) {
  constexpr int R = tuple_size_v<StrideT>;
  constexpr int next_I =
      decltype(find_if(stride, [](auto const& a) { return bool_constant<is_constant_v<NextStride, decltype(a)>>{}; }))::value;
  if constexpr (next_I == R) {
    return seq<Is...>{};
  } else {
    auto next_stride = get<next_I>(shape) * get<next_I>(stride);
    if constexpr (is_static_v<decltype(next_stride)>) {
      return inverse_seq<int(decltype(next_stride)::value)>(shape, stride, seq<Is..., next_I>{});
    } else {
      return seq<Is..., next_I>{};
    }
  }
}
}  // namespace detail

// The largest layout R (contiguous from 0) with layout(R(i)) == i.
// @post layout(right_inverse(layout)(i)) == i for 0 <= i < size(result)
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto right_inverse(Layout<S, D> const& layout) {
  auto flat = coalesce(layout);
  auto fs = wrap(flat.shape());
  auto fd = wrap(flat.stride());
  auto astride = transform_leaf(fd, [](auto const& d) { return abs(d); });
  auto iseq = detail::inverse_seq<1>(fs, astride, seq<>{});
  if constexpr (iseq.size() == 0) {
    return Layout<Int<1>, Int<0>>{};
  } else {
    auto rstride = compact_col_major(fs);
    return [&]<int... I>(seq<I...>) {
      return make_layout(unwrap(make_tuple(get<I>(fs)...)), unwrap(make_tuple((signum(get<I>(fd)) * get<I>(rstride))...)));
    }(iseq);
  }
}

// A layout L' with L'(L(i)) == i on the image of L.
// @post left_inverse(layout)(layout(i)) == i for 0 <= i < size(layout), layout injective
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto left_inverse(Layout<S, D> const& layout) {
  return right_inverse(make_layout(layout, complement(layout)));
}

// The largest layout C with a(C(i)) and b(C(i)) both equal to i: the common
// contiguous part of a and b's domains. Static inputs only; _1:_0 otherwise.
// @post a(result(i)) == b(result(i)) == i's image under a common vector walk
template <class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto max_common_layout(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  auto inv_b = right_inverse(b);
  auto common = coalesce(composition(a, inv_b));
  if constexpr (is_static_v<decltype(get<0>(common.shape()))> && is_constant_v<1, decltype(get<0>(common.stride()))>) {
    return composition(inv_b, layout<0>(common));
  } else {
    return Layout<Int<1>, Int<0>>{};
  }
}

// Number of leading elements that a and b both keep contiguous (a static
// integer; _1 when unknown at compile time).
// @post a(i) == b(i) == i for 0 <= i < result, after both are restricted to the vector
template <class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto max_common_vector(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  if constexpr (is_static_v<Layout<SA, DA>> && is_static_v<Layout<SB, DB>>) {
    auto result = coalesce(composition(a, right_inverse(b)));
    if constexpr (is_constant_v<1, decltype(get<0>(result.stride()))>) return get<0>(result.shape());
    else return Int<1>{};
  } else {
    return Int<1>{};
  }
}

// The modes of `layout` with a static zero stride, as a layout into the
// (colexicographic) domain of `layout`.
// @post layout(result(i)) == layout(0) for 0 <= i < size(result)
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto nullspace(Layout<S, D> const& layout) {
  auto fs = flatten_to_tuple(layout.shape());
  auto fd = flatten_to_tuple(layout.stride());
  constexpr int R = tuple_size_v<decltype(fs)>;
  auto iseq = fold(make_seq<R>{}, seq<>{}, [&]<int... Is>(seq<Is...>, auto i) {
    constexpr int I = decltype(i)::value;
    if constexpr (is_constant_v<0, decltype(get<I>(fd))>) return seq<Is..., I>{};
    else return seq<Is...>{};
  });
  if constexpr (iseq.size() == 0) {
    return Layout<Int<1>, Int<0>>{};
  } else {
    auto rstride = compact_col_major(fs);
    return [&]<int... I>(seq<I...>) {
      return make_layout(unwrap(make_tuple(get<I>(fs)...)), unwrap(make_tuple(get<I>(rstride)...)));
    }(iseq);
  }
}

}  // namespace tessera
