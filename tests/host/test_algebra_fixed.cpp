// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Fixed answers of the algebra, each derived by hand from the definitions
// (the derivation is in the comment next to it) and printed in CuTe notation.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "tessera/layout.hpp"
#include "host_test.hpp"

using namespace tessera;

using tessera::test::str;

TEST(AlgebraFixed, Composition) {
  // (4,8):(8,1) o (4,2):(8,1): R(i,j) = A(8i+j) = 8*(j) + 2i  for j < 2.
  auto rm = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  EXPECT_EQ(str(composition(rm, make_layout(make_shape(_4{}, _2{}), make_stride(_8{}, _1{})))), "(_4,_2):(_2,_8)");
  // (6,2):(8,2) o (4,3):(3,1): mode 0 steps 3 through the 6 -> (2,2):(24,2); mode 1 -> 3:8.
  EXPECT_EQ(str(composition(make_layout(make_shape(_6{}, _2{}), make_stride(_8{}, _2{})),
                            make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{})))),
            "((_2,_2),_3):((_24,_2),_8)");
  // Composition with a compact layout is a reshape: 20:2 o (5,4):(1,5) == (5,4):(2,10).
  EXPECT_EQ(str(composition(make_layout(_20{}, _2{}), make_layout(make_shape(_5{}, _4{})))), "(_5,_4):(_2,_10)");
  // A tiler: mode 0 takes 2 of the 4 rows, mode 1 every other column.
  EXPECT_EQ(str(composition(rm, make_tile(_2{}, make_layout(_4{}, _2{})))), "(_2,_4):(_8,_2)");
  EXPECT_EQ(str(composition(rm, make_tile(_, _4{}))), "(_4,_4):(_8,_1)");
  // Integer rhs n means n:_1; dynamic values stay dynamic.
  EXPECT_EQ(str(composition(make_layout(make_shape(4, 8)), 8)), "(4,2):(_1,4)");
  static_assert(std::is_empty_v<decltype(composition(rm, make_layout(make_shape(_4{}, _2{}))))>);
}

TEST(AlgebraFixed, Complement) {
  // Sorted (2:1),(2:6): gaps 1/1, 6/2=3 at stride 2, rest 24/12 = 2 at stride 12.
  EXPECT_EQ(str(complement(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _6{})), _24{})), "(_3,_2):(_2,_12)");
  EXPECT_EQ(str(complement(make_layout(_4{}, _1{}), _24{})), "_6:_4");
  EXPECT_EQ(str(complement(make_layout(_4{}, _2{}), _24{})), "(_2,_3):(_1,_8)");
  EXPECT_EQ(str(complement(make_layout(make_shape(_2{}, _4{}), make_stride(_1{}, _6{})))), "_3:_2");
  EXPECT_EQ(str(complement(make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})), _64{})), "_2:_32");
  EXPECT_EQ(str(complement(make_layout(_4{}, _0{}), _8{})), "_8:_1");
  // Dynamic rank-1: 4:2 within 16 -> (2,2):(1,8).
  EXPECT_EQ(str(complement(make_layout(4, 2), 16)), "(2,2):(_1,8)");
  EXPECT_EQ(str(complement(make_layout(_6{}, _4{}), _24{})), "_4:_1");
  // A compact layout leaves nothing to complement.
  EXPECT_EQ(str(complement(make_layout(make_shape(_4{}, _6{}), make_stride(_1{}, _4{})), _24{})), "_1:_0");
  // A shape cotarget stands for its size.
  EXPECT_EQ(str(complement(make_layout(_4{}, _1{}), make_shape(_4{}, _8{}))), "_8:_4");
}

TEST(AlgebraFixed, Inverses) {
  auto rm = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  EXPECT_EQ(str(right_inverse(rm)), "(_8,_4):(_4,_1)");
  EXPECT_EQ(str(left_inverse(rm)), "(_8,_4):(_4,_1)");
  // (2,4,2):(1,4,2) from 004 is a permutation of 0..15; its inverse.
  auto p = make_layout(make_shape(_2{}, _4{}, _2{}), make_stride(_1{}, _4{}, _2{}));
  EXPECT_EQ(str(right_inverse(p)), "(_2,_2,_4):(_1,_8,_2)");
  // Non-contiguous: 4:2 has no element at 1 -> trivial right inverse; left inverse skips the gaps.
  EXPECT_EQ(str(right_inverse(make_layout(_4{}, _2{}))), "_1:_0");
  EXPECT_EQ(str(left_inverse(make_layout(_4{}, _2{}))), "(_2,_4):(_4,_1)");
  // Same function: the whole domain is common, expressed through b's inverse.
  EXPECT_EQ(str(max_common_layout(rm, make_layout(make_shape(_4{}, _8{}), LayoutRight{}))), "(_8,_4):(_4,_1)");
  EXPECT_EQ(str(max_common_vector(rm, make_layout(make_shape(_4{}, _8{})))), "_1");
  EXPECT_EQ(str(max_common_vector(rm, rm)), "_32");
  // b = ((2,2),4):((1,4),8) is contiguous for 2 elements only.
  auto b = make_layout(make_shape(make_shape(_2{}, _2{}), _4{}), make_stride(make_stride(_1{}, _4{}), _8{}));
  EXPECT_EQ(str(max_common_vector(make_layout(_16{}), b)), "_2");
  EXPECT_EQ(str(max_common_layout(make_layout(_16{}), b)), "_2:_1");
  EXPECT_EQ(str(nullspace(make_layout(make_shape(_4{}, _2{}, _3{}), make_stride(_0{}, _1{}, _0{})))), "(_4,_3):(_1,_8)");
  EXPECT_EQ(str(nullspace(rm)), "_1:_0");
}

TEST(AlgebraFixed, Divides) {
  // 002: tiled_divide of the 4x8 row-major layout by (2,4).
  // Mode 0, 4:8 / 2:1 -> (2,2):(8,16); mode 1, 8:1 / 4:1 -> (4,2):(1,4).
  auto rm = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  auto tiler = make_shape(_2{}, _4{});
  EXPECT_EQ(str(logical_divide(rm, tiler)), "((_2,_2),(_4,_2)):((_8,_16),(_1,_4))");
  EXPECT_EQ(str(zipped_divide(rm, tiler)), "((_2,_4),(_2,_2)):((_8,_1),(_16,_4))");
  EXPECT_EQ(str(tiled_divide(rm, tiler)), "((_2,_4),_2,_2):((_8,_1),_16,_4)");
  EXPECT_EQ(str(flat_divide(rm, tiler)), "(_2,_4,_2,_2):(_8,_1,_16,_4)");
  EXPECT_EQ(str(rm.tile(_2{}, _4{})), "((_2,_4),_2,_2):((_8,_1),_16,_4)");
  // Classic 1-D: (4,2,3):(2,1,8) / 4:2 -> ((2,2),(2,3)):((4,1),(2,8)).
  EXPECT_EQ(str(logical_divide(make_layout(make_shape(_4{}, _2{}, _3{}), make_stride(_2{}, _1{}, _8{})), make_layout(_4{}, _2{}))),
            "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  // 2-D divide by a tuple of layouts: (9,(4,8)):(59,(13,1)) / <3:3, (2,4):(1,8)>.
  // Mode 0: 9:59 o (3:3, 3:1) = (3,3):(177,59). Mode 1: the (2,4):(1,8) tile of the
  // (4,8):(13,1) mode and its complement (2,2):(2,16) in the 32-element domain.
  auto a2 = make_layout(make_shape(_9{}, make_shape(_4{}, _8{})), make_stride(Int<59>{}, make_stride(_13{}, _1{})));
  auto tiler2 = make_tile(Layout<_3, _3>{}, Layout<Shape<_2, _4>, Stride<_1, _8>>{});
  EXPECT_EQ(str(logical_divide(a2, tiler2)), "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))");
  EXPECT_EQ(str(zipped_divide(a2, tiler2)), "((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1)))");
  // Dynamic extents keep static tiles static.
  auto dyn = make_layout(make_shape(128, 64));
  EXPECT_EQ(str(zipped_divide(dyn, make_shape(_32{}, _16{}))), "((_32,_16),(4,4)):((_1,128),(_32,2048))");
  EXPECT_EQ(str(logical_divide(rm, make_tile(_, _4{}))), "(_4,(_4,_2)):(_8,(_1,_4))");
}

TEST(AlgebraFixed, Products) {
  auto tile = Layout<Shape<_2, _2>, Stride<_1, _2>>{};
  auto mt = Layout<Shape<_3, _4>, Stride<_4, _1>>{};
  // complement(tile, 4*12) = 12:4; o mt = (3,4):(16,4).
  EXPECT_EQ(str(logical_product(tile, mt)), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
  EXPECT_EQ(str(blocked_product(tile, mt)), "((_2,_3),(_2,_4)):((_1,_16),(_2,_4))");
  EXPECT_EQ(str(raked_product(tile, mt)), "((_3,_2),(_4,_2)):((_16,_1),(_4,_2))");
  EXPECT_EQ(str(zipped_product(tile, mt)), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
  EXPECT_EQ(str(tiled_product(tile, mt)), "((_2,_2),_3,_4):((_1,_2),_16,_4)");
  EXPECT_EQ(str(flat_product(tile, mt)), "(_2,_2,_3,_4):(_1,_2,_16,_4)");
  // (2,5):(5,1) x (3,4):(1,3): complement within 10*12 is 12:10, so the copies sit at (3,4):(10,30).
  auto blk = make_layout(make_shape(_2{}, _5{}), make_stride(_5{}, _1{}));
  auto til = make_layout(make_shape(_3{}, _4{}), make_stride(_1{}, _3{}));
  EXPECT_EQ(str(logical_product(blk, til)), "((_2,_5),(_3,_4)):((_5,_1),(_10,_30))");
  EXPECT_EQ(str(blocked_product(blk, til)), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
  EXPECT_EQ(str(raked_product(blk, til)), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
  // 1-D: (2,2):(4,1) x 6:1 -> complement within 24 is (2,3):(2,8).
  EXPECT_EQ(str(logical_product(make_layout(make_shape(_2{}, _2{}), make_stride(_4{}, _1{})), make_layout(_6{}, _1{}))),
            "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  EXPECT_EQ(str(logical_product(make_layout(_4{}), make_tile(_2{}))), "((_4,_2)):((_1,_4))");
}

TEST(AlgebraFixed, TileToShape) {
  // Blocks of (8,8):(8,1) copied (4,2) times column-major: the copies sit at
  // 64*(4,2):(1,4); zipped ((8,4),(8,2)):((8,64),(1,256)); mode 0 coalesces (8*8 == 64).
  auto block = make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{}));
  EXPECT_EQ(str(tile_to_shape(block, make_shape(_32{}, _16{}))), "(_32,(_8,_2)):(_8,(_1,_256))");
  EXPECT_EQ(str(tile_to_shape(block, make_shape(_32{}, _16{}), LayoutRight{})), "((_8,_4),(_8,_2)):((_8,_128),(_1,_64))");
  // 000: the swizzled smem atom tiled to (128, 64, 3).
  auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  auto sA = tile_to_shape(atom, make_shape(_128{}, _64{}, _3{}));
  // The pipe mode, which the atom does not have, keeps the blocked product's
  // (_1,_3):(_0,_8192) form (seed 000's partitions print it that way); a plain
  // block coalesces it.
  EXPECT_EQ(str(sA), "Sw<3,3,3> o _0 o ((_8,_16),(_8,_8),(_1,_3)):((_8,_512),(_1,_64),(_0,_8192))");
  EXPECT_EQ(str(tile_to_shape(atom.layout_b(), make_shape(_128{}, _64{}, _3{}))),
            "((_8,_16),(_8,_8),_3):((_8,_512),(_1,_64),_8192)");
  for (int i = 0; i < int(size(sA)); ++i)
    ASSERT_EQ(int(sA(i)), int(composition(Swizzle<3, 3, 3>{}, tile_to_shape(atom.layout_b(), make_shape(_128{}, _64{}, _3{})))(i)));
  static_assert(std::is_empty_v<decltype(sA)>);
  EXPECT_EQ(int(size(sA)), 128 * 64 * 3);
}

TEST(AlgebraFixed, Recast) {
  auto rm = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  EXPECT_EQ(str(upcast<2>(rm)), "(_4,_4):(_4,_1)");
  EXPECT_EQ(str(downcast<2>(rm)), "(_4,_16):(_16,_1)");
  EXPECT_EQ(str(recast_layout<uint16_t, uint32_t>(rm)), "(_4,_4):(_4,_1)");
  EXPECT_EQ(str(recast_layout<uint32_t, uint16_t>(rm)), "(_4,_16):(_16,_1)");
  EXPECT_EQ(str(recast_layout<uint16_t, uint16_t>(rm)), str(rm));
  EXPECT_EQ(str(upcast<8>(make_layout(make_shape(_8{}, 64), make_stride(_1{}, 128)))), "(_1,64):(_1,16)");
  auto sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
  EXPECT_EQ(str(upcast<8>(sw)), "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)");
  EXPECT_EQ(str(make_layout(make_shape(_8{}, _4{})).with_shape(_4{}, _8{})), "(_4,_8):(_1,_4)");
  EXPECT_EQ(str(make_layout(make_shape(_4{}, _8{}), LayoutRight{}).compose(_2{}, _)), "(_2,_8):(_8,_1)");
}
