// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// GMMA::ss_op_selector / rs_op_selector: the wgmma atom for a CTA tile and
// element types, as CuTe's Hopper examples pick one:
//
//   auto mma = make_tiled_mma(GMMA::ss_op_selector<bfloat16_t, bfloat16_t, float, Shape<_128, _128, _64>>(),
//                             Layout<Shape<_2, _1, _1>>{});   // two warpgroups down M
//
// The instruction is 64 x N x K with
//   N = the largest multiple of 8, at most 256, that divides the tile's N;
//   K = 32 bytes of the element (16 for f16/bf16, 8 for tf32, 32 for 8-bit);
// the D/A/B family from (ElementA, ElementB, ElementC): f16/f16 into f16 or
// f32, bf16/bf16 into f32, tf32/tf32 into f32, e4m3/e5m2 pairs into f32,
// s8/u8 pairs into s32. The tile's M must be a multiple of 64 and its K of
// the instruction's K. tf32 and 8-bit operands must be K-major (wgmma
// transposes only 16-bit operands); RS takes A from registers, K-major.
// Every violated rule fails the build naming it.

#include <type_traits>

#include <tessera/atom/mma_sm90.hpp>

namespace tessera::GMMA {

namespace detail {

// The largest multiple of 8 in [8, 256] dividing tile_n; 0 when none.
constexpr int gmma_n_for(int tile_n) {
  for (int n = 256; n >= 8; n -= 8)
    if (tile_n % n == 0) return n;
  return 0;
}

template <class ElementA, class ElementB, class ElementC, class TileShape_MNK, Major MajorA, Major MajorB>
constexpr int check_selector_tile() {
  static_assert(decltype(rank(TileShape_MNK{}))::value == 3 && is_static_v<TileShape_MNK>,
                "GMMA op selector: the tile must be a static (M, N, K) shape, e.g. Shape<_128, _128, _64>");
  constexpr int kM = int(decltype(size<0>(TileShape_MNK{}))::value);
  constexpr int kN = int(decltype(size<1>(TileShape_MNK{}))::value);
  constexpr int kK = int(decltype(size<2>(TileShape_MNK{}))::value);
  static_assert(sizeof(ElementA) == sizeof(ElementB),
                "GMMA op selector: A and B must have the same element size [wgmma has no mixed-width forms]");
  constexpr int kInstK = 32 / int(sizeof(ElementA));
  static_assert(kM % 64 == 0, "GMMA op selector: the tile's M must be a multiple of 64 [one wgmma covers 64 rows]");
  static_assert(kN % 8 == 0, "GMMA op selector: the tile's N must be a multiple of 8 [wgmma N steps by 8]");
  static_assert(kK % kInstK == 0,
                "GMMA op selector: the tile's K must be a multiple of the instruction's K (32 bytes of the element)");
  static_assert(sizeof(ElementA) == 2 || (MajorA == Major::K && MajorB == Major::K),
                "GMMA op selector: tf32 and 8-bit operands must be K-major [wgmma transposes 16-bit operands only]");
  return gmma_n_for(kN);
}

}  // namespace detail

// A and B both from shared memory.
template <class ElementA, class ElementB, class ElementC, class TileShape_MNK, Major MajorA = Major::K,
          Major MajorB = Major::K, ScaleIn ScaleA = ScaleIn::One, ScaleIn ScaleB = ScaleIn::One>
constexpr auto ss_op_selector() {
  constexpr int kN = detail::check_selector_tile<ElementA, ElementB, ElementC, TileShape_MNK, MajorA, MajorB>();
  return SM90_GMMA_SS<ElementC, ElementA, ElementB, kN, MajorA, MajorB, ScaleA, ScaleB>{};
}

// A from registers (K-major there), B from shared memory.
template <class ElementA, class ElementB, class ElementC, class TileShape_MNK, Major MajorA = Major::K,
          Major MajorB = Major::K, ScaleIn ScaleA = ScaleIn::One, ScaleIn ScaleB = ScaleIn::One>
constexpr auto rs_op_selector() {
  static_assert(MajorA == Major::K,
                "GMMA rs_op_selector: A comes from registers, where it is K-major; MajorA must be GMMA::Major::K");
  constexpr int kN = detail::check_selector_tile<ElementA, ElementB, ElementC, TileShape_MNK, MajorA, MajorB>();
  return SM90_GMMA_RS<ElementC, ElementA, ElementB, kN, MajorA, MajorB, ScaleA, ScaleB>{};
}

}  // namespace tessera::GMMA
