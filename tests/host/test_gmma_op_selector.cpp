// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// GMMA::ss_op_selector / rs_op_selector pick CuTe's named atom for a tile and
// element types: the N rule (largest multiple of 8 up to 256 dividing the
// tile's N) checked against a brute-force search for every tile N from 8 to
// 512, the type families, majors and scales carried through, and a TiledMMA
// built from the selection covering the tile.

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include <tessera/atom.hpp>
#include <tessera/atom/gmma_op_selector.hpp>

using namespace tessera;

namespace {

template <int N>
constexpr int selected_n() {
  using Op = decltype(GMMA::ss_op_selector<half_t, half_t, float, Shape<_64, Int<N>, _64>>());
  return int(decltype(size<1>(typename MMA_Traits<Op>::Shape_MNK{}))::value);
}

}  // namespace

TEST(GmmaOpSelector, NIsTheLargestDivisorUpTo256) {
  [&]<int... I>(seq<I...>) {
    (
        [&] {
          constexpr int tile_n = 8 * (I + 1);
          int best = 0;
          for (int n = 8; n <= 256; n += 8)
            if (tile_n % n == 0) best = n;
          EXPECT_EQ(selected_n<tile_n>(), best) << "tile N " << tile_n;
        }(),
        ...);
  }(make_seq<64>{});
  static_assert(selected_n<128>() == 128 && selected_n<256>() == 256 && selected_n<512>() == 256);
  static_assert(selected_n<192>() == 192 && selected_n<384>() == 192 && selected_n<264>() == 88);
}

TEST(GmmaOpSelector, TypeFamiliesMajorsAndScales) {
  using Tile = Shape<_128, _128, _64>;
  static_assert(std::is_same_v<decltype(GMMA::ss_op_selector<bfloat16_t, bfloat16_t, float, Tile>()),
                               SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::K>>);
  static_assert(std::is_same_v<decltype(GMMA::ss_op_selector<half_t, half_t, half_t, Tile, GMMA::Major::MN,
                                                             GMMA::Major::K>()),
                               SM90_64x128x16_F16F16F16_SS<GMMA::Major::MN, GMMA::Major::K>>);
  static_assert(std::is_same_v<decltype(GMMA::ss_op_selector<half_t, half_t, float, Shape<_64, _96, _32>,
                                                             GMMA::Major::K, GMMA::Major::MN>()),
                               SM90_64x96x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::MN>>);
  static_assert(std::is_same_v<decltype(GMMA::ss_op_selector<tfloat32_t, tfloat32_t, float, Shape<_128, _256, _32>>()),
                               SM90_64x256x8_F32TF32TF32_SS_TN<>>);
  static_assert(std::is_same_v<decltype(GMMA::ss_op_selector<float_e4m3_t, float_e5m2_t, float, Tile>()),
                               SM90_64x128x32_F32E4M3E5M2_SS_TN<>>);
  static_assert(std::is_same_v<decltype(GMMA::ss_op_selector<std::int8_t, std::int8_t, std::int32_t, Tile>()),
                               SM90_64x128x32_S32S8S8_SS_TN>);
  static_assert(std::is_same_v<decltype(GMMA::rs_op_selector<bfloat16_t, bfloat16_t, float, Tile, GMMA::Major::K,
                                                             GMMA::Major::MN>()),
                               SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K, GMMA::Major::MN>>);
  static_assert(std::is_same_v<decltype(GMMA::ss_op_selector<half_t, half_t, float, Tile, GMMA::Major::K,
                                                             GMMA::Major::K, GMMA::ScaleIn::Neg>()),
                               SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K, GMMA::ScaleIn::Neg>>);
  SUCCEED() << "the selections above are compile-time checks";
}

TEST(GmmaOpSelector, TiledMmaCoversTheTile) {
  auto mma = make_tiled_mma(GMMA::ss_op_selector<bfloat16_t, bfloat16_t, float, Shape<_128, _192, _64>>(),
                            Layout<Shape<_2, _1, _1>>{});
  EXPECT_EQ(int(size(mma)), 256);
  EXPECT_EQ(int(tile_size<0>(mma)), 128);
  EXPECT_EQ(int(tile_size<1>(mma)), 192);
  EXPECT_EQ(int(tile_size<2>(mma)), 16);
}
