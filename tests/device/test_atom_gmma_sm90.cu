// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The sm_90 GMMA atoms (tessera/atom/mma_sm90.hpp) in a TiledMMA, written
// the way seed 002 writes them: one CTA stages a BM x BK tile of A and a
// BN x BK tile of B in shared memory through Tessera layouts built from the
// GMMA layout atoms (ordinary stores, then fence.proxy.async), partitions
// them with thr_mma.partition_A/B (or partition_fragment_A/B: descriptor
// fragments), runs gemm(tiled_mma, ...) between warpgroup_arrive and
// warpgroup_wait, and writes tCrC through thr_mma.partition_C of a global C
// poisoned beforehand. Inputs are fresh random values; C is compared with an
// fp64 reference (computed from the values as stored, after rounding to the
// input type) by relative Frobenius error, or exactly for integers. Cases:
// K- and MN-major operands, every swizzle width and the interleaved
// (unswizzled) layouts, one and two warpgroups,
// f32/f16/s32 accumulators, scale-d = 0 over poisoned accumulators, a
// negated A, the RS forms (A copied from shared memory into the atom's
// register fragment), and fp8 operands. Skips unless the device is sm_90.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::upload;

// One case: the atom, how atoms tile the threads, the permutation tile,
// the shared-memory layouts of A (BM x BK) and B (BN x BK), and whether the
// kernel passes descriptor fragments or the shared-memory partitions.
template <class Atom, class AtomLayout, class Perm, class SmemA, class SmemB, bool kDescFragments,
          bool kZeroFirst>
struct Case {
  using MmaAtom = Atom;
  using TA = typename MMA_Traits<Atom>::ValTypeA;
  using TB = typename MMA_Traits<Atom>::ValTypeB;
  using TC = typename MMA_Traits<Atom>::ValTypeD;
  static constexpr int kBM = decltype(size<0>(SmemA{}))::value;
  static constexpr int kBN = decltype(size<0>(SmemB{}))::value;
  static constexpr int kBK = decltype(size<1>(SmemA{}))::value;
  static_assert(kBK == decltype(size<1>(SmemB{}))::value, "A and B tiles differ in K");
  static constexpr bool kDesc = kDescFragments;
  static constexpr bool kZero = kZeroFirst;
  __host__ __device__ static auto tiled_mma() { return make_tiled_mma(Atom{}, AtomLayout{}, Perm{}); }
  static constexpr int kThreads = decltype(size(make_tiled_mma(Atom{}, AtomLayout{}, Perm{})))::value;
  static constexpr std::size_t kSmemBytes =
      1024 + std::size_t(kBM) * kBK * sizeof(TA) + std::size_t(kBN) * kBK * sizeof(TB) + 1024;
  using LayoutA = SmemA;
  using LayoutB = SmemB;
};

// a(m,k) at a[m*BK + k], b(n,k) at b[n*BK + k], c(m,n) at c[m*BN + n].
template <class C>
__global__ void tiled_gmma_kernel(const typename C::TA* a, const typename C::TB* b, typename C::TC* c) {
  extern __shared__ unsigned char smem_raw[];
  unsigned char* const base = smem_raw + ((1024u - unsigned(cast_smem_ptr_to_uint(smem_raw) & 1023u)) & 1023u);
  auto* const pa = reinterpret_cast<typename C::TA*>(base);
  auto* const pb = reinterpret_cast<typename C::TB*>(base + ((std::size_t(C::kBM) * C::kBK * sizeof(typename C::TA) + 1023) / 1024) * 1024);
  Tensor sA = make_tensor(make_smem_ptr(pa), typename C::LayoutA{});  // (BM,BK)
  Tensor sB = make_tensor(make_smem_ptr(pb), typename C::LayoutB{});  // (BN,BK)
  int const tid = int(threadIdx.x);
  for (int i = tid; i < C::kBM * C::kBK; i += C::kThreads) sA(i % C::kBM, i / C::kBM) = a[(i % C::kBM) * C::kBK + i / C::kBM];
  for (int i = tid; i < C::kBN * C::kBK; i += C::kThreads) sB(i % C::kBN, i / C::kBN) = b[(i % C::kBN) * C::kBK + i / C::kBN];
  arch::fence_proxy_async_shared_cta();
  __syncthreads();

  auto mma = C::tiled_mma();
  auto thr = mma.get_slice(tid);
  Tensor tCrC = thr.partition_fragment_C(make_shape(Int<C::kBM>{}, Int<C::kBN>{}));  // (MMA,MMA_M,MMA_N)
  if constexpr (C::kZero) {
    // Poisoned accumulators: the first k-block's scale-d = 0 must ignore them.
    for (int i = 0; i < int(size(tCrC)); ++i) std::memset(&tCrC(i), 0xFF, sizeof(typename C::TC));
    mma.accumulate_ = GMMA::ScaleOut::Zero;
  } else {
    clear(tCrC);
  }
  constexpr bool kRS = !std::is_same_v<typename decltype(thr.partition_fragment_A(sA))::value_type,
                                       arch::GmmaDescriptor>;
  if constexpr (kRS) {
    // RS form: A from registers, copied from the shared-memory partition.
    Tensor tCsA = thr.partition_A(sA);           // (MMA,MMA_M,MMA_K) this thread's A values
    Tensor tCrA = thr.partition_fragment_A(sA);  // (MMA,MMA_M,MMA_K) registers
    copy(tCsA, tCrA);
    Tensor tCrB = thr.partition_fragment_B(sB);
    warpgroup_fence_operand(tCrA);
    warpgroup_fence_operand(tCrC);
    warpgroup_arrive();
    if constexpr (C::kDesc) {
      for (int k = 0; k < int(size<2>(tCrA)); ++k) {
        gemm(mma, tCrA(_, _, k), tCrB(_, _, k), tCrC);
        mma.accumulate_ = GMMA::ScaleOut::One;
      }
    } else {
      gemm(mma, tCrA, thr.partition_B(sB), tCrC);
    }
    warpgroup_commit_batch();
    warpgroup_wait<0>();
    warpgroup_fence_operand(tCrC);
    warpgroup_fence_operand(tCrA);
  } else {
  warpgroup_fence_operand(tCrC);
  warpgroup_arrive();
  if constexpr (C::kDesc) {
    Tensor tCrA = thr.partition_fragment_A(sA);  // (_1,MMA_M,MMA_K) descriptors
    Tensor tCrB = thr.partition_fragment_B(sB);  // (_1,MMA_N,MMA_K)
    for (int k = 0; k < int(size<2>(tCrA)); ++k) {
      gemm(mma, tCrA(_, _, k), tCrB(_, _, k), tCrC);
      mma.accumulate_ = GMMA::ScaleOut::One;
    }
  } else {
    Tensor tCsA = thr.partition_A(sA);  // ((64,K),MMA_M,MMA_K)
    Tensor tCsB = thr.partition_B(sB);  // ((N,K),MMA_N,MMA_K)
    gemm(mma, tCsA, tCsB, tCrC);
  }
  warpgroup_commit_batch();
  warpgroup_wait<0>();
  warpgroup_fence_operand(tCrC);
  }

  Tensor gC = make_tensor(make_gmem_ptr(c), make_layout(make_shape(Int<C::kBM>{}, Int<C::kBN>{}),
                                                        make_stride(Int<C::kBN>{}, _1{})));
  Tensor tCgC = thr.partition_C(gC);  // (MMA,MMA_M,MMA_N)
  copy(tCrC, tCgC);
}

template <class T>
double to_double(T v) {
  if constexpr (std::is_integral_v<T>) return double(v);
  else return double(float(v));
}

template <class T>
T random_value(std::mt19937& rng) {
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<int> d(std::is_signed_v<T> ? -128 : 0, std::is_signed_v<T> ? 127 : 255);
    return T(d(rng));
  } else {
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    return T(d(rng));
  }
}

template <class C>
void run_case(double tol, double sign_a = 1.0) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  using TA = typename C::TA;
  using TB = typename C::TB;
  using TC = typename C::TC;
  std::mt19937 rng(std::random_device{}());
  std::vector<TA> ha(std::size_t(C::kBM) * C::kBK);
  std::vector<TB> hb(std::size_t(C::kBN) * C::kBK);
  for (auto& v : ha) v = random_value<TA>(rng);
  for (auto& v : hb) v = random_value<TB>(rng);
  DevBuf da, db, dc;
  ASSERT_NO_FATAL_FAILURE(upload(da, ha));
  ASSERT_NO_FATAL_FAILURE(upload(db, hb));
  std::size_t const c_bytes = std::size_t(C::kBM) * C::kBN * sizeof(TC);
  TESSERA_TEST_CUDA(cudaMalloc(&dc.p, c_bytes));
  TESSERA_TEST_CUDA(cudaMemset(dc.p, 0xFF, c_bytes));  // poison: NaN / -1
  TESSERA_TEST_CUDA(cudaFuncSetAttribute(tiled_gmma_kernel<C>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         int(C::kSmemBytes)));
  tiled_gmma_kernel<C><<<1, C::kThreads, C::kSmemBytes>>>(da.as<TA>(), db.as<TB>(), dc.as<TC>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<TC> hc(std::size_t(C::kBM) * C::kBN);
  TESSERA_TEST_CUDA(cudaMemcpy(hc.data(), dc.p, c_bytes, cudaMemcpyDeviceToHost));

  double err2 = 0, ref2 = 0;
  long long mismatches = 0;
  for (int m = 0; m < C::kBM; ++m)
    for (int n = 0; n < C::kBN; ++n) {
      double ref = 0;
      for (int k = 0; k < C::kBK; ++k)
        ref += sign_a * to_double(ha[std::size_t(m) * C::kBK + k]) * to_double(hb[std::size_t(n) * C::kBK + k]);
      double const got = to_double(hc[std::size_t(m) * C::kBN + n]);
      if (std::is_integral_v<TC> && got != ref && ++mismatches <= 5)
        ADD_FAILURE() << "C(" << m << "," << n << ") = " << got << ", expected " << ref;
      err2 += (got - ref) * (got - ref);
      ref2 += ref * ref;
    }
  double const rel = std::sqrt(err2 / ref2);
  EXPECT_TRUE(std::isfinite(rel)) << "non-finite output (poison left or NaN accumulators read)";
  EXPECT_LE(rel, tol) << "relative Frobenius error " << rel;
  EXPECT_EQ(mismatches, 0);
}

template <class T, int BM, int BK>
using KSw128 = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}));
template <class T, int BM, int BK>
using KSw64 = decltype(tile_to_shape(GMMA::Layout_K_SW64_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}));
template <class T, int BM, int BK>
using KSw32 = decltype(tile_to_shape(GMMA::Layout_K_SW32_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}));
template <class T, int BM, int BK>
using MnSw128 = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}));
template <class T, int BM, int BK>  // atoms K first, then M/N
using MnSw64KFirst = decltype(tile_to_shape(GMMA::Layout_MN_SW64_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}, Step<_2, _1>{}));
template <class T, int BM, int BK>
using MnSw32 = decltype(tile_to_shape(GMMA::Layout_MN_SW32_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}));

using One = Layout<Shape<_1, _1, _1>>;

// Seed 002's TiledMMA: one warpgroup, 2 x 1 atoms of 64x128x16 over a 128x128 tile.
TEST(AtomGmma, Bf16KMajorDescriptorFragments) {
  run_case<Case<SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>, One, Tile<_128, _128, _16>,
                KSw128<bfloat16_t, 128, 64>, KSw128<bfloat16_t, 128, 64>, true, true>>(1e-5);
}

// gemm on the shared-memory partitions themselves, two warpgroups (2x1 atoms).
TEST(AtomGmma, Bf16SharedMemoryPartitionsTwoWarpgroups) {
  run_case<Case<SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::K>, Layout<Shape<_2, _1, _1>>,
                Tile<_128, _128, _16>, KSw128<bfloat16_t, 128, 64>, KSw128<bfloat16_t, 128, 64>, false, false>>(1e-5);
}

template <class T, int BM, int BK>  // atoms K first, then M/N
using MnSw128KFirst = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}, Step<_2, _1>{}));
template <class T, int BM, int BK>
using MnSw64 = decltype(tile_to_shape(GMMA::Layout_MN_SW64_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}));

// MN-major operands, atoms tiled M/N first (the 8-row K groups of one
// instruction are then further apart than 8 rows of one atom) or K first
// (the atoms along M/N are further apart), for each swizzle width.
TEST(AtomGmma, MnMajorA128MFirst) {
  run_case<Case<SM90_64x64x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::K>, One, Tile<_128, _64, _16>,
                MnSw128<half_t, 128, 64>, KSw128<half_t, 64, 64>, true, true>>(1e-5);
}
TEST(AtomGmma, MnMajorA128KFirst) {
  run_case<Case<SM90_64x64x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::K>, One, Tile<_128, _64, _16>,
                MnSw128KFirst<half_t, 128, 64>, KSw128<half_t, 64, 64>, true, true>>(1e-5);
}
TEST(AtomGmma, MnMajorB128N128MFirst) {
  run_case<Case<SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::MN>, One, Tile<_64, _128, _16>,
                KSw128<half_t, 64, 64>, MnSw128<half_t, 128, 64>, true, true>>(1e-5);
}
TEST(AtomGmma, MnMajorB128N128KFirst) {
  run_case<Case<SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::MN>, One, Tile<_64, _128, _16>,
                KSw128<half_t, 64, 64>, MnSw128KFirst<half_t, 128, 64>, true, true>>(1e-5);
}
TEST(AtomGmma, MnMajorB64N128MFirst) {
  run_case<Case<SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::MN>, One, Tile<_64, _128, _16>,
                KSw128<bfloat16_t, 64, 64>, MnSw64<bfloat16_t, 128, 64>, true, true>>(1e-5);
}
TEST(AtomGmma, MnMajorB64N128KFirst) {
  run_case<Case<SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::MN>, One, Tile<_64, _128, _16>,
                KSw128<bfloat16_t, 64, 64>, MnSw64KFirst<bfloat16_t, 128, 64>, true, true>>(1e-5);
}
TEST(AtomGmma, MnMajorB32N64MFirst) {
  run_case<Case<SM90_64x64x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::MN>, One, Tile<_64, _64, _16>,
                KSw64<bfloat16_t, 64, 32>, MnSw32<bfloat16_t, 64, 32>, false, true>>(1e-5);
}
TEST(AtomGmma, MnMajorBothOperands) {
  run_case<Case<SM90_64x128x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>, One, Tile<_128, _128, _16>,
                MnSw128KFirst<half_t, 128, 64>, MnSw64KFirst<half_t, 128, 64>, true, true>>(1e-5);
}

TEST(AtomGmma, F16AccumulatorSw64) {
  run_case<Case<SM90_64x64x16_F16F16F16_SS<>, One, Tile<_64, _64, _16>, KSw64<half_t, 64, 32>,
                KSw64<half_t, 64, 32>, true, true>>(5e-3);
}

TEST(AtomGmma, Tf32Sw32TwoAtomsAlongK) {
  run_case<Case<SM90_64x32x8_F32TF32TF32_SS_TN<>, One, Tile<_64, _32, _8>, KSw32<tfloat32_t, 64, 16>,
                KSw32<tfloat32_t, 32, 16>, true, false>>(1e-5);
}

TEST(AtomGmma, S8N256Exact) {
  run_case<Case<SM90_64x256x32_S32S8S8_SS_TN, One, Tile<_64, _256, _32>, KSw128<std::int8_t, 64, 128>,
                KSw128<std::int8_t, 256, 128>, true, true>>(0.0);
  run_case<Case<SM90_64x8x32_S32U8U8_SS_TN, One, Tile<_64, _8, _32>, KSw32<std::uint8_t, 64, 32>,
                KSw32<std::uint8_t, 8, 32>, false, false>>(0.0);
}

// RS forms: A copied from shared memory into the atom's register fragment.
TEST(AtomGmma, RegisterABf16) {
  run_case<Case<SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K, GMMA::Major::K>, One, Tile<_128, _128, _16>,
                KSw128<bfloat16_t, 128, 64>, KSw128<bfloat16_t, 128, 64>, true, true>>(1e-5);
  run_case<Case<SM90_64x128x16_F32BF16BF16_RS<>, Layout<Shape<_2, _1, _1>>, Tile<_128, _128, _16>,
                KSw128<bfloat16_t, 128, 64>, KSw128<bfloat16_t, 128, 64>, false, false>>(1e-5);
}
TEST(AtomGmma, RegisterAF16MnMajorB) {
  run_case<Case<SM90_64x128x16_F16F16F16_RS<GMMA::Major::K, GMMA::Major::MN>, One, Tile<_64, _128, _16>,
                KSw64<half_t, 64, 32>, MnSw128<half_t, 128, 32>, true, true>>(5e-3);
}
TEST(AtomGmma, RegisterATf32AndS8) {
  run_case<Case<SM90_64x64x8_F32TF32TF32_RS_TN<>, One, Tile<_64, _64, _8>, KSw128<tfloat32_t, 64, 32>,
                KSw128<tfloat32_t, 64, 32>, true, true>>(1e-5);
  run_case<Case<SM90_64x128x32_S32S8S8_RS_TN, One, Tile<_64, _128, _32>, KSw64<std::int8_t, 64, 64>,
                KSw64<std::int8_t, 128, 64>, true, false>>(0.0);
}

// Interleaved (unswizzled) operands: core matrices of 8 rows x 16 bytes,
// no swizzle. LBO steps along K and SBO along M/N in both major orders;
// tiling the atoms M/N first or K first makes the two strides differ in
// opposite ways, so swapped roles would fail one of each pair.
template <class T, int BM, int BK>
using KInter = decltype(tile_to_shape(GMMA::Layout_K_INTER_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}));
template <class T, int BM, int BK>
using KInterKFirst = decltype(tile_to_shape(GMMA::Layout_K_INTER_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}, Step<_2, _1>{}));
template <class T, int BM, int BK>
using MnInter = decltype(tile_to_shape(GMMA::Layout_MN_INTER_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}));
template <class T, int BM, int BK>
using MnInterKFirst = decltype(tile_to_shape(GMMA::Layout_MN_INTER_Atom<T>{}, Shape<Int<BM>, Int<BK>>{}, Step<_2, _1>{}));

TEST(AtomGmma, InterleavedKMajor) {
  run_case<Case<SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>, One, Tile<_128, _128, _16>,
                KInter<bfloat16_t, 128, 64>, KInter<bfloat16_t, 128, 64>, true, true>>(1e-5);
  run_case<Case<SM90_64x64x16_F32F16F16_SS<>, Layout<Shape<_2, _1, _1>>, Tile<_128, _64, _16>,
                KInterKFirst<half_t, 128, 32>, KInter<half_t, 64, 32>, false, false>>(1e-5);
}
TEST(AtomGmma, InterleavedMnMajor) {
  run_case<Case<SM90_64x128x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>, One, Tile<_128, _128, _16>,
                MnInter<half_t, 128, 64>, MnInterKFirst<half_t, 128, 64>, true, true>>(1e-5);
  run_case<Case<SM90_64x64x16_F32BF16BF16_SS<GMMA::Major::MN, GMMA::Major::K>, One, Tile<_64, _64, _16>,
                MnInterKFirst<bfloat16_t, 64, 32>, KInterKFirst<bfloat16_t, 64, 32>, false, true>>(1e-5);
}
TEST(AtomGmma, InterleavedTf32S8Fp8) {
  run_case<Case<SM90_64x32x8_F32TF32TF32_SS_TN<>, One, Tile<_64, _32, _8>, KInter<tfloat32_t, 64, 16>,
                KInterKFirst<tfloat32_t, 32, 16>, true, true>>(1e-5);
  run_case<Case<SM90_64x64x32_S32S8S8_SS_TN, One, Tile<_64, _64, _32>, KInterKFirst<std::int8_t, 64, 64>,
                KInter<std::int8_t, 64, 64>, true, false>>(0.0);
  run_case<Case<SM90_64x8x32_F32E4M3E5M2_SS_TN<>, One, Tile<_64, _8, _32>, KInter<float_e4m3_t, 64, 32>,
                KInter<float_e5m2_t, 8, 32>, true, true>>(2e-3);
}
TEST(AtomGmma, InterleavedRegisterA) {
  run_case<Case<SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K, GMMA::Major::MN>, One, Tile<_64, _128, _16>,
                KInter<bfloat16_t, 64, 32>, MnInterKFirst<bfloat16_t, 128, 32>, true, true>>(1e-5);
}

// fp8: Hopper's fp8 wgmma accumulates with fewer bits than f32 (run 2 of
// HopperWgmma measured 2.3e-4 relative at K = 128), hence the bound.
TEST(AtomGmma, Fp8SharedAndRegisterA) {
  run_case<Case<SM90_64x128x32_F32E4M3E4M3_SS_TN<>, One, Tile<_128, _128, _32>, KSw128<float_e4m3_t, 128, 128>,
                KSw128<float_e4m3_t, 128, 128>, true, true>>(2e-3);
  run_case<Case<SM90_64x64x32_F32E5M2E4M3_RS_TN<>, One, Tile<_64, _64, _32>, KSw64<float_e5m2_t, 64, 64>,
                KSw64<float_e4m3_t, 64, 64>, true, false>>(2e-3);
}

TEST(AtomGmma, NegatedA) {
  run_case<Case<SM90_64x64x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::K, GMMA::ScaleIn::Neg>, One,
                Tile<_64, _64, _16>, KSw128<bfloat16_t, 64, 64>, KSw128<bfloat16_t, 64, 64>, true, false>>(1e-5,
                                                                                                           -1.0);
}

}  // namespace
