// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Complement of a layout within a codomain of size `cotarget`: the layout
// that enumerates, in order, the "gaps" of the input layout, so that
// (layout, complement) together cover [0, cotarget) without overlap.
//
// Algorithm: filter the layout (drop size-1 and stride-0 modes), sort its
// modes by stride, and for each gap between d_{i-1}*s_{i-1} and d_i emit the
// mode (d_i / (d_{i-1}*s_{i-1})) : (d_{i-1}*s_{i-1}); finally a mode that
// reaches past the top of the layout up to the cotarget. Then coalesce.

#include "tessera/config.hpp"
#include "tessera/core/layout.hpp"

namespace tessera {

namespace detail {

template <class ShapeT, class StrideT, class CoTarget>
TESSERA_HOST_DEVICE constexpr auto complement_impl(ShapeT const& shape, StrideT const& stride, CoTarget const& cotarget) {
  if constexpr (is_constant_v<0, StrideT>) {
    // Nothing of the codomain is covered: the complement is all of it.
    return coalesce(make_layout(cotarget));
  } else {
    auto fs = wrap(shape);
    auto fd = wrap(stride);
    constexpr int R = tuple_size_v<decltype(fs)>;
    static_assert(R == 1 || is_static_v<decltype(fd)>,
                  "complement: dynamic strides are supported for rank-1 layouts only [make the strides static or coalesce first]");
    static_assert(!is_scaled_basis_v<decltype(get<0>(fd))>, "complement: ScaledBasis strides are not supported");
    auto state = fold(make_seq<R - 1>{}, make_tuple(fs, fd, tuple<>{}, make_tuple(Int<1>{})), [](auto const& init, auto i) {
      constexpr int I = decltype(i)::value;
      auto const& curr_shape = get<0>(init);
      auto const& curr_stride = get<1>(init);
      auto min_stride = min_leaf(curr_stride);
      constexpr int min_idx = decltype(find(curr_stride, min_stride))::value;
      auto new_shape = min_stride / get<I>(get<3>(init));
      auto new_stride = min_stride * get<min_idx>(curr_shape);
      static_assert(!is_constant_v<0, decltype(new_shape)>,
                    "complement: non-injective layout [two modes overlap in the codomain]");
      return make_tuple(remove<min_idx>(curr_shape), remove<min_idx>(curr_stride), append(get<2>(init), new_shape),
                        append(get<3>(init), new_stride));
    });
    auto const& last_shape = get<0>(state);
    auto const& last_stride = get<1>(state);
    auto new_shape = get<0>(last_stride) / get<R - 1>(get<3>(state));
    static_assert(!is_constant_v<0, decltype(new_shape)>, "complement: non-injective layout [two modes overlap in the codomain]");
    auto result_shape = append(get<2>(state), new_shape);
    auto result_stride = get<3>(state);
    auto rest_stride = get<0>(last_shape) * get<0>(last_stride);
    auto rest_shape = ceil_div(cotarget, rest_stride);
    return bw_coalesce_all(result_shape, result_stride, rest_shape, rest_stride);
  }
}

}  // namespace detail

// Complement of `layout` within [0, cotarget). A shape cotarget stands for
// its size.
// @post result is ordered (strides increase), disjoint from layout's image
//       (except at 0), and size(layout) * size(result) >= cotarget when the
//       layout is injective; complement(complement(l, n), n) covers l's image
// @pre  layout is injective on its non-zero-stride modes
template <class S, class D, class CoTarget>
TESSERA_HOST_DEVICE constexpr auto complement(Layout<S, D> const& layout, CoTarget const& cotarget) {
  auto f = filter(layout);
  return detail::complement_impl(f.shape(), f.stride(), product(cotarget));
}

// Complement within the layout's own codomain, [0, cosize(layout)).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto complement(Layout<S, D> const& layout) {
  return complement(layout, cosize(layout));
}

}  // namespace tessera
