// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// cooperative_copy on the GPU: a block of 128 threads moves a gmem tile into
// shared memory held in an array_aligned<..., 1024> storage struct, then
// back out to a second gmem buffer, which must equal the source bit for bit.
// Cases: seed 000's Swizzle<3,3,3> tile (128-bit vectors through the
// swizzle), a plain row-major tile with a leading dimension of 64 (aligned
// rows) and of 67 (rows misaligned: per-vector fallback), and 96 threads over
// a run-time 100x37 float tile. Fresh random inputs; the output is poisoned
// first, and the padding around it must stay poisoned.
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

constexpr int kTileM = 32, kTileK = 64;

struct SharedStorage {
  array_aligned<half_t, kTileM * kTileK, 1024> tile;
  array_aligned<std::uint32_t, 4> pad;  // a second member, kept aligned behind the first
};

__host__ __device__ auto swizzled_tile() {
  auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  return tile_to_shape(atom, make_shape(Int<kTileM>{}, Int<kTileK>{}));
}

// gmem (laid out with the smem tile's mode structure) -> swizzled smem -> gmem.
__global__ void swizzled_round_trip(half_t const* in, half_t* out) {
  __shared__ SharedStorage storage;
  auto g_layout = make_layout(make_shape(make_shape(_8{}, _4{}), make_shape(_8{}, _8{})),
                              make_stride(make_stride(_64{}, _512{}), make_stride(_1{}, _8{})));
  auto sT = make_tensor(make_smem_ptr(storage.tile.data()), swizzled_tile());
  cooperative_copy<128>(threadIdx.x, make_tensor(make_gmem_ptr(in), g_layout), sT);
  __syncthreads();
  cooperative_copy<128>(threadIdx.x, sT, make_tensor(make_gmem_ptr(out), g_layout));
}

// row-major (32, 64) with leading dimension ld -> plain smem -> same layout out.
__global__ void plain_round_trip(half_t const* in, half_t* out, int ld) {
  __shared__ SharedStorage storage;
  auto g = make_layout(make_shape(Int<kTileM>{}, Int<kTileK>{}), make_stride(ld, _1{}));
  auto sT = make_tensor(make_smem_ptr(storage.tile.data()), Layout<Shape<Int<kTileM>, Int<kTileK>>, Stride<Int<kTileK>, _1>>{});
  cooperative_copy<128>(threadIdx.x, make_tensor(make_gmem_ptr(in), g), sT);
  __syncthreads();
  cooperative_copy<128>(threadIdx.x, sT, make_tensor(make_gmem_ptr(out), g));
}

// 96 threads, run-time (m, n) column-major floats, straight gmem -> gmem.
__global__ void odd_threads_copy(float const* in, float* out, int m, int n) {
  cooperative_copy<96>(threadIdx.x, make_tensor(make_gmem_ptr(in), make_shape(m, n)),
                       make_tensor(make_gmem_ptr(out), make_shape(m, n)));
}

template <class T>
void expect_bits_equal(std::vector<T> const& want, DevBuf const& d, std::size_t used, char const* what) {
  std::vector<T> got(want.size());
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), d.p, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (i < used) {
      ASSERT_EQ(0, std::memcmp(&got[i], &want[i], sizeof(T))) << what << ": element " << i;
    } else {
      std::uint8_t b[sizeof(T)];
      std::memcpy(b, &got[i], sizeof(T));
      for (auto x : b) ASSERT_EQ(x, 0xFF) << what << ": padding element " << i << " overwritten";
    }
  }
}

TEST(CooperativeCopyDevice, SwizzledSharedStorageRoundTrip) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  auto h = fresh_random<half_t>(kTileM * kTileK + 64);
  DevBuf din, dout;
  ASSERT_NO_FATAL_FAILURE(upload(din, h));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, h.size() * sizeof(half_t)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, h.size() * sizeof(half_t)));
  swizzled_round_trip<<<1, 128>>>(din.as<half_t>(), dout.as<half_t>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  expect_bits_equal(h, dout, kTileM * kTileK, "swizzled");
}

TEST(CooperativeCopyDevice, PlainTileAlignedAndMisalignedRows) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  for (int ld : {64, 67}) {
    std::size_t const n = std::size_t(kTileM) * ld;
    auto h = fresh_random<half_t>(n);
    DevBuf din, dout;
    ASSERT_NO_FATAL_FAILURE(upload(din, h));
    TESSERA_TEST_CUDA(cudaMalloc(&dout.p, n * sizeof(half_t)));
    TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, n * sizeof(half_t)));
    plain_round_trip<<<1, 128>>>(din.as<half_t>(), dout.as<half_t>(), ld);
    TESSERA_TEST_CUDA(cudaGetLastError());
    TESSERA_TEST_CUDA(cudaDeviceSynchronize());
    std::vector<half_t> got(n);
    TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dout.p, n * sizeof(half_t), cudaMemcpyDeviceToHost));
    for (int r = 0; r < kTileM; ++r)
      for (int c = 0; c < ld; ++c) {
        std::size_t const i = std::size_t(r) * ld + c;
        if (c < kTileK) {
          ASSERT_EQ(0, std::memcmp(&got[i], &h[i], sizeof(half_t))) << "ld " << ld << " (" << r << "," << c << ")";
        } else {
          std::uint16_t bits;
          std::memcpy(&bits, &got[i], 2);
          ASSERT_EQ(bits, 0xFFFF) << "ld " << ld << ": padding (" << r << "," << c << ") overwritten";
        }
      }
  }
}

TEST(CooperativeCopyDevice, NinetySixThreadsRunTimeShape) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  int const m = 100, n = 37;
  auto h = fresh_random<float>(std::size_t(m) * n + 16);
  DevBuf din, dout;
  ASSERT_NO_FATAL_FAILURE(upload(din, h));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, h.size() * sizeof(float)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, h.size() * sizeof(float)));
  odd_threads_copy<<<1, 96>>>(din.as<float>(), dout.as<float>(), m, n);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  expect_bits_equal(h, dout, std::size_t(m) * n, "96 threads");
}

}  // namespace
