// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// create_tma_multicast_mask (tessera/tma/multicast_mask.hpp): fixed answers
// for 2-D clusters in both mode orders and for a (V,M,N,K) cluster, then
// the laws over a corpus of static cluster layouts of up to 16 CTAs and an
// exhaustive sweep of dynamic ones (every shape of rank 1-4 with at most 16
// CTAs, every compact mode order), for every CTA and every set of listed
// modes, against a brute force over coordinates that never slices:
//   (a) this CTA's own bit is set;
//   (b) the popcount is the product of the listed modes' sizes;
//   (c) two CTAs have the same mask iff they agree on the unlisted modes;
//   (d) the mask is the ranks of the CTAs that agree on the unlisted modes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "host_test.hpp"
#include "tessera/layout.hpp"
#include "tessera/tma/multicast_mask.hpp"

namespace {

using namespace tessera;
using tessera::test::str;

// --- fixed answers ------------------------------------------------------------------------------

template <int... Modes, class L, class C>
unsigned mask(L const& l, C const& c) {
  return unsigned(create_tma_multicast_mask<Modes...>(l, c));
}

// masks[x + X * y] for the CTA at (x, y) of an (X,Y) cluster layout.
template <class L>
void expect_2d(L const& l, std::vector<unsigned> const& m0, std::vector<unsigned> const& m1,
               std::vector<unsigned> const& m01) {
  int const X = int(size<0>(l)), Y = int(size<1>(l));
  ASSERT_EQ(int(m0.size()), X * Y);
  for (int y = 0; y < Y; ++y)
    for (int x = 0; x < X; ++x) {
      SCOPED_TRACE(testing::Message() << str(l) << " at (" << x << "," << y << ")");
      auto const c = make_coord(x, y);
      EXPECT_EQ(mask<0>(l, c), m0[std::size_t(x + X * y)]);
      EXPECT_EQ(mask<1>(l, c), m1[std::size_t(x + X * y)]);
      EXPECT_EQ((mask<0, 1>(l, c)), m01[std::size_t(x + X * y)]);
      EXPECT_EQ((mask<1, 0>(l, c)), m01[std::size_t(x + X * y)]) << "the order of the listed modes does not matter";
      EXPECT_EQ(mask<>(l, c), 1u << int(l(c))) << "no listed mode: this CTA alone";
    }
}

TEST(TmaMulticastMask, FixedAnswers2x1And1x2) {
  // (2,1): rank x in both orders (the size-1 mode's stride never counts).
  expect_2d(make_layout(Shape<_2, _1>{}), {0b11, 0b11}, {0b01, 0b10}, {0b11, 0b11});
  expect_2d(make_layout(Shape<_2, _1>{}, LayoutRight{}), {0b11, 0b11}, {0b01, 0b10}, {0b11, 0b11});
  // (1,2): rank y.
  expect_2d(make_layout(Shape<_1, _2>{}), {0b01, 0b10}, {0b11, 0b11}, {0b11, 0b11});
  expect_2d(make_layout(Shape<_1, _2>{}, LayoutRight{}), {0b01, 0b10}, {0b11, 0b11}, {0b11, 0b11});
}

TEST(TmaMulticastMask, FixedAnswers2x2) {
  // Column-major: rank x + 2y. Modes<0> keeps y: {0,1} or {2,3}; Modes<1>
  // keeps x: {0,2} or {1,3}.
  expect_2d(make_layout(Shape<_2, _2>{}), {0x3, 0x3, 0xC, 0xC}, {0x5, 0xA, 0x5, 0xA}, {0xF, 0xF, 0xF, 0xF});
  // Row-major: rank 2x + y. Modes<0> keeps y: {0,2} or {1,3}.
  expect_2d(make_layout(Shape<_2, _2>{}, LayoutRight{}), {0x5, 0x5, 0xA, 0xA}, {0x3, 0xC, 0x3, 0xC},
            {0xF, 0xF, 0xF, 0xF});
}

TEST(TmaMulticastMask, FixedAnswers4x2) {
  // Column-major: rank x + 4y.
  expect_2d(make_layout(Shape<_4, _2>{}), {0x0F, 0x0F, 0x0F, 0x0F, 0xF0, 0xF0, 0xF0, 0xF0},
            {0x11, 0x22, 0x44, 0x88, 0x11, 0x22, 0x44, 0x88}, std::vector<unsigned>(8, 0xFF));
  // Row-major: rank 2x + y.
  expect_2d(make_layout(Shape<_4, _2>{}, LayoutRight{}), {0x55, 0x55, 0x55, 0x55, 0xAA, 0xAA, 0xAA, 0xAA},
            {0x03, 0x0C, 0x30, 0xC0, 0x03, 0x0C, 0x30, 0xC0}, std::vector<unsigned>(8, 0xFF));
}

TEST(TmaMulticastMask, FixedAnswersVmnk) {
  // A (V,M,N,K) = (2,2,4,1) cluster, V slowest and N fastest; the CTA at
  // (0,1,2,0) has rank 4 + 2 = 6.
  auto const l = make_layout(Shape<_2, _2, _4, _1>{}, Stride<_8, _4, _1, _0>{});
  auto const c = make_coord(0, 1, 2, 0);
  EXPECT_EQ(mask<2>(l, c), 0x00F0u);          // A: its M row, N ranging: ranks 4-7
  EXPECT_EQ(mask<1>(l, c), 0x0044u);          // B: its N column: ranks 2, 6
  EXPECT_EQ((mask<0, 1>(l, c)), 0x4444u);     // V and M ranging: 2, 6, 10, 14
  EXPECT_EQ((mask<0, 1, 2, 3>(l, c)), 0xFFFFu);
  // A coordinate that already holds `_` ranges there too.
  EXPECT_EQ(mask<1>(l, make_coord(0, 1, _, 0)), 0x00FFu);
  // The form the mainloops write: the coordinate from the rank.
  EXPECT_EQ(mask<2>(l, l.get_flat_coord(6)), 0x00F0u);
  // All static: a constant expression.
  static_assert(create_tma_multicast_mask<2>(Layout<Shape<_2, _2, _4, _1>, Stride<_8, _4, _1, _0>>{},
                                             make_coord(_0{}, _1{}, _2{}, _0{})) == 0x00F0);
  static_assert(create_tma_multicast_mask<0>(Layout<_4>{}, 3) == 0xF);
  static_assert(create_tma_multicast_mask<>(Layout<_4>{}, 3) == 0x8);
  // Dynamic: the same answers.
  auto const d = make_layout(make_shape(2, 2, 4, 1), make_stride(8, 4, 1, 0));
  EXPECT_EQ(mask<2>(d, c), 0x00F0u);
  EXPECT_EQ(mask<1>(d, c), 0x0044u);
}

// --- laws ---------------------------------------------------------------------------------------

// The top-level modes whose bit is set in S, as a seq.
template <int S>
constexpr std::array<int, std::size_t(std::popcount(unsigned(S)))> modes_array() {
  std::array<int, std::size_t(std::popcount(unsigned(S)))> a{};
  std::size_t k = 0;
  for (int b = 0; b < 8; ++b)
    if ((S >> b) & 1) a[k++] = b;
  return a;
}
template <int S, std::size_t... K>
seq<modes_array<S>()[K]...> modes_seq(std::index_sequence<K...>);
template <int S>
using modes_of_t = decltype(modes_seq<S>(std::make_index_sequence<std::size_t(std::popcount(unsigned(S)))>{}));

// Every coordinate of a rank-R layout, one integer per top-level mode.
template <int R>
std::vector<std::array<int, R>> all_coords(std::array<int, R> const& extent) {
  std::vector<std::array<int, R>> out;
  std::array<int, R> c{};
  for (;;) {
    out.push_back(c);
    int m = 0;
    while (m < R && ++c[std::size_t(m)] == extent[std::size_t(m)]) c[std::size_t(m++)] = 0;
    if (m == R) return out;
  }
}

template <class L, std::size_t... I>
auto coord_of(std::array<int, sizeof...(I)> const& c, std::index_sequence<I...>) {
  if constexpr (decltype(rank(std::declval<L>()))::value == 1 && !is_tuple_v<decltype(std::declval<L>().shape())>)
    return c[0];
  else
    return make_coord(c[I]...);
}

// Checks the four laws for the modes whose bit is set in S, every CTA of l.
// Counts the masks checked in *checked and the broken laws in *broken
// (reporting the first few).
template <int S, class L>
void check_laws(L const& l, long* checked, long* broken) {
  constexpr int R = decltype(rank(std::declval<L>()))::value;
  std::array<int, R> extent{};
  [&]<std::size_t... I>(std::index_sequence<I...>) { ((extent[I] = int(size<int(I)>(l))), ...); }(
      std::make_index_sequence<R>{});
  auto const coords = all_coords<R>(extent);
  auto const tc = [&](std::array<int, R> const& c) { return coord_of<L>(c, std::make_index_sequence<R>{}); };
  auto const rank_of = [&](std::array<int, R> const& c) { return int(l(tc(c))); };
  auto const agree_outside = [&](std::array<int, R> const& a, std::array<int, R> const& b) {
    for (int m = 0; m < R; ++m)
      if (!((S >> m) & 1) && a[std::size_t(m)] != b[std::size_t(m)]) return false;
    return true;
  };
  int listed_size = 1;
  for (int m = 0; m < R; ++m)
    if ((S >> m) & 1) listed_size *= extent[std::size_t(m)];
  auto const fail = [&](char const* law, std::array<int, R> const& c, unsigned got, unsigned want) {
    if ((*broken)++ < 8)
      ADD_FAILURE() << law << ": " << str(l) << ", listed-mode bits " << S << ", CTA rank " << rank_of(c) << ": got 0x"
                    << std::hex << got << ", want 0x" << want << std::dec;
  };

  std::vector<unsigned> masks;
  for (auto const& c : coords) {
    unsigned const got = [&]<int... M>(seq<M...>) { return mask<M...>(l, tc(c)); }(modes_of_t<S>{});
    masks.push_back(got);
    unsigned want = 0;
    for (auto const& d : coords)
      if (agree_outside(c, d)) want |= 1u << rank_of(d);
    if (!((got >> rank_of(c)) & 1u)) fail("(a) own bit set", c, got, got | (1u << rank_of(c)));
    if (std::popcount(got) != listed_size) fail("(b) popcount == product of the listed sizes", c, got, want);
    if (got != want) fail("(d) the ranks that agree outside the listed modes", c, got, want);
    ++*checked;
  }
  for (std::size_t i = 0; i < coords.size(); ++i)
    for (std::size_t j = 0; j < coords.size(); ++j)
      if ((masks[i] == masks[j]) != agree_outside(coords[i], coords[j]) && (*broken)++ < 8)
        ADD_FAILURE() << "(c) same mask iff same unlisted coordinates: " << str(l) << ", listed-mode bits " << S
                      << ": CTA ranks " << rank_of(coords[i]) << " and " << rank_of(coords[j]) << " have masks 0x"
                      << std::hex << masks[i] << " and 0x" << masks[j] << std::dec;
}

// Every set of listed modes.
template <class L>
void check_all_mode_sets(L const& l, long* checked, long* broken) {
  constexpr int R = decltype(rank(std::declval<L>()))::value;
  [&]<int... S>(std::integer_sequence<int, S...>) {
    (check_laws<S>(l, checked, broken), ...);
  }(std::make_integer_sequence<int, (1 << R)>{});
}

TEST(TmaMulticastMask, LawsOverStaticClusterLayouts) {
  long n = 0, broken = 0;
  // Rank 1, scalar shapes (Modes<0> ranges over the whole cluster).
  check_all_mode_sets(Layout<_1>{}, &n, &broken);
  check_all_mode_sets(Layout<_4>{}, &n, &broken);
  check_all_mode_sets(Layout<_16>{}, &n, &broken);
  check_all_mode_sets(Layout<_8, _2>{}, &n, &broken);  // every other rank
  // Rank 2, both orders.
  check_all_mode_sets(make_layout(Shape<_2, _4>{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_2, _4>{}, LayoutRight{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_4, _4>{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_4, _4>{}, LayoutRight{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_2, _8>{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_16, _1>{}, LayoutRight{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_3, _5>{}), &n, &broken);
  // Rank 3 in orders other than the two compact ones.
  check_all_mode_sets(make_layout(Shape<_2, _2, _2>{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_2, _2, _2>{}, Stride<_2, _4, _1>{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_4, _2, _2>{}, Stride<_1, _8, _4>{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_2, _1, _4>{}, LayoutRight{}), &n, &broken);
  // (V,M,N,K) layouts as the mainloops build them.
  check_all_mode_sets(make_layout(Shape<_1, _2, _2, _1>{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_2, _2, _4, _1>{}, Stride<_8, _4, _1, _0>{}), &n, &broken);
  check_all_mode_sets(make_layout(Shape<_2, _4, _2, _1>{}), &n, &broken);
  // A hierarchical mode: mode 0 is (2,2), ranging as one.
  check_all_mode_sets(Layout<Shape<Shape<_2, _2>, _2>, Stride<Stride<_1, _4>, _2>>{}, &n, &broken);
  std::printf("  [multicast_mask] %ld static masks checked\n", n);
  EXPECT_EQ(broken, 0);
  EXPECT_GT(n, 1000);
}

// Every shape of rank R with at most 16 CTAs, each extent at least 1, with
// compact strides in every mode order (perm[0] fastest).
template <int R>
long sweep_rank() {
  long n = 0, layouts = 0, broken = 0;
  std::array<int, R> shape{};
  shape.fill(1);
  for (;;) {
    int total = 1;
    for (int s : shape) total *= s;
    if (total <= 16) {
      std::array<int, R> perm{};
      for (int m = 0; m < R; ++m) perm[std::size_t(m)] = m;
      do {
        std::array<int, R> stride{};
        int step = 1;
        for (int k = 0; k < R; ++k) {
          stride[std::size_t(perm[std::size_t(k)])] = step;
          step *= shape[std::size_t(perm[std::size_t(k)])];
        }
        auto const l = [&]<std::size_t... I>(std::index_sequence<I...>) {
          return make_layout(make_shape(shape[I]...), make_stride(stride[I]...));
        }(std::make_index_sequence<R>{});
        check_all_mode_sets(l, &n, &broken);
        ++layouts;
      } while (std::next_permutation(perm.begin(), perm.end()));
    }
    int m = 0;
    while (m < R && ++shape[std::size_t(m)] > 16) shape[std::size_t(m++)] = 1;
    if (m == R) break;
  }
  std::printf("  [multicast_mask] rank %d: %ld dynamic layouts, %ld masks\n", R, layouts, n);
  EXPECT_EQ(broken, 0) << "rank " << R;
  return layouts;
}

TEST(TmaMulticastMask, LawsOverEveryDynamicClusterLayout) {
  EXPECT_EQ(sweep_rank<1>(), 16);
  EXPECT_GT(sweep_rank<2>(), 50);
  EXPECT_GT(sweep_rank<3>(), 100);
  EXPECT_GT(sweep_rank<4>(), 100);
}

}  // namespace
