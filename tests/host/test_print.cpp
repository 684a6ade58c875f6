// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tessera/layout.hpp"
#include "host_test.hpp"

using namespace tessera;

using tessera::test::str;

TEST(Print, Notation) {
  EXPECT_EQ(str(_4{}), "_4");
  EXPECT_EQ(str(_m1{}), "_-1");
  EXPECT_EQ(str(make_shape(4, _8{})), "(4,_8)");
  EXPECT_EQ(str(make_tuple()), "()");
  EXPECT_EQ(str(make_tuple(7)), "(7)");
  EXPECT_EQ(str(make_layout(make_shape(_4{}, make_shape(_2{}, _3{})), make_stride(_1{}, make_stride(_4{}, _8{})))),
            "(_4,(_2,_3)):(_1,(_4,_8))");
  EXPECT_EQ(str(E<0>{}), "_1@0");
  EXPECT_EQ(str(E<1>{} * 3), "3@1");
  EXPECT_EQ(str(Swizzle<3, 3, 3>{}), "Sw<3,3,3>");
  EXPECT_EQ(str(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})))),
            "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(str(_), "_");
}

TEST(Print, PrintfMatchesStream) {
  auto l = make_layout(make_shape(_4{}, make_shape(2, _3{})), make_stride(_1{}, make_stride(_4{}, 8)));
  testing::internal::CaptureStdout();
  print(l);
  print(" ", E<1>{}, " ", int64_t(5), " ", _);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, str(l) + " _1@1 5 _");
}

// CuTe's printf form and scalar overloads: a format string followed only by
// numbers, pointers or strings goes to printf; chars print as characters,
// floating point as %f.
TEST(Print, FormatAndScalars) {
  testing::internal::CaptureStdout();
  print("size = %d, y = %d\n", 12, 5);
  print("%s=%.2f|", "x", 1.5);
  print('c');
  print(1.5f);
  print(" ");
  print(2.5);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, "size = 12, y = 5\nx=1.50|c1.500000 2.500000");
  // A layout, static int or underscore among the arguments: each printed in turn.
  testing::internal::CaptureStdout();
  print("n = ", _4{}, "\n");
  out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, "n = _4\n");
}

TEST(Print, PrintLayoutTable) {
  auto l = make_layout(make_shape(_2{}, _3{}), make_stride(_3{}, _1{}));
  std::ostringstream os;
  print_layout(os, l);
  std::string const expected =
      "(_2,_3):(_3,_1)\n"
      "      0   1   2 \n"
      "    +---+---+---+\n"
      " 0  | 0 | 1 | 2 |\n"
      "    +---+---+---+\n"
      " 1  | 3 | 4 | 5 |\n"
      "    +---+---+---+\n";
  EXPECT_EQ(os.str(), expected);
  testing::internal::CaptureStdout();
  print_layout(l);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), expected);
}

TEST(Print, PrintLayoutTableTwoDigits) {
  // 002: print_layout(layout_rm) for the 4x8 row-major layout.
  auto layout_rm = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  std::ostringstream os;
  print_layout(os, layout_rm);
  std::string const expected =
      "(_4,_8):(_8,_1)\n"
      "       0    1    2    3    4    5    6    7 \n"
      "    +----+----+----+----+----+----+----+----+\n"
      " 0  |  0 |  1 |  2 |  3 |  4 |  5 |  6 |  7 |\n"
      "    +----+----+----+----+----+----+----+----+\n"
      " 1  |  8 |  9 | 10 | 11 | 12 | 13 | 14 | 15 |\n"
      "    +----+----+----+----+----+----+----+----+\n"
      " 2  | 16 | 17 | 18 | 19 | 20 | 21 | 22 | 23 |\n"
      "    +----+----+----+----+----+----+----+----+\n"
      " 3  | 24 | 25 | 26 | 27 | 28 | 29 | 30 | 31 |\n"
      "    +----+----+----+----+----+----+----+----+\n";
  EXPECT_EQ(os.str(), expected);
}

TEST(Print, PrintLayoutOfSwizzledLayout) {
  auto sw = composition(Swizzle<1, 0, 1>{}, make_layout(make_shape(_2{}, _2{}), make_stride(_2{}, _1{})));
  std::ostringstream os;
  print_layout(os, sw);
  // offsets 0,1,2,3 -> bit 1 xored into bit 0: 0,1,3,2
  std::string const expected =
      "Sw<1,0,1> o _0 o (_2,_2):(_2,_1)\n"
      "      0   1 \n"
      "    +---+---+\n"
      " 0  | 0 | 1 |\n"
      "    +---+---+\n"
      " 1  | 3 | 2 |\n"
      "    +---+---+\n";
  EXPECT_EQ(os.str(), expected);
}
