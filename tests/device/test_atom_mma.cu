// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Every MMA atom through MMA_Atom::call against an fp64 reference (integer
// atoms: an exact int64 one). Each lane loads its fragments from row-major
// A (M x K), B (N x K), C (M x N) at the coordinates its traits'
// ALayout/BLayout/CLayout claim and stores D the same way, so a wrong entry
// in any TV layout shows up as a wrong product.

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "device_test.cuh"

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

namespace {

using namespace tessera;

using tessera::test::device_cc;

template <class Op>
__global__ void mma_atom_kernel(typename MMA_Traits<Op>::ValTypeA const* A, typename MMA_Traits<Op>::ValTypeB const* B,
                                typename MMA_Traits<Op>::ValTypeC const* C, typename MMA_Traits<Op>::ValTypeD* D) {
  using Atom = MMA_Atom<Op>;
  using Traits = MMA_Traits<Op>;
  constexpr int M = decltype(size<0>(typename Traits::Shape_MNK{}))::value;
  constexpr int N = decltype(size<1>(typename Traits::Shape_MNK{}))::value;
  constexpr int K = decltype(size<2>(typename Traits::Shape_MNK{}))::value;
  using LA = typename Traits::ALayout;
  using LB = typename Traits::BLayout;
  using LC = typename Traits::CLayout;
  constexpr int VA = decltype(size<1>(LA{}))::value;
  constexpr int VB = decltype(size<1>(LB{}))::value;
  constexpr int VC = decltype(size<1>(LC{}))::value;

  int const t = int(threadIdx.x);
  auto a = make_tensor<typename Traits::ValTypeA>(Shape<Int<VA>>{});
  auto b = make_tensor<typename Traits::ValTypeB>(Shape<Int<VB>>{});
  auto c = make_tensor<typename Traits::ValTypeC>(Shape<Int<VC>>{});
  auto d = make_tensor<typename Traits::ValTypeD>(Shape<Int<VC>>{});
  for (int v = 0; v < VA; ++v) {
    int const idx = int(LA{}(t, v));  // m + M*k
    a(v) = A[(idx % M) * K + idx / M];
  }
  for (int v = 0; v < VB; ++v) {
    int const idx = int(LB{}(t, v));  // n + N*k
    b(v) = B[(idx % N) * K + idx / N];
  }
  for (int v = 0; v < VC; ++v) {
    int const idx = int(LC{}(t, v));  // m + M*n
    c(v) = C[(idx % M) * N + idx / M];
  }
  Atom{}.call(d, a, b, c);
  for (int v = 0; v < VC; ++v) {
    int const idx = int(LC{}(t, v));
    D[(idx % M) * N + idx / M] = d(v);
  }
}

// NOTE: |A*B| per element is at most 32 * 255 * 255 < 2^21 (u8 x u8, k32), so
// an int32 C within +-(2^31 - 2^22) keeps every sum inside s32: the atoms
// without .satfinite would wrap, which the reference does not model.
constexpr std::int32_t kIntCBound = INT32_MAX - (1 << 22);

// Floats uniform in [-1, 1]; 8-bit integers over their whole range except 0
// (a zero would hide a misplaced element); int32 accumulators in
// +-kIntCBound.
template <class T>
T random_value(std::mt19937& gen) {
  if constexpr (std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t>) {
    std::uniform_int_distribution<int> dist(std::is_signed_v<T> ? -128 : 0, std::is_signed_v<T> ? 127 : 255);
    int v = 0;
    while (v == 0) v = dist(gen);
    return T(v);
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return std::uniform_int_distribution<std::int32_t>(-kIntCBound, kIntCBound)(gen);
  } else {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    return T(dist(gen));
  }
}

// tolerance: the bound on the relative norm error of floating-point atoms;
// integer ones (int32 D) must match exactly and ignore it.
template <class Op>
void check_atom(double tolerance, int min_cc) {
  TESSERA_TEST_REQUIRE_KERNEL(mma_atom_kernel<Op>, min_cc);
  using Traits = MMA_Traits<Op>;
  using TA = typename Traits::ValTypeA;
  using TB = typename Traits::ValTypeB;
  using TC = typename Traits::ValTypeC;
  using TD = typename Traits::ValTypeD;
  constexpr int M = decltype(size<0>(typename Traits::Shape_MNK{}))::value;
  constexpr int N = decltype(size<1>(typename Traits::Shape_MNK{}))::value;
  constexpr int K = decltype(size<2>(typename Traits::Shape_MNK{}))::value;
  static_assert(decltype(size(typename Traits::ThrID{}))::value == 32, "test: SM80 atoms are warp-wide");

  std::mt19937 gen(1234 + M * 100 + K);
  std::vector<TA> hA(M * K);
  std::vector<TB> hB(N * K);
  std::vector<TC> hC(M * N);
  for (auto& x : hA) x = random_value<TA>(gen);
  for (auto& x : hB) x = random_value<TB>(gen);
  for (auto& x : hC) x = random_value<TC>(gen);

  TA* dA;
  TB* dB;
  TC* dC;
  TD* dD;
  TESSERA_TEST_CUDA(cudaMalloc(&dA, sizeof(TA) * M * K));
  TESSERA_TEST_CUDA(cudaMalloc(&dB, sizeof(TB) * N * K));
  TESSERA_TEST_CUDA(cudaMalloc(&dC, sizeof(TC) * M * N));
  TESSERA_TEST_CUDA(cudaMalloc(&dD, sizeof(TD) * M * N));
  TESSERA_TEST_CUDA(cudaMemcpy(dA, hA.data(), sizeof(TA) * M * K, cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemcpy(dB, hB.data(), sizeof(TB) * N * K, cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemcpy(dC, hC.data(), sizeof(TC) * M * N, cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemset(dD, 0xff, sizeof(TD) * M * N));  // poison: NaN in every float type

  mma_atom_kernel<Op><<<1, 32>>>(dA, dB, dC, dD);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());

  std::vector<TD> hD(M * N);
  TESSERA_TEST_CUDA(cudaMemcpy(hD.data(), dD, sizeof(TD) * M * N, cudaMemcpyDeviceToHost));
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  cudaFree(dD);
  if constexpr (std::is_integral_v<TD>) {
    int mismatches = 0;
    for (int m = 0; m < M; ++m) {
      for (int n = 0; n < N; ++n) {
        std::int64_t ref = hC[m * N + n];
        for (int k = 0; k < K; ++k) ref += std::int64_t{hA[m * K + k]} * std::int64_t{hB[n * K + k]};
        ASSERT_TRUE(ref >= INT32_MIN && ref <= INT32_MAX) << "test bug: reference overflows s32";
        if (hD[m * N + n] != ref && ++mismatches <= 8)
          ADD_FAILURE() << "D(" << m << "," << n << ") = " << hD[m * N + n] << ", expected " << ref;
      }
    }
    EXPECT_EQ(mismatches, 0) << "of " << M * N << " elements (poison -1 where never written)";
    return;
  }
  double err2 = 0, ref2 = 0;
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      double ref = double(hC[m * N + n]);
      for (int k = 0; k < K; ++k) ref += double(hA[m * K + k]) * double(hB[n * K + k]);
      double const got = double(hD[m * N + n]);
      ASSERT_TRUE(std::isfinite(got)) << "D(" << m << "," << n << ") never written (poison survived)";
      err2 += (got - ref) * (got - ref);
      ref2 += ref * ref;
    }
  }
  double const rel = std::sqrt(err2 / ref2);
  EXPECT_LT(rel, tolerance) << "relative norm error " << rel;
}

// f16 accumulators round every partial sum to 11 bits; f32 ones only the products' sum.
TEST(AtomMma, SM80_16x8x8_F16F16F16F16_TN) { check_atom<SM80_16x8x8_F16F16F16F16_TN>(2e-3, 80); }
TEST(AtomMma, SM80_16x8x16_F16F16F16F16_TN) { check_atom<SM80_16x8x16_F16F16F16F16_TN>(2e-3, 80); }
TEST(AtomMma, SM80_16x8x8_F32F16F16F32_TN) { check_atom<SM80_16x8x8_F32F16F16F32_TN>(1e-5, 80); }
TEST(AtomMma, SM80_16x8x16_F32F16F16F32_TN) { check_atom<SM80_16x8x16_F32F16F16F32_TN>(1e-5, 80); }
TEST(AtomMma, SM80_16x8x8_F32BF16BF16F32_TN) { check_atom<SM80_16x8x8_F32BF16BF16F32_TN>(1e-5, 80); }
TEST(AtomMma, SM80_16x8x16_F32BF16BF16F32_TN) { check_atom<SM80_16x8x16_F32BF16BF16F32_TN>(1e-5, 80); }
TEST(AtomMma, SM80_16x8x4_F32TF32TF32F32_TN) { check_atom<SM80_16x8x4_F32TF32TF32F32_TN>(1e-5, 80); }
TEST(AtomMma, SM80_16x8x8_F32TF32TF32F32_TN) { check_atom<SM80_16x8x8_F32TF32TF32F32_TN>(1e-5, 80); }
TEST(AtomMma, SM80_8x8x4_F64F64F64F64_TN) { check_atom<SM80_8x8x4_F64F64F64F64_TN>(1e-13, 80); }

// Integer atoms: exact (the tolerance is unused). m8n8k16 exists from sm_75.
TEST(AtomMma, SM80_8x8x16_S32S8S8S32_TN) { check_atom<SM80_8x8x16_S32S8S8S32_TN>(0, 75); }
TEST(AtomMma, SM80_8x8x16_S32S8U8S32_TN) { check_atom<SM80_8x8x16_S32S8U8S32_TN>(0, 75); }
TEST(AtomMma, SM80_8x8x16_S32U8S8S32_TN) { check_atom<SM80_8x8x16_S32U8S8S32_TN>(0, 75); }
TEST(AtomMma, SM80_8x8x16_S32U8U8S32_TN) { check_atom<SM80_8x8x16_S32U8U8S32_TN>(0, 75); }
TEST(AtomMma, SM80_16x8x16_S32S8S8S32_TN) { check_atom<SM80_16x8x16_S32S8S8S32_TN>(0, 80); }
TEST(AtomMma, SM80_16x8x16_S32S8U8S32_TN) { check_atom<SM80_16x8x16_S32S8U8S32_TN>(0, 80); }
TEST(AtomMma, SM80_16x8x16_S32U8S8S32_TN) { check_atom<SM80_16x8x16_S32U8S8S32_TN>(0, 80); }
TEST(AtomMma, SM80_16x8x16_S32U8U8S32_TN) { check_atom<SM80_16x8x16_S32U8U8S32_TN>(0, 80); }
TEST(AtomMma, SM80_16x8x32_S32S8S8S32_TN) { check_atom<SM80_16x8x32_S32S8S8S32_TN>(0, 80); }
TEST(AtomMma, SM80_16x8x32_S32S8U8S32_TN) { check_atom<SM80_16x8x32_S32S8U8S32_TN>(0, 80); }
TEST(AtomMma, SM80_16x8x32_S32U8S8S32_TN) { check_atom<SM80_16x8x32_S32U8S8S32_TN>(0, 80); }
TEST(AtomMma, SM80_16x8x32_S32U8U8S32_TN) { check_atom<SM80_16x8x32_S32U8U8S32_TN>(0, 80); }

// The Turing names: the same instructions, so the same checks from sm_75.
TEST(AtomMma, SM75_16x8x8_F32F16F16F32_TN) { check_atom<SM75_16x8x8_F32F16F16F32_TN>(1e-5, 75); }
TEST(AtomMma, SM75_8x8x16_S32S8S8S32_TN) { check_atom<SM75_8x8x16_S32S8S8S32_TN>(0, 75); }

// A TiledMMA of the integer atom: 2x2 warps of SM80_16x8x32_S32S8S8S32_TN
// (a 32x16x32 tile) over a 64x32x64 problem, so each thread makes 2x2 atom
// calls per k-block for 2 k-blocks through gemm(). A (M,K) and B (N,K)
// K-major, C and D (M,N) column-major; D = A * B^T + C.
constexpr int kTiledM = 64, kTiledN = 32, kTiledK = 64;

__global__ void __launch_bounds__(128) tiled_int8_kernel(std::int8_t const* A, std::int8_t const* B,
                                                          std::int32_t const* C, std::int32_t* D) {
  auto mma = make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_2, _2>>{});
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(Int<kTiledM>{}, Int<kTiledK>{}), make_stride(Int<kTiledK>{}, _1{}));  // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(Int<kTiledN>{}, Int<kTiledK>{}), make_stride(Int<kTiledK>{}, _1{}));  // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(Int<kTiledM>{}, Int<kTiledN>{}));                                     // (M,N)
  Tensor mD = make_tensor(make_gmem_ptr(D), make_shape(Int<kTiledM>{}, Int<kTiledN>{}));                                     // (M,N)
  auto thr = mma.get_slice(threadIdx.x);
  Tensor tCgA = thr.partition_A(mA);               // (MMA,MMA_M,MMA_K)
  Tensor tCgB = thr.partition_B(mB);               // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr.partition_C(mC);               // (MMA,MMA_M,MMA_N)
  Tensor tCgD = thr.partition_C(mD);               // (MMA,MMA_M,MMA_N)
  Tensor tCrA = thr.partition_fragment_A(mA);      // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr.partition_fragment_B(mB);      // (MMA,MMA_N,MMA_K)
  Tensor tCrC = thr.partition_fragment_C(mC);      // (MMA,MMA_M,MMA_N)
  static_assert(decltype(size<0>(tCrA))::value == 16 && decltype(size<0>(tCrB))::value == 8 &&
                decltype(size<0>(tCrC))::value == 4);
  copy(tCgA, tCrA);
  copy(tCgB, tCrB);
  copy(tCgC, tCrC);
  gemm(mma, tCrA, tCrB, tCrC);
  copy(tCrC, tCgD);
}

TEST(AtomMma, TiledMma_SM80_16x8x32_S32S8S8S32_TN) {
  int const cc = device_cc();
  if (cc < 80) GTEST_SKIP() << "needs sm_80, found " << tessera::test::device_name(cc);
  std::random_device entropy;
  unsigned const seed = entropy();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 gen(seed);
  std::vector<std::int8_t> hA(kTiledM * kTiledK), hB(kTiledN * kTiledK);
  std::vector<std::int32_t> hC(kTiledM * kTiledN), hD(kTiledM * kTiledN);
  for (auto& x : hA) x = random_value<std::int8_t>(gen);
  for (auto& x : hB) x = random_value<std::int8_t>(gen);
  for (auto& x : hC) x = random_value<std::int32_t>(gen);
  tessera::test::DevBuf dA, dB, dC, dD;
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(dA, hA));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(dB, hB));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(dC, hC));
  TESSERA_TEST_CUDA(cudaMalloc(&dD.p, sizeof(std::int32_t) * hD.size()));
  TESSERA_TEST_CUDA(cudaMemset(dD.p, 0xff, sizeof(std::int32_t) * hD.size()));  // poison: -1
  tiled_int8_kernel<<<1, 128>>>(dA.as<std::int8_t>(), dB.as<std::int8_t>(), dC.as<std::int32_t>(),
                                dD.as<std::int32_t>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  TESSERA_TEST_CUDA(cudaMemcpy(hD.data(), dD.p, sizeof(std::int32_t) * hD.size(), cudaMemcpyDeviceToHost));
  int mismatches = 0;
  for (int m = 0; m < kTiledM; ++m) {
    for (int n = 0; n < kTiledN; ++n) {
      std::int64_t ref = hC[m + kTiledM * n];
      for (int k = 0; k < kTiledK; ++k) ref += std::int64_t{hA[m * kTiledK + k]} * std::int64_t{hB[n * kTiledK + k]};
      ASSERT_TRUE(ref >= INT32_MIN && ref <= INT32_MAX) << "test bug: reference overflows s32";
      if (hD[m + kTiledM * n] != ref && ++mismatches <= 8)
        ADD_FAILURE() << "D(" << m << "," << n << ") = " << hD[m + kTiledM * n] << ", expected " << ref;
    }
  }
  EXPECT_EQ(mismatches, 0) << "of " << kTiledM * kTiledN << " elements";
}

// UniversalFMA: one thread, one multiply-add.
__global__ void universal_fma_kernel(float const* a, float const* b, float const* c, float* d, int n) {
  int const i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  auto fa = make_tensor<float>(Shape<_1>{});
  auto fb = make_tensor<float>(Shape<_1>{});
  auto fc = make_tensor<float>(Shape<_1>{});
  auto fd = make_tensor<float>(Shape<_1>{});
  fa(0) = a[i];
  fb(0) = b[i];
  fc(0) = c[i];
  MMA_Atom<UniversalFMA<float, float, float, float>>{}.call(fd, fa, fb, fc);
  d[i] = fd(0);
}

TEST(AtomMma, UniversalFMA) {
  int const cc = device_cc();
  if (cc == 0) GTEST_SKIP() << "needs a GPU, found none";
  constexpr int n = 1000;
  std::mt19937 gen(7);
  std::vector<float> a(n), b(n), c(n), d(n);
  for (int i = 0; i < n; ++i) {
    a[i] = random_value<float>(gen);
    b[i] = random_value<float>(gen);
    c[i] = random_value<float>(gen);
  }
  float *da, *db, *dc, *dd;
  TESSERA_TEST_CUDA(cudaMalloc(&da, n * sizeof(float)));
  TESSERA_TEST_CUDA(cudaMalloc(&db, n * sizeof(float)));
  TESSERA_TEST_CUDA(cudaMalloc(&dc, n * sizeof(float)));
  TESSERA_TEST_CUDA(cudaMalloc(&dd, n * sizeof(float)));
  TESSERA_TEST_CUDA(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemcpy(dc, c.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemset(dd, 0xff, n * sizeof(float)));
  universal_fma_kernel<<<(n + 127) / 128, 128>>>(da, db, dc, dd, n);
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  TESSERA_TEST_CUDA(cudaMemcpy(d.data(), dd, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT_NEAR(d[i], double(a[i]) * b[i] + c[i], 1e-6) << i;
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dd);
}

}  // namespace
