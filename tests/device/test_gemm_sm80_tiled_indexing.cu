// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The tiled kernel (sm80_tiled.cuh, Sm80Variant::tiled) partitions with
// Tensors, TiledCopy and TiledMMA; the hand-indexed kernel (sm80_mainloop.cuh)
// computes the same addresses by hand, and test_gemm_sm80_indexing checks
// those against simulated instructions. Here, on the host (no GPU needed, so
// it also runs in CI), every thread's partitions of the tiled kernel are
// compared one to one with the hand-indexed kernel's address functions for
// the seed tile:
//   shared-memory layout  smem_layout() == SwizzledSmemTile<128,128>
//   global -> shared      tAgA / tAsA == GmemTileLoader's unit addresses,
//                         tXc's rows and k column == its row0 / byte0
//   shared -> registers   tXsA / tXsB == WarpFragmentLoader's ldmatrix rows
//   registers             tXrA / tXrB (ldmatrix destinations) alias the
//                         tCrA / tCrB values the hand kernel feeds mma.sync
//   accumulators          partition_C coordinates == Sm80Epilogue's
//                         fragment_coord; tCsC == its staging offset.
// No kernels here: the device passes (sm_80, sm_90a) compile nothing but
// this guard, and the host pass does all the work (tests/CMakeLists.txt,
// "host-only .cu tests").
#if !defined(__CUDA_ARCH__)

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <tessera/gemm/sm80_tensorop.cuh>
#include <tessera/gemm/sm80_tiled.hpp>

namespace {

using namespace tessera;
using namespace tessera::kernels;
using namespace tessera::kernels::sm80;

using Tiled = Sm80TiledTN<half_t, float>;
using Cfg = ConfigTile128x128<2, true, true>;  // the hand-indexed seed tile (TN, 16-bit)
using Loader = GmemTileLoader<__half, true, Cfg::kBlockM, Cfg::kBlockK, Cfg::kThreads, Cfg::kAccessBytes>;
using Frags = WarpFragmentLoader<Cfg, __half>;
constexpr int kStageBytes = Cfg::kStageBytesA;

static_assert(Tiled::kBlockM == Cfg::kBlockM && Tiled::kBlockN == Cfg::kBlockN && Tiled::kBlockK == Cfg::kBlockK &&
              Tiled::kStages == Cfg::kStages && Tiled::kThreads == Cfg::kThreads && Tiled::kSmemBytes == Cfg::kSmemBytes);

// A 1 KiB-aligned host buffer standing in for shared or global memory.
struct Buffer {
  std::vector<unsigned char> raw;
  unsigned char* base;
  explicit Buffer(std::size_t bytes) : raw(bytes + 1024) {
    base = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(raw.data()) + 1023) & ~std::uintptr_t(1023));
  }
  template <class T>
  T* as() const { return reinterpret_cast<T*>(base); }
  template <class T>
  std::int64_t offset(T const* p) const { return reinterpret_cast<unsigned char const*>(p) - base; }
};

TEST(Sm80TiledIndexing, SharedLayoutIsTheHandSwizzle) {
  auto sl = Tiled::smem_layout();
  int mismatches = 0;
  for (int s = 0; s < Tiled::kStages; ++s)
    for (int r = 0; r < Tiled::kBlockM; ++r)
      for (int c = 0; c < Tiled::kBlockK; ++c) {
        int const want = s * kStageBytes + SwizzledSmemTile<128, 128>::offset(r, c / 8) + (c % 8) * 2;
        if (int(sl(r, c, s)) * 2 != want) ++mismatches;
      }
  EXPECT_EQ(mismatches, 0);
}

TEST(Sm80TiledIndexing, GlobalToSharedMatchesTheLoader) {
  constexpr std::int64_t kLd = 1032;  // elements; 16-byte multiple, not a power of two
  constexpr int kM = 300, kK = 200;   // residues in M (300 = 2*128 + 44) and K
  Buffer gmem(std::size_t(kM + 128) * kLd * 2), smem(std::size_t(Tiled::kRingElems) * 2);
  Tensor mA = make_tensor(make_gmem_ptr(gmem.as<half_t const>()), make_shape(kM, kK), make_stride(kLd, _1{}));
  Tensor sA = make_tensor(make_smem_ptr(smem.as<half_t>()), Tiled::smem_layout());
  int checked = 0, mismatches = 0;
  for (int tm = 0; tm < 3; ++tm) {
    Tensor gA = local_tile(mA, make_shape(_128{}, _64{}), make_coord(tm, _));  // (BLK_M,BLK_K,k)
    for (int tid = 0; tid < Tiled::kThreads; ++tid) {
      auto thr = Tiled::g2s().get_slice(tid);
      Tensor tAgA = thr.partition_S(gA);  // (CPY,CPY_M,CPY_K,k)
      Tensor tAsA = thr.partition_D(sA);  // (CPY,CPY_M,CPY_K,PIPE)
      Tensor tXc = thr.partition_S(make_identity_tensor(make_shape(_128{}, _64{})));
      static_assert(decltype(size<1>(tAgA))::value == Loader::kPerThread && decltype(size<0>(tAgA))::value == 8);
      Loader ld(reinterpret_cast<const char*>(gmem.base), kLd, tm * 128, kM, kK, tid);
      EXPECT_EQ(int(get<1>(tXc(0, 0, 0))) * 2, ld.byte0) << "tid " << tid;
      for (int i = 0; i < Loader::kPerThread; ++i) {
        EXPECT_EQ(int(get<0>(tXc(0, i, 0))), ld.row0 + i * Loader::kRowStep) << "tid " << tid << " copy " << i;
        for (int kt = 0; kt < 3; ++kt) {
          std::int64_t const want = (ld.tile_pointer(kt) + i * ld.row_step) - reinterpret_cast<const char*>(gmem.base);
          mismatches += gmem.offset(&tAgA(0, i, 0, kt)) != want;
          // the 8 values of one copy are one contiguous 16-byte chunk
          mismatches += gmem.offset(&tAgA(7, i, 0, kt)) != want + 14;
          ++checked;
        }
        for (int s = 0; s < Tiled::kStages; ++s) {
          std::int64_t const want = s * kStageBytes + ld.smem_offset(i);
          mismatches += smem.offset(&tAsA(0, i, 0, s)) != want;
          mismatches += smem.offset(&tAsA(7, i, 0, s)) != want + 14;
        }
      }
    }
  }
  EXPECT_EQ(checked, 3 * 128 * 8 * 3);
  EXPECT_EQ(mismatches, 0);
}

TEST(Sm80TiledIndexing, LdmatrixRowsMatchTheFragmentLoader) {
  Buffer smem(std::size_t(Tiled::kRingElems) * 2);
  Tensor sA = make_tensor(make_smem_ptr(smem.as<half_t>()), Tiled::smem_layout());
  auto mma = Tiled::tiled_mma();
  auto s2r_a = make_tiled_copy_A(Tiled::s2r_atom(), mma);
  auto s2r_b = make_tiled_copy_B(Tiled::s2r_atom(), mma);
  int mismatches = 0, checked = 0;
  for (int tid = 0; tid < Tiled::kThreads; ++tid) {
    int const warp = tid / 32, lane = tid % 32;
    Frags const f(warp % Cfg::kWarpsM, warp / Cfg::kWarpsM, lane);
    Tensor tXsA = s2r_a.get_slice(tid).partition_S(sA);  // ((8,MMA_M),_1,MMA_K,PIPE)
    Tensor tXsB = s2r_b.get_slice(tid).partition_S(sA);  // ((8,MMA_N/2),_1,MMA_K,PIPE)
    static_assert(decltype(size<2>(tXsA))::value == Cfg::kKSteps);
    static_assert(decltype(size<0>(tXsA))::value == 8 * Cfg::kMmaM);
    static_assert(decltype(size<0>(tXsB))::value == 8 * Cfg::kMmaN / 2);
    for (int s = 0; s < Tiled::kStages; ++s)
      for (int ks = 0; ks < Cfg::kKSteps; ++ks) {
        for (int mi = 0; mi < Cfg::kMmaM; ++mi) {
          mismatches += smem.offset(&tXsA(make_coord(0, mi), 0, ks, s)) != s * kStageBytes + f.a_ldmatrix_offset(ks, mi);
          ++checked;
        }
        for (int np = 0; np < Cfg::kMmaN / 2; ++np) {
          mismatches += smem.offset(&tXsB(make_coord(0, np), 0, ks, s)) != s * kStageBytes + f.b_ldmatrix_offset(ks, np);
          ++checked;
        }
      }
  }
  EXPECT_EQ(checked, 128 * 3 * 4 * (4 + 4));
  EXPECT_EQ(mismatches, 0);
}

// ldmatrix .x4 writes destination register j from matrix j; the hand kernel
// passes A's four registers to mma.sync as they are and splits B's as
// b[2np] = {r0, r1}, b[2np+1] = {r2, r3}. In the tiled kernel the ldmatrix
// destination view (retile_D) and the mma.sync fragment are two views of one
// register tensor: value e of ldmatrix (register e/2) must be the value the
// hand kernel's mapping puts there.
TEST(Sm80TiledIndexing, LdmatrixDestinationsFeedTheMmaFragments) {
  Buffer smem(std::size_t(Tiled::kRingElems) * 2);
  Tensor sA = make_tensor(make_smem_ptr(smem.as<half_t>()), Tiled::smem_layout());
  auto mma = Tiled::tiled_mma();
  auto s2r_a = make_tiled_copy_A(Tiled::s2r_atom(), mma);
  auto s2r_b = make_tiled_copy_B(Tiled::s2r_atom(), mma);
  int mismatches = 0;
  for (int tid : {0, 5, 37, 70, 127}) {
    auto thr = mma.get_slice(tid);
    Tensor tCrA = thr.partition_fragment_A(sA(_, _, 0));  // (MMA,MMA_M,MMA_K)
    Tensor tCrB = thr.partition_fragment_B(sA(_, _, 0));  // (MMA,MMA_N,MMA_K)
    Tensor tXrA = s2r_a.get_slice(tid).retile_D(tCrA);
    Tensor tXrB = s2r_b.get_slice(tid).retile_D(tCrB);
    ASSERT_EQ(int(size<0>(tCrA)), 8);
    ASSERT_EQ(int(size<0>(tCrB)), 4);
    for (int ks = 0; ks < Cfg::kKSteps; ++ks) {
      for (int mi = 0; mi < Cfg::kMmaM; ++mi)
        for (int e = 0; e < 8; ++e) mismatches += &tXrA(make_coord(e, mi), 0, ks) != &tCrA(e, mi, ks);
      for (int np = 0; np < Cfg::kMmaN / 2; ++np)
        for (int e = 0; e < 8; ++e) mismatches += &tXrB(make_coord(e, np), 0, ks) != &tCrB(e % 4, 2 * np + e / 4, ks);
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(Sm80TiledIndexing, AccumulatorsSitWhereTheEpilogueStagesThem) {
  using Epi = Sm80Epilogue<Cfg>;
  auto staging = Tiled::staging_layout();
  int mismatches = 0;
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < 128; ++c) mismatches += int(staging(r, c)) * 4 != Epi::offset(r, c);
  EXPECT_EQ(mismatches, 0) << "staging layout";

  Buffer smem(std::size_t(Tiled::kSmemBytes));
  Tensor sC = make_tensor(make_smem_ptr(smem.as<float>()), staging);
  auto mma = Tiled::tiled_mma();
  int checked = 0;
  mismatches = 0;
  for (int tid = 0; tid < Tiled::kThreads; ++tid) {
    int const warp = tid / 32, lane = tid % 32;
    auto thr = mma.get_slice(tid);
    Tensor tCcC = thr.partition_C(make_identity_tensor(make_shape(_128{}, _128{})));  // (MMA,MMA_M,MMA_N) -> (m,n)
    Tensor tCsC = thr.partition_C(sC);
    static_assert(decltype(size<1>(tCcC))::value == Cfg::kMmaM && decltype(size<2>(tCcC))::value == Cfg::kMmaN);
    for (int mi = 0; mi < Cfg::kMmaM; ++mi)
      for (int ni = 0; ni < Cfg::kMmaN; ++ni)
        for (int v = 0; v < 4; ++v) {
          int row, col;
          Epi::fragment_coord(warp % Cfg::kWarpsM, warp / Cfg::kWarpsM, lane, mi, ni, v / 2, row, col);
          col += v % 2;
          mismatches += int(get<0>(tCcC(v, mi, ni))) != row || int(get<1>(tCcC(v, mi, ni))) != col;
          mismatches += smem.offset(&tCsC(v, mi, ni)) != Epi::offset(row, col);
          ++checked;
        }
  }
  EXPECT_EQ(checked, 128 * 128);
  EXPECT_EQ(mismatches, 0);
}

}  // namespace

#endif  // !defined(__CUDA_ARCH__)
