// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// copy() inside a kernel: gmem -> swizzled smem -> gmem with 128-bit accesses
// chosen by the layouts, and a transposing gmem -> smem copy that must fall
// back to element-wise. Fresh random inputs, poisoned outputs.

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "device_test.cuh"

#include "tessera/tensor.hpp"

using namespace tessera;

namespace {

using tessera::test::device_cc;

constexpr int kM = 64;
constexpr int kK = 64;

// gmem (64,64) row-major -> smem (64,64) Swizzle<3,3,3> -> gmem out (row-major).
__global__ void roundtrip_swizzled(std::uint16_t const* in, std::uint16_t* out, int* vec_width) {
  __shared__ alignas(1024) std::uint16_t smem[kM * kK];
  auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  auto sL = tile_to_shape(atom, make_shape(Int<kM>{}, Int<kK>{}));
  Tensor gIn = make_tensor(make_gmem_ptr(in), make_shape(Int<kM>{}, Int<kK>{}), make_stride(kK, Int<1>{}));   // (M,K)
  Tensor gOut = make_tensor(make_gmem_ptr(out), make_shape(Int<kM>{}, Int<kK>{}), make_stride(kK, Int<1>{})); // (M,K)
  Tensor sA = make_tensor(make_smem_ptr(smem), sL);                                                             // (M,K)

  // 8-element vectors along K: ((1,8),(M,K/8)); thread t takes vectors t, t+64, ...
  Tensor gIn_v = zipped_divide(gIn, make_shape(Int<1>{}, Int<8>{}));   // ((1,8),(M,K/8))
  Tensor sA_v = zipped_divide(sA, make_shape(Int<1>{}, Int<8>{}));     // ((1,8),(M,K/8))
  Tensor gOut_v = zipped_divide(gOut, make_shape(Int<1>{}, Int<8>{})); // ((1,8),(M,K/8))
  // NOTE: kernels here spell the slice wildcard Underscore{}: the `_` constant is
  // a namespace-scope host variable, which device code may not odr-use.
  int const n_vec = int(size<1>(gIn_v));
  for (int v = int(threadIdx.x); v < n_vec; v += int(blockDim.x)) {
    copy(gIn_v(Underscore{}, v), sA_v(Underscore{}, v));  // one 128-bit load + store per vector
  }
  __syncthreads();
  for (int v = int(threadIdx.x); v < n_vec; v += int(blockDim.x)) {
    copy(sA_v(Underscore{}, v), gOut_v(Underscore{}, v));
  }
  if (threadIdx.x == 0) {
    *vec_width = detail::static_vector_width<decltype(gIn_v(_, 0)), decltype(sA_v(_, 0))>();
  }
}

// Transposing copy: (M,K) row-major gmem -> (M,K) column-major smem -> gmem out column-major.
__global__ void transpose_elementwise(std::uint16_t const* in, std::uint16_t* out, int* vec_width) {
  __shared__ alignas(16) std::uint16_t smem[kM * kK];
  Tensor gIn = make_tensor(make_gmem_ptr(in), make_shape(Int<kM>{}, Int<kK>{}), make_stride(kK, Int<1>{}));
  Tensor sT = make_tensor(make_smem_ptr(smem), Layout<Shape<Int<kM>, Int<kK>>>{});
  Tensor gOut = make_tensor(make_gmem_ptr(out), Layout<Shape<Int<kM>, Int<kK>>>{});
  // Each thread copies one row of the tile.
  for (int m = int(threadIdx.x); m < kM; m += int(blockDim.x)) copy(gIn(m, Underscore{}), sT(m, Underscore{}));
  __syncthreads();
  for (int m = int(threadIdx.x); m < kM; m += int(blockDim.x)) copy(sT(m, Underscore{}), gOut(m, Underscore{}));
  if (threadIdx.x == 0) *vec_width = detail::static_vector_width<decltype(gIn(0, Underscore{})), decltype(sT(0, Underscore{}))>();
}

// `_` in device code, bound to a run-time slice (the `Coord const&` overloads
// odr-use it): row r of a (rows, 8) row-major tensor with a run-time row count,
// taken with t(r, _) and written in reverse to out.
__global__ void underscore_slice_rows(int const* in, int* out, int rows) {
  auto t = make_tensor(make_gmem_ptr(in), make_shape(rows, Int<8>{}), make_stride(Int<8>{}, _1{}));
  auto o = make_tensor(make_gmem_ptr(out), make_shape(rows, Int<8>{}), make_stride(Int<8>{}, _1{}));
  int const r = int(threadIdx.x);
  if (r >= rows) return;
  auto row = t(r, _);
  auto orow = o(r, _);
  for (int c = 0; c < 8; ++c) orow(c) = row(7 - c);
}

TEST(TensorDevice, UnderscoreUsableInKernels) {
  if (device_cc() == 0) GTEST_SKIP() << "needs a GPU, found none";
  constexpr int kRows = 13;
  std::mt19937 rng(7);
  std::vector<int> h_in(kRows * 8), h_out(kRows * 8, -1);
  for (auto& x : h_in) x = int(rng() % 100000) + 1;
  int *d_in = nullptr, *d_out = nullptr;
  TESSERA_TEST_CUDA(cudaMalloc(&d_in, h_in.size() * sizeof(int)));
  TESSERA_TEST_CUDA(cudaMalloc(&d_out, h_out.size() * sizeof(int)));
  TESSERA_TEST_CUDA(cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(int), cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemset(d_out, 0xff, h_out.size() * sizeof(int)));  // poison
  underscore_slice_rows<<<1, 32>>>(d_in, d_out, kRows);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  TESSERA_TEST_CUDA(cudaMemcpy(h_out.data(), d_out, h_out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < 8; ++c) ASSERT_EQ(h_out[r * 8 + c], h_in[r * 8 + 7 - c]) << r << "," << c;
  cudaFree(d_in);
  cudaFree(d_out);
}

}  // namespace

class TensorCopyDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    int cc = device_cc();
    if (cc < 80) GTEST_SKIP() << "needs sm_80, found " << tessera::test::device_name(cc);
  }
};

TEST_F(TensorCopyDevice, SwizzledRoundTripVectorised) {
  std::mt19937 rng(20261122);
  std::vector<std::uint16_t> h_in(kM * kK), h_out(kM * kK, 0xffff);
  for (auto& x : h_in) x = std::uint16_t(rng() & 0x7fff);  // never all zeros
  std::uint16_t *d_in = nullptr, *d_out = nullptr;
  int* d_vec = nullptr;
  TESSERA_TEST_CUDA(cudaMalloc(&d_in, h_in.size() * 2));
  TESSERA_TEST_CUDA(cudaMalloc(&d_out, h_out.size() * 2));
  TESSERA_TEST_CUDA(cudaMalloc(&d_vec, sizeof(int)));
  TESSERA_TEST_CUDA(cudaMemcpy(d_in, h_in.data(), h_in.size() * 2, cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemset(d_out, 0xff, h_out.size() * 2));  // poison
  roundtrip_swizzled<<<1, 64>>>(d_in, d_out, d_vec);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  int vec = 0;
  TESSERA_TEST_CUDA(cudaMemcpy(h_out.data(), d_out, h_out.size() * 2, cudaMemcpyDeviceToHost));
  TESSERA_TEST_CUDA(cudaMemcpy(&vec, d_vec, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(vec, 8) << "8 x 16-bit per access expected through Swizzle<3,3,3>";
  int bad = 0;
  for (int i = 0; i < kM * kK; ++i) bad += h_out[i] != h_in[i];
  EXPECT_EQ(bad, 0);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_vec);
}

TEST_F(TensorCopyDevice, TransposeFallsBackToElementwise) {
  std::mt19937 rng(7);
  std::vector<std::uint16_t> h_in(kM * kK), h_out(kM * kK, 0xffff);
  for (auto& x : h_in) x = std::uint16_t(rng() & 0x7fff);
  std::uint16_t *d_in = nullptr, *d_out = nullptr;
  int* d_vec = nullptr;
  TESSERA_TEST_CUDA(cudaMalloc(&d_in, h_in.size() * 2));
  TESSERA_TEST_CUDA(cudaMalloc(&d_out, h_out.size() * 2));
  TESSERA_TEST_CUDA(cudaMalloc(&d_vec, sizeof(int)));
  TESSERA_TEST_CUDA(cudaMemcpy(d_in, h_in.data(), h_in.size() * 2, cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemset(d_out, 0xff, h_out.size() * 2));
  transpose_elementwise<<<1, 64>>>(d_in, d_out, d_vec);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  int vec = 0;
  TESSERA_TEST_CUDA(cudaMemcpy(h_out.data(), d_out, h_out.size() * 2, cudaMemcpyDeviceToHost));
  TESSERA_TEST_CUDA(cudaMemcpy(&vec, d_vec, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(vec, 1);
  int bad = 0;
  for (int m = 0; m < kM; ++m)
    for (int k = 0; k < kK; ++k) bad += h_out[m + kM * k] != h_in[m * kK + k];
  EXPECT_EQ(bad, 0);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_vec);
}
