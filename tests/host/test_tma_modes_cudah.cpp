// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// make_tma_desc on global tensors with nested modes (tessera/tma/make_tma_desc.hpp):
//   - fixed answers (dimensions, byte strides, box, the leaf -> dimension map)
//     for a merged column-major ((8,16),64), a row-major tile whose M mode is
//     (2,64) with a gap between its two slabs (whole and half tiles), a
//     dropped size-1 sub-mode, and a rank-5 map of three nested modes;
//   - the refusals: more than 5 dimensions after flattening, a tile that cuts
//     a sub-mode unevenly, sub-mode strides TMA cannot take;
//   - flat layouts give the descriptor their definition says (the @post of a
//     flat plan, recomputed here independently over a random corpus), and
//     wrapping every mode as a one-leaf nested mode changes nothing;
//   - the law over a generated corpus of nested layouts and every tile in
//     them: for every element c of the tile, the TMA coordinates of its
//     coordinate-tensor value reach it through the descriptor (sum of
//     coordinate * stride == the Tessera layout's offset), and lie in the box
//     started by the tile's first element exactly where smem_layout(c) says
//     TMA writes it.
// No GPU and no driver: plans only (tests/CMakeLists.txt: host/test_*_cudah.cpp).
#include <cuda.h>
#include <cuda_bf16.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include <tessera/tensor.hpp>
#include <tessera/tma/make_tma_desc.hpp>
#include <tessera/tma/tma_coord.hpp>

namespace {

using namespace tessera;
using bf16 = __nv_bfloat16;

alignas(1024) unsigned char g_host_buf[1 << 12];
template <class T>
T const* host_ptr() {
  return reinterpret_cast<T const*>(g_host_buf);
}

void expect_error(TmaPlan const& p, std::string const& needle) {
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.error.rfind("make_tma_desc: ", 0), 0u) << p.error;
  EXPECT_NE(p.error.find(needle), std::string::npos) << "message: " << p.error << "\nwanted: " << needle;
}

struct Want {
  int rank;
  std::uint64_t dims[5];
  std::uint64_t strides[4];  // bytes
  std::uint32_t box[5];
  std::uint32_t box_bytes;
};

void expect_desc(TmaPlan const& p, Want const& w) {
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.rank, w.rank);
  EXPECT_EQ(p.desc.rank, w.rank);
  for (int d = 0; d < w.rank; ++d) {
    SCOPED_TRACE("TMA dimension " + std::to_string(d));
    EXPECT_EQ(p.desc.dims[d], w.dims[d]);
    EXPECT_EQ(p.desc.box[d], w.box[d]);
    if (d > 0) EXPECT_EQ(p.desc.strides[d - 1], w.strides[d - 1]);
  }
  for (int d = w.rank; d < 5; ++d) EXPECT_EQ(p.desc.box[d], 1u);
  EXPECT_EQ(p.box_bytes, w.box_bytes);
}

bool same_desc(tma::TiledDesc const& a, tma::TiledDesc const& b) {
  bool same = a.type == b.type && a.elem_bytes == b.elem_bytes && a.rank == b.rank && a.base == b.base &&
              a.swizzle == b.swizzle;
  for (int d = 0; d < 5; ++d) same = same && a.dims[d] == b.dims[d] && a.box[d] == b.box[d] && a.elem_strides[d] == b.elem_strides[d];
  for (int d = 0; d < 4; ++d) same = same && a.strides[d] == b.strides[d];
  return same;
}

// The element offset the descriptor reaches for TMA coordinates c.
std::int64_t desc_offset(TmaPlan const& p, TmaCoords const& c) {
  std::int64_t o = c[0];
  for (int d = 1; d < p.rank; ++d) o += std::int64_t(c[d]) * std::int64_t(p.desc.strides[d - 1] / p.desc.elem_bytes);
  return o;
}

// The law, over every tile of `g` by the box extents of `s` that lies
// wholly inside it, and every element c of the tile:
//   desc_offset(tma(x)) == g(x), x the coordinate tensor's value at c;
//   0 <= tma(x)[d] - tma(x0)[d] < box[d], x0 the tile's first element, and
//   smem_layout(c) == sum_d (tma(x)[d] - tma(x0)[d]) * pitch[d] (TMA's packing).
template <class GL, class SL>
void check_law(TmaPlan const& p, GL const& g, SL const& s) {
  ASSERT_TRUE(p.ok) << p.error;
  auto const cT = make_tma_coord_tensor(shape(g));  // (M,N) -> hierarchical coordinates
  auto const ext = product_each(shape(s));
  int const e0 = int(get<0>(ext)), e1 = int(get<1>(ext));
  int const n0 = int(size<0>(g)) / e0, n1 = int(size<1>(g)) / e1;
  std::int64_t pitch[5] = {1, 1, 1, 1, 1};
  for (int d = 1; d < p.rank; ++d) pitch[d] = pitch[d - 1] * p.desc.box[d - 1];
  long long bad = 0;
  for (int t1 = 0; t1 < n1; ++t1)
    for (int t0 = 0; t0 < n0; ++t0) {
      auto const tile = local_tile(cT, ext, make_coord(t0, t1));  // (E0,E1)
      TmaCoords const o = p.tma_coords(tile(0, 0));
      for (int c1 = 0; c1 < e1; ++c1)
        for (int c0 = 0; c0 < e0; ++c0) {
          auto const x = tile(c0, c1);
          TmaCoords const t = p.tma_coords(x);
          std::int64_t const want = g(t0 * e0 + c0, t1 * e1 + c1);
          std::int64_t packed = 0;
          bool in_box = true;
          for (int d = 0; d < p.rank; ++d) {
            std::int64_t const r = std::int64_t(t[d]) - o[d];
            in_box = in_box && r >= 0 && r < std::int64_t(p.desc.box[d]) && t[d] >= 0 &&
                     std::uint64_t(t[d]) < p.desc.dims[d];
            packed += r * pitch[d];
          }
          if ((desc_offset(p, t) != want || !in_box || std::int64_t(s(c0, c1)) != packed) && ++bad <= 5)
            ADD_FAILURE() << "tile (" << t0 << "," << t1 << ") element (" << c0 << "," << c1 << "): descriptor offset "
                          << desc_offset(p, t) << ", layout offset " << want << ", in box " << in_box
                          << ", smem " << std::int64_t(s(c0, c1)) << " vs packed " << packed;
        }
    }
  EXPECT_EQ(bad, 0);
}

// ---------------------------------------------------------------------------
// Fixed answers
// ---------------------------------------------------------------------------

TEST(TmaModes, MergedColumnMajor) {
  // ((8,16),64):((1,8),128) bf16: the nested M mode is contiguous in itself
  // (8 * 1 == 8, all static), boxes of (32,16): the box covers sub-mode 0
  // whole (8) and 4 of sub-mode 1, so the two merge into one dimension of
  // 128 with a box of 32 -- the flat (128,64):(1,128) map, field for field.
  auto g = Layout<Shape<Shape<_8, _16>, _64>, Stride<Stride<_1, _8>, Int<128>>>{};
  auto s = Layout<Shape<_32, _16>, Stride<_1, _32>>{};
  TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
  expect_desc(p, Want{2, {128, 64}, {256}, {32, 16}, 1024});
  EXPECT_TRUE(p.nested);
  EXPECT_EQ(p.leaves, 3);
  EXPECT_EQ(p.dim_of_leaf[0], 0);
  EXPECT_EQ(p.dim_of_leaf[1], 0);
  EXPECT_EQ(p.weight_of_leaf[1], 8);
  EXPECT_EQ(p.dim_of_leaf[2], 1);
  EXPECT_EQ(p.dim_of_mode[0], 0);  // one dimension after merging
  TmaPlan const flat = make_tma_desc(host_ptr<bf16>(), Layout<Shape<_128, _64>, Stride<_1, Int<128>>>{}, s);
  ASSERT_TRUE(flat.ok) << flat.error;
  EXPECT_TRUE(same_desc(p.desc, flat.desc));
  // Element ((3,5),7) is m = 3 + 8 * 5 = 43 of the merged dimension.
  TmaCoords const c = p.tma_coords(make_coord(make_coord(3, 5), 7));
  EXPECT_EQ(c[0], 43);
  EXPECT_EQ(c[1], 7);
  check_law(p, g, s);
  static_assert(detail::tma_leaf_plan<decltype(g), decltype(s)>().rank == 2);
}

TEST(TmaModes, RowMajorWithTwoSlabs) {
  // A row-major (M,K) bf16 tensor whose 128 rows are two slabs of 64 rows
  // (leading dimension 264) with 512 elements between the slabs: M is
  // (2,64):(G,264), G = 64 * 264 + 512. Run-time strides, so nothing
  // merges: TMA dimensions K, M's sub-mode 0, M's sub-mode 1.
  int const lda = 264, G = 64 * lda + 512, K = 256;
  auto g = make_layout(make_shape(make_shape(2, 64), K), make_stride(make_stride(G, lda), _1{}));
  // The whole M (both slabs) by 64 of K, packed k, then m0, then m1.
  auto s = Layout<Shape<Shape<_2, _64>, _64>, Stride<Stride<_64, Int<128>>, _1>>{};
  TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
  expect_desc(p, Want{3, {256, 2, 64}, {std::uint64_t(G) * 2, std::uint64_t(lda) * 2}, {64, 2, 64}, 16384});
  EXPECT_EQ(p.mode_of_dim[0], 1);
  EXPECT_EQ(p.mode_of_dim[1], 0);
  EXPECT_EQ(p.mode_of_dim[2], 0);
  EXPECT_EQ(p.dim_of_mode[0], -1);  // two dimensions
  EXPECT_EQ(p.dim_of_mode[1], 0);
  TmaCoords const c = p.tma_coords(make_coord(make_coord(1, 40), 192));
  EXPECT_EQ(c[0], 192);
  EXPECT_EQ(c[1], 1);
  EXPECT_EQ(c[2], 40);
  check_law(p, g, s);

  // Half of M per tile: the box covers sub-mode 0 whole and 32 of sub-mode 1.
  auto h = Layout<Shape<Shape<_2, _32>, _64>, Stride<Stride<_64, Int<128>>, _1>>{};
  TmaPlan const q = make_tma_desc(host_ptr<bf16>(), g, h);
  expect_desc(q, Want{3, {256, 2, 64}, {std::uint64_t(G) * 2, std::uint64_t(lda) * 2}, {64, 2, 32}, 8192});
  check_law(q, g, h);

  // One row per tile: 1 of sub-mode 0, sub-mode 1's box 1.
  auto r = Layout<Shape<_1, _64>, Stride<_64, _1>>{};
  TmaPlan const u = make_tma_desc(host_ptr<bf16>(), g, r);
  expect_desc(u, Want{3, {256, 2, 64}, {std::uint64_t(G) * 2, std::uint64_t(lda) * 2}, {64, 1, 1}, 128});
  check_law(u, g, r);
}

TEST(TmaModes, SizeOneSubModeIsDropped) {
  // ((_1,64),K): the static size-1 sub-mode has no dimension.
  auto g = make_layout(make_shape(make_shape(_1{}, 64), 100), make_stride(make_stride(_0{}, _1{}), 72));
  auto s = Layout<Shape<_16, _4>, Stride<_1, _16>>{};
  TmaPlan const p = make_tma_desc(host_ptr<float>(), g, s);
  expect_desc(p, Want{2, {64, 100}, {288}, {16, 4}, 256});
  EXPECT_EQ(p.dim_of_leaf[0], -1);
  EXPECT_EQ(p.dim_of_leaf[1], 0);
  check_law(p, g, s);
}

TEST(TmaModes, FiveDimensionsFromNestedModes) {
  // ((4,3),(2,40),5) bf16 with the 40 contiguous: five run-time leaves, five
  // dimensions (40, 4, 3, 2, 5).
  auto g = make_layout(make_shape(make_shape(4, 3), make_shape(2, 40), 5),
                       make_stride(make_stride(8, 64), make_stride(192, _1{}), 384));
  // (4,3) whole; 2 whole and 8 of the 40; 2 of the 5. Packed 8, 4, 3, 2, 2.
  auto s = Layout<Shape<Shape<_4, _3>, Shape<_2, _8>, _2>, Stride<Stride<_8, _32>, Stride<_96, _1>, Int<192>>>{};
  TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
  expect_desc(p, Want{5, {40, 4, 3, 2, 5}, {16, 128, 384, 768}, {8, 4, 3, 2, 2}, 768});
  int const want_mode[5] = {1, 0, 0, 1, 2};
  for (int d = 0; d < 5; ++d) EXPECT_EQ(p.mode_of_dim[d], want_mode[d]) << "dimension " << d;
  TmaCoords const c = p.tma_coords(make_coord(make_coord(3, 2), make_coord(1, 33), 4));
  int const want[5] = {33, 3, 2, 1, 4};
  for (int d = 0; d < 5; ++d) EXPECT_EQ(c[d], want[d]) << "dimension " << d;
}

// ---------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------

TEST(TmaModes, Refusals) {
  // Six run-time leaves: six dimensions.
  auto g6 = make_layout(make_shape(make_shape(2, 2, 2), make_shape(2, 2), 64),
                        make_stride(make_stride(64, 128, 256), make_stride(512, 1024), _1{}));
  auto s6 = Layout<Shape<_8, _4, _8>, Stride<_8, _64, _1>>{};
  expect_error(make_tma_desc(host_ptr<bf16>(), g6, s6), "flattens to 6 TMA dimensions");
  // A tile of 6 along (4,16): not whole sub-modes then a divisor.
  auto g = make_layout(make_shape(make_shape(4, 16), 64), make_stride(make_stride(64, 256), _1{}));
  expect_error(make_tma_desc(host_ptr<bf16>(), g, Layout<Shape<_6, _8>, Stride<_8, _1>>{}),
               "not a colexicographic prefix of its sub-modes (4, 16)");
  // 12 along (4,16,2): 4 whole, then 3, which does not divide 16 (along the
  // last sub-mode any extent would do: 12 along (4,16) is 4 x 3).
  auto g3 = make_layout(make_shape(make_shape(4, 16, 2), 64), make_stride(make_stride(64, 256, 4096), _1{}));
  expect_error(make_tma_desc(host_ptr<bf16>(), g3, Layout<Shape<_12, _8>, Stride<_8, _1>>{}),
               "nested gmem mode 0 is 12 elements");
  EXPECT_TRUE(make_tma_desc(host_ptr<bf16>(), g, Layout<Shape<_12, _8>, Stride<_8, _1>>{}).ok);
  // A sub-mode stride that is not whole 16-byte units names the sub-mode.
  auto gs = make_layout(make_shape(make_shape(4, 16), 64), make_stride(make_stride(64, 260), _1{}));
  expect_error(make_tma_desc(host_ptr<bf16>(), gs, Layout<Shape<_8, _8>, Stride<_8, _1>>{}),
               "gmem mode 0's sub-mode 1 has stride 260");
  // Two stride-1 dimensions.
  auto g2 = make_layout(make_shape(make_shape(4, 16), 64), make_stride(make_stride(_1{}, 64), _1{}));
  expect_error(make_tma_desc(host_ptr<bf16>(), g2, Layout<Shape<_8, _8>, Stride<_1, _8>>{}), "both have stride 1");
}

// ---------------------------------------------------------------------------
// Flat layouts: the descriptor their definition gives, unchanged by wrapping
// ---------------------------------------------------------------------------

TEST(TmaModes, FlatLayoutsKeepTheirDescriptor) {
  std::mt19937 rng(7);
  for (int it = 0; it < 200; ++it) {
    // (A, B, C): one of the three contiguous, the others padded, bf16.
    int const e[3] = {1 + int(rng() % 40), 1 + int(rng() % 40), 1 + int(rng() % 9)};
    int const unit = int(rng() % 3);
    std::int64_t st[3];
    std::int64_t span = 1;
    st[unit] = 1;
    span = e[unit] + 8 * int(rng() % 3);
    span = (span + 7) / 8 * 8;
    for (int m = 0; m < 3; ++m)
      if (m != unit) {
        st[m] = span;
        span *= e[m];
      }
    auto g = make_layout(make_shape(e[0], e[1], e[2]), make_stride(st[0], st[1], st[2]));
    auto gw = make_layout(make_shape(make_shape(e[0]), make_shape(e[1]), make_shape(e[2])),
                          make_stride(make_stride(st[0]), make_stride(st[1]), make_stride(st[2])));
    // A box of 8 along the contiguous mode (16 bytes), 4 and 2 along the
    // others, packed with the contiguous mode fastest.
    int box[3] = {4, 4, 4};
    box[unit] = 8;
    box[unit == 2 ? 1 : 2] = 2;
    std::int64_t sst[3];
    sst[unit] = 1;
    std::int64_t pitch = box[unit];
    for (int m = 0; m < 3; ++m)
      if (m != unit) {
        sst[m] = pitch;
        pitch *= box[m];
      }
    auto s = make_layout(make_shape(box[0], box[1], box[2]), make_stride(sst[0], sst[1], sst[2]));
    TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_FALSE(p.nested);
    // The definition: dimension 0 the contiguous mode, the others in mode order.
    tma::TiledDesc want = p.desc;
    int const order[3] = {unit, unit == 0 ? 1 : 0, unit == 2 ? 1 : 2};
    for (int d = 0; d < 3; ++d) {
      want.dims[d] = std::uint64_t(e[order[d]]);
      want.box[d] = std::uint32_t(box[order[d]]);
      if (d > 0) want.strides[d - 1] = std::uint64_t(st[order[d]] * 2);
      EXPECT_EQ(p.mode_of_dim[d], order[d]);
      EXPECT_EQ(p.dim_of_leaf[order[d]], d);
    }
    want.rank = 3;
    want.base = host_ptr<bf16>();
    EXPECT_TRUE(same_desc(p.desc, want)) << "case " << it;
    // Each mode wrapped as a one-leaf nested mode: the same map.
    TmaPlan const q = make_tma_desc(host_ptr<bf16>(), gw, s);
    ASSERT_TRUE(q.ok) << q.error;
    EXPECT_TRUE(same_desc(p.desc, q.desc)) << "case " << it;
    // The leaf map of a flat plan is its coordinate map.
    auto const x = make_coord(int(rng() % e[0]), int(rng() % e[1]), int(rng() % e[2]));
    TmaCoords const a = p.coord_map()(x), b = p.leaf_coord_map()(x), c = q.tma_coords(make_coord(
                                                                          make_coord(get<0>(x)), make_coord(get<1>(x)), make_coord(get<2>(x))));
    for (int d = 0; d < 5; ++d) {
      EXPECT_EQ(a[d], b[d]);
      EXPECT_EQ(a[d], c[d]);
    }
  }
}

// ---------------------------------------------------------------------------
// The law over a generated corpus of nested layouts
// ---------------------------------------------------------------------------

// ((a,b),(c,n)) with n contiguous and the other sub-modes in a random order
// of strides, with random padding; tiles of (a*b' , c'*8)-style prefixes.
TEST(TmaModes, LawOverNestedCorpus) {
  std::mt19937 rng(11);
  int checked = 0;
  for (int it = 0; it < 60; ++it) {
    int const a = 1 + int(rng() % 4), b = 2 * (1 + int(rng() % 4)), c = 1 + int(rng() % 3), n = 16 * (1 + int(rng() % 3));
    // Strides for a, b, c (in elements, multiples of 8 for 16-byte bf16
    // rows): a random order, each past the span of the ones before.
    int order[3] = {0, 1, 2};
    std::shuffle(order, order + 3, rng);
    int const ext[3] = {a, b, c};
    std::int64_t st[3];
    std::int64_t span = n + 8 * int(rng() % 2);
    for (int k = 0; k < 3; ++k) {
      st[order[k]] = span;
      span = span * ext[order[k]] + 8 * int(rng() % 2);
    }
    auto g = make_layout(make_shape(make_shape(a, b), make_shape(c, n)),
                         make_stride(make_stride(st[0], st[1]), make_stride(st[2], _1{})));
    // Box along mode 0: all of a and b/2 of b; along mode 1: 1 of c? No:
    // mode 1's leaves are (c, n), so its box is whole c times part of n...
    // except that n is the contiguous leaf; boxes cover whole c only when
    // 16 * c fits: use 16 of n when c is cut (then c's box is 1).
    // Mode 0 box extent a * (b/2), mode 1: 16 (1 of... n is leaf 1, c leaf 0:
    // colexicographic, so c is the inner leaf: a box of 16 along mode 1 is
    // not a prefix unless c divides 16 -- take the whole c and 16 of n.
    int const box0b = b / 2;
    // smem: TMA dimension 0 is n's leaf (box 16), then a, b', c in leaf order
    // (leaf order: a, b, c, n; dimension order: n, a, b, c).
    // mode 0 coordinate i = ia + a * ib, mode 1 coordinate j = jc + c * jn.
    auto s = make_layout(make_shape(make_shape(a, box0b), make_shape(c, 16)),
                         make_stride(make_stride(16, 16 * a), make_stride(16 * a * box0b, _1{})));
    TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
    ASSERT_TRUE(p.ok) << p.error << " case " << it;
    EXPECT_EQ(p.rank, 4);
    SCOPED_TRACE("case " + std::to_string(it));
    check_law(p, g, s);
    ++checked;
  }
  EXPECT_EQ(checked, 60);
}

}  // namespace
