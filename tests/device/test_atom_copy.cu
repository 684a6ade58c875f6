// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Copy atoms on the device:
//   ldmatrix (all six forms): after Copy_Atom::call, value v of lane t must be
//     the element at ValLayoutDst(t, v) of the 4-matrix shared image, whose
//     elements hold their own offsets -- the traits' claimed layout, checked.
//   cp.async (.ca/.cg, 4/8/16 bytes, with and without zfill) through Copy_Atom
//     and a TiledCopy, including a partial tile whose missing rows must be
//     zero-filled without reading out of bounds.
//   A TiledCopy round trip gmem -> swizzled smem -> gmem.

#include <cstdint>
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

#define TESSERA_NEED_CC(min)                                                                     \
  do {                                                                                           \
    int const cc_ = device_cc();                                                                 \
    if (cc_ < (min)) GTEST_SKIP() << "needs sm_" << (min) << ", found " << tessera::test::device_name(cc_); \
  } while (0)

// ---- ldmatrix ------------------------------------------------------------------

// out[t * NumValDst + v] = bits of the value lane t received as value v.
template <class Op>
__global__ void ldsm_kernel(std::uint16_t* out) {
  using Atom = Copy_Atom<Op, half_t>;
  __shared__ alignas(128) half_t smem[4 * 64];
  for (int i = int(threadIdx.x); i < 4 * 64; i += 32) smem[i] = half_t::bitcast(std::uint16_t(i + 1));
  __syncthreads();
  int const t = int(threadIdx.x);
  constexpr int kSrc = Atom::NumValSrc;
  constexpr int kDst = Atom::NumValDst;
  auto src = make_tensor(make_smem_ptr(smem + int(typename Atom::ValLayoutSrc{}(t, 0))), Layout<Int<kSrc>>{});
  auto dst = make_tensor<half_t>(Layout<Int<kDst>>{});
  Atom{}.call(src, dst);
  for (int v = 0; v < kDst; ++v) out[t * kDst + v] = dst(v).storage;
}

template <class Op>
void check_ldsm() {
  TESSERA_NEED_CC(80);
  using Atom = Copy_Atom<Op, half_t>;
  constexpr int kDst = Atom::NumValDst;
  static_assert(Atom::NumValSrc == 8, "test: an ldmatrix lane addresses one 16-byte row");
  std::uint16_t* d_out;
  TESSERA_TEST_CUDA(cudaMalloc(&d_out, 32 * kDst * sizeof(std::uint16_t)));
  TESSERA_TEST_CUDA(cudaMemset(d_out, 0, 32 * kDst * sizeof(std::uint16_t)));
  ldsm_kernel<Op><<<1, 32>>>(d_out);
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<std::uint16_t> out(32 * kDst);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), d_out, out.size() * sizeof(std::uint16_t), cudaMemcpyDeviceToHost));
  typename Atom::ValLayoutDst dst_layout;
  for (int t = 0; t < 32; ++t)
    for (int v = 0; v < kDst; ++v)
      EXPECT_EQ(int(out[t * kDst + v]), int(dst_layout(t, v)) + 1) << "lane " << t << " value " << v;
  cudaFree(d_out);
}

TEST(AtomLdsm, U32x1_N) { check_ldsm<SM75_U32x1_LDSM_N>(); }
TEST(AtomLdsm, U32x2_N) { check_ldsm<SM75_U32x2_LDSM_N>(); }
TEST(AtomLdsm, U32x4_N) { check_ldsm<SM75_U32x4_LDSM_N>(); }
TEST(AtomLdsm, U16x2_T) { check_ldsm<SM75_U16x2_LDSM_T>(); }
TEST(AtomLdsm, U16x4_T) { check_ldsm<SM75_U16x4_LDSM_T>(); }
TEST(AtomLdsm, U16x8_T) { check_ldsm<SM75_U16x8_LDSM_T>(); }

// ---- cp.async through a TiledCopy -------------------------------------------

// A kRows x kCols K-major tile of T; rows >= valid_rows are out of bounds.
// kThrRows x kThrCols threads, each moving one atom (kVals elements) per step.
template <class CopyOp, class T, int kRows, int kCols, int kVals, bool kZfill>
__global__ void cp_async_tile_kernel(T const* gin, T* gout, int valid_rows) {
  constexpr int kThrCols = kCols / kVals;
  constexpr int kThrRows = 128 / kThrCols;
  __shared__ alignas(128) T smem[kRows * kCols];
  auto g = make_tensor(make_gmem_ptr(gin), make_shape(Int<kRows>{}, Int<kCols>{}), make_stride(Int<kCols>{}, _1{}));
  auto s = make_tensor(make_smem_ptr(smem), make_shape(Int<kRows>{}, Int<kCols>{}), make_stride(Int<kCols>{}, _1{}));
  auto o = make_tensor(make_gmem_ptr(gout), make_shape(Int<kRows>{}, Int<kCols>{}), make_stride(Int<kCols>{}, _1{}));
  auto tiled = make_tiled_copy(Copy_Atom<CopyOp, T>{}, Layout<Shape<Int<kThrRows>, Int<kThrCols>>, Stride<Int<kThrCols>, _1>>{},
                               Layout<Shape<_1, Int<kVals>>>{});
  auto thr = tiled.get_slice(threadIdx.x);
  auto tSg = thr.partition_S(g);  // (CPY,CPY_M,CPY_K)
  auto tSs = thr.partition_D(s);  // (CPY,CPY_M,CPY_K)
  // (row, col) of every element this thread copies, partitioned like the data.
  // NOTE: tSg.layout() alone is not enough to find the row: the partition
  // moved this thread's own offset into tSg's pointer, so the layout's offset
  // of (0,m,k) misses the thread's first row (GPU run 2 read rows past
  // valid_rows that way, and memcheck saw it).
  auto tScS = thr.partition_S(make_identity_tensor(make_shape(Int<kRows>{}, Int<kCols>{})));  // (CPY,CPY_M,CPY_K)
  for (int m = 0; m < int(size<1>(tSg)); ++m) {
    for (int k = 0; k < int(size<2>(tSg)); ++k) {
      int const row = int(get<0>(tScS(0, m, k)));
      bool const in_bounds = row < valid_rows;
      if constexpr (kZfill) {
        // Out-of-bounds source: point at the start of the allocation (never
        // read when pred is false; cp.async reads 0 bytes).
        auto src = in_bounds ? tSg(Underscore{}, m, k) : make_tensor(make_gmem_ptr(gin), tSg(Underscore{}, m, k).layout());
        auto dst = tSs(Underscore{}, m, k);
        tiled.with(in_bounds).call(src, dst);
      } else {
        auto dst = tSs(Underscore{}, m, k);
        tiled.call(tSg(Underscore{}, m, k), dst);
      }
    }
  }
  cp_async_fence();
  cp_async_wait<0>();
  __syncthreads();
  for (int i = int(threadIdx.x); i < kRows * kCols; i += int(blockDim.x)) o(i / kCols, i % kCols) = s(i / kCols, i % kCols);
}

template <class CopyOp, class T, int kRows, int kCols, int kVals, bool kZfill>
void check_cp_async(int valid_rows) {
  TESSERA_NEED_CC(80);
  std::mt19937 gen(99);
  std::uniform_real_distribution<float> dist(-4.f, 4.f);
  // Allocate only the valid rows (plus nothing): reading past them would be an
  // out-of-bounds access that compute-sanitizer reports.
  int const n_valid = valid_rows * kCols;
  std::vector<T> in(kRows * kCols);
  for (auto& x : in) x = T(dist(gen));
  T *d_in, *d_out;
  TESSERA_TEST_CUDA(cudaMalloc(&d_in, (n_valid > 0 ? n_valid : 1) * sizeof(T)));
  TESSERA_TEST_CUDA(cudaMalloc(&d_out, kRows * kCols * sizeof(T)));
  TESSERA_TEST_CUDA(cudaMemcpy(d_in, in.data(), n_valid * sizeof(T), cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemset(d_out, 0x7f, kRows * kCols * sizeof(T)));
  cp_async_tile_kernel<CopyOp, T, kRows, kCols, kVals, kZfill><<<1, 128>>>(d_in, d_out, valid_rows);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<T> out(kRows * kCols);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), d_out, out.size() * sizeof(T), cudaMemcpyDeviceToHost));
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kCols; ++c) {
      float const want = r < valid_rows ? float(in[r * kCols + c]) : 0.0f;
      ASSERT_EQ(float(out[r * kCols + c]), want) << "(" << r << "," << c << ")";
    }
  }
  cudaFree(d_in);
  cudaFree(d_out);
}

TEST(AtomCpAsync, CacheAlways16B) { check_cp_async<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t, 64, 64, 8, false>(64); }
TEST(AtomCpAsync, CacheGlobal16B) { check_cp_async<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t, 64, 64, 8, false>(64); }
TEST(AtomCpAsync, CacheAlways8B) { check_cp_async<SM80_CP_ASYNC_CACHEALWAYS<std::uint64_t>, float, 32, 32, 2, false>(32); }
TEST(AtomCpAsync, CacheAlways4B) { check_cp_async<SM80_CP_ASYNC_CACHEALWAYS<std::uint32_t>, float, 32, 32, 1, false>(32); }
TEST(AtomCpAsync, ZfillFullTile) { check_cp_async<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, half_t, 64, 64, 8, true>(64); }
TEST(AtomCpAsync, ZfillPartialTile) { check_cp_async<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, half_t, 64, 64, 8, true>(37); }
TEST(AtomCpAsync, ZfillCacheAlwaysPartial) { check_cp_async<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>, half_t, 64, 64, 8, true>(5); }
TEST(AtomCpAsync, ZfillEmptyTile) { check_cp_async<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, half_t, 64, 64, 8, true>(0); }

// ---- TiledCopy round trip through the seed's swizzled smem --------------------

__global__ void swizzle_round_trip_kernel(half_t const* gin, half_t* gout) {
  constexpr int kM = 128, kK = 64;
  __shared__ alignas(1024) half_t smem[kM * kK];
  auto swizzle_atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  auto sA = make_tensor(make_smem_ptr(smem), tile_to_shape(swizzle_atom, make_shape(Int<kM>{}, Int<kK>{})));
  auto gA = make_tensor(make_gmem_ptr(gin), make_shape(Int<kM>{}, Int<kK>{}), make_stride(Int<kK>{}, _1{}));
  auto gO = make_tensor(make_gmem_ptr(gout), make_shape(Int<kM>{}, Int<kK>{}), make_stride(Int<kK>{}, _1{}));

  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                             Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  auto s2g = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                             Layout<Shape<_1, _8>>{});
  auto thr_g2s = g2s.get_slice(threadIdx.x);
  copy(g2s, thr_g2s.partition_S(gA), thr_g2s.partition_D(sA));
  cp_async_fence();
  cp_async_wait<0>();
  __syncthreads();
  // Read back with a different thread assignment (reversed thread index).
  auto thr_s2g = s2g.get_slice(127 - int(threadIdx.x));
  copy(s2g, thr_s2g.partition_S(sA), thr_s2g.partition_D(gO));
}

TEST(TiledCopy, SwizzledSmemRoundTrip) {
  TESSERA_NEED_CC(80);
  constexpr int n = 128 * 64;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<half_t> in(n), out(n);
  for (auto& x : in) x = half_t(dist(gen));
  half_t *d_in, *d_out;
  TESSERA_TEST_CUDA(cudaMalloc(&d_in, n * sizeof(half_t)));
  TESSERA_TEST_CUDA(cudaMalloc(&d_out, n * sizeof(half_t)));
  TESSERA_TEST_CUDA(cudaMemcpy(d_in, in.data(), n * sizeof(half_t), cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemset(d_out, 0xff, n * sizeof(half_t)));
  swizzle_round_trip_kernel<<<1, 128>>>(d_in, d_out);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), d_out, n * sizeof(half_t), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i].storage, in[i].storage) << "element " << i;
  cudaFree(d_in);
  cudaFree(d_out);
}

}  // namespace
