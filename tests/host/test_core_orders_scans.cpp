// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Orders on coordinates (lex_*, colex_*, elem_*) and the scans and folds over
// tuples (fold_first, escan, iscan):
//   - over every coordinate pair of several shapes, colex_less agrees with
//     the column-major index and lex_less with the row-major one, and each
//     is a strict total order (exactly one of <, >, == holds);
//   - elem_leq is elementwise: a <= b and b <= a only when a == b;
//   - escan / iscan / fold agree with each other and with a by-hand loop;
//   - fixed answers, static results where the inputs are static.

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "tessera/layout.hpp"
#include "host_test.hpp"

using namespace tessera;

using tessera::test::str;

namespace {

// f(Int<0>{}), ..., f(Int<N-1>{}).
template <int N, class F>
void for_index(F&& f) {
  [&]<int... I>(seq<I...>) { (f(Int<I>{}), ...); }(make_seq<N>{});
}

// Row-major index of a flat coordinate: the first mode slowest.
template <class Crd, class Shape>
int row_major_index(Crd const& c, Shape const& s) {
  auto fc = flatten_to_tuple(c);
  auto fs = flatten_to_tuple(s);
  int idx = 0;
  for_index<decltype(rank(fs))::value>([&](auto i) {
    constexpr int I = decltype(i)::value;
    idx = idx * int(get<I>(fs)) + int(get<I>(fc));
  });
  return idx;
}

template <class Shape>
void check_orders_over(Shape const& s) {
  int const n = int(size(s));
  for (int i = 0; i < n; ++i) {
    auto const a = idx2crd(i, s);
    for (int j = 0; j < n; ++j) {
      auto const b = idx2crd(j, s);
      ASSERT_EQ(colex_less(a, b), i < j) << str(a) << " vs " << str(b) << " in " << str(s);
      ASSERT_EQ(colex_leq(a, b), i <= j);
      ASSERT_EQ(colex_gtr(a, b), i > j);
      ASSERT_EQ(colex_geq(a, b), i >= j);
      int const ri = row_major_index(a, s), rj = row_major_index(b, s);
      ASSERT_EQ(lex_less(a, b), ri < rj) << str(a) << " vs " << str(b) << " in " << str(s);
      ASSERT_EQ(lex_leq(a, b), ri <= rj);
      ASSERT_EQ(lex_gtr(a, b), ri > rj);
      ASSERT_EQ(lex_geq(a, b), ri >= rj);
      // elementwise: both ways only when equal; < implies <=
      ASSERT_EQ(bool(elem_leq(a, b)) && bool(elem_leq(b, a)), i == j);
      if (bool(elem_less(a, b))) ASSERT_TRUE(bool(elem_leq(a, b)));
      ASSERT_EQ(bool(elem_gtr(a, b)), bool(elem_less(b, a)));
      ASSERT_EQ(bool(elem_geq(a, b)), bool(elem_leq(b, a)));
    }
  }
}

}  // namespace

TEST(CoordinateOrders, AgreeWithIndexOrdersOverShapes) {
  check_orders_over(make_shape(_4{}, _3{}));
  check_orders_over(make_shape(3, make_shape(_2{}, 2), _2{}));
  check_orders_over(make_shape(make_shape(_2{}, 3), make_shape(_2{}, _2{})));
  check_orders_over(make_shape(_5{}));
}

TEST(CoordinateOrders, FixedAnswers) {
  // the example where CuTe's !elem_less(b, a) and the elementwise order part
  EXPECT_FALSE(bool(elem_leq(make_coord(0, 5), make_coord(1, 1))));
  EXPECT_TRUE(bool(elem_leq(make_coord(0, 1), make_coord(1, 1))));
  EXPECT_FALSE(bool(elem_geq(make_coord(0, 5), make_coord(1, 1))));
  EXPECT_TRUE(bool(elem_less(make_coord(0, make_coord(1, 2)), make_coord(1, make_coord(2, 3)))));
  // static coordinates give static answers
  static_assert(decltype(elem_leq(make_coord(_1{}, _2{}), make_coord(_1{}, _3{})))::value);
  static_assert(!decltype(elem_leq(make_coord(_2{}, _2{}), make_coord(_1{}, _3{})))::value);
  // lex: first mode decides; a proper prefix is less
  EXPECT_TRUE(lex_less(make_coord(1, 9), make_coord(2, 0)));
  EXPECT_FALSE(lex_less(make_coord(2, 0), make_coord(1, 9)));
  EXPECT_TRUE(lex_less(make_coord(1, 2), make_coord(1, 2, 0)));
  EXPECT_FALSE(lex_less(make_coord(1, 2, 0), make_coord(1, 2)));
  EXPECT_TRUE(lex_less(make_coord(1, make_coord(0, 3)), make_coord(1, make_coord(1, 0))));
  // colex: last mode decides
  EXPECT_TRUE(colex_less(make_coord(9, 1), make_coord(0, 2)));
  EXPECT_TRUE(colex_less(make_coord(make_coord(3, 0), 1), make_coord(make_coord(0, 1), 1)));
  EXPECT_TRUE(colex_leq(make_coord(2, 2), make_coord(2, 2)));
  EXPECT_FALSE(colex_gtr(make_coord(2, 2), make_coord(2, 2)));
  EXPECT_TRUE(lex_geq(3, 3));
}

TEST(TupleScans, FixedAnswers) {
  auto t = make_tuple(_2{}, _3{}, _4{});
  auto mul = [](auto a, auto b) { return a * b; };
  EXPECT_EQ(str(escan(t, _1{}, mul)), "(_1,_2,_6)");
  EXPECT_EQ(str(iscan(t, _1{}, mul)), "(_2,_6,_24)");
  EXPECT_EQ(str(fold_first(t, mul)), "_24");
  static_assert(std::is_same_v<decltype(escan(t, _1{}, mul)), tuple<_1, _2, _6>>);
  // mixed static/dynamic: the compact column-major strides of a shape
  EXPECT_EQ(str(escan(make_tuple(_4{}, 3, _2{}), _1{}, mul)), "(_1,_4,12)");
  EXPECT_EQ(str(fold_first(make_tuple(7, 2, 5), [](auto a, auto b) { return a > b ? a : b; })), "7");
  EXPECT_EQ(fold_first(9, mul), 9);
  EXPECT_EQ(str(escan(tuple<>{}, 0, mul)), "()");
  // the element type may change along the fold
  auto cat = [](auto a, auto b) { return append(wrap(a), b); };
  EXPECT_EQ(str(fold_first(make_tuple(1, 2, 3), cat)), "(1,2,3)");
}

TEST(TupleScans, AgreeWithLoopAndFold) {
  std::vector<std::vector<int>> corpus = {{3}, {1, 2}, {5, 1, 4}, {2, 7, 1, 8}, {9, 0, 3, 3, 6}};
  auto plus = [](auto a, auto b) { return a + b; };
  for (auto const& v : corpus) {
    for (int init : {0, 5, -3}) {
      // build a 1..5-tuple of ints from v
      auto run = [&](auto t) {
        auto e = escan(t, init, plus);
        auto in = iscan(t, init, plus);
        int acc = init;
        for_index<decltype(rank(t))::value>([&](auto i) {
          constexpr int I = decltype(i)::value;
          EXPECT_EQ(get<I>(e), acc);
          acc += get<I>(t);
          EXPECT_EQ(get<I>(in), acc);
        });
        EXPECT_EQ(fold(t, init, plus), acc);
        EXPECT_EQ(fold_first(t, plus) + init, acc);
      };
      switch (v.size()) {
        case 1: run(make_tuple(v[0])); break;
        case 2: run(make_tuple(v[0], v[1])); break;
        case 3: run(make_tuple(v[0], v[1], v[2])); break;
        case 4: run(make_tuple(v[0], v[1], v[2], v[3])); break;
        default: run(make_tuple(v[0], v[1], v[2], v[3], v[4])); break;
      }
    }
  }
}
