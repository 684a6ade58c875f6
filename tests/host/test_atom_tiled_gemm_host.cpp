// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Seed 000's GEMM tile executed on the host, thread by thread, with only the
// partitions Tessera computes: cp.async g2s by TiledCopy partition_S/D into a
// real Swizzle<3,3,3> buffer, ldmatrix x4 emulated warp-wide from the row
// addresses each lane's tXsA gives (PTX semantics, independent of the traits),
// mma.sync m16n8k8 emulated warp-wide from the register fragments placed by
// tXrA = retile_D(tCrA) and read back through the traits' TV layouts, and the
// epilogue through tCgC. The product must equal an exact reference: any slip
// in thrfrg, retile, make_tiled_copy_A/B or the traits scrambles it.

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

namespace {

using namespace tessera;

constexpr int kM = 128, kN = 128, kBK = 64, kStages = 3, kK = kBK * kStages, kThreads = 128;

template <class Op>
auto seed_mma() { return make_tiled_mma(Op{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{}); }
auto seed_smem_layout() {
  auto swizzle_atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  return tile_to_shape(swizzle_atom, make_shape(Int<kM>{}, Int<kBK>{}, Int<kStages>{}));
}

// 1 KiB-aligned host buffer (the swizzle acts on absolute addresses).
struct AlignedHalf {
  std::vector<unsigned char> raw;
  half_t* p;
  explicit AlignedHalf(int n) : raw(std::size_t(n) * sizeof(half_t) + 1024) {
    auto a = (reinterpret_cast<std::uintptr_t>(raw.data()) + 1023) & ~std::uintptr_t(1023);
    p = reinterpret_cast<half_t*>(a);
  }
};

// ldmatrix .x4 (non-transposed) for one warp: lane l's register j holds row
// l/4 of matrix j, elements 2(l%4), 2(l%4)+1; matrix j's row r comes from the
// address lane 8j+r supplied.
void emulate_ldsm_x4(half_t const* const row_addr[32], half_t out[32][8]) {
  for (int l = 0; l < 32; ++l)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 2; ++e) out[l][2 * j + e] = row_addr[8 * j + l / 4][2 * (l % 4) + e];
}

// The tile with MMA atom Op (16x8xK, f16 inputs) and accumulator type TC.
template <class Op, class TC>
void run_tile() {
  std::mt19937 gen(3);
  std::uniform_int_distribution<int> dist(-3, 3);  // exact in f16 through K = 192
  std::vector<half_t> A(kM * kK), B(kN * kK);
  std::vector<TC> C(kM * kN, TC(std::numeric_limits<float>::quiet_NaN()));  // poisoned
  for (auto& x : A) x = half_t(float(dist(gen)));
  for (auto& x : B) x = half_t(float(dist(gen)));
  AlignedHalf smemA(kM * kBK * kStages), smemB(kN * kBK * kStages);

  Tensor mA = make_tensor(make_gmem_ptr(A.data()), make_shape(Int<kM>{}, Int<kK>{}), make_stride(Int<kK>{}, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(B.data()), make_shape(Int<kN>{}, Int<kK>{}), make_stride(Int<kK>{}, _1{}));
  Tensor mC = make_tensor(make_gmem_ptr(C.data()), make_shape(Int<kM>{}, Int<kN>{}), make_stride(_1{}, Int<kM>{}));
  Tensor gA = local_tile(mA, make_shape(Int<kM>{}, Int<kBK>{}), make_coord(0, Underscore{}));  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, make_shape(Int<kN>{}, Int<kBK>{}), make_coord(0, Underscore{}));  // (BLK_N,BLK_K,k)
  Tensor sA = make_tensor(make_smem_ptr(smemA.p), seed_smem_layout());                      // (BLK_M,BLK_K,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(smemB.p), seed_smem_layout());                      // (BLK_N,BLK_K,PIPE)

  // g2s: every thread copies its partition of every k-tile into its pipe stage.
  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                             Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  for (int t = 0; t < kThreads; ++t) {
    auto thr = g2s.get_slice(t);
    auto tAgA = thr.partition_S(gA);
    auto tAsA = thr.partition_D(sA);
    auto tBgB = thr.partition_S(gB);
    auto tBsB = thr.partition_D(sB);
    for (int k = 0; k < kStages; ++k) {
      auto sa = tAgA(Underscore{}, Underscore{}, Underscore{}, k);
      auto da = tAsA(Underscore{}, Underscore{}, Underscore{}, k);
      for (int i = 0; i < int(size(da)); ++i) da(i) = sa(i);
      auto sb = tBgB(Underscore{}, Underscore{}, Underscore{}, k);
      auto db = tBsB(Underscore{}, Underscore{}, Underscore{}, k);
      for (int i = 0; i < int(size(db)); ++i) db(i) = sb(i);
    }
  }

  auto mma = seed_mma<Op>();
  auto s2r_a = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto s2r_b = make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  using FragA = decltype(mma.get_slice(0).partition_fragment_A(sA(Underscore{}, Underscore{}, 0)));
  using FragB = decltype(mma.get_slice(0).partition_fragment_B(sB(Underscore{}, Underscore{}, 0)));
  using FragC = decltype(mma.get_slice(0).make_fragment_C(mma.get_slice(0).partition_C(mC)));
  std::vector<FragA> rA(kThreads);
  std::vector<FragB> rB(kThreads);
  std::vector<FragC> rC(kThreads);
  for (auto& f : rC)
    for (int i = 0; i < int(size(f)); ++i) f(i) = TC(0.0f);

  using Traits = MMA_Traits<Op>;
  constexpr int kAtomK = decltype(size<2>(typename Traits::Shape_MNK{}))::value;
  constexpr int kValsA = decltype(size<1>(typename Traits::ALayout{}))::value;
  constexpr int kValsB = decltype(size<1>(typename Traits::BLayout{}))::value;
  constexpr int kMmaM = decltype(size<1>(FragA{}))::value;
  constexpr int kMmaN = decltype(size<1>(FragB{}))::value;
  constexpr int kMmaK = decltype(size<2>(FragA{}))::value;
  ASSERT_EQ(kMmaM, 4);
  ASSERT_EQ(kMmaN, 8);
  ASSERT_EQ(kMmaK * kAtomK, kBK);

  // An ldmatrix k-block is 16 wide, an MMA k-block kAtomK: the s2r copy walks
  // size<2>(tXrA) = 4 k-blocks, the MMA size<2>(tCrA) = 64 / kAtomK.
  constexpr int kCopyK = decltype(size<2>(s2r_a.get_slice(0).retile_D(rA[0])))::value;
  ASSERT_EQ(kCopyK, 4);
  for (int pipe = 0; pipe < kStages; ++pipe) {
    for (int w = 0; w < kThreads / 32; ++w) {
      for (int kb = 0; kb < kCopyK; ++kb) {
        // s2r: each lane's row address for every (m) of this k-block.
        for (int m = 0; m < kMmaM; ++m) {
          half_t const* rows[32];
          half_t vals[32][8];
          for (int l = 0; l < 32; ++l) {
            auto tXsA = s2r_a.get_slice(32 * w + l).partition_S(sA);
            rows[l] = raw_pointer_cast(tXsA.data() + tXsA.layout()(make_coord(0, m, kb, pipe)));
          }
          emulate_ldsm_x4(rows, vals);
          for (int l = 0; l < 32; ++l) {
            auto tXrA = s2r_a.get_slice(32 * w + l).retile_D(rA[32 * w + l]);
            for (int v = 0; v < 8; ++v) tXrA(v, m, kb) = vals[l][v];
          }
        }
        for (int n = 0; n < int(size<1>(s2r_b.get_slice(0).retile_D(rB[0]))); ++n) {
          half_t const* rows[32];
          half_t vals[32][8];
          for (int l = 0; l < 32; ++l) {
            auto tXsB = s2r_b.get_slice(32 * w + l).partition_S(sB);
            rows[l] = raw_pointer_cast(tXsB.data() + tXsB.layout()(make_coord(0, n, kb, pipe)));
          }
          emulate_ldsm_x4(rows, vals);
          for (int l = 0; l < 32; ++l) {
            auto tXrB = s2r_b.get_slice(32 * w + l).retile_D(rB[32 * w + l]);
            for (int v = 0; v < 8; ++v) tXrB(v, n, kb) = vals[l][v];
          }
        }
      }
      // mma.sync m16n8kK per (m, n, k): gather the warp's fragments into
      // 16xK A, 8xK B (n,k) and 16x8 C tiles through the traits' layouts.
      for (int kb = 0; kb < kMmaK; ++kb) {
        for (int m = 0; m < kMmaM; ++m) {
          for (int n = 0; n < kMmaN; ++n) {
            float a[16][kAtomK], b[8][kAtomK], c[16][8];
            for (int l = 0; l < 32; ++l) {
              auto& fa = rA[32 * w + l];
              auto& fb = rB[32 * w + l];
              auto& fc = rC[32 * w + l];
              for (int v = 0; v < kValsA; ++v) {
                int const ia = int(typename Traits::ALayout{}(l, v));
                a[ia % 16][ia / 16] = float(fa(v, m, kb));
              }
              for (int v = 0; v < 4; ++v) {
                int const ic = int(typename Traits::CLayout{}(l, v));
                c[ic % 16][ic / 16] = float(fc(v, m, n));
              }
              for (int v = 0; v < kValsB; ++v) {
                int const ib = int(typename Traits::BLayout{}(l, v));
                b[ib % 8][ib / 8] = float(fb(v, n, kb));
              }
            }
            for (int i = 0; i < 16; ++i)
              for (int j = 0; j < 8; ++j)
                for (int k = 0; k < kAtomK; ++k) c[i][j] += a[i][k] * b[j][k];
            for (int l = 0; l < 32; ++l)
              for (int v = 0; v < 4; ++v) {
                int const ic = int(typename Traits::CLayout{}(l, v));
                rC[32 * w + l](v, m, n) = TC(c[ic % 16][ic / 16]);
              }
          }
        }
      }
    }
  }

  // Epilogue through tCgC.
  for (int t = 0; t < kThreads; ++t) {
    auto tCgC = mma.get_slice(t).partition_C(mC);
    for (int i = 0; i < int(size(tCgC)); ++i) tCgC(i) = rC[t](i);
  }
  int wrong = 0;
  for (int m = 0; m < kM; ++m)
    for (int n = 0; n < kN; ++n) {
      float ref = 0;
      for (int k = 0; k < kK; ++k) ref += float(A[m * kK + k]) * float(B[n * kK + k]);
      if (float(C[m + n * kM]) != ref && ++wrong <= 5) ADD_FAILURE() << "C(" << m << "," << n << ") = " << float(C[m + n * kM]) << ", want " << ref;
    }
  EXPECT_EQ(wrong, 0);
}

TEST(AtomTiledGemmHost, Seed000Tile) { run_tile<SM80_16x8x8_F16F16F16F16_TN, half_t>(); }
TEST(AtomTiledGemmHost, F32Accumulate16x8x16) { run_tile<SM80_16x8x16_F32F16F16F32_TN, float>(); }
TEST(AtomTiledGemmHost, F16Accumulate16x8x16) { run_tile<SM80_16x8x16_F16F16F16F16_TN, half_t>(); }

}  // namespace
