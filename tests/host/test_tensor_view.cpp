// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Tensor views, owning fragments, pointer tags and slicing.
// Laws: t(c) == ptr[layout(c)] for every c; t(_, j)(i) == t(i, j).

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "tessera/tensor.hpp"
#include "host_test.hpp"

using namespace tessera;

namespace {

using tessera::test::str;

// The layout part of "ptr o layout".
template <class T>
std::string layout_str(T const& t) {
  return str(t.layout());
}

// Law: t(i) == data[layout(i)] for every linear index, and the same through the
// natural (hierarchical) coordinate.
template <class TensorT, class Ptr>
void expect_view_law(TensorT const& t, Ptr base) {
  int const n = int(size(t));
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(&t(i), &base[t.layout()(i)]) << "i=" << i;
    auto c = idx2crd(i, t.shape());
    ASSERT_EQ(&t(c), &t(i)) << "i=" << i;
  }
}

}  // namespace

TEST(TensorPointer, TagsAreTypes) {
  float* p = nullptr;
  static_assert(is_gmem_v<decltype(make_gmem_ptr(p))>);
  static_assert(!is_smem_v<decltype(make_gmem_ptr(p))>);
  static_assert(is_smem_v<decltype(make_smem_ptr(p))>);
  static_assert(is_rmem_v<decltype(make_rmem_ptr(p))>);
  static_assert(is_rmem_v<float*>, "an untagged pointer counts as register memory");
  static_assert(!is_rmem_v<decltype(make_smem_ptr(p))>);
  // recast keeps the tag and changes the element type.
  auto q = recast_ptr<std::uint32_t>(make_smem_ptr(p));
  static_assert(is_smem_v<decltype(q)>);
  static_assert(std::is_same_v<decltype(q)::value_type, std::uint32_t>);
  // make_*_ptr of an already tagged pointer is the identity.
  static_assert(std::is_same_v<decltype(make_gmem_ptr(make_gmem_ptr(p))), gmem_ptr<float*>>);
}

TEST(TensorPointer, ArithmeticAndDeref) {
  float buf[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  auto g = make_gmem_ptr(buf);
  EXPECT_EQ(*(g + 3), 3.0f);
  EXPECT_EQ(g[5], 5.0f);
  EXPECT_EQ((g + 6) - g, 6);
  EXPECT_EQ(raw_pointer_cast(g + 2), buf + 2);
  auto r = recast_ptr<double>(make_gmem_ptr(buf));
  EXPECT_EQ(reinterpret_cast<void*>(raw_pointer_cast(r)), reinterpret_cast<void*>(buf));
}

TEST(TensorPrint, PointerPrefixes) {
  auto* fake = reinterpret_cast<std::uint16_t*>(std::uintptr_t(0x505600000));
  auto t = make_tensor(make_gmem_ptr(fake), make_shape(5120, 4096), make_stride(4096, Int<1>{}));
  EXPECT_EQ(str(t), "gmem_ptr[16b](0x505600000) o (5120,4096):(4096,_1)");
  auto s = make_tensor(make_smem_ptr(fake), Layout<Shape<_4, _2>>{});
  EXPECT_EQ(str(s), "smem_ptr[16b](0x505600000) o (_4,_2):(_1,_4)");
  auto r = make_tensor(make_rmem_ptr(reinterpret_cast<float*>(fake)), Layout<_8>{});
  EXPECT_EQ(str(r), "rmem_ptr[32b](0x505600000) o _8:_1");
  auto u = make_tensor(reinterpret_cast<double*>(fake), make_shape(Int<2>{}, 3));
  EXPECT_EQ(str(u), "ptr[64b](0x505600000) o (_2,3):(_1,_2)");
}

TEST(TensorView, LawOverLayouts) {
  std::vector<int> buf(4096);
  for (int i = 0; i < int(buf.size()); ++i) buf[i] = i;
  int* p = buf.data();
  expect_view_law(make_tensor(p, Layout<Shape<_4, _8>>{}), p);
  expect_view_law(make_tensor(p, Layout<Shape<_4, _8>, Stride<_8, _1>>{}), p);
  expect_view_law(make_tensor(p, make_shape(5, 7), make_stride(9, 1)), p);
  expect_view_law(make_tensor(p, make_shape(make_shape(2, 3), make_shape(Int<4>{}, 2)),
                              make_stride(make_stride(1, 100), make_stride(Int<2>{}, 300))),
                  p);
  expect_view_law(make_tensor(make_gmem_ptr(p), make_shape(6, 5)), make_gmem_ptr(p));
  expect_view_law(make_tensor(make_smem_ptr(p), Layout<Shape<_2, Shape<_3, _4>>, Stride<_16, Stride<_1, _3>>>{}),
                  make_smem_ptr(p));
  // Values, not just addresses.
  auto t = make_tensor(p, make_shape(Int<3>{}, Int<4>{}), make_stride(Int<4>{}, Int<1>{}));
  EXPECT_EQ(t(2, 1), 9);
  EXPECT_EQ(t(make_coord(1, 3)), 7);
  EXPECT_EQ(t[make_coord(1, 3)], 7);
  EXPECT_EQ(t(5), buf[(5 % 3) * 4 + 5 / 3]);
}

TEST(TensorView, RandomDynamicLayouts) {
  std::mt19937 rng(1234);
  std::vector<int> buf(1 << 16);
  for (int trial = 0; trial < 200; ++trial) {
    int m = 1 + int(rng() % 7), n = 1 + int(rng() % 7), k = 1 + int(rng() % 4);
    int dm = 1 + int(rng() % 5), dn = int(rng() % 40), dk = int(rng() % 300);
    auto t = make_tensor(buf.data(), make_shape(m, make_shape(n, k)), make_stride(dm, make_stride(dn, dk)));
    expect_view_law(t, buf.data());
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        for (int l = 0; l < k; ++l) ASSERT_EQ(&t(i, make_coord(j, l)), &buf[i * dm + j * dn + l * dk]);
  }
}

TEST(TensorView, SlicingLaws) {
  std::vector<float> buf(1000);
  for (int i = 0; i < 1000; ++i) buf[i] = float(i);
  auto t = make_tensor(buf.data(), make_shape(Int<4>{}, 5, Int<3>{}), make_stride(Int<1>{}, 7, Int<100>{}));
  for (int k = 0; k < 3; ++k) {
    auto tk = t(_, _, k);  // (4,5)
    static_assert(decltype(rank(tk))::value == 2);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j) {
        ASSERT_EQ(&tk(i, j), &t(i, j, k));
        auto col = t(_, j, k);  // (4)
        ASSERT_EQ(&col(i), &t(i, j, k));
        auto row = t(i, _, _);  // (5,3)
        ASSERT_EQ(&row(j, k), &t(i, j, k));
      }
  }
  // The slice is a view: writes land in the original.
  auto col = t(_, 2, 1);
  col(3) = -1.0f;
  EXPECT_EQ(buf[3 + 2 * 7 + 100], -1.0f);
  // Slicing keeps static modes static.
  auto s = t(_, 0, _);
  static_assert(is_static_v<decltype(s.layout())>);
  EXPECT_EQ(layout_str(s), "(_4,_3):(_1,_100)");
}

TEST(TensorOwning, RegisterFragment) {
  auto f = make_tensor<float>(Layout<Shape<_4, _8>>{});
  static_assert(sizeof(f) == 32 * sizeof(float), "a static-layout fragment holds exactly cosize elements");
  static_assert(decltype(size(f))::value == 32);
  for (int i = 0; i < 32; ++i) f(i) = float(i * 3);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(f(i, j), float((i + 4 * j) * 3));
  // Owning tensors with a non-compact layout allocate cosize elements.
  auto g = make_tensor<double>(Layout<Shape<_2, _3>, Stride<_4, _1>>{});
  static_assert(sizeof(g) == (1 * 4 + 2 * 1 + 1) * sizeof(double));
  // Shape-only form: compact column-major.
  auto h = make_tensor<int>(make_shape(Int<2>{}, Int<3>{}));
  EXPECT_EQ(layout_str(h), "(_2,_3):(_1,_2)");
  // Copies of an owning tensor are deep.
  auto f2 = f;
  f2(0) = 99.0f;
  EXPECT_EQ(f(0), 0.0f);
  // A slice of an owning tensor is a view into it.
  auto row = f(1, _);
  row(2) = -5.0f;
  EXPECT_EQ(f(1, 2), -5.0f);
}

TEST(TensorOwning, LikeAndFragmentLike) {
  std::vector<float> buf(512);
  auto v = make_tensor(buf.data(), Layout<Shape<_4, _8>, Stride<_8, _1>>{});
  auto like = make_tensor_like(v);
  static_assert(std::is_same_v<decltype(like)::value_type, float>);
  EXPECT_EQ(str(like.shape()), "(_4,_8)");
  auto like_h = make_tensor_like<double>(v);
  static_assert(std::is_same_v<decltype(like_h)::value_type, double>);
  auto frag = make_fragment_like(v);
  EXPECT_EQ(str(frag.shape()), str(v.shape()));
  static_assert(decltype(cosize(frag.layout()))::value == 32);
  auto frag16 = make_fragment_like<std::uint16_t>(v);
  static_assert(sizeof(frag16) == 32 * sizeof(std::uint16_t));
}

TEST(TensorView, GroupFlattenCoalesceDomainOffset) {
  std::vector<int> buf(4096);
  int* p = buf.data();
  auto t = make_tensor(p, make_shape(Int<2>{}, Int<3>{}, 4), make_stride(Int<1>{}, Int<2>{}, 6));
  auto g = group_modes<0, 2>(t);  // ((2,3),4)
  static_assert(decltype(rank(g))::value == 2);
  for (int i = 0; i < int(size(t)); ++i) ASSERT_EQ(&g(i), &t(i));
  auto h = make_tensor(p, make_shape(make_shape(Int<2>{}, 3), 4), make_stride(make_stride(Int<1>{}, 2), 6));
  auto fl = flatten(h);
  static_assert(decltype(rank(fl))::value == 3);
  for (int i = 0; i < int(size(h)); ++i) ASSERT_EQ(&fl(i), &h(i));
  auto co = coalesce(make_tensor(p, Layout<Shape<_2, _3, _4>>{}));
  EXPECT_EQ(layout_str(co), "_24:_1");
  auto d = domain_offset(make_coord(1, 2, 3), t);
  for (int i = 0; i + 1 < 2; ++i)
    for (int j = 0; j + 2 < 3; ++j)
      for (int k = 0; k + 3 < 4; ++k) ASSERT_EQ(&d(i, j, k), &t(1 + i, 2 + j, 3 + k));
  // A swizzled tensor: the origin moves under the swizzle, the pointer stays.
  auto sw = make_tensor(p, composition(Swizzle<3, 3, 3>{}, Layout<Shape<_16, _64>, Stride<_64, _1>>{}));
  auto ds = domain_offset(make_coord(3, 17), sw);
  EXPECT_EQ(ds.data(), sw.data());
  for (int i = 0; i + 3 < 16; ++i)
    for (int j = 0; j + 17 < 64; ++j) ASSERT_EQ(&ds(i, j), &sw(3 + i, 17 + j)) << i << "," << j;
}

TEST(TensorIdentity, CoordinatesAndSlices) {
  auto cA = make_identity_tensor(make_shape(Int<4>{}, 6));
  EXPECT_EQ(str(cA.layout()), "(_4,6):(_1@0,_1@1)");
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 6; ++n) {
      auto c = cA(m, n);
      ASSERT_EQ(int(get<0>(c)), m);
      ASSERT_EQ(int(get<1>(c)), n);
    }
  // A slice of an identity tensor still yields full coordinates.
  auto col = cA(_, 5);
  for (int m = 0; m < 4; ++m) {
    ASSERT_EQ(int(get<0>(col(m))), m);
    ASSERT_EQ(int(get<1>(col(m))), 5);
  }
  // make_coord_tensor over an identity layout is the same function.
  auto cB = make_coord_tensor(make_identity_layout(make_shape(Int<4>{}, 6)));
  for (int i = 0; i < 24; ++i) {
    ASSERT_EQ(int(get<0>(cB(i))), int(get<0>(cA(i))));
    ASSERT_EQ(int(get<1>(cB(i))), int(get<1>(cA(i))));
  }
  // Hierarchical shapes give hierarchical coordinates.
  auto cH = make_identity_tensor(make_shape(Int<2>{}, make_shape(Int<3>{}, Int<2>{})));
  auto h = cH(1, make_coord(2, 1));
  EXPECT_EQ(int(get<0>(h)), 1);
  EXPECT_EQ(int(get<1, 0>(h)), 2);
  EXPECT_EQ(int(get<1, 1>(h)), 1);
}

// make_counting_tensor(l)(c) == l(c): integers for integer strides (a
// row-major layout numbers its elements row by row), coordinates for bases.
TEST(TensorIdentity, CountingTensor) {
  auto row_major = make_layout(make_shape(_3{}, 5), make_stride(5, _1{}));
  auto t = make_counting_tensor(row_major);
  for (int m = 0; m < 3; ++m)
    for (int n = 0; n < 5; ++n) ASSERT_EQ(int(t(m, n)), m * 5 + n);
  static_assert(std::is_integral_v<std::remove_cvref_t<decltype(t(0, 0))>>);
  // Slices and partitions keep counting the same offsets.
  auto row = t(2, _);
  for (int n = 0; n < 5; ++n) ASSERT_EQ(int(row(n)), 10 + n);
  auto tr = make_counting_tensor(make_layout(make_shape(_2{}, _3{}), make_stride(E<1>{}, E<0>{})));
  auto c = tr(1, 2);
  EXPECT_EQ(int(get<0>(c)), 2);
  EXPECT_EQ(int(get<1>(c)), 1);
  testing::internal::CaptureStdout();
  print_tensor(make_counting_tensor(make_layout(make_shape(_2{}, _2{}), make_stride(_2{}, _1{}))), false);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "    0    1\n    2    3\n");
}

TEST(TensorView, RecastKeepsBytes) {
  auto f = make_tensor<std::uint16_t>(Layout<Shape<_8, _2>>{});
  for (int i = 0; i < 16; ++i) f(i) = std::uint16_t(0x100 * i + i);
  auto w = recast<std::uint32_t>(f);  // 2 halves per word
  EXPECT_EQ(int(size(w)), 8);
  for (int i = 0; i < 8; ++i) {
    std::uint32_t expect = std::uint32_t(f(2 * i)) | (std::uint32_t(f(2 * i + 1)) << 16);
    ASSERT_EQ(w(i), expect);
  }
  auto h = make_tensor(make_smem_ptr(&f(0)), f.layout());
  auto hw = recast<std::uint64_t>(h);
  static_assert(is_smem_v<decltype(hw.data())>, "recast keeps the memory tag");
  EXPECT_EQ(int(size(hw)), 4);
}

TEST(TensorView, SubTensorsTakeSelect) {
  std::vector<int> buf(512);
  int* p = buf.data();
  auto t = make_tensor(p, make_shape(Int<2>{}, make_shape(Int<3>{}, 4), Int<5>{}),
                       make_stride(Int<1>{}, make_stride(Int<2>{}, 6), Int<24>{}));
  auto t1 = tensor<1>(t);  // (3,4):(2,6)
  EXPECT_EQ(str(t1.layout()), "(_3,4):(_2,6)");
  EXPECT_EQ(str(tensor<1, 1>(t).layout()), "4:6");
  auto tk = take<1, 3>(t);  // ((3,4),5)
  auto ts = select<2, 0>(t);  // (5,2)
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 12; ++j)
      for (int k = 0; k < 5; ++k) {
        ASSERT_EQ(&tk(j, k), &t(i, j, k) - i);
        ASSERT_EQ(&ts(k, i), &t(i, 0, k));
      }
}

// Without an smem pointer the swizzle stays in the layout; slices keep the
// offset inside the composed layout (Sw(o + x) != Sw(o) + x).
TEST(TensorView, ComposedLayoutOnPlainPointer) {
  static int buf[256];
  auto cl = composition(Swizzle<2, 2, 3>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{});
  auto t = make_tensor(buf, cl);
  EXPECT_NE(str(t).find(" o Sw<2,2,3> o _0 o (_8,_16):(_16,_1)"), std::string::npos) << str(t);
  for (int i = 0; i < 128; ++i) ASSERT_EQ(&t(i), &buf[cl(i)]);
  for (int n = 0; n < 16; ++n) {
    auto col = t(_, n);
    for (int m = 0; m < 8; ++m) ASSERT_EQ(&col(m), &buf[cl(m, n)]) << m << "," << n;
  }
  for (int m = 0; m < 8; ++m) {
    auto row = t(m, _);
    for (int n = 0; n < 16; ++n) ASSERT_EQ(&row(n), &buf[cl(m, n)]) << m << "," << n;
  }
}

// CuTe's typed pointers from untyped addresses, make_gmem_ptr<T>(void*):
// the tag comes from the call, the element type from the template argument.
TEST(TensorView, TypedPointersFromVoid) {
  std::vector<float> buf(6, 2.5f);
  void* raw = buf.data();
  auto g = make_gmem_ptr<float>(raw);
  static_assert(std::is_same_v<decltype(g), gmem_ptr<float*>>);
  auto s = make_smem_ptr<float>(raw);
  static_assert(is_smem_v<decltype(s)>);
  auto again = make_gmem_ptr(g);  // already tagged: unchanged
  static_assert(std::is_same_v<decltype(again), gmem_ptr<float*>>);
  auto r = make_rmem_ptr(buf.data());
  static_assert(std::is_same_v<decltype(r), rmem_ptr<float*>>);
  auto t = make_tensor(g, make_shape(2, 3));
  EXPECT_EQ(t(1, 2), 2.5f);
  EXPECT_EQ(&t(1, 2), buf.data() + 5);
}
