// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Laws of TiledCopy and TiledMMA, over several atoms and thread layouts:
//   - a TiledCopy's S and D TV layouts cover its tile exactly once;
//   - partition_S over all threads covers a tensor exactly once;
//   - make_tiled_copy_A/B/C deliver, (thr,val) for (thr,val), the coordinates
//     the TiledMMA's get_layoutA/B/C_TV expect;
//   - partition_C over all threads covers C exactly once, and agrees with
//     get_layoutC_TV;
//   - retile_D is a bijection onto the fragment it views.

#include <set>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

namespace {

using namespace tessera;

template <class TV>
void expect_cover(TV const& tv, int n, int multiplicity, char const* what) {
  std::vector<int> hits(n, 0);
  for (int t = 0; t < int(size<0>(tv)); ++t)
    for (int v = 0; v < int(size<1>(tv)); ++v) {
      int const i = int(tv(t, v));
      ASSERT_GE(i, 0) << what;
      ASSERT_LT(i, n) << what;
      ++hits[i];
    }
  for (int i = 0; i < n; ++i) EXPECT_EQ(hits[i], multiplicity) << what << " index " << i;
}

TEST(TiledCopyLaws, MakeTiledCopyCoversTile) {
  auto g2s = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                             Layout<Shape<_1, _8>>{});
  expect_cover(g2s.get_layoutS_TV(), 16 * 64, 1, "S");
  expect_cover(g2s.get_layoutD_TV(), 16 * 64, 1, "D");
  // Thread t's 8 values are consecutive along K (stride 16 in the (16,64) tile).
  auto tv = g2s.get_layoutS_TV();
  for (int t = 0; t < 128; ++t)
    for (int v = 1; v < 8; ++v) EXPECT_EQ(int(tv(t, v)) - int(tv(t, v - 1)), 16);
  // Column-major thread layout, 2 values down M.
  auto cm = make_tiled_copy(Copy_Atom<UniversalCopy<std::uint32_t>, half_t>{}, Layout<Shape<_32, _4>>{},
                            Layout<Shape<_2, _1>>{});
  expect_cover(cm.get_layoutS_TV(), 64 * 4, 1, "col-major S");
  EXPECT_EQ(int(size(cm)), 128);
}

TEST(TiledCopyLaws, PartitionCoversTensor) {
  std::vector<float> buf(64 * 96);
  auto g = make_tensor(make_gmem_ptr(buf.data()), make_shape(64, 96), make_stride(96, 1));  // dynamic, row-major
  auto tc = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{},
                            Layout<Shape<_1, _4>>{});
  std::vector<int> hits(buf.size(), 0);
  for (int t = 0; t < 128; ++t) {
    auto part = tc.get_slice(t).partition_S(g);  // (CPY,CPY_M,CPY_N)
    EXPECT_EQ(int(size<0>(part)), 4);
    for (int i = 0; i < int(size(part)); ++i) ++hits[&part(i) - buf.data()];
  }
  for (std::size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i], 1) << i;
}

template <class Op, class CopyOpAB, class CopyOpC>
void check_copy_matches_mma() {
  auto mma = make_tiled_mma(Op{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  int const M = int(tile_size<0>(mma)), N = int(tile_size<1>(mma)), K = int(tile_size<2>(mma));
  using TA = typename MMA_Traits<Op>::ValTypeA;
  using TC = typename MMA_Traits<Op>::ValTypeC;
  auto ca = make_tiled_copy_A(Copy_Atom<CopyOpAB, TA>{}, mma);
  auto cb = make_tiled_copy_B(Copy_Atom<CopyOpAB, TA>{}, mma);
  auto cc = make_tiled_copy_C(Copy_Atom<CopyOpC, TC>{}, mma);
  auto a = mma.get_layoutA_TV(), b = mma.get_layoutB_TV(), c = mma.get_layoutC_TV();
  expect_cover(c, M * N, 1, "mma C");
  expect_cover(a, M * K, 2, "mma A (shared by 2 N-warps)");
  expect_cover(b, N * K, 2, "mma B (shared by 2 M-warps)");
  auto da = ca.get_layoutD_TV(), db = cb.get_layoutD_TV(), sc = cc.get_layoutS_TV();
  for (int t = 0; t < int(size(mma)); ++t) {
    for (int v = 0; v < int(size<1>(a)); ++v) EXPECT_EQ(int(da(t, v)), int(a(t, v))) << "A " << t << "," << v;
    for (int v = 0; v < int(size<1>(b)); ++v) EXPECT_EQ(int(db(t, v)), int(b(t, v))) << "B " << t << "," << v;
    for (int v = 0; v < int(size<1>(c)); ++v) EXPECT_EQ(int(sc(t, v)), int(c(t, v))) << "C " << t << "," << v;
  }
}

TEST(TiledMmaLaws, CopyMatchesMma_16x8x8_F16) {
  check_copy_matches_mma<SM80_16x8x8_F16F16F16F16_TN, SM75_U32x4_LDSM_N, UniversalCopy<std::uint32_t>>();
}
TEST(TiledMmaLaws, CopyMatchesMma_16x8x16_F32) {
  check_copy_matches_mma<SM80_16x8x16_F32F16F16F32_TN, SM75_U32x4_LDSM_N, UniversalCopy<std::uint64_t>>();
}
TEST(TiledMmaLaws, CopyMatchesMma_16x8x16_BF16_x2) {
  check_copy_matches_mma<SM80_16x8x16_F32BF16BF16F32_TN, SM75_U32x2_LDSM_N, UniversalCopy<float>>();
}

TEST(TiledMmaLaws, PartitionCCoversAndAgrees) {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  std::vector<float> buf(64 * 96);
  auto gC = make_tensor(make_gmem_ptr(buf.data()), make_shape(64, 96), make_stride(1, 64));  // (M,N) col-major
  auto tv = mma.get_layoutC_TV();  // (thr,val) -> m + 32 n within a 32x32 tile
  std::vector<int> hits(buf.size(), 0);
  for (int t = 0; t < 128; ++t) {
    auto tCgC = mma.get_slice(t).partition_C(gC);  // (MMA,MMA_M,MMA_N)
    EXPECT_EQ(int(size<1>(tCgC)), 2);  // 1 atom per 32-tall M tile (2 warps x 16), 2 tiles
    EXPECT_EQ(int(size<2>(tCgC)), 6);  // 2 atoms per 32-wide N tile (Tile<_,_32,_>), 3 tiles
    for (int i = 0; i < int(size(tCgC)); ++i) ++hits[&tCgC(i) - buf.data()];
    // The first tile of tCgC is get_layoutC_TV's values of thread t.
    for (int v = 0; v < 4; ++v) {
      int const idx = int(tv(t, v));
      EXPECT_EQ(&tCgC(v, 0, 0) - buf.data(), (idx % 32) + 64 * (idx / 32)) << t << "," << v;
    }
  }
  for (std::size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i], 1) << i;
}

TEST(TiledMmaLaws, RetileIsABijection) {
  auto mma = make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  auto sA = make_tensor(make_smem_ptr(reinterpret_cast<half_t*>(std::uintptr_t{0x10000})),
                        make_layout(make_shape(Int<128>{}, Int<64>{}), make_stride(Int<64>{}, _1{})));
  auto tCrA = mma.get_slice(5).partition_fragment_A(sA);
  auto tXrA = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma).get_slice(5).retile_D(tCrA);
  ASSERT_EQ(int(size(tXrA)), int(size(tCrA)));
  std::set<long> seen;
  for (int i = 0; i < int(size(tXrA)); ++i) {
    long const off = &tXrA(i) - &tCrA(0);
    EXPECT_GE(off, 0);
    EXPECT_LT(off, long(size(tCrA)));
    EXPECT_TRUE(seen.insert(off).second) << i;
  }
}

// The SIMT case: UniversalFMA atoms over 16x16 threads, run on the host
// through partition_A/B/C, make_fragment_C and gemm(mma, ...).
TEST(TiledMmaLaws, UniversalFmaSgemmOnHost) {
  constexpr int M = 32, N = 48, K = 8;
  auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
  EXPECT_EQ(int(size(mma)), 256);
  expect_cover(mma.get_layoutC_TV(), 16 * 16, 1, "C");
  std::vector<float> A(M * K), B(N * K), C(M * N, -1.0f);
  for (int i = 0; i < M * K; ++i) A[i] = float((i * 7) % 11) - 5.0f;
  for (int i = 0; i < N * K; ++i) B[i] = float((i * 5) % 13) - 6.0f;
  auto mA = make_tensor(make_gmem_ptr(A.data()), make_shape(Int<M>{}, Int<K>{}), make_stride(Int<K>{}, _1{}));  // (M,K)
  auto mB = make_tensor(make_gmem_ptr(B.data()), make_shape(Int<N>{}, Int<K>{}), make_stride(Int<K>{}, _1{}));  // (N,K)
  auto mC = make_tensor(make_gmem_ptr(C.data()), make_shape(Int<M>{}, Int<N>{}), make_stride(_1{}, Int<M>{}));  // (M,N)
  for (int t = 0; t < 256; ++t) {
    auto thr = mma.get_slice(t);
    auto tCgA = thr.partition_A(mA);  // (MMA,MMA_M,MMA_K)
    auto tCgB = thr.partition_B(mB);  // (MMA,MMA_N,MMA_K)
    auto tCgC = thr.partition_C(mC);  // (MMA,MMA_M,MMA_N)
    auto tCrC = thr.make_fragment_C(tCgC);
    for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = 0.0f;
    gemm(mma, tCgA, tCgB, tCrC);
    for (int i = 0; i < int(size(tCrC)); ++i) tCgC(i) = tCrC(i);
  }
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float ref = 0;
      for (int k = 0; k < K; ++k) ref += A[m * K + k] * B[n * K + k];
      EXPECT_EQ(C[m + n * M], ref) << m << "," << n;
    }
}

TEST(TiledMmaLaws, Printing) {
  std::ostringstream os;
  os << make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  std::string const s = os.str();
  EXPECT_NE(s.find("ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_64,_0)"), std::string::npos) << s;
  EXPECT_NE(s.find("Tile (M,N,K):   (_32,_32,_16)"), std::string::npos) << s;
  EXPECT_NE(s.find("LayoutA_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"), std::string::npos) << s;
  std::ostringstream oc;
  oc << make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                        Layout<Shape<_1, _8>>{});
  EXPECT_NE(oc.str().find("Tiler_MN:       (_16,_64)"), std::string::npos) << oc.str();
  EXPECT_NE(oc.str().find("ValLayoutSrc: (_1,_8):(_0,_1)"), std::string::npos) << oc.str();
}

}  // namespace
