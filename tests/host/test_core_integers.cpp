// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tessera/layout.hpp"

using namespace tessera;

TEST(CoreIntegers, StaticIntegersAreEmptyAndCarryTheirValue) {
  static_assert(std::is_empty_v<_4>);
  static_assert(std::is_same_v<Int<4>, C<4>>);
  static_assert(_8::value == 8 && _m1::value == -1 && _0::value == 0);
  static_assert(std::is_same_v<_256, Int<256>>);
  int x = _16{};
  EXPECT_EQ(x, 16);
}

TEST(CoreIntegers, StaticOpStaticStaysStatic) {
  static_assert(std::is_same_v<decltype(_4{} * _8{}), C<32>>);
  static_assert(std::is_same_v<decltype(_4{} + _8{}), C<12>>);
  static_assert(std::is_same_v<decltype(_8{} / _4{}), C<2>>);
  static_assert(std::is_same_v<decltype(_8{} % _3{}), C<2>>);
  static_assert(std::is_same_v<decltype(_8{} - _3{}), C<5>>);
  static_assert(std::is_same_v<decltype(-_3{}), C<-3>>);
  static_assert(decltype(_4{} < _8{})::value);
  static_assert(decltype(_4{} == _4{})::value);
}

TEST(CoreIntegers, MixedArithmeticFollowsTheStaticRules) {
  int d = 7;
  int64_t w = 9;
  static_assert(std::is_same_v<decltype(_0{} * d), _0>);
  static_assert(std::is_same_v<decltype(d * _0{}), _0>);
  static_assert(std::is_same_v<decltype(_1{} * d), int>);
  static_assert(std::is_same_v<decltype(_4{} * d), int>);
  static_assert(std::is_same_v<decltype(_4{} * w), int64_t>);
  static_assert(std::is_same_v<decltype(d % _1{}), _0>);
  static_assert(std::is_same_v<decltype(_0{} / d), _0>);
  EXPECT_EQ(_1{} * d, 7);
  EXPECT_EQ(_4{} * d, 28);
  EXPECT_EQ(_4{} * w, int64_t(36));
  EXPECT_EQ(d + _0{}, 7);
  EXPECT_EQ(d / _1{}, 7);
  EXPECT_EQ(_8{} - d, 1);
  EXPECT_TRUE(d < _8{});
  EXPECT_FALSE(_8{} < d);
}

TEST(CoreIntegers, MathHelpers) {
  static_assert(std::is_same_v<decltype(max(_4{}, _8{})), _8>);
  static_assert(std::is_same_v<decltype(min(_4{}, _8{})), _4>);
  static_assert(std::is_same_v<decltype(abs(_m4{})), _4>);
  static_assert(std::is_same_v<decltype(gcd(_12{}, _8{})), _4>);
  static_assert(std::is_same_v<decltype(lcm(_12{}, _8{})), _24>);
  static_assert(std::is_same_v<decltype(log_2(_64{})), Int<6>>);
  static_assert(std::is_same_v<decltype(ceil_div(_10{}, _4{})), _3>);
  static_assert(std::is_same_v<decltype(shape_div(_2{}, _8{})), _1>);
  static_assert(std::is_same_v<decltype(shape_div(_8{}, _2{})), _4>);
  EXPECT_EQ(max(3, _8{}), 8);
  EXPECT_EQ(min(3, _8{}), 3);
  EXPECT_EQ(gcd(12, 18), 6);
  EXPECT_EQ(lcm(4, 6), 12);
  EXPECT_EQ(ceil_div(10, 4), 3);
  EXPECT_EQ(shape_div(3, 12), 1);
  EXPECT_EQ(shape_div(12, 3), 4);
  EXPECT_EQ(signum(-5), -1);
  EXPECT_EQ(log_2(1024), 10);
}

TEST(CoreIntegers, Traits) {
  static_assert(is_static_v<_4> && !is_static_v<int>);
  static_assert(is_integral_v<_4> && is_integral_v<int> && is_integral_v<int64_t>);
  static_assert(is_constant_v<4, _4> && !is_constant_v<4, _8> && !is_constant_v<4, int>);
  static_assert(is_constant_v<1, _1 const&>);
}
