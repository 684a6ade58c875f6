// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// cooperative_copy<NumThreads>(tid, src, dst), run on the host one tid at a
// time: after every tid has run, dst == src; and each element is written by
// exactly one tid (each tid is also run alone over a poisoned dst, and the
// elements it changed are counted and owned). Over plain and swizzled
// layouts, static and run-time shapes, a leading dimension that breaks the
// vector alignment, a base pointer one element off, a thread count that is
// not a power of two, and a narrower MaxVecBits.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tessera/atom/numeric.hpp"
#include "tessera/tensor.hpp"

using namespace tessera;

namespace {

// Distinct non-zero values (bit patterns), so a missed or misplaced element shows.
template <class T>
std::vector<T> distinct_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto bits = static_cast<std::uint32_t>((rng() & 0x7ff0u) | 0x1u) + std::uint32_t(i % 7);
    std::memcpy(static_cast<void*>(&v[i]), &bits, sizeof(T) < 4 ? sizeof(T) : 4);
  }
  return v;
}

template <class T>
bool same_bits(T const& a, T const& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Runs the copy for all tids, then each tid alone, checking coverage.
// make_src/make_dst build the tensors over the given buffers.
template <int NT, int MaxVecBits = 128, class T, class MakeSrc, class MakeDst>
void check_cooperative(std::vector<T> const& src_buf, T* dst_buf, std::size_t dst_span, MakeSrc make_src,
                       MakeDst make_dst) {
  auto src = make_src(src_buf.data());
  auto dst = make_dst(dst_buf);
  int const n = int(size(src));
  T poison;
  std::memset(static_cast<void*>(&poison), 0, sizeof(T));
  // all threads
  for (std::size_t i = 0; i < dst_span; ++i) dst_buf[i] = poison;
  for (int tid = 0; tid < NT; ++tid) cooperative_copy<NT, MaxVecBits>(std::uint32_t(tid), src, dst);
  for (int i = 0; i < n; ++i) ASSERT_TRUE(same_bits(T(dst(i)), T(src(i)))) << "element " << i;
  // each thread alone owns a disjoint share
  std::vector<int> owner(std::size_t(n), -1);
  for (int tid = 0; tid < NT; ++tid) {
    for (std::size_t i = 0; i < dst_span; ++i) dst_buf[i] = poison;
    cooperative_copy<NT, MaxVecBits>(std::uint32_t(tid), src, dst);
    for (int i = 0; i < n; ++i) {
      if (same_bits(T(dst(i)), poison)) continue;
      ASSERT_EQ(owner[std::size_t(i)], -1) << "element " << i << " written by threads " << owner[std::size_t(i)]
                                           << " and " << tid;
      owner[std::size_t(i)] = tid;
    }
  }
  for (int i = 0; i < n; ++i) ASSERT_NE(owner[std::size_t(i)], -1) << "element " << i << " written by no thread";
}

}  // namespace

TEST(CooperativeCopy, StaticRowMajorToColumnMajor) {
  auto s = distinct_values<float>(32 * 48, 1);
  std::vector<float> d(32 * 48);
  check_cooperative<128>(s, d.data(), d.size(),
                         [](float const* p) { return make_tensor(p, Layout<Shape<_32, _48>, Stride<_48, _1>>{}); },
                         [](float* p) { return make_tensor(p, Layout<Shape<_32, _48>>{}); });
}

TEST(CooperativeCopy, SameLayoutsVectorisedAndLeadingDimensions) {
  // row-major 64x64 halves with run-time leading dimensions: 64 (every row
  // 16-byte aligned), 67 (rows misaligned: vectors fall back per vector)
  using G = decltype(make_tensor(static_cast<half_t const*>(nullptr), make_layout(make_shape(_64{}, _64{}), make_stride(1, _1{}))));
  using GD = decltype(make_tensor(static_cast<half_t*>(nullptr), make_layout(make_shape(_64{}, _64{}), make_stride(1, _1{}))));
  static_assert(detail::static_vector_width<G, GD>() == 8, "the 64-element rows move as 128-bit vectors");
  for (int ld : {64, 67}) {
    auto s = distinct_values<half_t>(std::size_t(64) * ld, 2);
    std::vector<half_t> d(std::size_t(64) * ld);
    check_cooperative<128>(
        s, d.data(), d.size(),
        [ld](half_t const* p) { return make_tensor(p, make_layout(make_shape(_64{}, _64{}), make_stride(ld, _1{}))); },
        [ld](half_t* p) { return make_tensor(p, make_layout(make_shape(_64{}, _64{}), make_stride(ld, _1{}))); });
  }
}

TEST(CooperativeCopy, BaseOneElementOff) {
  auto s = distinct_values<float>(16 * 33 + 1, 3);
  std::vector<float> d(16 * 33 + 1);
  check_cooperative<32>(s, d.data(), d.size(),
                        [](float const* p) { return make_tensor(p + 1, make_shape(16, 33)); },
                        [](float* p) { return make_tensor(p, make_shape(16, 33)); });
}

TEST(CooperativeCopy, NinetySixThreadsOverRunTimeShape) {
  auto s = distinct_values<std::uint16_t>(100 * 37, 4);
  std::vector<std::uint16_t> d(100 * 37);
  check_cooperative<96>(s, d.data(), d.size(),
                        [](std::uint16_t const* p) { return make_tensor(p, make_shape(100, 37)); },
                        [](std::uint16_t* p) { return make_tensor(p, make_shape(100, 37)); });
}

TEST(CooperativeCopy, NarrowerMaxVecBits) {
  auto s = distinct_values<half_t>(8 * 64, 5);
  std::vector<half_t> d(8 * 64);
  check_cooperative<64, 32>(s, d.data(), d.size(),
                            [](half_t const* p) { return make_tensor(p, Layout<Shape<_8, _64>, Stride<_64, _1>>{}); },
                            [](half_t* p) { return make_tensor(p, Layout<Shape<_8, _64>, Stride<_64, _1>>{}); });
}

TEST(CooperativeCopy, IntoSwizzledSharedStorage) {
  // gmem tile with the smem tile's mode structure into seed 000's
  // Swizzle<3,3,3> layout in 1024-aligned storage; then a plain row-major
  // source, which pairs up with it over their common refinement.
  auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  auto sL = tile_to_shape(atom, make_shape(Int<32>{}, Int<64>{}));
  static array_aligned<half_t, 32 * 64, 1024> smem;
  auto s = distinct_values<half_t>(32 * 64, 6);
  auto g_layout = make_layout(make_shape(make_shape(_8{}, _4{}), make_shape(_8{}, _8{})),
                              make_stride(make_stride(_64{}, _512{}), make_stride(_1{}, _8{})));
  using G = decltype(make_tensor(make_gmem_ptr(static_cast<half_t const*>(nullptr)), g_layout));
  using S = decltype(make_tensor(make_smem_ptr(smem.data()), sL));
  static_assert(detail::static_vector_width<G, S>() == 8, "128-bit vectors through the 3-bit-base swizzle");
  check_cooperative<128>(s, smem.data(), smem.size(),
                         [&](half_t const* p) { return make_tensor(make_gmem_ptr(p), g_layout); },
                         [&](half_t* p) { return make_tensor(make_smem_ptr(p), sL); });
  using R = decltype(make_tensor(make_gmem_ptr(static_cast<half_t const*>(nullptr)), Layout<Shape<_32, _64>, Stride<_64, _1>>{}));
  static_assert(detail::static_vector_width<R, S>() == 8, "row-major into the swizzle: 128-bit too");
  check_cooperative<128>(
      s, smem.data(), smem.size(),
      [](half_t const* p) { return make_tensor(make_gmem_ptr(p), Layout<Shape<_32, _64>, Stride<_64, _1>>{}); },
      [&](half_t* p) { return make_tensor(make_smem_ptr(p), sL); });
}
