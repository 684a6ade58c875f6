// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Laws of the layout algebra over generated corpora of run-time (dynamic)
// layouts: thousands of random shapes and strides for each nesting profile.
// Every law is checked point by point over the whole domain.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/layout.hpp"

using namespace tessera;

namespace {

constexpr int kLayoutsPerProfile = 1000;

template <class T>
std::string str(T const& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

struct Gen {
  std::mt19937 rng;
  explicit Gen(unsigned seed) : rng(seed) {}
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  int pow2(int max_log) { return 1 << uniform(0, max_log); }
};

// Nesting profiles; every leaf is a run-time int.
using ProfileA = int;
using ProfileB = Shape<int, int>;
using ProfileC = Shape<int, Shape<int, int>>;
using ProfileD = Shape<Shape<int, int>, int, int>;
using ProfileE = Shape<int, int, int, int>;

template <class P, class F>
auto fill(F&& f) {
  return transform_leaf(P{}, [&](auto) { return int(f()); });
}

template <class P>
auto random_layout(Gen& g, int max_shape, int max_stride) {
  auto s = fill<P>([&] { return g.uniform(1, max_shape); });
  auto d = fill<P>([&] { return g.uniform(0, max_stride); });
  return make_layout(s, d);
}

// Power-of-two shapes on disjoint bit ranges of the index (strides sorted with
// d_{k+1} >= d_k * s_k, then the modes shuffled): the modes of such a layout
// never carry into one another, which is the setting where A o B == A(B(.)).
template <class P>
auto random_disjoint_pow2_layout(Gen& g, int max_log_shape) {
  using Flat = decltype(flatten_to_tuple(P{}));
  constexpr int n = tuple_size_v<Flat>;
  std::vector<int> sh(n), st(n), perm(n);
  int d = g.pow2(2);
  for (int k = 0; k < n; ++k) {
    sh[k] = g.pow2(max_log_shape);
    st[k] = d;
    d = d * sh[k] * g.pow2(1);
    perm[k] = k;
  }
  std::shuffle(perm.begin(), perm.end(), g.rng);
  int ks = 0, kd = 0;
  auto fs = transform(Flat{}, [&](auto) { return sh[perm[ks++]]; });
  auto fd = transform(Flat{}, [&](auto) { return st[perm[kd++]]; });
  if constexpr (is_tuple_v<P>) return make_layout(unflatten(fs, P{}), unflatten(fd, P{}));
  else return make_layout(get<0>(fs), get<0>(fd));
}

template <class L>
std::vector<long> image(L const& l) {
  std::vector<long> v;
  for (int i = 0; i < int(size(l)); ++i) v.push_back(long(l(i)));
  return v;
}

template <class P>
void check_evaluation_and_coalesce(unsigned seed) {
  Gen g(seed);
  for (int n = 0; n < kLayoutsPerProfile; ++n) {
    auto l = random_layout<P>(g, 5, 40);
    auto c = coalesce(l);
    static_assert(decltype(depth(c))::value <= 1, "coalesce: result deeper than 1");
    for (int i = 0; i < int(size(l)); ++i) {
      ASSERT_EQ(c(i), l(i)) << str(l) << " coalesced to " << str(c) << " at " << i;
      ASSERT_EQ(l(i), l(idx2crd(i, l.shape()))) << str(l);
      ASSERT_EQ(crd2idx(idx2crd(i, l.shape()), l.shape()), i) << str(l);
    }
    ASSERT_EQ(int(size(c)), int(size(l)));
  }
}

TEST(AlgebraLawsDynamic, EvaluationAndCoalesce) {
  check_evaluation_and_coalesce<ProfileA>(1);
  check_evaluation_and_coalesce<ProfileB>(2);
  check_evaluation_and_coalesce<ProfileC>(3);
  check_evaluation_and_coalesce<ProfileD>(4);
  check_evaluation_and_coalesce<ProfileE>(5);
}

template <class PA, class PB>
void check_composition(unsigned seed) {
  Gen g(seed);
  for (int n = 0; n < kLayoutsPerProfile; ++n) {
    auto a = make_layout(fill<PA>([&] { return g.pow2(3); }), fill<PA>([&] { return g.uniform(0, 30); }));
    auto b = random_disjoint_pow2_layout<PB>(g, 2);
    auto r = composition(a, b);
    ASSERT_TRUE(bool(compatible(b.shape(), r.shape()))) << str(a) << " o " << str(b) << " = " << str(r);
    auto ca = coalesce(a);
    for (int i = 0; i < int(size(b)); ++i) {
      if (int(b(i)) < int(size(a))) {
        ASSERT_EQ(r(i), a(b(i))) << str(a) << " o " << str(b) << " = " << str(r) << " at " << i;
      }
      ASSERT_EQ(r(i), ca(b(i))) << str(a) << " o " << str(b) << " = " << str(r) << " at " << i;
    }
  }
}

TEST(AlgebraLawsDynamic, CompositionIsFunctionComposition) {
  check_composition<ProfileB, ProfileA>(11);
  check_composition<ProfileC, ProfileB>(12);
  check_composition<ProfileD, ProfileC>(13);
  check_composition<ProfileE, ProfileB>(14);
  check_composition<ProfileA, ProfileD>(15);
}

// Rank-1 dynamic complement (dynamic strides are rank-1 only, as in CuTe).
TEST(AlgebraLawsDynamic, ComplementRankOne) {
  Gen g(21);
  for (int n = 0; n < 4 * kLayoutsPerProfile; ++n) {
    int s = g.uniform(2, 8);
    int d = g.uniform(1, 6);
    int m = s * d * g.uniform(1, 4);
    auto a = make_layout(s, d);
    auto c = complement(a, m);
    // disjoint: the images meet only at 0; together injective; they cover [0, m).
    auto ai = image(a);
    auto ci = image(c);
    std::set<long> all;
    for (long x : ai)
      for (long y : ci) {
        ASSERT_TRUE(all.insert(x + y).second) << str(a) << " complement " << str(c) << " not injective";
      }
    for (long k = 0; k < m; ++k) ASSERT_TRUE(all.count(k)) << str(a) << " complement " << str(c) << " misses " << k;
    // ordered: strides of the complement increase
    auto cs = flatten_to_tuple(c.stride());
    auto csh = flatten_to_tuple(c.shape());
    long prev = -1;
    for_each(zip(csh, cs), [&](auto const& sd) {
      if (long(get<0>(sd)) > 1) {
        ASSERT_GT(long(get<1>(sd)), prev) << str(c) << " not ordered";
        prev = long(get<1>(sd));
      }
    });
  }
}

template <class PA>
void check_logical_divide(unsigned seed) {
  Gen g(seed);
  for (int n = 0; n < kLayoutsPerProfile; ++n) {
    auto a = make_layout(fill<PA>([&] { return g.pow2(3); }), fill<PA>([&] { return g.uniform(0, 50); }));
    auto b = make_layout(g.pow2(2), g.pow2(2));
    if (int(cosize(b)) > int(size(a))) continue;
    auto r = logical_divide(a, b);
    static_assert(decltype(rank(r))::value == 2, "logical_divide: result must be (tile, rest)");
    auto bc = complement(b, size(a));
    ASSERT_EQ(int(size<0>(r)), int(size(b)));
    ASSERT_EQ(int(size<1>(r)), int(size(bc)));
    for (int i = 0; i < int(size<0>(r)); ++i)
      for (int j = 0; j < int(size<1>(r)); ++j) {
        ASSERT_EQ(r(i, j), a(b(i) + bc(j))) << str(a) << " / " << str(b) << " = " << str(r);
      }
    // the tile mode is A o B
    auto t = composition(a, b);
    for (int i = 0; i < int(size(b)); ++i) ASSERT_EQ(layout<0>(r)(i), t(i));
  }
}

TEST(AlgebraLawsDynamic, LogicalDivideModeStructure) {
  check_logical_divide<ProfileA>(31);
  check_logical_divide<ProfileB>(32);
  check_logical_divide<ProfileC>(33);
  check_logical_divide<ProfileE>(34);
}

TEST(AlgebraLawsDynamic, ZippedTiledFlatDivideAreRegroupings) {
  Gen g(41);
  for (int n = 0; n < kLayoutsPerProfile; ++n) {
    auto a = make_layout(fill<ProfileB>([&] { return g.pow2(4); }), fill<ProfileB>([&] { return g.uniform(1, 100); }));
    auto tiler = make_shape(_2{}, _4{});
    if (int(size<0>(a)) < 2 || int(size<1>(a)) < 4) continue;
    auto ld = logical_divide(a, tiler);
    auto zd = zipped_divide(a, tiler);
    auto td = tiled_divide(a, tiler);
    auto fd = flat_divide(a, tiler);
    int r0 = int(size<0, 1>(ld));
    int r1 = int(size<1, 1>(ld));
    for (int i0 = 0; i0 < 2; ++i0)
      for (int i1 = 0; i1 < 4; ++i1)
        for (int j0 = 0; j0 < r0; ++j0)
          for (int j1 = 0; j1 < r1; ++j1) {
            auto v = ld(make_coord(i0, j0), make_coord(i1, j1));
            ASSERT_EQ(zd(make_coord(i0, i1), make_coord(j0, j1)), v);
            ASSERT_EQ(td(make_coord(i0, i1), j0, j1), v);
            ASSERT_EQ(fd(i0, i1, j0, j1), v);
            // the tile (i0,i1) of tile (j0,j1) is element (i0 + 2 j0, i1 + 4 j1) of A
            ASSERT_EQ(v, a(i0 + 2 * j0, i1 + 4 * j1));
          }
  }
}

TEST(AlgebraLawsDynamic, SlicingAgreesWithEvaluation) {
  Gen g(51);
  for (int n = 0; n < kLayoutsPerProfile; ++n) {
    auto t = random_layout<ProfileC>(g, 5, 30);
    for (int i = 0; i < int(size<0>(t)); ++i)
      for (int j = 0; j < int(size<1>(t)); ++j) {
        ASSERT_EQ(t(i, _)(j) + t(i, 0), t(i, j)) << str(t);
        auto [s, off] = slice_and_offset(make_coord(i, _), t);
        ASSERT_EQ(s(j) + off, t(i, j)) << str(t);
        ASSERT_EQ(t(_, j)(i) + t(0, j), t(i, j)) << str(t);
      }
    auto t4 = random_layout<ProfileD>(g, 4, 30);
    for (int a = 0; a < int(size<1>(t4)); ++a)
      for (int b = 0; b < int(size<2>(t4)); ++b)
        for (int i = 0; i < int(size<0>(t4)); ++i) {
          auto [s, off] = slice_and_offset(make_coord(_, a, b), t4);
          ASSERT_EQ(s(i) + off, t4(i, a, b)) << str(t4);
        }
  }
}

// domain_offset(c, L) = (L', k) with L'(x) + k == L(c + x) wherever c + x is
// a coordinate; for a swizzled Sw o off o L the offset stays under the swizzle
// (k == 0), and slice_and_offset of it keeps the same law as a plain layout's.
TEST(AlgebraLawsDynamic, DomainOffsetMovesTheOrigin) {
  Gen g(53);
  for (int n = 0; n < kLayoutsPerProfile; ++n) {
    auto t = random_layout<ProfileC>(g, 5, 30);
    int const s0 = int(size<0>(t)), s10 = int(size<1, 0>(t)), s11 = int(size<1, 1>(t));
    auto const c = make_coord(g.uniform(0, s0 - 1), make_coord(g.uniform(0, s10 - 1), g.uniform(0, s11 - 1)));
    auto sw = composition(Swizzle<2, 1, 3>{}, g.uniform(0, 40), t);
    auto [lo, k] = domain_offset(c, t);
    auto [slo, sk] = domain_offset(c, sw);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(sk)>, _0>);
    for (int x0 = 0; get<0>(c) + x0 < s0; ++x0)
      for (int x10 = 0; get<1, 0>(c) + x10 < s10; ++x10)
        for (int x11 = 0; get<1, 1>(c) + x11 < s11; ++x11) {
          auto const x = make_coord(x0, make_coord(x10, x11));
          auto const cx = make_coord(get<0>(c) + x0, make_coord(get<1, 0>(c) + x10, get<1, 1>(c) + x11));
          ASSERT_EQ(lo(x) + k, t(cx)) << str(t);
          ASSERT_EQ(slo(x) + sk, sw(cx)) << str(sw);
        }
    for (int i = 0; i < s0; ++i)
      for (int j = 0; j < s10 * s11; ++j) {
        auto [ss, soff] = slice_and_offset(make_coord(i, _), sw);
        ASSERT_EQ(ss(j) + soff, sw(i, j)) << str(sw);
      }
  }
}

TEST(AlgebraLawsDynamic, LogicalProductModeStructure) {
  Gen g(61);
  for (int n = 0; n < kLayoutsPerProfile; ++n) {
    auto a = make_layout(g.pow2(3), g.pow2(2));
    auto b = random_disjoint_pow2_layout<ProfileB>(g, 2);
    auto r = logical_product(a, b);
    auto c = complement(a, size(a) * cosize(b));
    ASSERT_EQ(int(size<0>(r)), int(size(a))) << str(a) << " x " << str(b) << " = " << str(r);
    ASSERT_EQ(int(size<1>(r)), int(size(b))) << str(a) << " x " << str(b) << " = " << str(r);
    for (int i = 0; i < int(size(a)); ++i)
      for (int j = 0; j < int(size(b)); ++j) {
        ASSERT_EQ(r(i, j), a(i) + c(b(j))) << str(a) << " x " << str(b) << " = " << str(r);
      }
  }
}

TEST(AlgebraLawsDynamic, RecastRoundTrip) {
  Gen g(71);
  for (int n = 0; n < kLayoutsPerProfile; ++n) {
    int m = g.uniform(1, 8);
    int k = 8 * g.uniform(1, 8);
    int ld = k + 8 * g.uniform(0, 4);
    auto l = make_layout(make_shape(m, k), make_stride(ld, _1{}));
    auto up = upcast<8>(l);
    auto down = downcast<8>(up);
    ASSERT_EQ(int(size(up)) * 8, int(size(l)));
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < k; ++j) {
        ASSERT_EQ(up(i, j / 8) * 8 + j % 8, l(i, j)) << str(l) << " -> " << str(up);
        ASSERT_EQ(down(i, j), l(i, j)) << str(down);
      }
  }
}

}  // namespace
