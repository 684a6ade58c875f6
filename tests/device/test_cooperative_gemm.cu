// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// cooperative_gemm on the tensor cores: one block of 128 threads loads A
// (64x32) and B (64x32) into shared memory, runs C = alpha A B^T + beta C
// with a 2x2-warp TiledMMA of SM80_16x8x16_F32F16F16F32_TN (f16 operands)
// or SM80_16x8x8_F32TF32TF32F32_TN (f32 operands moved as tf32), on C in
// shared memory, and writes C out. Fresh random inputs, C starts from
// random values (beta != 0) or NaN (beta == 0: C must not be read), the
// output buffer is poisoned, and the result is compared with an fp64
// reference by relative norm error.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::upload;

constexpr int M = 64, N = 64, K = 32;

template <class Op, class TAB>
__global__ void block_gemm(TAB const* a, TAB const* b, float const* c_in, float* c_out, float alpha, float beta) {
  __shared__ TAB sa[M * K];
  __shared__ TAB sb[N * K];
  __shared__ float sc[M * N];
  for (int i = int(threadIdx.x); i < M * K; i += int(blockDim.x)) sa[i] = a[i];
  for (int i = int(threadIdx.x); i < N * K; i += int(blockDim.x)) sb[i] = b[i];
  for (int i = int(threadIdx.x); i < M * N; i += int(blockDim.x)) sc[i] = c_in[i];
  __syncthreads();
  auto mma = make_tiled_mma(Op{}, Layout<Shape<_2, _2>>{});
  auto sA = make_tensor(make_smem_ptr(sa), Layout<Shape<Int<M>, Int<K>>, Stride<Int<K>, _1>>{});  // K-major
  auto sB = make_tensor(make_smem_ptr(sb), Layout<Shape<Int<N>, Int<K>>, Stride<Int<K>, _1>>{});
  auto sC = make_tensor(make_smem_ptr(sc), Layout<Shape<Int<M>, Int<N>>>{});
  cooperative_gemm(threadIdx.x, mma, alpha, sA, sB, beta, sC);
  __syncthreads();
  for (int i = int(threadIdx.x); i < M * N; i += int(blockDim.x)) c_out[i] = sc[i];
}

template <class Op, class TAB>
void run(float beta, double bound) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  auto a = fresh_random<TAB>(M * K), b = fresh_random<TAB>(N * K);
  auto c = fresh_random<float>(M * N);
  if (beta == 0.0f) std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());
  DevBuf da, db, dc, dout;
  ASSERT_NO_FATAL_FAILURE(upload(da, a));
  ASSERT_NO_FATAL_FAILURE(upload(db, b));
  ASSERT_NO_FATAL_FAILURE(upload(dc, c));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, sizeof(float) * M * N));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, sizeof(float) * M * N));  // poison
  float const alpha = 1.25f;
  block_gemm<Op, TAB><<<1, 128>>>(da.as<TAB>(), db.as<TAB>(), dc.as<float>(), dout.as<float>(), alpha, beta);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<float> got(M * N);
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dout.p, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double acc = 0;
      for (int k = 0; k < K; ++k) acc += double(float(a[m * K + k])) * double(float(b[n * K + k]));
      double const want = alpha * acc + (beta == 0.0f ? 0.0 : double(beta) * double(c[m + M * n]));
      ASSERT_TRUE(std::isfinite(got[m + M * n])) << "(" << m << "," << n << ") poisoned or NaN";
      num += (want - got[m + M * n]) * (want - got[m + M * n]);
      den += want * want;
    }
  EXPECT_LT(std::sqrt(num / den), bound);
}

TEST(CooperativeGemmDevice, F16TensorCores) { run<SM80_16x8x16_F32F16F16F32_TN, half_t>(-0.75f, 1e-5); }
TEST(CooperativeGemmDevice, F16TensorCoresBetaZeroNeverReadsC) { run<SM80_16x8x16_F32F16F16F32_TN, half_t>(0.0f, 1e-5); }
// tf32 keeps 10 mantissa bits of the f32 inputs
TEST(CooperativeGemmDevice, Tf32TensorCores) { run<SM80_16x8x8_F32TF32TF32F32_TN, float>(0.5f, 2e-3); }

}  // namespace
