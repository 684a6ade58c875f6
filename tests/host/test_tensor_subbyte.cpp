// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Sub-byte elements (int4b_t, uint4b_t, int2b_t, uint2b_t, uint1b_t):
//   - every representable value round-trips, and an int keeps its low bits
//     (sign-extended for the signed types);
//   - packing: element i sits in bits [i*B mod 8, +B) of byte i*B/8, element
//     0 in the low bits;
//   - writing element i changes only element i (checked against a model over
//     random writes);
//   - iterator arithmetic, negative steps included;
//   - tensors: owning make_tensor<int4b_t>(layout) is packed, views through
//     make_gmem_ptr<int4b_t>(void*) and recast<int4b_t>(byte tensor), slicing,
//     copy() between sub-byte tensors, print_tensor and operator<<.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "host_test.hpp"
#include "tessera/tensor.hpp"

using namespace tessera;

namespace {

template <class F>
std::string capture_stdout(F&& f) {
  testing::internal::CaptureStdout();
  f();
  std::fflush(stdout);
  return testing::internal::GetCapturedStdout();
}

template <class T>
void check_values() {
  for (int v = T::kMin; v <= T::kMax; ++v) {
    ASSERT_EQ(int(T(v)), v) << T::kBits << "-bit";
  }
  // wrap-around: the low bits are kept, as a narrowing cast does
  for (int v = -40; v <= 40; ++v) {
    int const low = v & ((1 << T::kBits) - 1);
    int const want = T::kSigned && (low & (1 << (T::kBits - 1))) ? low - (1 << T::kBits) : low;
    ASSERT_EQ(int(T(v)), want) << v;
  }
  static_assert(sizeof_bits_v<T> == std::size_t(T::kBits));
}

template <class T, std::size_t N>
void check_isolation(unsigned seed) {
  array_subbyte<T, N> a;
  a.clear();
  std::vector<int> model(N, 0);
  std::mt19937 rng(seed);
  for (int step = 0; step < 2000; ++step) {
    std::size_t const i = rng() % N;
    int const v = T::kMin + int(rng() % unsigned(T::kMax - T::kMin + 1));
    a[i] = T(v);
    model[i] = v;
    for (std::size_t j = 0; j < N; ++j) ASSERT_EQ(int(T(a[j])), model[j]) << "after writing " << i;
  }
  // the packing rule, read from the raw bytes
  for (std::size_t i = 0; i < N; ++i) {
    int const bit = int(i) * T::kBits;
    int const raw = (a.raw_data()[bit / 8] >> (bit % 8)) & ((1 << T::kBits) - 1);
    ASSERT_EQ(raw, int(T(a[i]).bits())) << i;
  }
  static_assert(sizeof(array_subbyte<T, N>) == (N * T::kBits + 7) / 8);
}

}  // namespace

TEST(Subbyte, ValuesRoundTrip) {
  check_values<int4b_t>();
  check_values<uint4b_t>();
  check_values<int2b_t>();
  check_values<uint2b_t>();
  check_values<uint1b_t>();
  EXPECT_EQ(int(int4b_t(-8)), -8);
  EXPECT_EQ(int(uint4b_t(15)), 15);
  EXPECT_EQ(int(int4b_t(8)), -8);  // 0b1000
}

TEST(Subbyte, WritesTouchOnlyTheirElement) {
  check_isolation<int4b_t, 13>(1);
  check_isolation<uint2b_t, 11>(2);
  check_isolation<uint1b_t, 19>(3);
}

TEST(Subbyte, IteratorArithmetic) {
  std::uint8_t bytes[8] = {};
  subbyte_iterator<int4b_t> it{bytes};
  for (int m = -5; m <= 9; ++m)
    for (int n = -6; n <= 6; ++n) {
      auto base = it + 6;
      ASSERT_TRUE((base + m) + n == base + (m + n)) << m << "," << n;
      ASSERT_EQ((base + m) - base, m);
    }
  auto p = it + 3;
  EXPECT_EQ(p.byte_address(), bytes + 1);
  EXPECT_EQ(p.slot_, 1);
  EXPECT_TRUE(it < p);
  *p = int4b_t(-3);
  EXPECT_EQ(bytes[1], 0xD0);  // -3 = 0b1101 in the high nibble of byte 1
}

TEST(Subbyte, OwningTensorIsPacked) {
  auto t = make_tensor<int4b_t>(Layout<Shape<_8, _4>>{});
  static_assert(sizeof(t) == 16, "32 four-bit elements in 16 bytes");
  static_assert(std::is_same_v<decltype(t)::value_type, int4b_t>);
  for (int i = 0; i < 32; ++i) t(i) = int4b_t(i % 16 - 8);
  for (int m = 0; m < 8; ++m)
    for (int n = 0; n < 4; ++n) ASSERT_EQ(int(int4b_t(t(m, n))), (m + 8 * n) % 16 - 8);
  // a column slice is a view over the same packed storage
  auto col = t(_, 2);
  col(3) = int4b_t(7);
  EXPECT_EQ(int(int4b_t(t(3, 2))), 7);
  EXPECT_EQ(int(int4b_t(t(2, 2))), (2 + 16) % 16 - 8);
}

TEST(Subbyte, ViewsOfBytes) {
  std::vector<std::uint8_t> bytes = {0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB, 0xED, 0x0F};
  // make_gmem_ptr<uint4b_t>(void*) over 16 nibbles, row-major 4x4
  auto g = make_tensor(make_gmem_ptr<uint4b_t>(static_cast<void*>(bytes.data())), make_shape(4, 4), make_stride(4, 1));
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) ASSERT_EQ(int(uint4b_t(g(r, c))), (4 * r + c + 1) % 16) << r << "," << c;
  // recast of a byte tensor: twice the elements
  auto b = make_tensor(bytes.data(), make_shape(_8{}));
  auto n = recast<int4b_t>(b);
  static_assert(decltype(size(n))::value == 16);
  EXPECT_EQ(int(int4b_t(n(0))), 1);
  EXPECT_EQ(int(int4b_t(n(15))), 0);
  EXPECT_EQ(int(int4b_t(n(14))), -1);  // 0xF
  // copy between packed tensors of different layouts (element by element)
  auto dst = make_tensor<uint4b_t>(Layout<Shape<_4, _4>>{});  // column-major
  copy(g, dst);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) ASSERT_EQ(int(uint4b_t(dst(r, c))), int(uint4b_t(g(r, c))));
}

TEST(Subbyte, Printing) {
  auto t = make_tensor<int4b_t>(Layout<Shape<_2, _3>>{});
  for (int i = 0; i < 6; ++i) t(i) = int4b_t(i - 3);
  std::string const table = capture_stdout([&] { print_tensor(t, false); });
  EXPECT_EQ(table, "   -3   -1    1\n   -2    0    2\n");
  std::ostringstream os;
  os << t;
  EXPECT_EQ(os.str(), "(_2,_3):(_1,_2)\n       -3       -1        1\n       -2        0        2\n");
  EXPECT_EQ(capture_stdout([&] { print(int4b_t(-5)); }), "-5");
}
