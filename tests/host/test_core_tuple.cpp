// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "tessera/layout.hpp"
#include "host_test.hpp"

using namespace tessera;

using tessera::test::str;

TEST(CoreTuple, EmptyBaseOptimisation) {
  static_assert(std::is_empty_v<tuple<_1, _1, _2>>);
  static_assert(std::is_empty_v<decltype(make_shape(_2{}, make_shape(_2{}, _4{})))>);
  static_assert(sizeof(tuple<int, _4>) == sizeof(int));
  static_assert(sizeof(tuple<int, int>) == 2 * sizeof(int));
  // Nested tuples holding the same element types: no ambiguous bases.
  auto t = make_tuple(_1{}, make_tuple(_1{}, make_tuple(_1{}, 3)));
  EXPECT_EQ((get<1, 1, 1>(t)), 3);
}

TEST(CoreTuple, GetAndStructuredBindings) {
  auto t = make_tuple(1, _2{}, make_tuple(3, 4));
  EXPECT_EQ(get<0>(t), 1);
  EXPECT_EQ((get<2, 1>(t)), 4);
  get<0>(t) = 7;
  EXPECT_EQ(get<0>(t), 7);
  auto [a, b, c] = t;
  EXPECT_EQ(a, 7);
  static_assert(std::is_same_v<decltype(b), _2>);
  EXPECT_EQ(get<0>(c), 3);
  EXPECT_EQ(get<0>(5), 5);
}

TEST(CoreTuple, RankDepthSizeSum) {
  auto s = make_shape(_4{}, make_shape(_2{}, 3));
  static_assert(decltype(rank(s))::value == 2);
  static_assert(decltype(depth(s))::value == 2);
  static_assert(decltype(depth(5))::value == 0);
  static_assert(decltype(rank(5))::value == 1);
  EXPECT_EQ(size(s), 24);
  EXPECT_EQ(product(s), 24);
  EXPECT_EQ(sum(s), 9);
  EXPECT_EQ(size<1>(s), 6);
  static_assert(std::is_same_v<decltype(size(make_shape(_4{}, _8{}))), _32>);
  EXPECT_EQ(inner_product(make_tuple(1, make_tuple(2, 3)), make_tuple(4, make_tuple(5, 6))), 4 + 10 + 18);
}

TEST(CoreTuple, StructuralAlgorithms) {
  auto t = make_tuple(_1{}, _2{}, _3{}, _4{});
  EXPECT_EQ(str(take<1, 3>(t)), "(_2,_3)");
  EXPECT_EQ(str(select<3, 0>(t)), "(_4,_1)");
  EXPECT_EQ(str(append(t, 5)), "(_1,_2,_3,_4,5)");
  EXPECT_EQ(str(prepend(t, 5)), "(5,_1,_2,_3,_4)");
  EXPECT_EQ(str(group<1, 3>(t)), "(_1,(_2,_3),_4)");
  EXPECT_EQ(str(remove<1>(t)), "(_1,_3,_4)");
  EXPECT_EQ(str(replace<2>(t, 9)), "(_1,_2,9,_4)");
  EXPECT_EQ(str(reverse(t)), "(_4,_3,_2,_1)");
  EXPECT_EQ(str(append<3>(make_tuple(1), _0{})), "(1,_0,_0)");
  EXPECT_EQ(str(zip(make_tuple(1, 2), make_tuple(3, 4))), "((1,3),(2,4))");
  EXPECT_EQ(str(flatten(make_tuple(1, make_tuple(2, make_tuple(3)), 4))), "(1,2,3,4)");
  EXPECT_EQ(str(unflatten(make_tuple(1, 2, 3, 4), make_tuple(_0{}, make_tuple(_0{}, make_tuple(_0{})), _0{}))), "(1,(2,(3)),4)");
  EXPECT_EQ(str(transform(t, [](auto x) { return x * _2{}; })), "(_2,_4,_6,_8)");
  EXPECT_EQ(fold(make_tuple(1, 2, 3), 10, [](auto a, auto b) { return a * 10 + b; }), 10123);
  EXPECT_EQ(str(tuple_cat(make_tuple(1), make_tuple(), make_tuple(_2{}, 3))), "(1,_2,3)");
  EXPECT_EQ(str(repeat_like(make_tuple(1, make_tuple(2, 3)), _0{})), "(_0,(_0,_0))");
  static_assert(decltype(find(t, _3{}))::value == 2);
  static_assert(decltype(find(t, _8{}))::value == 4);
  EXPECT_EQ(str(unwrap(make_tuple(make_tuple(3)))), "3");
  EXPECT_EQ(str(wrap(3)), "(3)");
}

TEST(CoreTuple, Predicates) {
  auto a = make_shape(4, make_shape(2, 3));
  static_assert(decltype(congruent(a, make_stride(1, make_stride(4, 8))))::value);
  static_assert(!decltype(congruent(a, make_stride(1, 4)))::value);
  static_assert(decltype(weakly_congruent(make_shape(1, 2), a))::value);
  static_assert(!decltype(weakly_congruent(a, make_shape(1, 2)))::value);
  EXPECT_TRUE(compatible(24, a));
  EXPECT_TRUE(compatible(make_shape(4, 6), a));
  EXPECT_FALSE(compatible(make_shape(6, 4), a));
  static_assert(!decltype(compatible(a, 24))::value);
  static_assert(decltype(evenly_divides(make_shape(_8{}, _6{}), make_shape(_4{}, _3{})))::value);
  static_assert(!decltype(evenly_divides(make_shape(_8{}, _6{}), make_shape(_4{}, _4{})))::value);
  EXPECT_TRUE(elem_less(make_coord(1, make_coord(1, 2)), a));
  EXPECT_FALSE(elem_less(make_coord(4, make_coord(1, 2)), a));
  EXPECT_TRUE(colex_less(make_coord(3, 0), make_coord(0, 1)));
  EXPECT_FALSE(colex_less(make_coord(0, 1), make_coord(3, 0)));
}

TEST(CoreTuple, Division) {
  EXPECT_EQ(str(shape_div(make_shape(_4{}, _8{}), _8{})), "(_1,_4)");
  EXPECT_EQ(str(shape_div(make_shape(_4{}, _8{}), _2{})), "(_2,_8)");
  EXPECT_EQ(str(ceil_div(make_shape(_4{}, _8{}), make_shape(_3{}, _8{}))), "(_2,_1)");
  EXPECT_EQ(str(ceil_div(make_shape(10, 8), 4)), "(3,8)");
  EXPECT_EQ(str(product_each(make_shape(_4{}, make_shape(_2{}, _3{})))), "(_4,_6)");
}

TEST(CoreTuple, DeviceStyleUsageIsConstexpr) {
  constexpr auto t = make_tuple(_2{}, 3);
  constexpr int v = get<1>(t) * get<0>(t);
  static_assert(v == 6);
  constexpr auto s = size(make_shape(2, 3, 4));
  static_assert(s == 24);
}
