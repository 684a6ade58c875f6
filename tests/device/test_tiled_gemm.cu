// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// A single-CTA GEMM written only with TiledCopy and TiledMMA, in seed 000's
// configuration: 128x128 tile, bK = 64, 3 shared-memory stages of the
// Swizzle<3,3,3> atom, a cp.async (16,8)x(1,8) TiledCopy, 2x2 warps of
// SM80_16x8x8_F16F16F16F16_TN tiled to 32x32x16, ldmatrix x4 s2r copies.
// K = 3 * 64: each stage holds one k-tile. Checked against fp64.
// scripts/gpu/atoms.sh profiles this kernel's shared-memory bank conflicts.

#include <cmath>
#include <random>
#include <vector>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "device_test.cuh"

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

namespace {

using namespace tessera;

using tessera::test::device_cc;

constexpr int kM = 128, kN = 128, kBK = 64, kStages = 3, kK = kBK * kStages;

template <class MMAOp>
TESSERA_HOST_DEVICE auto seed_tiled_mma() {
  return make_tiled_mma(MMAOp{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
}

// kSwizzle = false: plain K-major rows of 128 bytes, the bank-conflicting
// baseline that scripts/gpu/atoms.sh profiles beside the seed's layout.
template <bool kSwizzle>
TESSERA_HOST_DEVICE auto seed_smem_layout() {
  if constexpr (kSwizzle) {
    auto swizzle_atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
    return tile_to_shape(swizzle_atom, make_shape(Int<kM>{}, Int<kBK>{}, Int<kStages>{}));
  } else {
    return make_layout(make_shape(Int<kM>{}, Int<kBK>{}, Int<kStages>{}),
                       make_stride(Int<kBK>{}, _1{}, Int<kM * kBK>{}));
  }
}

// C (M,N) column-major = A (M,K) K-major * B (N,K) K-major.
template <class MMAOp, class TC, bool kSwizzle>
__global__ void __launch_bounds__(128) tiled_gemm_kernel(half_t const* A, half_t const* B, TC* C) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  auto smem_layout = seed_smem_layout<kSwizzle>();
  half_t* smemA = reinterpret_cast<half_t*>(smem_raw);
  half_t* smemB = smemA + decltype(cosize(smem_layout))::value;
  int const tid = int(threadIdx.x);

  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(Int<kM>{}, Int<kK>{}), make_stride(Int<kK>{}, _1{}));  // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(Int<kN>{}, Int<kK>{}), make_stride(Int<kK>{}, _1{}));  // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(Int<kM>{}, Int<kN>{}), make_stride(_1{}, Int<kM>{}));  // (M,N)
  Tensor gA = local_tile(mA, make_shape(Int<kM>{}, Int<kBK>{}), make_coord(0, Underscore{}));               // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, make_shape(Int<kN>{}, Int<kBK>{}), make_coord(0, Underscore{}));               // (BLK_N,BLK_K,k)
  Tensor sA = make_tensor(make_smem_ptr(smemA), smem_layout);                                                // (BLK_M,BLK_K,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(smemB), smem_layout);                                                // (BLK_N,BLK_K,PIPE)

  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                             Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  auto thr_g2s = g2s.get_slice(tid);
  Tensor tAgA = thr_g2s.partition_S(gA);  // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_g2s.partition_D(sA);  // (CPY,CPY_M,CPY_K,PIPE)
  Tensor tBgB = thr_g2s.partition_S(gB);  // (CPY,CPY_N,CPY_K,k)
  Tensor tBsB = thr_g2s.partition_D(sB);  // (CPY,CPY_N,CPY_K,PIPE)

  TESSERA_UNROLL
  for (int k_tile = 0; k_tile < kStages; ++k_tile) {
    copy(g2s, tAgA(Underscore{}, Underscore{}, Underscore{}, k_tile), tAsA(Underscore{}, Underscore{}, Underscore{}, k_tile));
    copy(g2s, tBgB(Underscore{}, Underscore{}, Underscore{}, k_tile), tBsB(Underscore{}, Underscore{}, Underscore{}, k_tile));
    cp_async_fence();
  }

  auto mma = seed_tiled_mma<MMAOp>();
  auto thr_mma = mma.get_slice(tid);
  Tensor tCgC = thr_mma.partition_C(mC);                                                  // (MMA,MMA_M,MMA_N)
  Tensor tCrA = thr_mma.partition_fragment_A(sA(Underscore{}, Underscore{}, 0));          // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(sB(Underscore{}, Underscore{}, 0));          // (MMA,MMA_N,MMA_K)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);                                            // (MMA,MMA_M,MMA_N)
  TESSERA_UNROLL
  for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = TC(0.0f);

  auto s2r_a = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto thr_s2r_a = s2r_a.get_slice(tid);
  Tensor tXsA = thr_s2r_a.partition_S(sA);  // (CPY,MMA_M,MMA_K,PIPE)
  Tensor tXrA = thr_s2r_a.retile_D(tCrA);   // (CPY,MMA_M,MMA_K)
  auto s2r_b = make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto thr_s2r_b = s2r_b.get_slice(tid);
  Tensor tXsB = thr_s2r_b.partition_S(sB);  // (CPY,MMA_N,MMA_K,PIPE)
  Tensor tXrB = thr_s2r_b.retile_D(tCrB);   // (CPY,MMA_N,MMA_K)

  cp_async_wait<0>();
  __syncthreads();

  // The copy and the MMA walk K in their own blocks: an ldmatrix k-block is 16
  // wide, an MMA k-block 8 (16x8x8: size<2>(tXrA) == 4, size<2>(tCrA) == 8) or
  // 16 (16x8x16: both 4). So each stage is loaded whole, then multiplied.
  TESSERA_UNROLL
  for (int pipe = 0; pipe < kStages; ++pipe) {
    TESSERA_UNROLL
    for (int k_copy = 0; k_copy < int(size<2>(tXrA)); ++k_copy) {
      copy(s2r_a, tXsA(Underscore{}, Underscore{}, k_copy, pipe), tXrA(Underscore{}, Underscore{}, k_copy));
    }
    TESSERA_UNROLL
    for (int k_copy = 0; k_copy < int(size<2>(tXrB)); ++k_copy) {
      copy(s2r_b, tXsB(Underscore{}, Underscore{}, k_copy, pipe), tXrB(Underscore{}, Underscore{}, k_copy));
    }
    TESSERA_UNROLL
    for (int k_block = 0; k_block < int(size<2>(tCrA)); ++k_block) {
      gemm(mma, tCrA(Underscore{}, Underscore{}, k_block), tCrB(Underscore{}, Underscore{}, k_block), tCrC);
    }
  }
  TESSERA_UNROLL
  for (int i = 0; i < int(size(tCrC)); ++i) tCgC(i) = tCrC(i);
}

template <class MMAOp, class TC, bool kSwizzle = true>
void check_tiled_gemm(double tolerance) {
  int const cc = device_cc();
  if (cc < 80) GTEST_SKIP() << "needs sm_80, found " << tessera::test::device_name(cc);
  std::mt19937 gen(2024);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<half_t> hA(kM * kK), hB(kN * kK);
  for (auto& x : hA) x = half_t(dist(gen));
  for (auto& x : hB) x = half_t(dist(gen));
  half_t *dA, *dB;
  TC* dC;
  TESSERA_TEST_CUDA(cudaMalloc(&dA, hA.size() * sizeof(half_t)));
  TESSERA_TEST_CUDA(cudaMalloc(&dB, hB.size() * sizeof(half_t)));
  TESSERA_TEST_CUDA(cudaMalloc(&dC, kM * kN * sizeof(TC)));
  TESSERA_TEST_CUDA(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(half_t), cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(half_t), cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemset(dC, 0xff, kM * kN * sizeof(TC)));

  int const smem_bytes = 2 * int(decltype(cosize(seed_smem_layout<kSwizzle>()))::value) * int(sizeof(half_t));
  auto kernel = tiled_gemm_kernel<MMAOp, TC, kSwizzle>;
  TESSERA_TEST_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  kernel<<<1, 128, smem_bytes>>>(dA, dB, dC);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());

  std::vector<TC> hC(kM * kN);
  TESSERA_TEST_CUDA(cudaMemcpy(hC.data(), dC, hC.size() * sizeof(TC), cudaMemcpyDeviceToHost));
  double err2 = 0, ref2 = 0;
  for (int m = 0; m < kM; ++m) {
    for (int n = 0; n < kN; ++n) {
      double ref = 0;
      for (int k = 0; k < kK; ++k) ref += double(float(hA[m * kK + k])) * double(float(hB[n * kK + k]));
      double const got = double(float(hC[m + n * kM]));
      ASSERT_TRUE(std::isfinite(got)) << "C(" << m << "," << n << ") never written";
      err2 += (got - ref) * (got - ref);
      ref2 += ref * ref;
    }
  }
  double const rel = std::sqrt(err2 / ref2);
  EXPECT_LT(rel, tolerance) << "relative norm error " << rel;
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
}

// f16 accumulation over K = 192: partial sums reach ~10, rounded to 11 bits each step.
TEST(TiledGemm, Seed000_F16Accumulate) { check_tiled_gemm<SM80_16x8x8_F16F16F16F16_TN, half_t>(5e-3); }
TEST(TiledGemm, UnswizzledSmem_F16Accumulate) { check_tiled_gemm<SM80_16x8x8_F16F16F16F16_TN, half_t, false>(5e-3); }
TEST(TiledGemm, F32Accumulate_16x8x16) { check_tiled_gemm<SM80_16x8x16_F32F16F16F32_TN, float>(1e-5); }

}  // namespace
