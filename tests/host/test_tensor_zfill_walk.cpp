// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Host semantics of the pieces simt_tiled_sgemm adds to the atom/tensor
// layer: the byte-count zero-fill cp.async atoms (SM80_CP_ASYNC_*_ZFILL_N,
// an immediate copy on the host), copy_zfill over a TiledCopy partition with
// M and K residues, and gemm_walk (the outer product in a given order).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

namespace {

using namespace tessera;

float const kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(CpAsyncZfillN, CopiesTheFirstNBytesAndZerosTheRest) {
  alignas(16) float src[4] = {1.f, 2.f, 3.f, 4.f};
  for (std::uint32_t n : {0u, 4u, 8u, 12u, 16u}) {
    alignas(16) float dst[4] = {kNaN, kNaN, kNaN, kNaN};
    auto atom = Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL_N<uint128_t>, float>{}.with(n);
    copy(atom, make_tensor(make_gmem_ptr(&src[0]), Layout<_4>{}), make_tensor(make_smem_ptr(&dst[0]), Layout<_4>{}));
    for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(dst[i], i < n / 4 ? src[i] : 0.f) << "n=" << n << " i=" << i;
  }
}

TEST(CpAsyncZfillN, ZeroBytesReadsNothing) {
  // The source is one float past a buffer: with n = 0 it must not be read
  // (AddressSanitizer, where enabled, reports an overflow otherwise).
  std::vector<float> buf(1, 5.f);
  float dst = kNaN;
  auto atom = Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N<std::uint32_t>, float>{}.with(0u);
  copy(atom, make_tensor(make_gmem_ptr(buf.data() + 1), Layout<_1>{}), make_tensor(make_smem_ptr(&dst), Layout<_1>{}));
  EXPECT_EQ(dst, 0.f);
  copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N<std::uint32_t>, float>{}.with(4u),
       make_tensor(make_gmem_ptr(buf.data()), Layout<_1>{}), make_tensor(make_smem_ptr(&dst), Layout<_1>{}));
  EXPECT_EQ(dst, 5.f);
}

// A (M,K) = (13,5) K-contiguous matrix (ld 7) tiled by (8,4): a 4-byte
// TiledCopy of 8 threads x 4 values moves tile (1,1) into an M-major (8,4)
// shared tile (pitch 9), zero-filling what lies outside M and K.
TEST(CopyZfill, TiledCopyWithResiduesZeroFillsOutside) {
  constexpr int kM = 13, kK = 5, kLd = 7;
  std::vector<float> g(kM * kLd);
  for (int i = 0; i < kM * kLd; ++i) g[i] = float(i + 1);
  Tensor mA = make_tensor(make_gmem_ptr(g.data()), make_shape(kM, kK), make_stride(kLd, _1{}));  // (M,K)
  Tensor gA = local_tile(mA, Shape<_8, _4>{}, make_coord(1, 1));                                // (8,4)
  std::vector<float> s(9 * 4, kNaN);
  Tensor sA = make_tensor(make_smem_ptr(s.data()), Layout<Shape<_8, _4>, Stride<_1, _9>>{});  // (8,4)
  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N<std::uint32_t>, float>{},
                             Layout<Shape<_2, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _1>>{});
  int const m_left = kM - 8, k_left = kK - 4;  // 5 rows, 1 column inside
  std::set<int> written;
  for (int t = 0; t < 8; ++t) {
    auto thr = g2s.get_slice(t);
    Tensor tXg = thr.partition_S(gA);
    Tensor tXs = thr.partition_D(sA);
    Tensor tXc = group_modes<1, 3>(thr.partition_S(make_identity_tensor(Shape<_8, _4>{})));
    copy_zfill(
        g2s,
        [&](int r) -> std::uint32_t {
          auto c = tXc(0, r);
          return int(get<0>(c)) < m_left && int(get<1>(c)) < k_left ? 4u : 0u;
        },
        tXg, tXs);
  }
  for (int m = 0; m < 8; ++m)
    for (int k = 0; k < 4; ++k) {
      float const want = m < m_left && k < k_left ? g[(8 + m) * kLd + 4 + k] : 0.f;
      EXPECT_EQ(s[m + 9 * k], want) << "(" << m << "," << k << ")";
    }
  for (int k = 0; k < 4; ++k) EXPECT_TRUE(std::isnan(s[8 + 9 * k])) << "padding column written, k=" << k;
}

// 16-byte atoms along a contiguous M with a residue inside a chunk: the
// partial chunk reads only the values inside M.
TEST(CopyZfill, VectorAtomPartialChunk) {
  constexpr int kM = 10;  // tile rows 0..9 of 16: chunk 2 holds 2 values, chunk 3 none
  alignas(16) float g[16 * 2];
  for (int i = 0; i < 32; ++i) g[i] = float(100 + i);
  Tensor gA = make_tensor(make_gmem_ptr(&g[0]), Shape<_16, _2>{}, Stride<_1, _16>{});  // (M,K), ld 16
  alignas(16) float s[16 * 2];
  for (float& x : s) x = kNaN;
  Tensor sA = make_tensor(make_smem_ptr(&s[0]), Layout<Shape<_16, _2>>{});
  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL_N<uint128_t>, float>{},
                             Layout<Shape<_4, _2>>{}, Layout<Shape<_4, _1>>{});
  for (int t = 0; t < 8; ++t) {
    auto thr = g2s.get_slice(t);
    Tensor tXc = group_modes<1, 3>(thr.partition_S(make_identity_tensor(Shape<_16, _2>{})));
    copy_zfill(
        g2s,
        [&](int r) -> std::uint32_t {
          int const left = kM - int(get<0>(tXc(0, r)));
          return left >= 4 ? 16u : left > 0 ? 4u * std::uint32_t(left) : 0u;
        },
        thr.partition_S(gA), thr.partition_D(sA));
  }
  for (int k = 0; k < 2; ++k)
    for (int m = 0; m < 16; ++m) EXPECT_EQ(s[m + 16 * k], m < kM ? g[m + 16 * k] : 0.f) << "(" << m << "," << k << ")";
}

// Records the (m,n) of every call, computes d = a*b + c.
struct RecordingFma {
  std::vector<std::pair<int, int>>* calls;
  float const* a0;
  float const* b0;
  template <class TD, class TA, class TB, class TC>
  void call(TD&& d, TA const& a, TB const& b, TC const& c) const {
    calls->push_back({int(&a(0) - a0), int(&b(0) - b0)});
    d(0) = a(0) * b(0) + c(0);
  }
};

TEST(GemmWalk, VisitsEveryPairOnceInTheWalkOrder) {
  constexpr int kM = 4, kN = 6;
  float a[kM], b[kN];
  for (int i = 0; i < kM; ++i) a[i] = float(i + 1);
  for (int j = 0; j < kN; ++j) b[j] = float(10 * (j + 1));
  Tensor tA = make_tensor(&a[0], Layout<Shape<_1, Int<kM>>>{});  // (V,M)
  Tensor tB = make_tensor(&b[0], Layout<Shape<_1, Int<kN>>>{});  // (V,N)
  Tensor acc = make_tensor<float>(Shape<_1, Int<kM>, Int<kN>>{});
  Tensor ref = make_tensor<float>(Shape<_1, Int<kM>, Int<kN>>{});
  for (int i = 0; i < kM * kN; ++i) acc(i) = ref(i) = float(i);
  // Serpentine columns: column n top to bottom for even n, bottom to top for odd.
  auto walk = [](int s, int& m, int& n) {
    n = s / kM;
    m = n % 2 == 0 ? s % kM : kM - 1 - s % kM;
  };
  std::vector<std::pair<int, int>> calls;
  gemm_walk(RecordingFma{&calls, &a[0], &b[0]}, walk, tA, tB, acc);
  ASSERT_EQ(int(calls.size()), kM * kN);
  std::set<std::pair<int, int>> seen(calls.begin(), calls.end());
  EXPECT_EQ(int(seen.size()), kM * kN) << "a pair was visited twice";
  for (int s = 0; s < kM * kN; ++s) {
    int m = 0, n = 0;
    walk(s, m, n);
    EXPECT_EQ(calls[s], std::make_pair(m, n)) << "call " << s;
  }
  // Same result as the unordered gemm with the UniversalFMA atom.
  gemm(MMA_Atom<UniversalFMA<float, float, float, float>>{}, tA, tB, ref);
  for (int i = 0; i < kM * kN; ++i) EXPECT_EQ(acc(i), ref(i)) << i;
}

}  // namespace
