// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Fixed answers from the specification documents: seed 002 (CuTe layout
// algebra) and seed 004 (the TiledMMA permutation layout). Where a seed's
// comment disagrees with the definitions, the test asserts the definition and
// says so.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tessera/layout.hpp"
#include "host_test.hpp"

using namespace tessera;

using tessera::test::str;

// --- seed 002 ---------------------------------------------------------------------------

TEST(Seed002, RowMajorEvaluation) {
  auto layout_rm = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  EXPECT_EQ(layout_rm(2, 3), 19);  // 2*8 + 3*1
  EXPECT_EQ(layout_rm(make_coord(2, 3)), 19);
  static_assert(decltype(layout_rm(_2{}, _3{}))::value == 19);
  auto layout_cm = make_layout(make_shape(_4{}, _8{}), make_stride(_1{}, _4{}));
  EXPECT_EQ(layout_cm(2, 3), 14);
  // The seed's comment says make_layout(shape) infers (8,1); the default is
  // column-major (LayoutLeft), as in CuTe.
  EXPECT_EQ(str(make_layout(make_shape(_4{}, _8{}))), "(_4,_8):(_1,_4)");
}

TEST(Seed002, NestedLayout) {
  auto layout_nested = make_layout(make_shape(_4{}, make_shape(_2{}, _4{})), make_stride(_8{}, make_stride(_4{}, _1{})));
  EXPECT_EQ(layout_nested(1, make_coord(0, 3)), 11);  // 1*8 + 0*4 + 3*1
  EXPECT_EQ(str(layout_nested), "(_4,(_2,_4)):(_8,(_4,_1))");
}

TEST(Seed002, TiledDivideOfRowMajor) {
  auto layout_rm = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  auto result = tiled_divide(layout_rm, make_shape(_2{}, _4{}));
  // ((tile), rest_m, rest_n): a 2x4 tile, 2x2 tiles of it.
  EXPECT_EQ(str(result), "((_2,_4),_2,_2):((_8,_1),_16,_4)");
  for (int tm = 0; tm < 2; ++tm)
    for (int tn = 0; tn < 2; ++tn)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j) EXPECT_EQ(result(make_coord(i, j), tm, tn), layout_rm(2 * tm + i, 4 * tn + j));
}

TEST(Seed002, Idx2CrdAndCrd2Idx) {
  auto shape = make_shape(_3{}, make_shape(_2{}, _3{}));
  // 5 % 3 = 2, 5 / 3 = 1 -> inner (1 % 2, 1 / 2) = (1, 0), as the seed's analysis concludes.
  EXPECT_EQ(str(idx2crd(5, shape)), "(2,(1,0))");
  EXPECT_EQ(crd2idx(make_coord(2, make_coord(1, 0)), shape), 5);
  // The seed's first comment pairs (1,(1,2)) with 5; colexicographically it is 1 + 3*1 + 6*2.
  EXPECT_EQ(crd2idx(make_coord(1, make_coord(1, 2)), shape), 16);
}

TEST(Seed002, StaticLayoutsTakeNoStorage) {
  Layout<Shape<_4, _8>, Stride<_8, _1>> layout;
  static_assert(std::is_empty_v<decltype(layout)>);
  auto dyn = make_layout(make_shape(4, 8), make_stride(8, 1));
  static_assert(sizeof(dyn) == 4 * sizeof(int));
  EXPECT_EQ(dyn(2, 3), 19);
}

TEST(Seed002, SwizzledSmemLayouts) {
  using Sw343 = Swizzle<3, 4, 3>;
  auto a343 = composition(Sw343{}, Layout<Shape<_128, _64>, Stride<_64, _1>>{});
  EXPECT_EQ(str(a343), "Sw<3,4,3> o _0 o (_128,_64):(_64,_1)");
  auto a333 = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _32>, Stride<_32, _1>>{});
  EXPECT_EQ(str(a333), "Sw<3,3,3> o _0 o (_64,_32):(_32,_1)");
  // tile_to_shape of the (128,64) atom to (128,128): two copies along n.
  auto smem = tile_to_shape(a343, Shape<Int<128>, Int<128>>{});
  EXPECT_EQ(str(smem), "Sw<3,4,3> o _0 o (_128,(_64,_2)):(_64,(_1,_8192))");
  // The seed's bank check: for half_t, bank = (offset * 2 / 4) % 32. Rows r and
  // r+1 are 128 bytes apart and Sw<3,4,3> does not touch bit 6, so they pair up
  // (the seed's "every row differs" holds per pair of rows, not per row).
  std::vector<int> banks;
  for (int r = 0; r < 8; ++r) banks.push_back((int(smem(r, 0)) * 2 / 4) % 32);
  EXPECT_EQ(banks, (std::vector<int>{0, 0, 8, 8, 16, 16, 24, 24}));
  // Over the 8 rows of a 16-byte column chunk the swizzle spreads 4 distinct
  // 16-byte bank groups twice, i.e. each group of 8 rows x 16 bytes hits 4 x 4 banks.
  for (int r = 0; r < 8; ++r) EXPECT_EQ(int(smem(r, 0)), (r * 64) ^ (((r >> 1) & 7) << 4));
}

// --- seed 004 ---------------------------------------------------------------------------

TEST(Seed004, PermutationLayoutTable) {
  // Tile<_8, Layout<Shape<_2,_4,_2>, Stride<_1,_4,_2>>, _8>: the N permutation.
  auto p = Layout<Shape<_2, _4, _2>, Stride<_1, _4, _2>>{};
  // (2,4,2):(1,4,2) read as (2,(4,2)):(1,(4,2)): a 2 x 8 table.
  auto g = group<1, 3>(p);
  EXPECT_EQ(str(g), "(_2,(_4,_2)):(_1,(_4,_2))");
  int const table[2][8] = {{0, 4, 8, 12, 2, 6, 10, 14}, {1, 5, 9, 13, 3, 7, 11, 15}};
  for (int m = 0; m < 2; ++m)
    for (int n = 0; n < 8; ++n) EXPECT_EQ(g(m, n), table[m][n]) << m << "," << n;
  // The 1-D reading: old logical index i goes to new index p(i).
  std::vector<int> seq1d;
  for (int i = 0; i < 16; ++i) seq1d.push_back(int(p(i)));
  EXPECT_EQ(seq1d, (std::vector<int>{0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15}));
  // e.g. old index 2 maps to new index 4.
  EXPECT_EQ(p(2), 4);
  // It is a permutation: its inverse undoes it.
  auto inv = right_inverse(p);
  EXPECT_EQ(str(inv), "(_2,_2,_4):(_1,_8,_2)");
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(inv(p(i)), i);
    EXPECT_EQ(p(inv(i)), i);
  }
  std::ostringstream os;
  print_layout(os, g);
  EXPECT_EQ(os.str(),
            "(_2,(_4,_2)):(_1,(_4,_2))\n"
            "       0    1    2    3    4    5    6    7 \n"
            "    +----+----+----+----+----+----+----+----+\n"
            " 0  |  0 |  4 |  8 | 12 |  2 |  6 | 10 | 14 |\n"
            "    +----+----+----+----+----+----+----+----+\n"
            " 1  |  1 |  5 |  9 | 13 |  3 |  7 | 11 | 15 |\n"
            "    +----+----+----+----+----+----+----+----+\n");
}

TEST(Seed004, PermutationAsTilerKeepsEveryColumnOnce) {
  // Composing an (8,16) tile with the permutation on mode 1 reorders the columns.
  auto tile = make_layout(make_shape(_8{}, _16{}));
  auto permuted = composition(tile, make_tile(_, Layout<Shape<_2, _4, _2>, Stride<_1, _4, _2>>{}));
  EXPECT_EQ(str(permuted), "(_8,(_2,_4,_2)):(_1,(_8,_32,_16))");
  for (int m = 0; m < 8; ++m)
    for (int n = 0; n < 16; ++n) EXPECT_EQ(permuted(m, n), tile(m, Layout<Shape<_2, _4, _2>, Stride<_1, _4, _2>>{}(n)));
}
