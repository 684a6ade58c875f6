// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// make_zip_tensor and lazy::transform inside kernels, over global memory:
// - a predicated tile copy whose predicate is a lazy view of an identity
//   tensor and whose source is a lazy view (2·x) of the input: every element
//   inside the matrix is written once with 2·in, none outside (the matrix is
//   not a multiple of the tile; memcheck would see a stray write);
// - a zip of a column-major X and a row-major Y, tiled and partitioned
//   across threads, each element read as a tuple and written back through
//   the proxy: X' = Y + 1, Y' = 2·X, through structured bindings as well.
// Fresh random inputs, outputs poisoned first, exact comparison (the
// arithmetic is exact in f32).

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::upload;

constexpr int kTileM = 32;
constexpr int kTileN = 16;

// out(m, n) = 2·in(m, n) for every (m, n) inside M×N; in and out column-major, ld = M.
__global__ void predicated_scaled_copy(float const* in, float* out, int M, int N) {
  auto shp = make_shape(M, N);
  auto mIn = make_tensor(make_gmem_ptr(in), make_layout(shp, make_stride(_1{}, M)));
  auto mOut = make_tensor(make_gmem_ptr(out), make_layout(shp, make_stride(_1{}, M)));
  auto cMN = make_identity_tensor(shp);
  auto tiler = make_shape(Int<kTileM>{}, Int<kTileN>{});
  auto blk = make_coord(int(blockIdx.x), int(blockIdx.y));
  auto thr = Layout<Shape<_32, _4>>{};  // 128 threads, m fastest
  int const tid = int(threadIdx.x);

  auto tIn = local_partition(local_tile(mIn, tiler, blk), thr, tid);
  auto tOut = local_partition(local_tile(mOut, tiler, blk), thr, tid);
  auto tC = local_partition(local_tile(cMN, tiler, blk), thr, tid);

  auto pred = lazy::transform(tC, [=](auto c) { return bool(elem_less(c, shp)); });
  auto twice = lazy::transform(tIn, [](float x) { return 2.0f * x; });
  copy_if(pred, twice, tOut);
}

// For every (m, n) of the M×N domain: X(m, n), Y(m, n) = Y + 1, 2·X.
// X column-major (ld M), Y row-major (ld N); M, N multiples of the tile.
__global__ void zip_swap_scale(float* x, float* y, int M, int N, bool bindings) {
  auto shp = make_shape(M, N);
  auto mX = make_tensor(make_gmem_ptr(x), make_layout(shp, make_stride(_1{}, M)));
  auto mY = make_tensor(make_gmem_ptr(y), make_layout(shp, make_stride(N, _1{})));
  auto z = make_zip_tensor(mX, mY);
  auto tiler = make_shape(Int<kTileM>{}, Int<kTileN>{});
  auto tz = local_partition(local_tile(z, tiler, make_coord(int(blockIdx.x), int(blockIdx.y))),
                            Layout<Shape<_32, _4>>{}, int(threadIdx.x));
  for (int i = 0; i < int(size(tz)); ++i) {
    if (bindings) {
      auto [xr, yr] = tz(i);  // references into X and Y
      float const xv = xr;
      xr = yr + 1.0f;
      yr = 2.0f * xv;
    } else {
      tuple<float, float> v = tz(i);
      tz(i) = make_tuple(get<1>(v) + 1.0f, 2.0f * get<0>(v));
    }
  }
}

void expect_bits(float got, float want, char const* what, int m, int n) {
  ASSERT_EQ(std::memcmp(&got, &want, sizeof(float)), 0)
      << what << " at (" << m << ", " << n << "): got " << got << ", want " << want << " (poison is NaN)";
}

TEST(ZipTransformDevice, PredicatedLazyCopyOfARaggedMatrix) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  for (auto [M, N] : {std::pair{100, 37}, std::pair{32, 16}, std::pair{1, 1}, std::pair{65, 129}}) {
    SCOPED_TRACE(::testing::Message() << M << "x" << N);
    auto in = fresh_random<float>(std::size_t(M) * N);
    DevBuf din, dout;
    ASSERT_NO_FATAL_FAILURE(upload(din, in));
    TESSERA_TEST_CUDA(cudaMalloc(&dout.p, sizeof(float) * in.size()));
    TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, sizeof(float) * in.size()));  // poison: NaN
    dim3 grid((M + kTileM - 1) / kTileM, (N + kTileN - 1) / kTileN);
    predicated_scaled_copy<<<grid, 128>>>(din.as<float>(), dout.as<float>(), M, N);
    TESSERA_TEST_CUDA(cudaGetLastError());
    TESSERA_TEST_CUDA(cudaDeviceSynchronize());
    std::vector<float> got(in.size());
    TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dout.p, sizeof(float) * got.size(), cudaMemcpyDeviceToHost));
    for (int n = 0; n < N; ++n)
      for (int m = 0; m < M; ++m)
        ASSERT_NO_FATAL_FAILURE(expect_bits(got[std::size_t(n) * M + m], 2.0f * in[std::size_t(n) * M + m], "out", m, n));
  }
}

TEST(ZipTransformDevice, ZipOfTwoLayoutsReadAndWrittenThroughTheProxy) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  int const M = 96, N = 48;
  for (bool bindings : {false, true}) {
    SCOPED_TRACE(bindings ? "structured bindings" : "tuple read, tuple write");
    auto x = fresh_random<float>(std::size_t(M) * N);
    auto y = fresh_random<float>(std::size_t(M) * N);
    DevBuf dx, dy;
    ASSERT_NO_FATAL_FAILURE(upload(dx, x));
    ASSERT_NO_FATAL_FAILURE(upload(dy, y));
    zip_swap_scale<<<dim3(M / kTileM, N / kTileN), 128>>>(dx.as<float>(), dy.as<float>(), M, N, bindings);
    TESSERA_TEST_CUDA(cudaGetLastError());
    TESSERA_TEST_CUDA(cudaDeviceSynchronize());
    std::vector<float> gx(x.size()), gy(y.size());
    TESSERA_TEST_CUDA(cudaMemcpy(gx.data(), dx.p, sizeof(float) * gx.size(), cudaMemcpyDeviceToHost));
    TESSERA_TEST_CUDA(cudaMemcpy(gy.data(), dy.p, sizeof(float) * gy.size(), cudaMemcpyDeviceToHost));
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        std::size_t const xi = std::size_t(n) * M + m, yi = std::size_t(m) * N + n;
        ASSERT_NO_FATAL_FAILURE(expect_bits(gx[xi], y[yi] + 1.0f, "X", m, n));
        ASSERT_NO_FATAL_FAILURE(expect_bits(gy[yi], 2.0f * x[xi], "Y", m, n));
      }
  }
}

}  // namespace
