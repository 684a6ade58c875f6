// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// TiledMMA::get_slice(t) with thread layouts that are not one flat,
// column-major (V,M,N,K) grid: thread t's (v,m,n,k) is the coordinate whose
// image under the thread layout is t, one coordinate per mode, so that
//   - with a nested (lanes, warps) mode, partition_A/B/C give the values
//     computed directly from t's lane and warp;
//   - with warps laid out row-major, partition_C agrees with get_layoutC_TV.

#include <vector>

#include <gtest/gtest.h>

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

namespace {

using namespace tessera;

// UniversalFMA over ((4 lanes, 2 warps), (8 lanes, 2 warps)) threads:
// thread t = lane_n + 8*lane_m + 32*warp_n + 64*warp_m, lane = t % 32.
auto nested_fma_mma() {
  auto thr = make_layout(make_shape(make_shape(_4{}, _2{}), make_shape(_8{}, _2{}), _1{}),
                         make_stride(make_stride(_8{}, _64{}), make_stride(_1{}, _32{}), _0{}));
  return make_tiled_mma(UniversalFMA<float, float, float, float>{}, thr);
}

struct ThreadGrid {
  int m, n;  // the thread's row / column in the (8,16) thread grid
};
ThreadGrid grid_of(int t) {
  int const lane = t % 32, warp = t / 32;
  return {lane / 8 + 4 * (warp / 2), lane % 8 + 8 * (warp % 2)};
}

TEST(TiledMmaSlice, NestedThreadModesPartitionC) {
  auto mma = nested_fma_mma();
  ASSERT_EQ(int(size(mma)), 128);
  constexpr int M = 16, N = 48;  // 2 x 3 tiles of the (8,16) thread grid
  auto cC = make_identity_tensor(make_shape(Int<M>{}, Int<N>{}));  // (M,N) -> (m,n)
  std::vector<int> hits(M * N, 0);
  for (int t = 0; t < 128; ++t) {
    auto tCcC = mma.get_slice(t).partition_C(cC);  // (MMA,MMA_M,MMA_N)
    ASSERT_EQ(int(size<1>(tCcC)), M / 8);
    ASSERT_EQ(int(size<2>(tCcC)), N / 16);
    ThreadGrid const g = grid_of(t);
    for (int i = 0; i < M / 8; ++i)
      for (int j = 0; j < N / 16; ++j) {
        auto const c = tCcC(0, i, j);
        EXPECT_EQ(int(get<0>(c)), g.m + 8 * i) << "thread " << t << " (" << i << "," << j << ")";
        EXPECT_EQ(int(get<1>(c)), g.n + 16 * j) << "thread " << t << " (" << i << "," << j << ")";
        ++hits[int(get<0>(c)) + M * int(get<1>(c))];
      }
  }
  for (int i = 0; i < M * N; ++i) EXPECT_EQ(hits[i], 1) << i;
}

TEST(TiledMmaSlice, NestedThreadModesPartitionAB) {
  auto mma = nested_fma_mma();
  constexpr int M = 16, N = 32, K = 4;
  auto cA = make_identity_tensor(make_shape(Int<M>{}, Int<K>{}));  // (M,K) -> (m,k)
  auto cB = make_identity_tensor(make_shape(Int<N>{}, Int<K>{}));  // (N,K) -> (n,k)
  for (int t = 0; t < 128; ++t) {
    auto thr = mma.get_slice(t);
    auto tCcA = thr.partition_A(cA);  // (MMA,MMA_M,MMA_K)
    auto tCcB = thr.partition_B(cB);  // (MMA,MMA_N,MMA_K)
    ThreadGrid const g = grid_of(t);
    for (int k = 0; k < K; ++k) {
      for (int i = 0; i < M / 8; ++i) {
        EXPECT_EQ(int(get<0>(tCcA(0, i, k))), g.m + 8 * i) << "thread " << t;
        EXPECT_EQ(int(get<1>(tCcA(0, i, k))), k) << "thread " << t;
      }
      for (int j = 0; j < N / 16; ++j) {
        EXPECT_EQ(int(get<0>(tCcB(0, j, k))), g.n + 16 * j) << "thread " << t;
        EXPECT_EQ(int(get<1>(tCcB(0, j, k))), k) << "thread " << t;
      }
    }
  }
}

// The SIMT SGEMM's TiledMMA shape (simt_tiled.cuh): nested thread modes and
// a permutation giving each thread 4x4 blocks; partition_C against the
// direct formula row = 4*lane_m + 32*warp_m + v + 16*rep (likewise columns).
TEST(TiledMmaSlice, NestedThreadModesWithPermutation) {
  auto thr = make_layout(make_shape(make_shape(_4{}, _2{}), make_shape(_8{}, _2{}), _1{}),
                         make_stride(make_stride(_8{}, _64{}), make_stride(_1{}, _32{}), _0{}));
  auto perm_m = make_layout(make_shape(_4{}, _2{}, _4{}, _2{}), make_stride(_4{}, _32{}, _1{}, _16{}));
  auto perm_n = make_layout(make_shape(_8{}, _2{}, _4{}, _2{}), make_stride(_4{}, _64{}, _1{}, _32{}));
  auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, thr, make_tile(perm_m, perm_n, _1{}));
  auto cC = make_identity_tensor(make_shape(_64{}, _128{}));
  for (int t = 0; t < 128; ++t) {
    auto tCcC = mma.get_slice(t).partition_C(cC);  // (1,(4,2),(4,2))
    ASSERT_EQ(int(size(tCcC)), 64);
    int const lane = t % 32, warp = t / 32;
    int const lane_m = lane / 8, lane_n = lane % 8, warp_m = warp / 2, warp_n = warp % 2;
    for (int rm = 0; rm < 2; ++rm)
      for (int vm = 0; vm < 4; ++vm)
        for (int rn = 0; rn < 2; ++rn)
          for (int vn = 0; vn < 4; ++vn) {
            auto const c = tCcC(0, make_coord(vm, rm), make_coord(vn, rn));
            EXPECT_EQ(int(get<0>(c)), 4 * lane_m + 32 * warp_m + vm + 16 * rm) << "thread " << t;
            EXPECT_EQ(int(get<1>(c)), 4 * lane_n + 64 * warp_n + vn + 32 * rn) << "thread " << t;
          }
  }
}

// Warps laid out row-major over a 2x2 grid: thread index 32 is warp (0,1).
TEST(TiledMmaSlice, RowMajorWarpsAgreeWithLayoutCTV) {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>, Stride<_2, _1>>{});
  auto tv = mma.get_layoutC_TV();  // (thr,val) -> m + 32 n within one 32x16 tile
  auto cC = make_identity_tensor(make_shape(_32{}, _16{}));
  for (int t = 0; t < 128; ++t) {
    auto tCcC = mma.get_slice(t).partition_C(cC);  // (MMA,1,1)
    ASSERT_EQ(int(size<0>(tCcC)), 4);
    for (int v = 0; v < 4; ++v) {
      int const idx = int(tv(t, v));
      EXPECT_EQ(int(get<0>(tCcC(v, 0, 0))), idx % 32) << t << "," << v;
      EXPECT_EQ(int(get<1>(tCcC(v, 0, 0))), idx / 32) << t << "," << v;
    }
  }
}

}  // namespace
