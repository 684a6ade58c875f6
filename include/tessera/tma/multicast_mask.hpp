// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CuTe's create_tma_multicast_mask: which CTAs of a cluster a multicast TMA
// load (copy(tma.with(mbar, mask), ...)) should write into.
//
//   // (V,M,N,K) -> rank in the cluster; this CTA's coordinate in it
//   auto cluster_layout_vmnk = make_layout(make_shape(_1{}, _2{}, _2{}, _1{}));
//   auto cta_coord = cluster_layout_vmnk.get_flat_coord(block_rank_in_cluster());
//   std::uint16_t mask_a = create_tma_multicast_mask<2>(cluster_layout_vmnk, cta_coord);  // A: the CTAs of this M row
//   std::uint16_t mask_b = create_tma_multicast_mask<1>(cluster_layout_vmnk, cta_coord);  // B: the CTAs of this N column
//
// Bit r of create_tma_multicast_mask<Modes...>(cta_layout, cta_coord) is set
// iff r == cta_layout(c) for some coordinate c that equals cta_coord in every
// mode not named in Modes (the named modes range over their whole extent).
// So A, which every CTA of an M row shares, multicasts along N (mode 2).
// Modes may be empty (only this CTA's bit), and cta_coord may hold `_` in
// further modes, which range too. The layout maps a CTA's coordinate to its
// %cluster_ctarank (block_rank_in_cluster()): a column-major layout of the
// cluster shape is the hardware's rank, x + X * (y + Y * z).
//
// Computed as the layout sliced at the coordinate (the named modes replaced
// by `_`): the slice's image, shifted by the offset of the fixed modes.
// Host and device, constexpr; no CUDA headers.

#include <cstdint>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"

namespace tessera {

namespace detail {

// cta_coord with each top-level mode in Modes replaced by `_`.
template <int... Modes, class Coord>
TESSERA_HOST_DEVICE constexpr auto free_cta_modes(Coord const& coord) {
  if constexpr (sizeof...(Modes) == 0) {
    return coord;
  } else {
    return [&]<int M, int... Rest>(seq<M, Rest...>) {
      return free_cta_modes<Rest...>(replace<M>(coord, _));
    }(seq<Modes...>{});
  }
}

// Whether a coordinate has one entry per mode of a rank-R layout (any
// coordinate does for a rank-1 layout).
template <class Coord, int R>
constexpr bool cta_coord_fits() {
  if constexpr (R == 1) return true;
  else if constexpr (is_tuple_v<Coord>) return tuple_size_v<Coord> == R;
  else return false;
}

template <int... Modes>
constexpr bool distinct_modes() {
  int const m[] = {Modes..., -1};
  for (int i = 0; i < int(sizeof...(Modes)); ++i)
    for (int j = i + 1; j < int(sizeof...(Modes)); ++j)
      if (m[i] == m[j]) return false;
  return true;
}

}  // namespace detail

// The ranks of the CTAs that agree with cta_coord_vmnk outside Modes, as a
// bitmask (bit r: CTA rank r).
// @pre every rank the layout reaches is below 16 (checked at compile time
//      for a static layout, by TESSERA_ASSERT otherwise)
// @post bit cta_layout_vmnk(cta_coord_vmnk) is set
// @post popcount == the product of size<M>(cta_layout_vmnk) over Modes, for
//       an injective layout
// @post two CTAs get the same mask iff they agree on the modes outside
//       Modes (injective layout)
template <int... Modes, class CtaLayout, class CtaCoord>
[[nodiscard]] TESSERA_HOST_DEVICE constexpr std::uint16_t create_tma_multicast_mask(CtaLayout const& cta_layout_vmnk,
                                                                                   CtaCoord const& cta_coord_vmnk) {
  static_assert(is_layout_v<CtaLayout>,
                "create_tma_multicast_mask: the first argument is a Layout from CTA coordinates to CTA ranks in the "
                "cluster [make_layout(cluster_shape)]");
  constexpr int kRank = decltype(rank(std::declval<CtaLayout const&>()))::value;
  static_assert(((Modes >= 0 && Modes < kRank) && ...),
                "create_tma_multicast_mask: a listed mode is not a mode of the cluster layout");
  static_assert(detail::distinct_modes<Modes...>(), "create_tma_multicast_mask: a mode is listed twice");
  static_assert(detail::cta_coord_fits<CtaCoord, kRank>(),
                "create_tma_multicast_mask: the CTA coordinate needs one entry per mode of the cluster layout "
                "[make_coord(v, m, n, k), or cta_layout.get_flat_coord(block_rank_in_cluster())]");
  if constexpr (is_static_v<CtaLayout>) {
    static_assert(size_v<CtaLayout> <= 16, "create_tma_multicast_mask: a cluster has at most 16 CTAs");
    static_assert(cosize_v<CtaLayout> <= 16,
                  "create_tma_multicast_mask: the cluster layout reaches a rank of 16 or more, past the 16-bit mask");
  } else {
    TESSERA_ASSERT(int(cosize(cta_layout_vmnk)) <= 16);
  }
  auto const coord = detail::free_cta_modes<Modes...>(cta_coord_vmnk);
  if constexpr (!has_underscore_v<decltype(coord)>) {
    return static_cast<std::uint16_t>(std::uint32_t(1) << int(cta_layout_vmnk(coord)));  // nothing ranges: this CTA
  } else {
    auto const sliced = slice_and_offset(coord, cta_layout_vmnk);
    auto const& sub = get<0>(sliced);  // (the ranging modes) -> rank - offset
    int const offset = int(get<1>(sliced));
    std::uint32_t mask = 0;
    for (int i = 0; i < int(size(sub)); ++i) mask |= std::uint32_t(1) << (int(sub(i)) + offset);
    return static_cast<std::uint16_t>(mask);
  }
}

}  // namespace tessera
