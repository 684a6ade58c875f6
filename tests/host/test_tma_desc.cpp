// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The CUDA-free half of TMA descriptors from Tessera layouts: coordinate
// tensors and the mode -> TMA coordinate map (tessera/tma/tma_coord.hpp).
// make_tma_desc itself needs <cuda.h>, which is not on these host tests'
// include path; its rules are tested GPU-free in
// tests/device/test_tma_tensor_sm90.cu (TmaDesc.*) and, at ranks 1 to 5, in
// tests/host/test_tma_desc_rank_cudah.cpp (a host test with the CUDA headers).
#include <gtest/gtest.h>

#include <tessera/tensor.hpp>
#include <tessera/tma/tma_coord.hpp>

namespace {

using namespace tessera;

// The map is usable in constant expressions (and so in device code).
constexpr TmaCoordMap kRowMajor{2, {1, 0, 2}};
static_assert(kRowMajor.apply(7, 40)[0] == 40 && kRowMajor.apply(7, 40)[1] == 7 && kRowMajor.apply(7, 40)[2] == 0,
              "TmaCoordMap: row-major (m, k) must map to {k, m}");

// @law apply(m)[d] == m[mode_of_dim[d]] for d < rank, 0 beyond; for every
// permutation of ranks 2 and 3.
TEST(TmaCoord, MapIsThePermutation) {
  int const perms3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  int const perms2[2][3] = {{0, 1, 2}, {1, 0, 2}};
  std::int64_t const m[3] = {17, -8, 1000003};
  int checked = 0;
  for (auto const& p : perms3) {
    TmaCoordMap const map{3, {p[0], p[1], p[2]}};
    TmaCoords const a = map.apply(m[0], m[1], m[2]);
    TmaCoords const b = map(make_coord(int(m[0]), int(m[1]), int(m[2])));
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(a[d], m[p[d]]) << "dimension " << d;
      EXPECT_EQ(b[d], m[p[d]]) << "dimension " << d;
      ++checked;
    }
  }
  for (auto const& p : perms2) {
    TmaCoordMap const map{2, {p[0], p[1], p[2]}};
    TmaCoords const a = map(make_coord(int(m[0]), int(m[1])));
    EXPECT_EQ(a[0], m[p[0]]);
    EXPECT_EQ(a[1], m[p[1]]);
    EXPECT_EQ(a[2], 0);
    checked += 2;
  }
  EXPECT_EQ(checked, 22);
  // Static coordinates convert like dynamic ones.
  TmaCoords const s = TmaCoordMap{2, {1, 0, 2}}(make_coord(_64{}, Int<3>{}));
  EXPECT_EQ(s[0], 3);
  EXPECT_EQ(s[1], 64);
}

// @law make_tma_coord_tensor(s)(c) == c for every coordinate c of s.
TEST(TmaCoord, CoordinateTensorIsTheIdentity) {
  auto c2 = make_tma_coord_tensor(make_shape(13, 7));
  for (int j = 0; j < 7; ++j)
    for (int i = 0; i < 13; ++i) {
      auto const v = c2(i, j);
      ASSERT_EQ(int(get<0>(v)), i);
      ASSERT_EQ(int(get<1>(v)), j);
    }
  auto c3 = make_tma_coord_tensor(make_shape(5, 4, 3));
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 5; ++i) {
        auto const v = c3(i, j, k);
        ASSERT_EQ(int(get<0>(v)), i);
        ASSERT_EQ(int(get<1>(v)), j);
        ASSERT_EQ(int(get<2>(v)), k);
      }
}

// @law local_tile(make_tma_coord_tensor(s), box, t)(c) == t * box + c, for
// every tile including the partial ones at the edges, and for every c of
// the box (past the edge too: the coordinates TMA zero-fills).
TEST(TmaCoord, TileOriginsIncludingEdges) {
  struct Case {
    int m, n, bm, bn;
  };
  int tiles = 0;
  for (Case const cs : {Case{200, 136, 64, 64}, Case{150, 100, 64, 48}, Case{99, 70, 40, 32}, Case{64, 64, 64, 64}}) {
    auto cA = make_tma_coord_tensor(make_shape(cs.m, cs.n));  // (M,N) -> (m,n)
    int const tm = (cs.m + cs.bm - 1) / cs.bm, tn = (cs.n + cs.bn - 1) / cs.bn;
    for (int b = 0; b < tn; ++b)
      for (int a = 0; a < tm; ++a) {
        auto cT = local_tile(cA, make_shape(cs.bm, cs.bn), make_coord(a, b));  // (BM,BN)
        for (int j = 0; j < cs.bn; j += 7)
          for (int i = 0; i < cs.bm; i += 5) {
            auto const v = cT(i, j);
            ASSERT_EQ(int(get<0>(v)), a * cs.bm + i) << "tile (" << a << "," << b << ")";
            ASSERT_EQ(int(get<1>(v)), b * cs.bn + j) << "tile (" << a << "," << b << ")";
          }
        // A row-major map: TMA dimension 0 is mode 1.
        TmaCoords const c = TmaCoordMap{2, {1, 0, 2}}(cT(0, 0));
        EXPECT_EQ(c[0], b * cs.bn);
        EXPECT_EQ(c[1], a * cs.bm);
        ++tiles;
      }
  }
  EXPECT_EQ(tiles, 4 * 3 + 3 * 3 + 3 * 3 + 1);
  // Static boxes (as kernels write them), 3-D.
  auto cB = make_tma_coord_tensor(make_shape(50, 72, 3));
  auto cT = local_tile(cB, make_shape(_16{}, _64{}, Int<2>{}), make_coord(3, 1, 1));  // (16,64,2)
  auto const o = cT(0, 0, 0);
  EXPECT_EQ(int(get<0>(o)), 48);
  EXPECT_EQ(int(get<1>(o)), 64);
  EXPECT_EQ(int(get<2>(o)), 2);
  TmaCoords const c = TmaCoordMap{3, {1, 0, 2}}(o);
  EXPECT_EQ(c[0], 64);
  EXPECT_EQ(c[1], 48);
  EXPECT_EQ(c[2], 2);
}

}  // namespace
