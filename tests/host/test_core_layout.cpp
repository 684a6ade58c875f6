// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "tessera/layout.hpp"
#include "host_test.hpp"

using namespace tessera;

using tessera::test::str;

TEST(CoreLayout, EvaluationFlatNestedAndIntegerCoordinates) {
  auto l = make_layout(make_shape(_4{}, make_shape(_2{}, _4{})), make_stride(_8{}, make_stride(_4{}, _1{})));
  EXPECT_EQ(l(1, make_coord(0, 3)), 11);
  EXPECT_EQ(l(make_coord(1, make_coord(0, 3))), 11);
  // An integer coordinate into a tuple mode is split colexicographically.
  EXPECT_EQ(l(1, 6), l(1, make_coord(0, 3)));
  for (int i = 0; i < int(size(l)); ++i) {
    EXPECT_EQ(l(i), l(idx2crd(i, l.shape())));
  }
  static_assert(std::is_same_v<decltype(l(_1{}, make_coord(_0{}, _3{}))), Int<11>>);
  static_assert(std::is_empty_v<decltype(l)>);
}

TEST(CoreLayout, DefaultStridesAreCompactColumnMajor) {
  EXPECT_EQ(str(make_layout(make_shape(_4{}, _8{}))), "(_4,_8):(_1,_4)");
  EXPECT_EQ(str(make_layout(make_shape(4, 8))), "(4,8):(_1,4)");
  EXPECT_EQ(str(make_layout(make_shape(_1{}, _8{}))), "(_1,_8):(_0,_1)");
  EXPECT_EQ(str(make_layout(make_shape(_4{}, make_shape(_2{}, 3)))), "(_4,(_2,3)):(_1,(_4,_8))");
  EXPECT_EQ(str(make_layout(make_shape(_4{}, _8{}), LayoutRight{})), "(_4,_8):(_8,_1)");
  EXPECT_EQ(str(make_layout(make_shape(make_shape(_2{}, _3{}), _4{}), LayoutRight{})), "((_2,_3),_4):((_12,_4),_1)");
  EXPECT_EQ(str(Layout<Shape<_2, _4>>{}), "(_2,_4):(_1,_2)");
  EXPECT_EQ(str(make_layout(8)), "8:_1");
}

TEST(CoreLayout, Idx2CrdCrd2IdxRoundTrip) {
  auto shape = make_shape(3, make_shape(2, 5), 4);
  for (int i = 0; i < int(size(shape)); ++i) {
    EXPECT_EQ(crd2idx(idx2crd(i, shape), shape), i);
  }
}

TEST(CoreLayout, Accessors) {
  auto l = make_layout(make_shape(_4{}, make_shape(_2{}, 3)), make_stride(_1{}, make_stride(_4{}, 8)));
  static_assert(decltype(rank(l))::value == 2);
  static_assert(decltype(depth(l))::value == 2);
  static_assert(decltype(rank<1>(l))::value == 2);
  EXPECT_EQ(size(l), 24);
  EXPECT_EQ(size<1>(l), 6);
  EXPECT_EQ(cosize(l), 3 * 1 + 1 * 4 + 2 * 8 + 1);
  EXPECT_EQ(str(layout<1>(l)), "(_2,3):(_4,8)");
  EXPECT_EQ(str(get<1>(l)), "(_2,3):(_4,8)");
  EXPECT_EQ(str(layout<1, 0>(l)), "_2:_4");
  EXPECT_EQ(str(shape<1>(l)), "(_2,3)");
  EXPECT_EQ(str(stride<1, 1>(l)), "8");
  EXPECT_EQ(str(coshape(l)), "24");
  EXPECT_EQ(str(coprofile(l)), "_0");
  static_assert(std::is_same_v<decltype(cosize(make_layout(make_shape(_4{}, _8{})))), _32>);
  EXPECT_EQ(str(l.get_hier_coord(7)), "(3,(1,0))");
  EXPECT_EQ(str(l.get_flat_coord(7)), "(3,1)");  // one integer per top-level mode
  EXPECT_EQ(l.get_1d_coord(7), 7);
  // The coordinate functions follow the strides: a row-major layout's index 9
  // is row 1, column 1.
  auto rm = make_layout(make_shape(_4{}, _8{}), LayoutRight{});
  EXPECT_EQ(str(rm.get_hier_coord(9)), "(1,1)");
  EXPECT_EQ(str(rm.get_flat_coord(9)), "(1,1)");
  EXPECT_EQ(rm.get_1d_coord(9), 1 + 4 * 1);
  auto nested = make_layout(make_shape(make_shape(_2{}, _2{}), _3{}), make_stride(make_stride(_3{}, _6{}), _1{}));
  for (int i = 0; i < 12; ++i) {  // a compact layout whose modes are not column-major
    EXPECT_EQ(int(nested(nested.get_hier_coord(i))), i);
    EXPECT_EQ(int(nested(nested.get_flat_coord(i))), i);
    EXPECT_EQ(int(nested(nested.get_1d_coord(i))), i);
  }
}

// crd2crd: between a nested shape and a flat one, and to and from integers.
TEST(CoreLayout, Crd2Crd) {
  auto s = make_shape(_4{}, make_shape(_2{}, _3{}));
  EXPECT_EQ(str(crd2crd(make_coord(3, make_coord(1, 2)), s, make_shape(_4{}, _6{}))), "(3,5)");
  EXPECT_EQ(str(crd2crd(make_coord(3, 5), make_shape(_4{}, _6{}), s)), "(3,(1,2))");
  EXPECT_EQ(int(crd2crd(make_coord(3, make_coord(1, 2)), s, _24{})), 3 + 4 * (1 + 2 * 2));
  EXPECT_EQ(str(crd2crd(23, _24{}, s)), "(3,(1,2))");
  for (int i = 0; i < 24; ++i) EXPECT_EQ(int(crd2idx(crd2crd(idx2crd(i, s), s, make_shape(_4{}, _6{})), make_shape(_4{}, _6{}))), i);
}

// Smaller CuTe spellings: tuple_repeat, is_congruent, weakly_compatible,
// ceil_div by a layout, group_modes on a layout.
TEST(CoreLayout, CuteHelpers) {
  EXPECT_EQ(str(tuple_repeat<1>(_1{})), "(_1)");
  EXPECT_EQ(str(tuple_repeat<3>(2)), "(2,2,2)");
  static_assert(is_congruent<Shape<_2, Shape<_3, int>>, Shape<int, Shape<_1, _1>>>::value);
  static_assert(!is_congruent<Shape<_2, _3>, Shape<Shape<_2, _1>, _3>>::value);
  // weakly_compatible: a leaf of a stands for a subtree of b whose size it divides.
  EXPECT_TRUE(bool(weakly_compatible(_4{}, make_shape(_2{}, _4{}))));
  EXPECT_FALSE(bool(weakly_compatible(_3{}, make_shape(_2{}, _4{}))));
  EXPECT_TRUE(bool(weakly_compatible(make_shape(_2{}, _4{}), make_shape(_4{}, make_shape(_2{}, _4{})))));
  EXPECT_FALSE(bool(weakly_compatible(make_shape(_2{}, _2{}, _2{}), make_shape(_4{}, _4{}))));
  for (int a = 1; a <= 8; ++a)  // compatible implies weakly_compatible
    for (int b = 1; b <= 8; ++b)
      if (bool(compatible(a, b))) EXPECT_TRUE(bool(weakly_compatible(a, b)));
  // ceil_div by a tiler layout: the rest mode of logical_divide.
  EXPECT_EQ(str(ceil_div(make_shape(_24{}), make_layout(_4{}))), "_6");
  EXPECT_EQ(str(ceil_div(make_shape(24), make_layout(_4{}))), "6");
  EXPECT_EQ(str(ceil_div(make_shape(_24{}), make_layout(_4{}, _2{}))), "(_2,_3)");
  // round_up: the next multiple, static when both are; tuples mode by mode.
  EXPECT_EQ(str(round_up(_10{}, _4{})), "_12");
  EXPECT_EQ(str(round_up(make_shape(130, _64{}, 7), make_shape(_128{}, _32{}))), "(256,_64,7)");
  EXPECT_EQ(str(round_up(make_shape(5, 9), 4)), "(8,12)");
  EXPECT_EQ(str(ceil_div(make_shape(10, _7{}, 3), make_shape(4, _2{}))), "(3,_4,3)");
  for (int a = 0; a <= 50; ++a)
    for (int b = 1; b <= 9; ++b) {
      int const r = round_up(a, b);
      ASSERT_TRUE(r % b == 0 && a <= r && r < a + b) << a << " " << b << " -> " << r;
    }
  auto l = make_layout(make_shape(_2{}, _3{}, _4{}, _5{}));
  EXPECT_EQ(str(group_modes<1, 3>(l)), str(group<1, 3>(l)));
  EXPECT_EQ(str(group_modes<1, 3>(l)), "(_2,(_3,_4),_5):(_1,(_2,_6),_24)");
}

TEST(CoreLayout, SlicingAndDicing) {
  auto t = make_layout(make_shape(_4{}, make_shape(_2{}, 3)), make_stride(_1{}, make_stride(_4{}, 8)));
  auto row = t(2, _);
  EXPECT_EQ(str(row), "((_2,3)):((_4,8))");
  auto col = t(_, 5);
  EXPECT_EQ(str(col), "(_4):(_1)");
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) {
      EXPECT_EQ(t(i, _)(j) + t(i, 0), t(i, j));
      EXPECT_EQ(t(_, j)(i) + t(0, j), t(i, j));
    }
  EXPECT_EQ(str(t(_, make_coord(1, _))), "(_4,3):(_1,8)");
  EXPECT_EQ(str(slice(make_coord(_, make_coord(1, _)), make_shape(make_shape(2, 3), make_shape(4, 5)))), "((2,3),5)");
  auto [s, off] = slice_and_offset(make_coord(_, make_coord(1, 2)), t);
  EXPECT_EQ(str(s), "(_4):(_1)");
  EXPECT_EQ(off, 4 + 16);
  EXPECT_EQ(str(dice(make_coord(_, 1), t)), "((_2,3)):((_4,8))");
  EXPECT_EQ(str(dice(make_step(_1{}, X{}, _1{}), make_shape(1, 2, 3))), "(1,3)");
  EXPECT_EQ(str(slice(make_step(_1{}, X{}, _1{}), make_shape(1, 2, 3))), "(2)");
}

TEST(CoreLayout, BuildersAndStructure) {
  auto a = make_layout(_4{}, _2{});
  auto b = make_layout(make_shape(_3{}, 5), make_stride(_8{}, _1{}));
  EXPECT_EQ(str(make_layout(a, b)), "(_4,(_3,5)):(_2,(_8,_1))");
  EXPECT_EQ(str(append(b, a)), "(_3,5,_4):(_8,_1,_2)");
  EXPECT_EQ(str(prepend(b, a)), "(_4,_3,5):(_2,_8,_1)");
  EXPECT_EQ(str(append<3>(b)), "(_3,5,_1):(_8,_1,_0)");
  EXPECT_EQ(str(take<1, 2>(b)), "(5):(_1)");
  EXPECT_EQ(str(select<1, 0>(b)), "(5,_3):(_1,_8)");
  EXPECT_EQ(str(flatten(make_layout(a, b))), "(_4,_3,5):(_2,_8,_1)");
  EXPECT_EQ(str(group<0, 2>(make_layout(make_shape(2, 3, 4)))), "((2,3),4):((_1,2),6)");
  EXPECT_EQ(str(zip(make_layout(make_shape(_2{}, _3{})), make_layout(make_shape(_4{}, _5{}), make_stride(_6{}, _24{})))),
            "((_2,_4),(_3,_5)):((_1,_6),(_2,_24))");
  EXPECT_EQ(str(transform_layout(make_layout(make_shape(_2{}, _3{})), [](auto m) { return make_layout(size(m), stride(m) * _2{}); })),
            "(_2,_3):(_2,_4)");
}

TEST(CoreLayout, OrderedLikeAndFragmentLayouts) {
  EXPECT_EQ(str(make_ordered_layout(make_shape(_2{}, _3{}, _4{}), make_step(_1{}, _2{}, _0{}))), "(_2,_3,_4):(_4,_8,_1)");
  EXPECT_EQ(str(make_ordered_layout(make_shape(2, 3), LayoutRight{})), "(2,3):(3,_1)");
  auto rm = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  EXPECT_EQ(str(make_layout_like(rm)), "(_4,_8):(_8,_1)");
  auto strided = make_layout(make_shape(_4{}, _8{}), make_stride(_64{}, _2{}));
  EXPECT_EQ(str(make_layout_like(strided)), "(_4,_8):(_8,_1)");
  auto bcast = make_layout(make_shape(_4{}, _8{}), make_stride(_0{}, _1{}));
  EXPECT_EQ(str(make_layout_like(bcast)), "(_4,_8):(_0,_1)");
  // Mode 0 column-major; the rest follow their strides' order after it.
  auto frag_src = make_layout(make_shape(make_shape(_2{}, _2{}), _4{}, _2{}), make_stride(make_stride(_1{}, _8{}), _64{}, _16{}));
  EXPECT_EQ(str(make_fragment_like(frag_src)), "((_2,_2),_4,_2):((_1,_2),_8,_4)");
}

TEST(CoreLayout, IdentityLayout) {
  auto id = make_identity_layout(make_shape(_4{}, 8));
  EXPECT_EQ(str(id), "(_4,8):(_1@0,_1@1)");
  EXPECT_EQ(str(id(3, 5)), "(3,5)");
  EXPECT_EQ(str(id(13)), "(1,3)");
  auto idn = make_identity_layout(make_shape(2, make_shape(3, 4)));
  EXPECT_EQ(str(idn(1, make_coord(2, 3))), "(1,(2,3))");
  EXPECT_EQ(str(coshape(id)), "(_4,8)");
}

TEST(CoreLayout, CoalesceAndFilter) {
  EXPECT_EQ(str(coalesce(make_layout(make_shape(_2{}, make_shape(_1{}, _6{})), make_stride(_1{}, make_stride(_6{}, _2{}))))), "_12:_1");
  EXPECT_EQ(str(coalesce(make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})))), "(_4,_8):(_8,_1)");
  EXPECT_EQ(str(coalesce(make_layout(make_shape(_1{}, _1{})))), "_1:_0");
  // Dynamic shapes merge only when the merge condition is statically known.
  EXPECT_EQ(str(coalesce(make_layout(make_shape(4, 8), make_stride(_1{}, _4{})))), "(4,8):(_1,_4)");
  EXPECT_EQ(str(coalesce(make_layout(make_shape(_4{}, 8), make_stride(_1{}, _4{})))), "32:_1");
  auto l = make_layout(make_shape(make_shape(_2{}, _2{}), make_shape(_4{}, _2{})), make_stride(make_stride(_1{}, _2{}), make_stride(_8{}, _4{})));
  EXPECT_EQ(str(coalesce(l, make_step(_1{}, _1{}))), "(_4,(_4,_2)):(_1,(_8,_4))");
  EXPECT_EQ(str(filter_zeros(make_layout(make_shape(_4{}, _8{}), make_stride(_0{}, _1{})))), "(_1,_8):(_0,_1)");
  EXPECT_EQ(str(filter(make_layout(make_shape(_4{}, _2{}, _8{}), make_stride(_1{}, _0{}, _4{})))), "_32:_1");
  // coalesce of a bare shape: adjacent static leaves merge, adjacent dynamic ones too.
  EXPECT_EQ(str(coalesce(make_shape(_2{}, make_shape(_3{}, 5), 7, _4{}))), "(_6,35,_4)");
  EXPECT_EQ(str(coalesce(make_shape(_2{}, make_shape(_3{}, _4{})))), "_24");
  EXPECT_EQ(str(coalesce(make_shape(_1{}, 4))), "(_1,4)");
  EXPECT_EQ(str(coalesce(6)), "6");
  EXPECT_EQ(str(coalesce(tuple<>{})), "_1");
}

// max_alignment: gcd of the contiguous run from offset 0 and the other
// strides, over the static parts only.
TEST(CoreLayout, MaxAlignment) {
  EXPECT_EQ(str(max_alignment(make_layout(make_shape(_8{}, _4{}), make_stride(_1{}, _8{})))), "_32");
  EXPECT_EQ(str(max_alignment(make_layout(make_shape(_2{}, _4{}), make_stride(_4{}, _1{})))), "_8");
  EXPECT_EQ(str(max_alignment(make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, _8{})))), "_4");
  EXPECT_EQ(str(max_alignment(make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, _6{})))), "_2");
  EXPECT_EQ(str(max_alignment(make_layout(make_shape(_4{}, _3{}), make_stride(_2{}, _8{})))), "_1");
  EXPECT_EQ(str(max_alignment(make_layout(make_shape(_4{}, _2{}), make_stride(_1{}, _0{})))), "_4");
  // A dynamic stride is assumed a multiple; a dynamic shape counts as 1.
  EXPECT_EQ(str(max_alignment(make_layout(make_shape(_8{}, 100), make_stride(_1{}, 1000)))), "_8");
  EXPECT_EQ(str(max_alignment(make_layout(make_shape(100, _4{}), make_stride(_1{}, _8{})))), "_1");
  // The seed's swizzled smem tile: Sw<3,3,3> o (_8,_64):(_64,_1) moves 8 halves at a time.
  EXPECT_EQ(str(max_alignment(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}))))), "_8");
  EXPECT_EQ(str(max_alignment(Swizzle<2, 4, 3>{})), "_16");
  // The identity swizzle keeps the layout's blocks.
  EXPECT_EQ(str(max_alignment(composition(Swizzle<0, 4, 3>{}, make_layout(_64{})))), "_64");
}
