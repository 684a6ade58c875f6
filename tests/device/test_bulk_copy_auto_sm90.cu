// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Copy_Atom<SM90_BULK_COPY_AUTO, T> on an H100/H200: each CTA loads one
// tile of a larger matrix with a run-time leading dimension into shared
// memory (copy(bulk.with(mbar), gA, sA): one cp.async.bulk per row, or per
// column for a column-major matrix), scales it by 2 in place and stores it
// into the same tile of a poisoned output (copy(bulk, sA, gD)). Also a whole
// static row-major tile (one instruction) of half_t. Fresh random input,
// exact comparison; everything outside the tiles must stay poisoned.
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

constexpr int kTileM = 16, kTileN = 32;

// The (kTileM, kTileN) tile at blockIdx of an M x N matrix with leading
// dimension ld: row-major (kRowMajor) or column-major.
template <bool kRowMajor, class T>
__device__ auto matrix_tile(T* p, int M, int N, int ld) {
  auto shp = make_shape(M, N);
  auto tiler = make_shape(Int<kTileM>{}, Int<kTileN>{});
  auto blk = make_coord(int(blockIdx.x), int(blockIdx.y));
  if constexpr (kRowMajor) return local_tile(make_tensor(make_gmem_ptr(p), make_layout(shp, make_stride(ld, _1{}))), tiler, blk);
  else return local_tile(make_tensor(make_gmem_ptr(p), make_layout(shp, make_stride(_1{}, ld))), tiler, blk);
}

template <bool kRowMajor, class T>
__global__ void scale_tiles(T const* in, T* out, int M, int N, int ld) {
  using SLayout = std::conditional_t<kRowMajor, Layout<Shape<Int<kTileM>, Int<kTileN>>, Stride<Int<kTileN>, _1>>,
                                     Layout<Shape<Int<kTileM>, Int<kTileN>>, Stride<_1, Int<kTileM>>>>;
  __shared__ alignas(128) T buf[kTileM * kTileN];
  __shared__ alignas(8) std::uint64_t mbar;
  auto gA = matrix_tile<kRowMajor>(in, M, N, ld);
  auto gD = matrix_tile<kRowMajor>(out, M, N, ld);
  auto sA = make_tensor(make_smem_ptr(buf), SLayout{});
  Copy_Atom<SM90_BULK_COPY_AUTO, T> bulk;
  if (threadIdx.x == 0) {
    mbarrier_init(&mbar, 1);
    arch::fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(&mbar, std::uint32_t(size(sA) * sizeof(T)));
    copy(bulk.with(mbar), gA, sA);
  }
  mbarrier_wait(&mbar, 0);
  for (int i = int(threadIdx.x); i < int(size(sA)); i += int(blockDim.x)) sA(i) = T(2.0f * float(sA(i)));
  arch::fence_proxy_async_shared_cta();  // the generic-proxy writes, visible to the bulk copy
  __syncthreads();
  if (threadIdx.x == 0) {
    copy(bulk, sA, gD);
    tma_store_arrive();
    arch::tma_store_wait_writes<0>();
  }
}

// A whole (8, 64) row-major tile per CTA, contiguous in both memories.
__global__ void scale_whole(half_t const* in, half_t* out) {
  using L = Layout<Shape<_8, _64>, Stride<_64, _1>>;
  __shared__ alignas(128) half_t buf[512];
  __shared__ alignas(8) std::uint64_t mbar;
  auto g = make_tensor(make_gmem_ptr(in + 512 * blockIdx.x), L{});
  auto d = make_tensor(make_gmem_ptr(out + 512 * blockIdx.x), L{});
  auto s = make_tensor(make_smem_ptr(buf), L{});
  Copy_Atom<SM90_BULK_COPY_AUTO, half_t> bulk;
  if (threadIdx.x == 0) {
    mbarrier_init(&mbar, 1);
    arch::fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(&mbar, 512 * 2);
    copy(bulk.with(mbar), g, s);
  }
  mbarrier_wait(&mbar, 0);
  for (int i = int(threadIdx.x); i < 512; i += int(blockDim.x)) s(i) = half_t(2.0f * float(s(i)));
  arch::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    copy(bulk, s, d);
    tma_store_arrive();
    arch::tma_store_wait_writes<0>();
  }
}

template <class T>
bool is_poison(T v) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  for (unsigned char c : b)
    if (c != 0xFF) return false;
  return true;
}

template <bool kRowMajor, class T>
void run_tiles(int tiles_m, int tiles_n, int ld_pad) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  int const M = tiles_m * kTileM, N = tiles_n * kTileN;
  int const ld = (kRowMajor ? N : M) + ld_pad;  // wider than the matrix: every tile row is its own run
  std::size_t const n = std::size_t(ld) * (kRowMajor ? M : N);
  auto x = fresh_random<T>(n);
  DevBuf din, dout;
  ASSERT_NO_FATAL_FAILURE(upload(din, x));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, n * sizeof(T)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, n * sizeof(T)));
  scale_tiles<kRowMajor, T><<<dim3(tiles_m, tiles_n), 128>>>(din.as<T>(), dout.as<T>(), M, N, ld);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<T> got(n);
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dout.p, n * sizeof(T), cudaMemcpyDeviceToHost));
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t const major = k / std::size_t(ld), minor = k % std::size_t(ld);
    bool const inside = minor < std::size_t(kRowMajor ? N : M);
    if (inside) {
      T const want = T(2.0f * float(x[k]));
      ASSERT_EQ(std::memcmp(&got[k], &want, sizeof(T)), 0) << "element " << minor << " of line " << major;
    } else {
      ASSERT_TRUE(is_poison(got[k])) << "padding element " << minor << " of line " << major << " overwritten";
    }
  }
}

TEST(BulkCopyAuto, RowMajorTilesOfAWiderMatrix) { run_tiles<true, float>(3, 2, 12); }
TEST(BulkCopyAuto, ColumnMajorTilesOfATallerMatrix) { run_tiles<false, float>(2, 3, 4); }
TEST(BulkCopyAuto, HalfRowMajorTiles) { run_tiles<true, half_t>(2, 2, 8); }

TEST(BulkCopyAuto, WholeContiguousTile) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  int const ctas = 5;
  auto x = fresh_random<half_t>(std::size_t(ctas) * 512);
  DevBuf din, dout;
  ASSERT_NO_FATAL_FAILURE(upload(din, x));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, x.size() * 2));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, x.size() * 2));
  scale_whole<<<ctas, 128>>>(din.as<half_t>(), dout.as<half_t>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<half_t> got(x.size());
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dout.p, got.size() * 2, cudaMemcpyDeviceToHost));
  for (std::size_t k = 0; k < x.size(); ++k) {
    half_t const want = half_t(2.0f * float(x[k]));
    ASSERT_EQ(std::memcmp(&got[k], &want, 2), 0) << "element " << k;
  }
}

}  // namespace
