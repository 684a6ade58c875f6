// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// copy / copy_if / fill / clear / transform / axpby / gemm on host tensors with
// random values, against plain loops.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tessera/atom/numeric.hpp"
#include "tessera/tensor.hpp"

#include "host_test.hpp"

using namespace tessera;

namespace {

using tessera::test::random_floats;

// A recording atom: one call per value-mode slice, checks what it was handed.
struct CountingCopyAtom {
  int* calls;
  template <class S, class D>
  void call(S const& src, D&& dst) const {
    ++*calls;
    for (int i = 0; i < int(size(dst)); ++i) dst(i) = src(i) + 1000.0f;
  }
};

// d(v) = a(v) * b(v) + c(v), counting calls: behaves like UniversalFMA.
struct CountingFMA {
  int* calls;
  template <class TD, class TA, class TB, class TC>
  void call(TD&& d, TA const& a, TB const& b, TC const& c) const {
    ++*calls;
    for (int v = 0; v < int(size(d)); ++v) d(v) = a(v) * b(v) + c(v);
  }
};

}  // namespace

TEST(TensorCopy, VectorWidthChoice) {
  using F = float;
  using ContigS = decltype(make_tensor(std::declval<F*>(), Layout<Shape<_8, _4>>{}));
  using ContigD = decltype(make_tensor(std::declval<F*>(), Layout<Shape<_8, _4>>{}));
  using Transp = decltype(make_tensor(std::declval<F*>(), Layout<Shape<_8, _4>, Stride<_4, _1>>{}));
  using Pair = decltype(make_tensor(std::declval<F*>(), Layout<Shape<_2, _16>, Stride<_1, _4>>{}));
  using H = decltype(make_tensor(std::declval<std::uint16_t*>(), Layout<Shape<_64, _2>>{}));
  static_assert(detail::static_vector_width<ContigS, ContigD>() == 4, "32 contiguous floats: 128-bit accesses");
  static_assert(detail::static_vector_width<ContigS, Transp>() == 1, "transpose: element-wise");
  static_assert(detail::static_vector_width<Pair, ContigD>() == 2, "runs of two: 64-bit accesses");
  static_assert(detail::static_vector_width<H, H>() == 8, "16-bit elements: 8 per 128-bit access");
  static_assert(detail::static_vector_width<Transp, Transp>() == 4, "both transposed: walk the K-contiguous mode first");
  // The plan behind it: same static shapes are walked in the order of the common contiguous modes.
  constexpr auto plan = detail::make_vector_plan<Layout<Shape<_8, _4>, Stride<_4, _1>>, Layout<Shape<_8, _4>, Stride<_4, _1>>>();
  static_assert(plan.permute && plan.run == 32 && plan.order[0] == 1 && plan.order[1] == 0);
  constexpr auto plan2 = detail::make_vector_plan<Layout<Shape<_8, _4>>, Layout<Shape<_8, _4>, Stride<_4, _1>>>();
  static_assert(plan2.run == 1, "column-major against row-major has no common run");
  using Dyn = decltype(make_tensor(std::declval<F*>(), make_shape(Int<8>{}, 4), make_stride(Int<1>{}, 8)));
  static_assert(detail::static_vector_width<Dyn, Dyn>() == 4, "static leading mode, dynamic rest: 128-bit");
}

TEST(TensorCopy, RandomValuesManyLayouts) {
  auto src_buf = random_floats(4096, 1);
  std::vector<float> dst_buf(4096);
  auto run = [&](auto const& src, auto&& dst) {
    std::fill(dst_buf.begin(), dst_buf.end(), 1e30f);
    copy(src, dst);
    for (int i = 0; i < int(size(src)); ++i) ASSERT_EQ(dst(i), src(i)) << "i=" << i;
  };
  float* s = src_buf.data();
  float* d = dst_buf.data();
  run(make_tensor(s, Layout<Shape<_16, _8>>{}), make_tensor(d, Layout<Shape<_16, _8>>{}));           // vectorised
  run(make_tensor(s, Layout<Shape<_16, _8>>{}), make_tensor(d, Layout<Shape<_16, _8>, Stride<_8, _1>>{}));  // transpose
  run(make_tensor(s + 1, Layout<Shape<_16, _8>>{}), make_tensor(d, Layout<Shape<_16, _8>>{}));       // misaligned src
  run(make_tensor(s, Layout<Shape<_16, _8>, Stride<_8, _1>>{}),                                      // both row-major
      make_tensor(d, Layout<Shape<_16, _8>, Stride<_8, _1>>{}));
  run(make_tensor(s, make_shape(Int<8>{}, 9), make_stride(Int<1>{}, 10)),                            // odd ld: fallback
      make_tensor(d, make_shape(Int<8>{}, 9)));
  run(make_tensor(s, make_shape(12, 7), make_stride(1, 13)), make_tensor(d, make_shape(12, 7)));      // dynamic
  run(make_tensor(make_gmem_ptr(s), Layout<Shape<_8, _8>, Stride<_1, _9>>{}),                        // padded rows
      make_tensor(make_smem_ptr(d), Layout<Shape<_8, _8>>{}));
  // Untouched elements stay poisoned: only the view is written.
  std::fill(dst_buf.begin(), dst_buf.end(), 1e30f);
  copy(make_tensor(s, Layout<_4>{}), make_tensor(d, Layout<_4, _2>{}));
  EXPECT_EQ(d[1], 1e30f);
  EXPECT_EQ(d[6], s[3]);
  // Into and out of a register fragment (recast-able: 16-byte aligned storage).
  auto frag = make_tensor<float>(Layout<Shape<_4, _4>>{});
  copy(make_tensor(s, Layout<Shape<_4, _4>>{}), frag);
  for (int i = 0; i < 16; ++i) ASSERT_EQ(frag(i), s[i]);
  // Converting copy (float -> double) goes element-wise.
  auto fd = make_tensor<double>(Layout<Shape<_4, _4>>{});
  copy(frag, fd);
  for (int i = 0; i < 16; ++i) ASSERT_EQ(fd(i), double(s[i]));
}

TEST(TensorCopy, ThroughSwizzledSmem) {
  auto src_buf = random_floats(64 * 8 * 2, 7);
  std::vector<std::uint16_t> src16(src_buf.size());
  for (std::size_t i = 0; i < src16.size(); ++i) src16[i] = std::uint16_t(std::uint32_t(src_buf[i] * 30000.0f + 40000.0f));
  alignas(1024) static std::uint16_t smem[64 * 8 * 2];
  std::fill(std::begin(smem), std::end(smem), std::uint16_t(0xdead));
  auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  auto sL = tile_to_shape(atom, make_shape(Int<16>{}, Int<64>{}));
  Tensor sA = make_tensor(make_smem_ptr(smem), sL);                                       // (16,64) swizzled
  // The same (16,64) tile row-major in gmem, written with sA's mode structure so
  // that copy() can pair the modes: the K-contiguous run of 8 is common to both.
  Tensor gA = make_tensor(make_gmem_ptr(src16.data()), sA.shape(),
                          make_stride(make_stride(Int<64>{}, Int<512>{}), make_stride(Int<1>{}, Int<8>{})));
  static_assert(detail::static_vector_width<decltype(gA), decltype(sA)>() == 8, "128-bit through a 3-bit-base swizzle");
  copy(gA, sA);
  for (int m = 0; m < 16; ++m)
    for (int k = 0; k < 64; ++k) ASSERT_EQ(sA(m, k), gA(m, k));
  // Every smem element was written exactly once (the swizzle is a bijection on the tile).
  for (auto v : smem) ASSERT_NE(v, 0xdead);
}

// Different static mode structures over the same domain: copy() walks their
// common refinement, so a plain row-major (16,64) tile pairs its K run with
// the swizzled tile's 8-element rows (128-bit vectors; it was element-wise).
TEST(TensorCopy, RowMajorTileIntoSwizzledSmemVectorises) {
  auto src_buf = random_floats(16 * 64, 9);
  std::vector<std::uint16_t> src16(src_buf.size());
  for (std::size_t i = 0; i < src16.size(); ++i) src16[i] = std::uint16_t(std::uint32_t(src_buf[i] * 30000.0f + 40000.0f));
  alignas(1024) static std::uint16_t smem[16 * 64];
  std::fill(std::begin(smem), std::end(smem), std::uint16_t(0xdead));
  auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  Tensor sA = make_tensor(make_smem_ptr(smem), tile_to_shape(atom, make_shape(Int<16>{}, Int<64>{})));
  Tensor gA = make_tensor(make_gmem_ptr(src16.data()), Layout<Shape<_16, _64>, Stride<_64, _1>>{});
  static_assert(detail::static_vector_width<decltype(gA), decltype(sA)>() == 8, "row-major into the 3-bit-base swizzle");
  // a run-time leading dimension keeps the static shape, so the same walk applies
  Tensor gAd = make_tensor(make_gmem_ptr(src16.data()), make_layout(make_shape(_16{}, _64{}), make_stride(64, _1{})));
  static_assert(detail::static_vector_width<decltype(gAd), decltype(sA)>() == 8);
  copy(gAd, sA);
  for (int m = 0; m < 16; ++m)
    for (int k = 0; k < 64; ++k) ASSERT_EQ(sA(m, k), gA(m, k));
  for (auto v : smem) ASSERT_NE(v, 0xdead);
}

// refine_layout keeps each layout's function, and the refined pair has one flat shape.
TEST(TensorCopy, CommonRefinementKeepsTheFunctions) {
  auto check = [](auto a, auto b, bool expect_ok) {
    using A = decltype(a);
    using B = decltype(b);
    using H = detail::refinement_holder<A, B>;
    ASSERT_EQ(H::value.ok, expect_ok) << a << " vs " << b;
    if constexpr (H::value.ok) {
      auto ra = detail::refine_layout<H, 0>(a);
      auto rb = detail::refine_layout<H, 1>(b);
      static_assert(std::is_same_v<decltype(ra.shape()), decltype(rb.shape())>);
      for (int i = 0; i < int(size(a)); ++i) {
        ASSERT_EQ(int(ra(i)), int(a(i))) << a << " refined " << ra;
        ASSERT_EQ(int(rb(i)), int(b(i))) << b << " refined " << rb;
      }
    }
  };
  check(Layout<Shape<_16, _64>, Stride<_64, _1>>{}, Layout<Shape<Shape<_8, _2>, Shape<_8, _8>>, Stride<Stride<_8, _512>, Stride<_1, _64>>>{}, true);
  check(Layout<Shape<_6, _4>>{}, Layout<Shape<_2, _12>, Stride<_12, _1>>{}, true);         // (2,3,4)
  check(Layout<Shape<_6, _4>>{}, Layout<Shape<_4, _6>>{}, false);                            // 4 does not divide 6
  check(make_layout(make_shape(_8{}, _4{}), make_stride(5, 40)), Layout<Shape<_2, _16>>{}, true);  // run-time strides
  check(Layout<Shape<_1, _32, _1>>{}, Layout<Shape<_4, _8>, Stride<_8, _1>>{}, true);       // size-1 modes skipped
  check(Layout<Shape<_4, _8>>{}, Layout<Shape<_4, _8>, Stride<_8, _1>>{}, false);            // same shape: plan as before
}

TEST(TensorCopy, CopyIfWithMask) {
  auto src_buf = random_floats(256, 3);
  std::vector<float> dst_buf(256, -7.0f);
  auto src = make_tensor(src_buf.data(), make_shape(Int<16>{}, Int<16>{}));
  auto dst = make_tensor(dst_buf.data(), make_shape(Int<16>{}, Int<16>{}));
  auto mask = make_tensor<bool>(make_shape(Int<16>{}, Int<16>{}));
  std::mt19937 rng(5);
  for (int i = 0; i < 256; ++i) mask(i) = (rng() % 3) != 0;
  copy_if(mask, src, dst);
  for (int i = 0; i < 256; ++i) ASSERT_EQ(dst(i), mask(i) ? src(i) : -7.0f) << i;
  // A predicate from an identity tensor: rows < 11 only.
  std::fill(dst_buf.begin(), dst_buf.end(), -7.0f);
  auto cS = make_identity_tensor(make_shape(Int<16>{}, Int<16>{}));
  copy_if([&](int i) { return bool(elem_less(cS(i), make_shape(11, 16))); }, src, dst);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) ASSERT_EQ(dst(m, n), m < 11 ? src(m, n) : -7.0f);
}

TEST(TensorCopy, WithAtomLoopsOverRestModes) {
  auto src_buf = random_floats(64, 11);
  std::vector<float> dst_buf(64, 0.0f);
  auto src = make_tensor(src_buf.data(), Layout<Shape<_4, _2, _8>>{});  // (V,REST_M,REST_K)
  auto dst = make_tensor(dst_buf.data(), Layout<Shape<_4, _2, _8>>{});
  int calls = 0;
  copy(CountingCopyAtom{&calls}, src, dst);
  EXPECT_EQ(calls, 16);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(dst(i), src(i) + 1000.0f);
  // Predicated on the rest coordinate.
  std::fill(dst_buf.begin(), dst_buf.end(), 0.0f);
  calls = 0;
  copy_if(CountingCopyAtom{&calls}, [](int r) { return r % 2 == 0; }, src, dst);
  EXPECT_EQ(calls, 8);
  for (int r = 0; r < 16; ++r)
    for (int v = 0; v < 4; ++v) ASSERT_EQ(dst_buf[4 * r + v], r % 2 == 0 ? src_buf[4 * r + v] + 1000.0f : 0.0f);
}

TEST(TensorElementwise, FillClearTransformAxpby) {
  auto x_buf = random_floats(96, 21);
  auto y_buf = random_floats(96, 22);
  auto y0 = y_buf;
  auto x = make_tensor(x_buf.data(), make_shape(8, 12));
  auto y = make_tensor(y_buf.data(), make_shape(8, 12));
  axpby(2.5f, x, -0.5f, y);
  for (int i = 0; i < 96; ++i) ASSERT_FLOAT_EQ(y_buf[i], 2.5f * x_buf[i] - 0.5f * y0[i]);
  // beta == 0 never reads y (NaN in y must not leak).
  std::fill(y_buf.begin(), y_buf.end(), std::numeric_limits<float>::quiet_NaN());
  axpby(3.0f, x, 0.0f, y);
  for (int i = 0; i < 96; ++i) ASSERT_FLOAT_EQ(y_buf[i], 3.0f * x_buf[i]);
  fill(y(_, 3), 4.0f);
  for (int m = 0; m < 8; ++m) ASSERT_EQ(y(m, 3), 4.0f);
  ASSERT_FLOAT_EQ(y(0, 2), 3.0f * x(0, 2));
  auto r = make_tensor<float>(Layout<Shape<_4, _4>>{});
  fill(r, 9.0f);
  clear(r);
  for (int i = 0; i < 16; ++i) ASSERT_EQ(r(i), 0.0f);
  transform(x, y, [](float v) { return v * v; });
  for (int i = 0; i < 96; ++i) ASSERT_FLOAT_EQ(y(i), x(i) * x(i));
  transform(y, [](float v) { return -v; });
  for (int i = 0; i < 96; ++i) ASSERT_FLOAT_EQ(y(i), -x(i) * x(i));
  transform(x, x, y, [](float a, float b) { return a + b; });
  for (int i = 0; i < 96; ++i) ASSERT_FLOAT_EQ(y(i), 2 * x(i));
}

TEST(TensorGemm, AllDispatchFormsAgainstReference) {
  constexpr int M = 6, N = 5, K = 7;
  auto a_buf = random_floats(M * K, 31);
  auto b_buf = random_floats(N * K, 32);
  auto c_buf = random_floats(M * N, 33);
  auto A = make_tensor(a_buf.data(), make_shape(Int<M>{}, Int<K>{}), make_stride(Int<K>{}, Int<1>{}));  // (M,K) K-major
  auto B = make_tensor(b_buf.data(), make_shape(Int<N>{}, Int<K>{}));                                  // (N,K)
  auto ref = [&](int m, int n, bool with_k) {
    double acc = c_buf[m + M * n];
    if (with_k)
      for (int k = 0; k < K; ++k) acc += double(A(m, k)) * double(B(n, k));
    else
      acc += double(A(m, 0)) * double(B(n, 0));
    return acc;
  };
  // (M,K) x (N,K) => (M,N)
  {
    auto C = make_tensor<float>(make_shape(Int<M>{}, Int<N>{}));
    for (int i = 0; i < M * N; ++i) C(i) = c_buf[i];
    gemm(A, B, C);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) ASSERT_NEAR(C(m, n), ref(m, n, true), 1e-5) << m << "," << n;
  }
  // (M) x (N) => (M,N)
  {
    auto C = make_tensor<float>(make_shape(Int<M>{}, Int<N>{}));
    for (int i = 0; i < M * N; ++i) C(i) = c_buf[i];
    gemm(A(_, 0), B(_, 0), C);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) ASSERT_NEAR(C(m, n), ref(m, n, false), 1e-5);
  }
  // (V,M,K) x (V,N,K) => (V,M,N) with a V mode of 1, through an explicit atom; D != C.
  {
    auto A3 = make_tensor(a_buf.data(), make_shape(Int<1>{}, Int<M>{}, Int<K>{}), make_stride(Int<0>{}, Int<K>{}, Int<1>{}));
    auto B3 = make_tensor(b_buf.data(), make_shape(Int<1>{}, Int<N>{}, Int<K>{}), make_stride(Int<0>{}, Int<1>{}, Int<N>{}));
    auto C3 = make_tensor(c_buf.data(), make_shape(Int<1>{}, Int<M>{}, Int<N>{}));
    auto D3 = make_tensor<float>(make_shape(Int<1>{}, Int<M>{}, Int<N>{}));
    fill(D3, 1e30f);
    int calls = 0;
    gemm(CountingFMA{&calls}, D3, A3, B3, C3);
    EXPECT_EQ(calls, M * N * K);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) ASSERT_NEAR(D3(0, m, n), ref(m, n, true), 1e-5);
  }
  // (V) x (V) => (V): one call with the whole value mode.
  {
    auto a = make_tensor<float>(Layout<_4>{});
    auto b = make_tensor<float>(Layout<_4>{});
    auto c = make_tensor<float>(Layout<_4>{});
    for (int i = 0; i < 4; ++i) a(i) = a_buf[i], b(i) = b_buf[i], c(i) = c_buf[i];
    int calls = 0;
    gemm(CountingFMA{&calls}, a, b, c);
    EXPECT_EQ(calls, 1);
    for (int i = 0; i < 4; ++i) ASSERT_FLOAT_EQ(c(i), a_buf[i] * b_buf[i] + c_buf[i]);
  }
  // (V,M) x (V,N) => (V,M,N) with V = 2 (element-wise in V, like a 1x1x1 atom applied twice).
  {
    auto a = make_tensor<float>(Layout<Shape<_2, _3>>{});
    auto b = make_tensor<float>(Layout<Shape<_2, _4>>{});
    auto c = make_tensor<float>(Layout<Shape<_2, _3, _4>>{});
    for (int i = 0; i < 6; ++i) a(i) = a_buf[i];
    for (int i = 0; i < 8; ++i) b(i) = b_buf[i];
    for (int i = 0; i < 24; ++i) c(i) = c_buf[i];
    int calls = 0;
    gemm(CountingFMA{&calls}, a, b, c);
    EXPECT_EQ(calls, 12);
    for (int v = 0; v < 2; ++v)
      for (int m = 0; m < 3; ++m)
        for (int n = 0; n < 4; ++n) ASSERT_FLOAT_EQ(c(v, m, n), a(v, m) * b(v, n) + c_buf[v + 2 * m + 6 * n]);
  }
}

// for_each over a tensor visits every element in index order (not the
// tensor as one leaf, which the tuple for_each would do), by reference.
TEST(TensorElementwise, ForEachVisitsEveryElement) {
  std::vector<int> buf = {1, 2, 3, 4, 5, 6};
  auto t = make_tensor(buf.data(), make_layout(make_shape(_2{}, _3{}), make_stride(_3{}, _1{})));
  std::vector<int> seen;
  for_each(t, [&](int v) { seen.push_back(v); });
  EXPECT_EQ(seen, (std::vector<int>{1, 4, 2, 5, 3, 6}));  // colexicographic over (2,3) row-major
  for_each(t, [](int& v) { v *= 10; });
  EXPECT_EQ(buf, (std::vector<int>{10, 20, 30, 40, 50, 60}));
}

// CuTe's function objects through transform.
TEST(TensorElementwise, FunctionObjects) {
  std::vector<float> a = {1.5f, -2.f, 3.f, -0.5f}, b = {-1.f, 4.f, 3.f, 0.25f}, d(4);
  auto ta = make_tensor(a.data(), make_shape(_4{}));
  auto tb = make_tensor(b.data(), make_shape(_4{}));
  auto td = make_tensor(d.data(), make_shape(_4{}));
  auto expect = [&](auto f, auto want) {
    for (int i = 0; i < 4; ++i) ASSERT_FLOAT_EQ(d[i], want(a[i], b[i])) << i;
    (void)f;
  };
  transform(ta, tb, td, plus{});
  expect(plus{}, [](float x, float y) { return x + y; });
  transform(ta, tb, td, minus{});
  expect(minus{}, [](float x, float y) { return x - y; });
  transform(ta, tb, td, multiplies{});
  expect(multiplies{}, [](float x, float y) { return x * y; });
  transform(ta, tb, td, divides{});
  expect(divides{}, [](float x, float y) { return x / y; });
  transform(ta, tb, td, max_fn{});
  expect(max_fn{}, [](float x, float y) { return x < y ? y : x; });
  transform(ta, tb, td, min_fn{});
  expect(min_fn{}, [](float x, float y) { return y < x ? y : x; });
  transform(ta, td, negate{});
  expect(negate{}, [](float x, float) { return -x; });
  transform(ta, td, abs_fn{});
  expect(abs_fn{}, [](float x, float) { return x < 0 ? -x : x; });
  transform(ta, td, square{});
  expect(square{}, [](float x, float) { return x * x; });
  transform(ta, td, identity{});
  expect(identity{}, [](float x, float) { return x; });
  static_assert(modulus{}(17, 5) == 2 && max_fn{}(3, 9) == 9 && min_fn{}(3, 9) == 3);
  // An owning tensor's engine spans its storage, CuTe's data()/end().
  auto r = make_tensor<int>(Layout<Shape<_2, _3>>{});
  EXPECT_EQ(r.engine().end() - r.engine().data(), 6);
}

// axpby with a predicate writes only where it holds, and reads y only there.
TEST(TensorElementwise, PredicatedAxpby) {
  auto const x_buf = random_floats(12, 5);
  std::vector<float> y_buf(12);
  for (int i = 0; i < 12; ++i) y_buf[i] = float(i) - 6.f;
  std::vector<float> const y0 = y_buf;
  auto x = make_tensor(x_buf.data(), make_shape(_3{}, _4{}));
  auto y = make_tensor(y_buf.data(), make_shape(_3{}, _4{}));
  auto c = make_identity_tensor(make_shape(_3{}, _4{}));
  auto inside = [&](int i) { return get<0>(c(i)) < 2 && get<1>(c(i)) < 3; };  // a 2x3 residue of the 3x4 tile
  axpby(2.0f, x, 0.5f, y, inside);
  for (int i = 0; i < 12; ++i) {
    float const want = inside(i) ? 2.0f * x_buf[i] + 0.5f * y0[i] : y0[i];
    ASSERT_FLOAT_EQ(y_buf[i], want) << i;
  }
  // beta == 0 with NaN in y: never read, written only where the predicate holds.
  std::fill(y_buf.begin(), y_buf.end(), std::numeric_limits<float>::quiet_NaN());
  axpby(1.0f, x, 0.0f, y, inside);
  for (int i = 0; i < 12; ++i) {
    if (inside(i)) ASSERT_FLOAT_EQ(y_buf[i], x_buf[i]) << i;
    else ASSERT_TRUE(std::isnan(y_buf[i])) << i;
  }
}

TEST(TensorPrint, PrintTensorTable) {
  std::vector<float> buf = {0, 1, 2, 3, 4, 5};
  auto t = make_tensor(buf.data(), make_shape(Int<2>{}, Int<3>{}));
  testing::internal::CaptureStdout();
  print_tensor(t);
  std::string out = testing::internal::GetCapturedStdout();
  // Header "ptr[32b](0x...) o (_2,_3):(_1,_2):" then rows m = 0, 1; float is CuTe's %10.2e.
  EXPECT_NE(out.find(" o (_2,_3):(_1,_2):\n"), std::string::npos) << out;
  auto nl = out.find('\n');
  std::string rows = out.substr(nl + 1);
  EXPECT_EQ(rows, "  0.00e+00  2.00e+00  4.00e+00\n  1.00e+00  3.00e+00  5.00e+00\n");
  // print_tensor(t, false): the values without the header.
  testing::internal::CaptureStdout();
  print_tensor(t, false);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), rows);
}

namespace {
// An atom that takes exactly two values per call, like Copy_Atom's NumValSrc.
struct PairCopyAtom {
  static constexpr int NumValSrc = 2;
  int* calls;
  template <class S, class D>
  void call(S const& src, D&& dst) const {
    ASSERT_EQ(int(size(src)), 2);
    ++*calls;
    dst(0) = src(0);
    dst(1) = src(1);
  }
};
}  // namespace

// A value mode holding several atoms' values, ((2,3),4): split into 3 calls per rest index.
TEST(TensorCopy, WithAtomSplitsAValueModeOfSeveralAtoms) {
  auto src_buf = random_floats(24, 41);
  std::vector<float> dst_buf(24, 0.0f);
  auto src = make_tensor(src_buf.data(), Layout<Shape<Shape<_2, _3>, _4>>{});
  auto dst = make_tensor(dst_buf.data(), Layout<Shape<Shape<_2, _3>, _4>>{});
  int calls = 0;
  copy(PairCopyAtom{&calls}, src, dst);
  EXPECT_EQ(calls, 12);
  for (int i = 0; i < 24; ++i) ASSERT_EQ(dst_buf[i], src_buf[i]);
}

// CuTe's widths: integers %5d, bool %3d, double %11.3e, half_t and
// bfloat16_t %8.2f, tfloat32_t %10.2e, other values two spaces then print.
TEST(TensorPrint, PrintTensorValueWidths) {
  auto values_of = [](auto const& t) {
    testing::internal::CaptureStdout();
    print_tensor(t, false);
    return testing::internal::GetCapturedStdout();
  };
  std::vector<int> ints = {0, -7, 123456};
  EXPECT_EQ(values_of(make_tensor(ints.data(), make_shape(Int<3>{}))), "    0\n   -7\n123456\n");
  bool bits[2] = {true, false};
  EXPECT_EQ(values_of(make_tensor(bits, make_shape(Int<1>{}, Int<2>{}))), "  1  0\n");
  double d[2] = {1.0, -2.5};
  EXPECT_EQ(values_of(make_tensor(d, make_shape(Int<2>{}))), "  1.000e+00\n -2.500e+00\n");
  half_t h[2] = {half_t(1.5f), half_t(-0.25f)};
  EXPECT_EQ(values_of(make_tensor(h, make_shape(Int<1>{}, Int<2>{}))), "    1.50   -0.25\n");
  bfloat16_t bf[1] = {bfloat16_t(3.0f)};
  EXPECT_EQ(values_of(make_tensor(bf, make_shape(Int<1>{}))), "    3.00\n");
  tfloat32_t tf[1] = {tfloat32_t(0.5f)};
  EXPECT_EQ(values_of(make_tensor(tf, make_shape(Int<1>{}))), "  5.00e-01\n");
  float_e4m3_t f8[1] = {float_e4m3_t(-3.0f)};
  EXPECT_EQ(values_of(make_tensor(f8, make_shape(Int<1>{}))), "   -3.00\n");
  EXPECT_EQ(values_of(make_identity_tensor(make_shape(Int<1>{}, Int<2>{}))), "  (0,0)  (0,1)\n");
  // print(v) of the element types is printf's %f, as for float.
  testing::internal::CaptureStdout();
  print(half_t(1.5f), " ", bfloat16_t(-2.0f));
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "1.500000 -2.000000");
}

// Rank 3: one table per index of mode 2 under a line of 5 * size<1> dashes;
// rank 4: the rank-3 blocks under a line of '='; rank 5 and up fold the
// modes from 3 on into mode 3.
TEST(TensorPrint, PrintTensorRank1To5) {
  std::vector<int> buf(48);
  for (int i = 0; i < 48; ++i) buf[i] = i;
  auto values_of = [](auto const& t) {
    testing::internal::CaptureStdout();
    print_tensor(t);
    std::string out = testing::internal::GetCapturedStdout();
    return out.substr(out.find(":\n") + 2);
  };
  EXPECT_EQ(values_of(make_tensor(buf.data(), make_shape(Int<3>{}))), "    0\n    1\n    2\n");
  EXPECT_EQ(values_of(make_tensor(buf.data(), make_shape(Int<2>{}, Int<2>{}, Int<2>{}))),
            "    0    2\n    1    3\n----------\n    4    6\n    5    7\n");
  std::string const rank4 =
      "    0    2    4\n    1    3    5\n"
      "---------------\n"
      "    6    8   10\n    7    9   11\n"
      "===============\n"
      "   12   14   16\n   13   15   17\n"
      "---------------\n"
      "   18   20   22\n   19   21   23\n";
  EXPECT_EQ(values_of(make_tensor(buf.data(), make_shape(Int<2>{}, Int<3>{}, Int<2>{}, Int<2>{}))), rank4);
  // (2,3,2,2,2): the last two modes print as one mode of 4.
  std::string const rank5 = values_of(make_tensor(buf.data(), make_shape(Int<2>{}, Int<3>{}, Int<2>{}, Int<2>{}, Int<2>{})));
  EXPECT_EQ(rank5.substr(0, rank4.size()), rank4);
  EXPECT_EQ(std::count(rank5.begin(), rank5.end(), '='), 3 * 15);
  EXPECT_NE(rank5.find("   43   45   47\n"), std::string::npos) << rank5;
}

// os << t: the layout on its own line, then the values 9 characters wide
// (separators 9 * size<1>), as CuTe's stream output.
TEST(TensorPrint, StreamWritesLayoutAndValues) {
  std::vector<int> buf = {0, 1, 2, 3, 4, 5, 6, 7};
  std::ostringstream os;
  os << make_tensor(buf.data(), make_shape(2, Int<2>{}, Int<2>{}));
  EXPECT_EQ(os.str(),
            "(2,_2,_2):(_1,2,4)\n"
            "        0        2\n        1        3\n"
            "------------------\n"
            "        4        6\n        5        7\n");
}

// int8_t and uint8_t values (integer MMA fragments) stream as numbers, not
// as the characters an ostream makes of them; print_tensor already does.
TEST(TensorPrint, StreamWrites8BitIntegersAsNumbers) {
  std::int8_t s8[2] = {-128, 65};  // 65 would print as 'A'
  std::uint8_t u8[2] = {255, 66};
  std::ostringstream os;
  os << make_tensor(s8, make_shape(Int<2>{})) << make_tensor(u8, make_shape(Int<1>{}, Int<2>{}));
  EXPECT_EQ(os.str(), "(_2):(_1)\n     -128\n       65\n(_1,_2):(_0,_1)\n      255       66\n");
  testing::internal::CaptureStdout();
  print_tensor(make_tensor(s8, make_shape(Int<2>{})), false);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), " -128\n   65\n");
}

// Copy laws over a generated corpus: random static tiles, both orders, random offsets.
TEST(TensorCopy, RandomCorpus) {
  auto src_buf = random_floats(4096, 99);
  std::vector<float> dst_buf(4096);
  std::mt19937 rng(98);
  auto check = [&](auto const& s, auto const& d) {
    std::fill(dst_buf.begin(), dst_buf.end(), 1e30f);
    copy(s, d);
    for (int i = 0; i < int(size(s)); ++i) ASSERT_EQ(d(i), s(i)) << i;
  };
  for (int trial = 0; trial < 50; ++trial) {
    int const so = int(rng() % 4) * 4 + int(rng() % 2);  // sometimes misaligned
    int const dof = int(rng() % 4) * 4;
    float* s = src_buf.data() + so;
    float* d = dst_buf.data() + dof;
    check(make_tensor(s, Layout<Shape<_8, _16>, Stride<_16, _1>>{}), make_tensor(d, Layout<Shape<_8, _16>, Stride<_16, _1>>{}));
    check(make_tensor(s, Layout<Shape<_8, _16>, Stride<_16, _1>>{}), make_tensor(d, Layout<Shape<_8, _16>>{}));
    check(make_tensor(s, Layout<Shape<Shape<_2, _4>, _16>, Stride<Stride<_1, _32>, _2>>{}),
          make_tensor(d, Layout<Shape<Shape<_2, _4>, _16>, Stride<Stride<_1, _32>, _2>>{}));
    // different static mode structures (the common-refinement walk)
    check(make_tensor(s, Layout<Shape<_8, _16>, Stride<_16, _1>>{}),
          make_tensor(d, Layout<Shape<Shape<_2, _4>, Shape<_4, _4>>, Stride<Stride<_64, _16>, Stride<_1, _4>>>{}));
    check(make_tensor(s, Layout<Shape<_4, Shape<_8, _4>>, Stride<_1, Stride<_4, _32>>>{}),
          make_tensor(d, Layout<Shape<_32, _4>, Stride<_4, _1>>{}));
    check(make_tensor(s, make_layout(make_shape(_16{}, _8{}), make_stride(8 + 4 * int(rng() % 3), _1{}))),
          make_tensor(d, Layout<Shape<Shape<_4, _4>, _8>, Stride<Stride<_8, _32>, _1>>{}));
    int const n = 1 + int(rng() % 9);
    check(make_tensor(s, make_shape(Int<4>{}, n), make_stride(Int<1>{}, 4 + 4 * int(rng() % 3))),
          make_tensor(d, make_shape(Int<4>{}, n)));
  }
}
