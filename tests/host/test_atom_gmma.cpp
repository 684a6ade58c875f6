// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The sm_90 GMMA atoms' host-visible half (tessera/atom/mma_sm90.hpp): the
// traits against the PTX ISA's wgmma accumulator map, written out here as a
// formula (thread t = 32 w + 4 g + q holds, as value e + 2 h + 4 j,
// D(16 w + g + 8 h, 8 j + 2 q + e)); TiledMMAs in seed 002's forms; and the
// descriptor fragments that partition_fragment_A/B build from shared-memory
// layouts: fixed fields, and the law that each sub-tile's descriptor starts
// at the byte offset of the sub-tile's first element, over generated tiles.
// The instructions themselves run in tests/device/test_atom_gmma_sm90.cu.

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "host_test.hpp"
#include "tessera/atom.hpp"
#include "tessera/tensor.hpp"

using namespace tessera;
using tessera::arch::GmmaSwizzle;
using tessera::test::str;

namespace {

template <class T, class L>
auto smem_tensor(L const& l) {
  return make_tensor(make_smem_ptr(static_cast<T*>(nullptr)), l);
}

TEST(AtomGmma, TraitsFixedAnswers) {
  using A = MMA_Atom<SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>>;
  EXPECT_EQ(str(typename A::ThrID{}), "_128:_1");
  EXPECT_EQ(str(typename A::Shape_MNK{}), "(_64,_128,_16)");
  EXPECT_EQ(str(typename A::LayoutA_TV{}), "(_128,(_64,_16)):(_0,(_1,_64))");
  EXPECT_EQ(str(typename A::LayoutB_TV{}), "(_128,(_128,_16)):(_0,(_1,_128))");
  EXPECT_EQ(str(typename A::LayoutC_TV{}), "((_4,_8,_4),(_2,_2,_16)):((_128,_1,_16),(_64,_8,_512))");
  EXPECT_EQ(str(typename MMA_Atom<SM90_64x32x8_F32TF32TF32_SS_TN<>>::Shape_MNK{}), "(_64,_32,_8)");
  EXPECT_EQ(str(typename MMA_Atom<SM90_64x256x32_S32S8S8_SS_TN>::Shape_MNK{}), "(_64,_256,_32)");
  EXPECT_EQ(str(typename MMA_Atom<SM90_64x8x16_F16F16F16_SS<>>::LayoutC_TV{}),
            "((_4,_8,_4),(_2,_2,_1)):((_128,_1,_16),(_64,_8,_512))");
  EXPECT_TRUE((std::is_same_v<typename MMA_Atom<SM90_64x64x32_S32U8U8_SS_TN>::ValTypeD, std::int32_t>));
  using Fp8 = MMA_Atom<SM90_64x64x32_F32E4M3E5M2_SS_TN<>>;
  EXPECT_EQ(str(typename Fp8::Shape_MNK{}), "(_64,_64,_32)");
  EXPECT_TRUE((std::is_same_v<typename Fp8::ValTypeA, float_e4m3_t> && std::is_same_v<typename Fp8::ValTypeB, float_e5m2_t>));
  EXPECT_EQ(str(typename MMA_Atom<SM90_64x64x32_F32E5M2E5M2_RS_TN<>>::LayoutA_TV{}),
            "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))");
  EXPECT_TRUE((std::is_same_v<typename MMA_Atom<SM90_64x64x16_F16F16F16_SS<>>::ValTypeC, half_t>));
}

// The accumulator map is the PTX formula and a bijection onto the 64 x N tile.
template <int N>
void check_c_layout() {
  SCOPED_TRACE(N);
  GMMA::CLayout_64xN<N> const c{};
  std::set<int> seen;
  for (int t = 0; t < 128; ++t) {
    int const w = t / 32, g = (t % 32) / 4, q = t % 4;
    for (int v = 0; v < N / 2; ++v) {
      int const e = v % 2, h = (v / 2) % 2, j = v / 4;
      int const m = 16 * w + g + 8 * h, n = 8 * j + 2 * q + e;
      ASSERT_EQ(int(c(t, v)), m + 64 * n) << "thread " << t << " value " << v;
      seen.insert(int(c(t, v)));
    }
  }
  EXPECT_EQ(int(seen.size()), 64 * N);
}

TEST(AtomGmma, AccumulatorMapIsThePtxFormula) {
  check_c_layout<8>();
  check_c_layout<64>();
  check_c_layout<136>();
  check_c_layout<256>();
}

// The RS form's A layout is, per warp, mma.sync's m16nXk A fragment:
// register r = h + 2 kk of thread (w, g, q) holds row 16 w + g + 8 h and
// columns E q + e + 4 E kk (E elements of kElemBytes per 32-bit register).
template <int kElemBytes>
void check_rs_a_layout() {
  SCOPED_TRACE(kElemBytes);
  GMMA::ALayout_RS_64xK<kElemBytes> const a{};
  constexpr int E = 4 / kElemBytes, K = 32 / kElemBytes;
  std::set<int> seen;
  for (int t = 0; t < 128; ++t) {
    int const w = t / 32, g = (t % 32) / 4, q = t % 4;
    for (int v = 0; v < 4 * E; ++v) {
      int const e = v % E, r = v / E, h = r % 2, kk = r / 2;
      int const m = 16 * w + g + 8 * h, k = E * q + e + 4 * E * kk;
      ASSERT_EQ(int(a(t, v)), m + 64 * k) << "thread " << t << " value " << v;
      seen.insert(int(a(t, v)));
    }
  }
  EXPECT_EQ(int(seen.size()), 64 * K);
}

TEST(AtomGmma, RegisterAIsTheMmaSyncFragment) {
  check_rs_a_layout<2>();
  check_rs_a_layout<4>();
  check_rs_a_layout<1>();
  using RS = MMA_Atom<SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K, GMMA::Major::MN>>;
  EXPECT_EQ(str(typename RS::LayoutA_TV{}), "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))");
  EXPECT_EQ(str(typename RS::LayoutB_TV{}), "(_128,(_128,_16)):(_0,(_1,_128))");
  // A partitions into a register fragment of 8 values per atom call, B into descriptors.
  auto mma = make_tiled_mma(RS{}, Layout<Shape<_1, _1, _1>>{}, Tile<_128, _128, _16>{});
  auto thr = mma.get_slice(33);
  auto sA = smem_tensor<bfloat16_t>(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
  auto sB = smem_tensor<bfloat16_t>(tile_to_shape(GMMA::Layout_MN_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
  Tensor tCrA = thr.partition_fragment_A(sA);
  // K repeats split at the swizzle bits, as the shared-memory partition is.
  EXPECT_EQ(str(tCrA.layout()), "((_2,_2,_2),_2,(_2,_2)):((_1,_2,_4),_8,(_16,_32))");
  EXPECT_TRUE((std::is_same_v<typename decltype(tCrA)::value_type, bfloat16_t>));
  Tensor tCrB = thr.partition_fragment_B(sB);
  EXPECT_TRUE((std::is_same_v<typename decltype(tCrB)::value_type, arch::GmmaDescriptor>));
  // Thread 33 (w 1, g 0, q 1) reads A(16 + 8h, 2 + e + 8kk) of sub-tile (m, k).
  Tensor tCsA = thr.partition_A(sA);
  for (int m = 0; m < 2; ++m)
    for (int k = 0; k < 4; ++k)
      for (int v = 0; v < 8; ++v) {
        int const e = v % 2, h = (v / 2) % 2, kk = v / 4;
        int const row = 64 * m + 16 + 8 * h, col = 16 * k + 2 + e + 8 * kk;
        EXPECT_EQ(&tCsA(v, m, k), &sA(row, col)) << m << "," << k << "," << v;
      }
}

// Seed 002's TiledMMAs: atoms over warpgroups (2x2 atoms are 4 warpgroups,
// 512 threads), or one warpgroup repeating the atom through the permutation.
TEST(AtomGmma, SeedTiledMmaForms) {
  auto four = make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>{}, Layout<Shape<_2, _2, _1>>{});
  EXPECT_EQ(int(size(four)), 512);
  EXPECT_EQ(str(tile_shape(four)), "(_128,_256,_16)");
  auto one = make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>{}, Layout<Shape<_1, _1, _1>>{},
                            Tile<_128, _128, _16>{});
  EXPECT_EQ(int(size(one)), 128);
  auto thr = one.get_slice(77);
  Tensor tCrC = thr.partition_fragment_C(make_layout(Shape<_128, _128>{}));
  EXPECT_EQ(str(tCrC.layout()), "((_2,_2,_16),_2,_1):((_1,_2,_4),_64,_0)");
  Tensor same = thr.partition_fragment_C(make_shape(_128{}, _128{}));
  EXPECT_EQ(str(same.layout()), str(tCrC.layout()));
  // Two warpgroups on M: thread 128 + t holds rows 64.. of what thread t holds.
  auto two = make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>{}, Layout<Shape<_2, _1, _1>>{});
  auto tv = two.get_layoutC_TV();
  for (int t = 0; t < 128; ++t)
    for (int v = 0; v < 64; ++v) ASSERT_EQ(int(tv(t + 128, v)), int(tv(t, v)) + 64) << t << "," << v;
}

TEST(AtomGmma, DescriptorFragmentFixedFields) {
  auto sL = tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64, _3>{});
  auto sA = smem_tensor<bfloat16_t>(sL);
  auto mma = make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>{}, Layout<Shape<_1, _1, _1>>{},
                            Tile<_128, _128, _16>{});
  auto thr = mma.get_slice(5);
  Tensor tCrA = thr.partition_fragment_A(sA(_, _, 1));  // stage 1: 16 KiB in
  EXPECT_EQ(str(tCrA.layout()), "(_1,_2,(_2,_2)):(_0,_512,(_2,_4))");
  for (int m = 0; m < 2; ++m)
    for (int k = 0; k < 4; ++k) {
      arch::GmmaDescriptor const d = tCrA(0, m, k);
      EXPECT_EQ(d.start_address(), 16384u + 8192u * m + 32u * k) << m << "," << k;
      EXPECT_EQ(d.leading_byte_offset(), 16u);
      EXPECT_EQ(d.stride_byte_offset(), 1024u) << "8 rows of 128 bytes";
      EXPECT_EQ(d.swizzle(), GmmaSwizzle::b128);
    }
  // MN-major B, atoms N first: LBO between N atoms, SBO between K groups.
  auto sB = smem_tensor<half_t>(tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_128, _64>{}));
  auto mn = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>{});
  Tensor tCrB = mn.get_slice(0).partition_fragment_B(sB);
  EXPECT_EQ(str(tCrB.layout()), "(_1,_1,_4):(_0,_0,_256)");
  arch::GmmaDescriptor const b = tCrB(0, 0, 1);
  EXPECT_EQ(b.start_address(), 4096u);
  EXPECT_EQ(b.leading_byte_offset(), 1024u);
  EXPECT_EQ(b.stride_byte_offset(), 2048u);
  EXPECT_EQ(b.swizzle(), GmmaSwizzle::b128);
}

// Law: the descriptor of sub-tile (m, k) starts at the byte offset of its
// first element, (m * MN_atom, k * K_atom) of the tile (swizzle-neutral:
// rows a multiple of 8 from the pattern's start), for every generated tile.
template <class Atom, class T, class Major, int kBM, int kBK, class Step = tessera::Step<_1, _2>>
void check_starts(char const* what) {
  SCOPED_TRACE(what);
  auto const sL = tile_to_shape(Atom{}, Shape<Int<kBM>, Int<kBK>>{}, Step{});
  auto const s = smem_tensor<T>(sL);
  using D = std::conditional_t<std::is_integral_v<T>, std::int32_t, float>;
  auto mma = make_tiled_mma(SM90_GMMA_SS<D, T, T, 64, Major::value, GMMA::Major::K>{},
                            Layout<Shape<_1, _1, _1>>{}, Tile<Int<kBM>, _64, Int<32 / int(sizeof(T))>>{});
  Tensor frag = mma.get_slice(0).partition_fragment_A(s);
  constexpr int kK = 32 / int(sizeof(T));
  ASSERT_EQ(int(size<1>(frag)), kBM / 64);
  ASSERT_EQ(int(size<2>(frag)), kBK / kK);
  for (int m = 0; m < kBM / 64; ++m)
    for (int k = 0; k < kBK / kK; ++k)
      EXPECT_EQ(arch::GmmaDescriptor(frag(0, m, k)).start_address(), std::uint32_t(sL(64 * m, kK * k)) * sizeof(T)) << m << "," << k;
}

template <GMMA::Major M>
struct MajorC {
  static constexpr GMMA::Major value = M;
};
using KMaj = MajorC<GMMA::Major::K>;
using MnMaj = MajorC<GMMA::Major::MN>;

TEST(AtomGmma, DescriptorStartsAreSubTileOffsets) {
  check_starts<GMMA::Layout_K_SW128_Atom<bfloat16_t>, bfloat16_t, KMaj, 128, 128>("K SW128 bf16, 2 atoms in K");
  check_starts<GMMA::Layout_K_SW64_Atom<half_t>, half_t, KMaj, 192, 64>("K SW64 f16");
  check_starts<GMMA::Layout_K_SW32_Atom<tfloat32_t>, tfloat32_t, KMaj, 64, 32>("K SW32 tf32");
  check_starts<GMMA::Layout_K_SW128_Atom<std::int8_t>, std::int8_t, KMaj, 128, 256>("K SW128 s8");
  check_starts<GMMA::Layout_K_SW64_Atom<bfloat16_t>, bfloat16_t, KMaj, 128, 64, Step<_2, _1>>("K SW64, K first");
  check_starts<GMMA::Layout_MN_SW128_Atom<half_t>, half_t, MnMaj, 128, 64>("MN SW128, M first");
  check_starts<GMMA::Layout_MN_SW128_Atom<half_t>, half_t, MnMaj, 128, 64, Step<_2, _1>>("MN SW128, K first");
  check_starts<GMMA::Layout_MN_SW64_Atom<bfloat16_t>, bfloat16_t, MnMaj, 256, 32>("MN SW64");
  check_starts<GMMA::Layout_MN_SW32_Atom<half_t>, half_t, MnMaj, 64, 48, Step<_2, _1>>("MN SW32, K first");
  check_starts<GMMA::Layout_K_INTER_Atom<bfloat16_t>, bfloat16_t, KMaj, 128, 64>("K INTER bf16");
  check_starts<GMMA::Layout_K_INTER_Atom<tfloat32_t>, tfloat32_t, KMaj, 64, 24, Step<_2, _1>>("K INTER tf32, K first");
  check_starts<GMMA::Layout_K_INTER_Atom<std::int8_t>, std::int8_t, KMaj, 192, 64>("K INTER s8");
  check_starts<GMMA::Layout_MN_INTER_Atom<half_t>, half_t, MnMaj, 128, 48>("MN INTER, M first");
  check_starts<GMMA::Layout_MN_INTER_Atom<half_t>, half_t, MnMaj, 64, 32, Step<_2, _1>>("MN INTER, K first");
}

// Interleaved tiles: LBO is the step along K (between the two core matrices
// of a 32-byte K row; between groups of 8 k), SBO the step along M/N, in
// both major orders; the swizzle field is 0 and a 16-byte base suffices.
TEST(AtomGmma, InterleavedDescriptorFields) {
  struct Want {
    std::uint32_t lbo, sbo;
  };
  auto fields = [](auto const& frag, Want w, char const* what) {
    SCOPED_TRACE(what);
    arch::GmmaDescriptor const d = frag(0, 0, 0);
    EXPECT_EQ(d.leading_byte_offset(), w.lbo);
    EXPECT_EQ(d.stride_byte_offset(), w.sbo);
    EXPECT_EQ(d.swizzle(), GmmaSwizzle::interleave);
  };
  auto k_mma = make_tiled_mma(SM90_64x64x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::MN>{});
  auto thr = k_mma.get_slice(0);
  // K-major, atoms M first: core matrices 128 B apart down M, 64 rows * 16 B apart along K.
  auto a_m = smem_tensor<bfloat16_t>(tile_to_shape(GMMA::Layout_K_INTER_Atom<bfloat16_t>{}, Shape<_64, _64>{}));
  fields(thr.partition_fragment_A(a_m), {1024, 128}, "K, M first");
  EXPECT_EQ(str(thr.partition_fragment_A(a_m).layout()), "(_1,_1,_4):(_0,_0,_128)");
  // K-major, atoms K first: 128 B apart along K, 8 atoms * 128 B apart down M.
  auto a_k = smem_tensor<bfloat16_t>(
      tile_to_shape(GMMA::Layout_K_INTER_Atom<bfloat16_t>{}, Shape<_64, _64>{}, Step<_2, _1>{}));
  fields(thr.partition_fragment_A(a_k), {128, 1024}, "K, K first");
  // MN-major, atoms N first: 8 atoms of 8 n x 8 k, 128 B apart along N; K groups 1024 B apart.
  auto b_n = smem_tensor<bfloat16_t>(tile_to_shape(GMMA::Layout_MN_INTER_Atom<bfloat16_t>{}, Shape<_64, _32>{}));
  fields(thr.partition_fragment_B(b_n), {1024, 128}, "MN, N first");
  // MN-major, atoms K first: K groups 128 B apart, N runs 4 * 128 B apart.
  auto b_k = smem_tensor<bfloat16_t>(
      tile_to_shape(GMMA::Layout_MN_INTER_Atom<bfloat16_t>{}, Shape<_64, _32>{}, Step<_2, _1>{}));
  fields(thr.partition_fragment_B(b_k), {128, 512}, "MN, K first");
  // 8-bit K-major: 16 elements per core-matrix row, two core matrices per K of 32.
  auto s8 = make_tiled_mma(SM90_64x64x32_S32S8S8_SS_TN{});
  auto a8 = smem_tensor<std::int8_t>(tile_to_shape(GMMA::Layout_K_INTER_Atom<std::int8_t>{}, Shape<_64, _64>{}));
  fields(s8.get_slice(0).partition_fragment_A(a8), {1024, 128}, "K s8");
}

// gemm over (V,M,K) with an atom whose accumulate_ scale is 0 computes
// D = A*B (C ignored) and accumulates the later k-blocks: the rule the GMMA
// atoms' scale-d follows, checked with a host atom that models it.
struct ScaledFma {
  int accumulate_ = 1;
  template <class TD, class TA, class TB, class TC>
  void call(TD&& d, TA const& a, TB const& b, TC const& c) const {
    d(0) = a(0) * b(0) + (accumulate_ ? c(0) : 0.0);
  }
};

TEST(AtomGmma, AccumulateScaleAppliesToTheFirstKBlock) {
  auto A = make_tensor<double>(Shape<_1, _2, _3>{});
  auto B = make_tensor<double>(Shape<_1, _2, _3>{});
  auto C = make_tensor<double>(Shape<_1, _2, _2>{});
  for (int i = 0; i < 6; ++i) A(i) = 1.5 + i, B(i) = 0.25 * i - 1.0;
  for (int i = 0; i < 4; ++i) C(i) = 1000.0 + i;  // poison: must not survive
  ScaledFma zero;
  zero.accumulate_ = 0;
  gemm(zero, A, B, C);
  for (int m = 0; m < 2; ++m)
    for (int n = 0; n < 2; ++n) {
      double ref = 0;
      for (int k = 0; k < 3; ++k) ref += A(0, m, k) * B(0, n, k);
      EXPECT_DOUBLE_EQ(C(0, m, n), ref) << m << "," << n;
    }
  EXPECT_EQ(zero.accumulate_, 0) << "the caller's atom is left as it was";
}

}  // namespace
