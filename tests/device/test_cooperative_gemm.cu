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
//
// The register-accumulator form (RegisterAccumulator): each thread's
// fragment from thr.partition_fragment_C starts from random C values read
// through thr.partition_C of global C, takes rC += A B^T twice (two calls
// over the same tiles), and is written back through the same partition of
// the poisoned output; the reference is C + 2 A B^T.
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

// dst[i] = src[i] for i < n, by the whole block.
template <class T>
__device__ void block_fill(T* dst, T const* src, int n) {
  for (int i = int(threadIdx.x); i < n; i += int(blockDim.x)) dst[i] = src[i];
}

template <class Op, class TAB>
__global__ void block_gemm(TAB const* a, TAB const* b, float const* c_in, float* c_out, float alpha, float beta) {
  __shared__ TAB sa[M * K];
  __shared__ TAB sb[N * K];
  __shared__ float sc[M * N];
  block_fill(sa, a, M * K);
  block_fill(sb, b, N * K);
  block_fill(sc, c_in, M * N);
  __syncthreads();
  auto mma = make_tiled_mma(Op{}, Layout<Shape<_2, _2>>{});
  auto sA = make_tensor(make_smem_ptr(sa), Layout<Shape<Int<M>, Int<K>>, Stride<Int<K>, _1>>{});  // K-major
  auto sB = make_tensor(make_smem_ptr(sb), Layout<Shape<Int<N>, Int<K>>, Stride<Int<K>, _1>>{});
  auto sC = make_tensor(make_smem_ptr(sc), Layout<Shape<Int<M>, Int<N>>>{});
  cooperative_gemm(threadIdx.x, mma, alpha, sA, sB, beta, sC);
  __syncthreads();
  block_fill(c_out, static_cast<float const*>(sc), M * N);
}

// rC = C + 2 A B^T through the register form (two calls), on f16 tensor cores.
__global__ void block_gemm_register(half_t const* a, half_t const* b, float const* c_in, float* c_out) {
  __shared__ half_t sa[M * K];
  __shared__ half_t sb[N * K];
  block_fill(sa, a, M * K);
  block_fill(sb, b, N * K);
  __syncthreads();
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{});
  auto sA = make_tensor(make_smem_ptr(sa), Layout<Shape<Int<M>, Int<K>>, Stride<Int<K>, _1>>{});  // K-major
  auto sB = make_tensor(make_smem_ptr(sb), Layout<Shape<Int<N>, Int<K>>, Stride<Int<K>, _1>>{});
  auto gC_in = make_tensor(make_gmem_ptr(c_in), Layout<Shape<Int<M>, Int<N>>>{});  // (M,N)
  auto gC_out = make_tensor(make_gmem_ptr(c_out), Layout<Shape<Int<M>, Int<N>>>{});
  auto thr = mma.get_slice(threadIdx.x);
  auto tCgC_in = thr.partition_C(gC_in);  // (MMA, MMA_M, MMA_N)
  auto tCgC_out = thr.partition_C(gC_out);
  auto tCrC = thr.partition_fragment_C(gC_in);
  for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = tCgC_in(i);
  cooperative_gemm(threadIdx.x, mma, sA, sB, tCrC);
  cooperative_gemm(threadIdx.x, mma, sA, sB, tCrC);
  for (int i = 0; i < int(size(tCrC)); ++i) tCgC_out(i) = tCrC(i);
}

// Fresh A, B, C (C NaN when beta == 0: it must not be read), a poisoned
// output, launch(a, b, c, out) on one block of 128 threads, then the output
// against alpha A B^T + beta C in fp64 by relative norm error.
template <class TAB, class Launch>
void run(Launch launch, float alpha, float beta, double bound) {
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
  launch(da.as<TAB>(), db.as<TAB>(), dc.as<float>(), dout.as<float>());
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

// The shared-memory form with alpha 1.25.
template <class Op, class TAB>
void run(float beta, double bound) {
  float const alpha = 1.25f;
  run<TAB>(
      [&](TAB const* a, TAB const* b, float const* c, float* out) {
        block_gemm<Op, TAB><<<1, 128>>>(a, b, c, out, alpha, beta);
      },
      alpha, beta, bound);
}

TEST(CooperativeGemmDevice, F16TensorCores) { run<SM80_16x8x16_F32F16F16F32_TN, half_t>(-0.75f, 1e-5); }
TEST(CooperativeGemmDevice, F16TensorCoresBetaZeroNeverReadsC) { run<SM80_16x8x16_F32F16F16F32_TN, half_t>(0.0f, 1e-5); }
// tf32 keeps 10 mantissa bits of the f32 inputs
TEST(CooperativeGemmDevice, Tf32TensorCores) { run<SM80_16x8x8_F32TF32TF32F32_TN, float>(0.5f, 2e-3); }
// C + 2 A B^T is alpha 2, beta 1.
TEST(CooperativeGemmDevice, RegisterAccumulator) {
  run<half_t>(
      [](half_t const* a, half_t const* b, float const* c, float* out) {
        block_gemm_register<<<1, 128>>>(a, b, c, out);
      },
      2.0f, 1.0f, 1e-5);
}

}  // namespace
