// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// array and array_aligned: element access, fill/clear, equality, and the
// alignment a shared-memory storage struct relies on (member offsets of a
// struct of aligned arrays stay multiples of each member's alignment).

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/layout.hpp"
#include "tessera/atom/numeric.hpp"
#include "tessera/tensor.hpp"

using namespace tessera;

TEST(CoreArray, ElementsAndValueSemantics) {
  array<int, 5> a{};
  for (int i = 0; i < 5; ++i) a[i] = 3 * i + 1;
  EXPECT_EQ(a.size(), 5u);
  EXPECT_EQ(a.front(), 1);
  EXPECT_EQ(a.back(), 13);
  int sum = 0;
  for (int x : a) sum += x;
  EXPECT_EQ(sum, 1 + 4 + 7 + 10 + 13);
  auto b = a;
  EXPECT_TRUE(a == b);
  b[2] = -1;
  EXPECT_FALSE(a == b);
  EXPECT_EQ(a[2], 7);  // a copy, not a view
  b.fill(9);
  for (int x : b) EXPECT_EQ(x, 9);
  b.clear();
  for (int x : b) EXPECT_EQ(x, 0);
  static_assert(array<float, 3>::size() == 3);
  constexpr auto c = [] {
    array<int, 3> r{};
    r.fill(4);
    return r[0] + r[1] + r[2];
  }();
  static_assert(c == 12);
}

struct SharedStorage {
  array_aligned<half_t, 8 * 64 * 3, 1024> A;
  array_aligned<half_t, 8 * 8, 1024> B;
  array_aligned<std::uint64_t, 3> full;  // default 16
  char tail;
};

TEST(CoreArray, AlignedStorageKeepsEveryMemberAligned) {
  static_assert(alignof(array_aligned<half_t, 10, 128>) == 128);
  static_assert(sizeof(array_aligned<half_t, 10, 128>) % 128 == 0);
  static_assert(alignof(array_aligned<float, 3>) == 16);
  static_assert(alignof(SharedStorage) == 1024);
  EXPECT_EQ(offsetof(SharedStorage, A) % 1024, 0u);
  EXPECT_EQ(offsetof(SharedStorage, B) % 1024, 0u);
  EXPECT_EQ(offsetof(SharedStorage, full) % 16, 0u);
  EXPECT_GE(offsetof(SharedStorage, B), sizeof(half_t) * 8 * 64 * 3);
  // a tensor over the storage, as a kernel would view it
  SharedStorage* s = new SharedStorage;
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s->A.data()) % 1024, 0u);
  auto sA = make_tensor(s->A.data(), Layout<Shape<_64, _8, _3>>{});
  sA(5, 2, 1) = half_t(2.5f);
  EXPECT_EQ(float(s->A[5 + 64 * 2 + 512 * 1]), 2.5f);
  delete s;
}
