// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Zip tensors (make_zip_tensor) and lazy element-wise views (lazy::transform).
// Laws: z(c) refers to (t0(c), t1(c)); a view of a zip (slice, local_tile,
// local_partition) is the zip of the components' views;
// lazy::transform(t, f)(c) == f(t(c)), and a view of it is the lazy view of
// t's view.

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "tessera/tensor.hpp"
#include "host_test.hpp"

using namespace tessera;

namespace {

using tessera::test::random_floats;
using tessera::test::str;

// Every element of the zip view refers to the objects the components' own
// views refer to, and unzipping it gives those views (pointer and layout).
template <class Z, class A, class B>
void expect_zip_of(Z const& zv, A const& av, B const& bv) {
  int const n = int(size(zv));
  ASSERT_EQ(n, int(size(av)));
  ASSERT_EQ(n, int(size(bv)));
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(&get<0>(zv(i)), &av(i)) << "i=" << i;
    ASSERT_EQ(&get<1>(zv(i)), &bv(i)) << "i=" << i;
  }
  auto parts = unzip_tensor(zv);
  EXPECT_EQ(raw_pointer_cast(get<0>(parts).data()), raw_pointer_cast(av.data()));
  EXPECT_EQ(raw_pointer_cast(get<1>(parts).data()), raw_pointer_cast(bv.data()));
  EXPECT_EQ(str(get<0>(parts).layout()), str(av.layout()));
  EXPECT_EQ(str(get<1>(parts).layout()), str(bv.layout()));
}

// lv(i) == f(tv(i)) for every index, and the view's layout is tv's.
template <class LV, class TV, class F>
void expect_lazy_of(LV const& lv, TV const& tv, F const& f) {
  int const n = int(size(lv));
  ASSERT_EQ(n, int(size(tv)));
  for (int i = 0; i < n; ++i) ASSERT_EQ(lv(i), f(tv(i))) << "i=" << i;
  EXPECT_EQ(str(lv.layout()), str(tv.layout()));
}

// Slices along each mode, every local_tile of `tiler` and every thread's
// local_partition by `thr`, of a zip of (tA, tB) against the same views of
// tA and tB.
template <class TA, class TB, class Tiler, class Thr>
void expect_zip_views(TA const& tA, TB const& tB, Tiler const& tiler, Thr const& thr) {
  auto z = make_zip_tensor(tA, tB);
  expect_zip_of(z, tA, tB);
  for (int j = 0; j < int(size<1>(tA)); ++j) expect_zip_of(z(_, j), tA(_, j), tB(_, j));
  for (int i = 0; i < int(size<0>(tA)); ++i) expect_zip_of(z(i, _), tA(i, _), tB(i, _));
  int const tiles_m = int(size<0>(tA)) / int(get<0>(tiler));
  int const tiles_n = int(size<1>(tA)) / int(get<1>(tiler));
  for (int bm = 0; bm < tiles_m; ++bm)
    for (int bn = 0; bn < tiles_n; ++bn) {
      auto blk = make_coord(bm, bn);
      expect_zip_of(local_tile(z, tiler, blk), local_tile(tA, tiler, blk), local_tile(tB, tiler, blk));
    }
  for (int t = 0; t < int(size(thr)); ++t)
    expect_zip_of(local_partition(z, thr, t), local_partition(tA, thr, t), local_partition(tB, thr, t));
}

template <class T, class F>
void expect_lazy_views(T const& t, F const& f) {
  auto lt = lazy::transform(t, f);
  expect_lazy_of(lt, t, f);
  for (int j = 0; j < int(size<1>(t)); ++j) expect_lazy_of(lt(_, j), t(_, j), f);
  for (int i = 0; i < int(size<0>(t)); ++i) expect_lazy_of(lt(i, _), t(i, _), f);
  auto tiler = make_shape(Int<2>{}, Int<4>{});
  for (int bm = 0; bm < int(size<0>(t)) / 2; ++bm)
    for (int bn = 0; bn < int(size<1>(t)) / 4; ++bn)
      expect_lazy_of(local_tile(lt, tiler, make_coord(bm, bn)), local_tile(t, tiler, make_coord(bm, bn)), f);
  auto thr = Layout<Shape<_2, _2>>{};
  for (int k = 0; k < 4; ++k) expect_lazy_of(local_partition(lt, thr, k), local_partition(t, thr, k), f);
}

}  // namespace

// ---- make_zip_tensor ---------------------------------------------------------

TEST(ZipTensor, TypesFollowTheComponents) {
  float a[32];
  int b[32];
  auto z = make_zip_tensor(make_tensor(a, Layout<Shape<_4, _8>>{}), make_tensor(b, Layout<Shape<_4, _8>>{}));
  static_assert(std::is_same_v<decltype(z)::value_type, tuple<float, int>>);
  static_assert(std::is_same_v<std::tuple_element_t<0, decltype(z(0))>, float&>);
  static_assert(std::is_same_v<std::tuple_element_t<1, decltype(z(0))>, int&>);
  static_assert(std::is_same_v<decltype(get<1>(z(0))), int&>);
  static_assert(decltype(rank(z))::value == 2 && decltype(size(z))::value == 32);
  EXPECT_EQ(int(z.size()), 32);
  EXPECT_EQ(str(z.layout()), "zip((_4,_8):(_1,_4),(_4,_8):(_1,_4))");
  static_assert(is_gmem_v<decltype(make_zip_tensor(make_tensor(make_gmem_ptr(a), Layout<_4>{}),
                                                   make_tensor(make_gmem_ptr(b), Layout<_4>{})).data())>);
  static_assert(!is_gmem_v<decltype(make_zip_tensor(make_tensor(make_gmem_ptr(a), Layout<_4>{}),
                                                    make_tensor(make_smem_ptr(b), Layout<_4>{})).data())>);
}

TEST(ZipTensor, ReadsAndWritesReachTheComponents) {
  std::vector<float> a = random_floats(32, 1);
  std::vector<int> b(32);
  for (int i = 0; i < 32; ++i) b[i] = 1000 + 7 * i;
  auto tA = make_tensor(a.data(), Layout<Shape<_4, _8>>{});                 // column-major
  auto tB = make_tensor(b.data(), Layout<Shape<_4, _8>, Stride<_8, _1>>{});  // row-major
  auto z = make_zip_tensor(tA, tB);

  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      tuple<float, int> v = z(i, j);
      ASSERT_EQ(get<0>(v), a[i + 4 * j]);
      ASSERT_EQ(get<1>(v), b[8 * i + j]);
    }

  // One component, both, through structured bindings, and through fill.
  get<0>(z(1, 2)) = -5.0f;
  EXPECT_EQ(a[1 + 4 * 2], -5.0f);
  EXPECT_EQ(b[8 * 1 + 2], 1000 + 7 * 10);
  z(3, 7) = make_tuple(2.5f, -9);
  EXPECT_EQ(a[3 + 4 * 7], 2.5f);
  EXPECT_EQ(b[8 * 3 + 7], -9);
  auto [x, y] = z(2, 0);
  x = 11.0f;
  y = 12;
  EXPECT_EQ(a[2], 11.0f);
  EXPECT_EQ(b[16], 12);
  // Assigning one zip element to another copies values, it does not rebind.
  z(0, 0) = z(3, 7);
  EXPECT_EQ(a[0], 2.5f);
  EXPECT_EQ(b[0], -9);
  EXPECT_EQ(a[3 + 4 * 7], 2.5f);

  fill(z(_, 5), make_tuple(0.5f, 77));
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(a[i + 4 * 5], 0.5f);
    EXPECT_EQ(b[8 * i + 5], 77);
  }
  EXPECT_EQ(b[8 * 0 + 4], 1000 + 7 * 4) << "fill of column 5 touched column 4";
}

TEST(ZipTensor, OwningFragmentsAndCopy) {
  auto rA = make_tensor<float>(Layout<Shape<_4, _4>>{});
  auto rB = make_tensor<std::int16_t>(Layout<Shape<_4, _4>, Stride<_4, _1>>{});
  auto zr = make_zip_tensor(rA, rB);
  for (int i = 0; i < 16; ++i) zr(i) = make_tuple(float(i) + 0.25f, std::int16_t(-i));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(rA(i, j), float(i + 4 * j) + 0.25f);
      EXPECT_EQ(rB(i, j), -(i + 4 * j));
    }

  // copy() between zips moves every component (element-wise: the proxies
  // are not addresses); a zip of other element types converts.
  std::vector<double> da(16, -1.0);
  std::vector<int> db(16, 123);
  auto zd = make_zip_tensor(make_tensor(da.data(), make_shape(4, 4)), make_tensor(db.data(), make_shape(4, 4)));
  copy(zr, zd);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(da[i], double(i) + 0.25);
    EXPECT_EQ(db[i], -i);
  }
  // transform over a zip: the element is the proxy, read both parts.
  std::vector<float> sum(16, 0.0f);
  auto tSum = make_tensor(sum.data(), make_shape(4, 4));
  transform(zr, tSum, [](auto const& r) { return get<0>(r) + float(get<1>(r)); });
  for (int i = 0; i < 16; ++i) EXPECT_EQ(sum[i], 0.25f);
}

TEST(ZipTensor, StaticViewsAreZipsOfViews) {
  std::vector<float> a(32);
  std::vector<int> b(32);
  auto tA = make_tensor(a.data(), Layout<Shape<_4, _8>>{});
  auto tB = make_tensor(b.data(), Layout<Shape<_4, _8>, Stride<_8, _1>>{});
  expect_zip_views(tA, tB, make_shape(Int<2>{}, Int<4>{}), Layout<Shape<_2, _4>>{});
  // A component with a different nesting of the same mode sizes.
  auto tH = make_tensor(b.data(), Layout<Shape<Shape<_2, _2>, _8>, Stride<Stride<_16, _1>, _2>>{});
  expect_zip_views(tA, tH, make_shape(Int<2>{}, Int<4>{}), Layout<Shape<_2, _2>, Stride<_2, _1>>{});
}

TEST(ZipTensor, DynamicViewsAreZipsOfViews) {
  int const m = 6, n = 10;
  std::vector<float> a(7 * n);
  std::vector<int> b(m * 12);
  auto tA = make_tensor(a.data(), make_shape(m, n), make_stride(1, 7));    // padded column-major
  auto tB = make_tensor(b.data(), make_shape(m, n), make_stride(12, 1));   // padded row-major
  expect_zip_views(tA, tB, make_shape(Int<2>{}, Int<5>{}), Layout<Shape<_2, _5>>{});
  // Static against dynamic strides, same sizes.
  auto tS = make_tensor(b.data(), Layout<Shape<_6, _10>, Stride<_10, _1>>{});
  expect_zip_views(tA, tS, make_shape(Int<3>{}, Int<2>{}), Layout<Shape<_3, _2>, Stride<_2, _1>>{});
}

// Run-time mode sizes are checked with TESSERA_ASSERT (a debug build).
TEST(ZipTensor, DynamicShapeMismatchAsserts) {
#if defined(NDEBUG)
  GTEST_SKIP() << "TESSERA_ASSERT is compiled out under NDEBUG; build with the debug preset to run this";
#else
  std::vector<float> a(64);
  std::vector<int> b(64);
  int const n = 8, n_short = 7;
  auto tA = make_tensor(a.data(), make_shape(4, n));
  auto tB = make_tensor(b.data(), make_shape(4, n_short));
  EXPECT_DEATH(make_zip_tensor(tA, tB), "make_zip_tensor: the tensors' shapes differ in a mode size");
#endif
}

TEST(ZipTensor, LayoutAlgebraActsOnEveryComponent) {
  std::vector<float> a(64);
  std::vector<int> b(64);
  auto tA = make_tensor(a.data(), make_shape(Int<4>{}, Int<4>{}, 4), make_stride(Int<1>{}, Int<4>{}, 16));
  auto tB = make_tensor(b.data(), Layout<Shape<_4, _4, _4>, Stride<_16, _1, _4>>{});
  auto z = make_zip_tensor(tA, tB);
  auto tiler = make_shape(Int<2>{}, Int<2>{});
  expect_zip_of(logical_divide(z, tiler), logical_divide(tA, tiler), logical_divide(tB, tiler));
  expect_zip_of(zipped_divide(z, tiler), zipped_divide(tA, tiler), zipped_divide(tB, tiler));
  expect_zip_of(tiled_divide(z, tiler), tiled_divide(tA, tiler), tiled_divide(tB, tiler));
  expect_zip_of(flat_divide(z, tiler), flat_divide(tA, tiler), flat_divide(tB, tiler));
  auto tl = Layout<Shape<_2, _2>, Stride<_2, _1>>{};
  auto tt = make_tile(tl, _);
  expect_zip_of(composition(z, tt), composition(tA, tt), composition(tB, tt));
  expect_zip_of(flatten(z), flatten(tA), flatten(tB));
  expect_zip_of(group_modes<0, 2>(z), group_modes<0, 2>(tA), group_modes<0, 2>(tB));
  expect_zip_of(take<1, 3>(z), take<1, 3>(tA), take<1, 3>(tB));
  expect_zip_of(select<2, 0>(z), select<2, 0>(tA), select<2, 0>(tB));
  expect_zip_of(tensor<1>(z), tensor<1>(tA), tensor<1>(tB));
  auto c = make_coord(1, 2, 3);
  expect_zip_of(domain_offset(c, z), domain_offset(c, tA), domain_offset(c, tB));
  static_assert(decltype(rank(flat_divide(z, tiler)))::value == 5);
  EXPECT_EQ(int(size<2>(z)), 4);
  EXPECT_EQ(int(depth(zipped_divide(z, tiler))), 2);
}

TEST(ZipTensor, LocalTileWithProjection) {
  int const m = 8, k = 12;
  std::vector<float> a(m * k);
  std::vector<float> s(m * k);
  auto mA = make_tensor(a.data(), make_shape(m, k), make_stride(k, 1));  // (M,K)
  auto mS = make_tensor(s.data(), make_shape(m, k), make_stride(1, 0));  // (M,K): one scale per row, K broadcast
  auto z = make_zip_tensor(mA, mS);
  auto cta_tiler = make_shape(Int<4>{}, Int<2>{}, Int<3>{});  // (BLK_M,BLK_N,BLK_K)
  for (int bm = 0; bm < 2; ++bm) {
    auto coord = make_coord(bm, 0, _);
    auto zA = local_tile(z, cta_tiler, coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
    auto gA = local_tile(mA, cta_tiler, coord, Step<_1, X, _1>{});
    auto gS = local_tile(mS, cta_tiler, coord, Step<_1, X, _1>{});
    static_assert(decltype(rank(zA))::value == 3);
    expect_zip_of(zA, gA, gS);
    for (int kt = 0; kt < 4; ++kt) expect_zip_of(zA(_, _, kt), gA(_, _, kt), gS(_, _, kt));
  }
}

TEST(ZipTensor, SwizzledComponent) {
  alignas(256) float smem[64];
  std::vector<int> b(64);
  // Sw<2,1,3> o (8,8):(8,1) over shared memory, beside a plain column-major tile.
  auto sA = make_tensor(make_smem_ptr(smem), composition(Swizzle<2, 1, 3>{}, Layout<Shape<_8, _8>, Stride<_8, _1>>{}));
  auto tB = make_tensor(b.data(), Layout<Shape<_8, _8>>{});
  auto z = make_zip_tensor(sA, tB);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(&get<0>(z(i)), &sA(i)) << i;
  expect_zip_views(sA, tB, make_shape(Int<4>{}, Int<4>{}), Layout<Shape<_2, _4>>{});
  expect_zip_views(sA, tB, make_shape(Int<2>{}, Int<8>{}), Layout<Shape<_4, _2>, Stride<_2, _1>>{});
  // The same function over one-bit modes: a slice is then a plain layout
  // (the swizzle is linear on it) with the pointer moved, and the zip's
  // component must be that same plain view, e.g. sB(_, 5) == ((_2,_2,_2)):((_1,2,-4)).
  auto sB = make_tensor(make_smem_ptr(smem),
                        composition(Swizzle<2, 1, 3>{}, Layout<Shape<Shape<_2, _2, _2>, Shape<_2, _2, _2>>,
                                                               Stride<Stride<_1, _2, _4>, Stride<_8, _16, _32>>>{}));
  EXPECT_EQ(str(sB(_, 5).layout()), "((_2,_2,_2)):((_1,2,-4))");
  expect_zip_views(sB, tB, make_shape(Int<4>{}, Int<4>{}), Layout<Shape<_2, _4>>{});
}

TEST(ZipTensor, WithAnIdentityTensor) {
  int const m = 6, n = 10;
  std::vector<float> a(m * n);
  for (int i = 0; i < m * n; ++i) a[i] = float(i);
  auto mA = make_tensor(a.data(), make_shape(m, n));
  auto z = make_zip_tensor(mA, make_identity_tensor(shape(mA)));
  auto tiler = make_shape(Int<3>{}, Int<5>{});
  for (int bm = 0; bm < 2; ++bm)
    for (int bn = 0; bn < 2; ++bn) {
      auto zt = local_tile(z, tiler, make_coord(bm, bn));
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 5; ++j) {
          auto c = get<1>(zt(i, j));
          ASSERT_EQ(int(get<0>(c)), 3 * bm + i);
          ASSERT_EQ(int(get<1>(c)), 5 * bn + j);
          ASSERT_EQ(get<0>(zt(i, j)), float(get<0>(c) + m * get<1>(c)));
        }
    }
}

TEST(ZipTensor, PrintsItsComponents) {
  int a[4] = {0, 1, 2, 3};
  int b[4] = {10, 11, 12, 13};
  auto z = make_zip_tensor(make_tensor(a, Layout<Shape<_2, _2>>{}), make_tensor(b, Layout<Shape<_2, _2>, Stride<_2, _1>>{}));
  testing::internal::CaptureStdout();
  print_tensor(z, false);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "  (0,10)  (2,11)\n  (1,12)  (3,13)\n");
  std::string const s = str(z);
  EXPECT_EQ(s.rfind("zip(ptr[32b](", 0), 0u) << s;
  EXPECT_NE(s.find(") o zip((_2,_2):(_1,_2),(_2,_2):(_2,_1))"), std::string::npos) << s;
}

// ---- lazy::transform -----------------------------------------------------------

TEST(LazyTransform, ReadsMatchAnEagerTransform) {
  auto f = [](float x) { return 2.0f * x + 1.0f; };
  std::vector<float> a = random_floats(7 * 10, 2);
  auto tS = make_tensor(a.data(), Layout<Shape<_4, _8>, Stride<_8, _1>>{});
  auto tD = make_tensor(a.data(), make_shape(6, 10), make_stride(1, 7));
  {
    auto eager = make_tensor<float>(Layout<Shape<_4, _8>>{});
    transform(tS, eager, f);
    auto lz = lazy::transform(tS, f);
    static_assert(std::is_same_v<decltype(lz)::value_type, float>);
    for (int i = 0; i < 32; ++i) ASSERT_EQ(lz(i), eager(i)) << i;
    // copy() of a lazy view materialises it.
    auto out = make_tensor<float>(Layout<Shape<_4, _8>>{});
    copy(lz, out);
    for (int i = 0; i < 32; ++i) ASSERT_EQ(out(i), eager(i)) << i;
  }
  {
    std::vector<float> e(60, 0.0f);
    auto eager = make_tensor(e.data(), make_shape(6, 10));
    transform(tD, eager, f);
    auto lz = lazy::transform(tD, f);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 10; ++j) ASSERT_EQ(lz(i, j), eager(i, j)) << i << "," << j;
  }
  // No copy: a change to the source shows through.
  auto lz = lazy::transform(tS, f);
  a[8 * 1 + 3] = 4.0f;
  EXPECT_EQ(lz(1, 3), 9.0f);
}

TEST(LazyTransform, ViewsAreLazyViewsOfViews) {
  auto f = [](float x) { return x * x - 0.5f; };
  std::vector<float> a = random_floats(8 * 12, 3);
  expect_lazy_views(make_tensor(a.data(), Layout<Shape<_4, _8>>{}), f);
  expect_lazy_views(make_tensor(a.data(), make_shape(6, 8), make_stride(12, 1)), f);
  alignas(256) float smem[64];
  for (int i = 0; i < 64; ++i) smem[i] = a[i];
  auto sA = make_tensor(make_smem_ptr(smem), composition(Swizzle<2, 1, 3>{}, Layout<Shape<_8, _8>, Stride<_8, _1>>{}));
  expect_lazy_views(sA, f);
  auto sB = make_tensor(make_smem_ptr(smem),
                        composition(Swizzle<2, 1, 3>{}, Layout<Shape<Shape<_2, _2, _2>, Shape<_2, _2, _2>>,
                                                               Stride<Stride<_1, _2, _4>, Stride<_8, _16, _32>>>{}));
  expect_lazy_views(sB, f);
  std::string const s = str(lazy::transform(make_tensor(a.data(), Layout<Shape<_4, _8>>{}), f));
  EXPECT_EQ(s.rfind("trans_ptr[32b](", 0), 0u) << s;
  EXPECT_NE(s.find(") o (_4,_8):(_1,_4)"), std::string::npos) << s;
}

TEST(LazyTransform, PredicatesFromAnIdentityTensor) {
  int const m = 6, n = 10;
  std::vector<float> a(m * n);
  for (int i = 0; i < m * n; ++i) a[i] = float(i) + 0.5f;
  auto mA = make_tensor(a.data(), make_shape(m, n));
  auto cA = make_identity_tensor(shape(mA));
  auto tiler = make_shape(Int<4>{}, Int<4>{});
  for (int bm = 0; bm < 2; ++bm)
    for (int bn = 0; bn < 3; ++bn) {
      auto blk = make_coord(bm, bn);
      auto gA = local_tile(mA, tiler, blk);  // (4,4), partly outside mA at the edges
      auto cAt = local_tile(cA, tiler, blk);
      auto pA = lazy::transform(cAt, [&](auto const& c) { return bool(elem_less(c, shape(mA))); });
      auto rA = make_tensor<float>(Layout<Shape<_4, _4>>{});
      fill(rA, -1.0f);
      copy_if(pA, gA, rA);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          int const gi = 4 * bm + i, gj = 4 * bn + j;
          if (gi < m && gj < n) ASSERT_EQ(rA(i, j), a[gi + m * gj]) << gi << "," << gj;
          else ASSERT_EQ(rA(i, j), -1.0f) << gi << "," << gj;
        }
    }
}

TEST(LazyTransform, AReferenceResultIsWritable) {
  struct Pair {
    float x;
    int y;
  };
  Pair p[8];
  for (int i = 0; i < 8; ++i) p[i] = {float(i), 10 * i};
  auto tP = make_tensor(p, Layout<Shape<_2, _4>>{});
  auto xs = lazy::transform(tP, [](Pair& q) -> float& { return q.x; });
  static_assert(std::is_same_v<decltype(xs(0)), float&>);
  fill(xs(_, 1), 7.5f);
  EXPECT_EQ(p[2].x, 7.5f);
  EXPECT_EQ(p[3].x, 7.5f);
  EXPECT_EQ(p[4].x, 4.0f);
  EXPECT_EQ(p[2].y, 20);
}

TEST(LazyTransform, OverAZip) {
  std::vector<float> a = random_floats(32, 4);
  std::vector<float> s = random_floats(4, 5);
  auto tA = make_tensor(a.data(), Layout<Shape<_4, _8>>{});
  auto tS = make_tensor(s.data(), Layout<Shape<_4, _8>, Stride<_1, _0>>{});  // one scale per row
  auto scaled = lazy::transform(make_zip_tensor(tA, tS), [](auto const& r) { return get<0>(r) * get<1>(r); });
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) ASSERT_EQ(scaled(i, j), a[i + 4 * j] * s[i]) << i << "," << j;
  auto blk = local_tile(scaled, make_shape(Int<2>{}, Int<4>{}), make_coord(1, 1));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) ASSERT_EQ(blk(i, j), a[(2 + i) + 4 * (4 + j)] * s[2 + i]);
}
