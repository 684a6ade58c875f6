// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <type_traits>

#include "tessera/layout.hpp"
#include "host_test.hpp"

using namespace tessera;

using tessera::test::str;

// Reference: bits [M+S, M+S+B) xored into bits [M, M+B) (S >= 0), or bits
// [M, M+B) xored into [M-S, M-S+B) (S < 0).
static int reference_swizzle(int o, int B, int M, int S) {
  int msk = (1 << B) - 1;
  if (S >= 0) return o ^ (((o >> (M + S)) & msk) << M);
  return o ^ (((o >> M) & msk) << (M - S));
}

template <int B, int M, int S>
static void check_swizzle() {
  Swizzle<B, M, S> sw;
  int const n = 1 << (M + (S < 0 ? -S : S) + B + 1);
  std::set<int> image;
  for (int o = 0; o < n; ++o) {
    EXPECT_EQ(sw(o), reference_swizzle(o, B, M, S)) << "Sw<" << B << "," << M << "," << S << "> at " << o;
    EXPECT_EQ(sw(sw(o)), o) << "not an involution at " << o;
    image.insert(sw(o));
  }
  EXPECT_EQ(int(image.size()), n) << "not a bijection";
}

TEST(Swizzle, ExactXorSemanticsAndInvolution) {
  check_swizzle<3, 3, 3>();
  check_swizzle<2, 4, 3>();
  check_swizzle<3, 4, 3>();
  check_swizzle<1, 0, 1>();
  check_swizzle<2, 0, 4>();
  check_swizzle<2, 1, -3>();
  check_swizzle<0, 2, 3>();
}

TEST(Swizzle, MasksAndStaticness) {
  using S333 = Swizzle<3, 3, 3>;
  static_assert(S333::yyy_msk::value == 0b111000000);
  static_assert(S333::zzz_msk::value == 0b000111000);
  static_assert(Swizzle<2, 1, -3>::yyy_msk::value == 0b000110);
  static_assert(Swizzle<2, 1, -3>::zzz_msk::value == 0b110000);
  static_assert(std::is_same_v<decltype(S333{}(_64{})), Int<72>>);
  static_assert(std::is_empty_v<S333>);
  EXPECT_EQ(S333{}(64), 72);
  EXPECT_EQ(S333{}(int64_t(64 + 7)), int64_t(79));
}

TEST(Swizzle, ComposedLayoutEvaluatesAndSlices) {
  auto base = make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}));
  auto sw = composition(Swizzle<3, 3, 3>{}, base);
  EXPECT_EQ(str(sw), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  static_assert(std::is_empty_v<decltype(sw)>);
  EXPECT_EQ(int(size(sw)), 512);
  EXPECT_EQ(int(cosize(sw)), 512);
  static_assert(decltype(rank(sw))::value == 2);
  std::set<int> image;
  for (int m = 0; m < 8; ++m)
    for (int k = 0; k < 64; ++k) {
      EXPECT_EQ(sw(m, k), reference_swizzle(base(m, k), 3, 3, 3));
      image.insert(sw(m, k));
      // slicing: sw(m, _)(k) == sw(m, k)
      EXPECT_EQ(sw(m, _)(k), sw(m, k));
      EXPECT_EQ(sw(_, k)(m), sw(m, k));
    }
  EXPECT_EQ(int(image.size()), 512);
  EXPECT_EQ(str(sw(3, _)), "Sw<3,3,3> o 192 o (_64):(_1)");
  EXPECT_EQ(str(sw(_3{}, _)), "Sw<3,3,3> o _192 o (_64):(_1)");
}

TEST(Swizzle, ComposedLayoutTilingKeepsTheSwizzle) {
  auto sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
  auto t = logical_divide(sw, make_shape(_4{}, _16{}));
  EXPECT_EQ(str(t), "Sw<3,3,3> o _0 o ((_4,_2),(_16,_4)):((_64,_256),(_1,_16))");
  auto z = zipped_divide(sw, make_shape(_4{}, _16{}));
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 8; ++j) {
      auto ci = idx2crd(i, make_shape(_4{}, _16{}));
      auto cj = idx2crd(j, make_shape(_2{}, _4{}));
      int m = get<0>(ci) + 4 * get<0>(cj);
      int k = get<1>(ci) + 16 * get<1>(cj);
      EXPECT_EQ(z(i, j), sw(m, k));
    }
  auto c = composition(sw, make_tile(_2{}, _8{}));
  EXPECT_EQ(str(c), "Sw<3,3,3> o _0 o (_2,_8):(_64,_1)");
  // A mode-wise product works in that mode's own codomain: 8:64 x 2 -> (8,2):(64,1).
  auto p = logical_product(sw, make_tile(_2{}));
  EXPECT_EQ(str(p), "Sw<3,3,3> o _0 o ((_8,_2),_64):((_64,_1),_1)");
  // Two copies of the (8,64) block stacked in m: ((8,2),64):((64,512),1), mode 0 coalesced.
  auto tt = tile_to_shape(sw, make_shape(_16{}, _64{}));
  EXPECT_EQ(str(tt), "Sw<3,3,3> o _0 o (_16,_64):(_64,_1)");
  auto bp = blocked_product(sw, make_layout(make_shape(_2{}, _2{})));
  EXPECT_EQ(str(bp), "Sw<3,3,3> o _0 o ((_8,_2),(_64,_2)):((_64,_512),(_1,_1024))");
  EXPECT_EQ(str(layout<1>(sw)), "Sw<3,3,3> o _0 o _64:_1");
}

// group<B, E> of a swizzled layout regroups the inner layout's modes and
// keeps the function (group_modes<0, 2>(sA) of a staged smem tile, as
// tma_partition takes it).
TEST(Swizzle, ComposedLayoutGroupKeepsTheFunction) {
  auto sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
  auto staged = tile_to_shape(sw, make_shape(_16{}, _64{}, _3{}));
  auto g = group<0, 2>(staged);
  EXPECT_EQ(str(g), "Sw<3,3,3> o _0 o ((_16,_64),(_1,_3)):((_64,_1),(_0,_1024))");
  static_assert(decltype(rank(g))::value == 2);
  static_assert(decltype(size(g))::value == decltype(size(staged))::value);
  for (int i = 0; i < int(size(staged)); ++i) EXPECT_EQ(g(i), staged(i)) << i;
  // A stage of the grouped layout is the stage of the original.
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < 16 * 64; ++i) EXPECT_EQ(g(_, s)(i), staged(_, _, s)(i)) << s << " " << i;
  auto g12 = group<1, 3>(staged);
  EXPECT_EQ(str(g12), "Sw<3,3,3> o _0 o (_16,(_64,(_1,_3))):(_64,(_1,(_0,_1024)))");
}

TEST(Swizzle, PortionsAndExplicitConstruction) {
  auto base = make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}));
  auto sw = make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, base);
  static_assert(std::is_same_v<decltype(sw), decltype(composition(Swizzle<3, 3, 3>{}, base))>);
  static_assert(std::is_same_v<decltype(get_swizzle_portion(sw)), Swizzle<3, 3, 3>>);
  static_assert(std::is_same_v<decltype(get_nonswizzle_portion(sw)), decltype(base)>);
  static_assert(std::is_same_v<decltype(get_nonswizzle_portion(base)), decltype(base)>);
  // A plain layout's swizzle portion is the identity swizzle.
  for (int o = 0; o < 64; ++o) EXPECT_EQ(get_swizzle_portion(base)(o), o);
  static_assert(cosize_v<decltype(base)> == 512 && size_v<decltype(base)> == 512);
}
