// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// make_tma_desc at the ranks beyond 2 and 3 (tessera/tma/make_tma_desc.hpp):
// TMA maps of rank 1 to 5, as cuTensorMapEncodeTiled takes them. Fixed
// answers at ranks 1, 4 and 5 (dimensions, byte strides, box, element
// strides, the mode <-> dimension permutation, box bytes, alignment), the
// laws of the plan over every position of the stride-1 mode at ranks 1 to 5
// with random extents, and the refusals (rank 0 and 6, a stride that is not
// whole 16-byte units, boxes the hardware cannot take). No GPU and no driver:
// plans only (tma::encode is not called). Built only with CUDA, for the
// toolkit's <cuda.h> (tests/CMakeLists.txt: host/test_*_cudah.cpp).
#include <cuda.h>
#include <cuda_bf16.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>

#include <tessera/tensor.hpp>
#include <tessera/tma/make_tma_desc.hpp>
#include <tessera/tma/tma_coord.hpp>

namespace {

using namespace tessera;
using bf16 = __nv_bfloat16;

// 1024-byte aligned backing store: plans only check the address.
alignas(1024) unsigned char g_host_buf[1 << 12];
template <class T>
T const* host_ptr(std::size_t byte_offset = 0) {
  return reinterpret_cast<T const*>(g_host_buf + byte_offset);
}

void expect_error(TmaPlan const& p, std::string const& needle) {
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.error.rfind("make_tma_desc: ", 0), 0u) << p.error;
  EXPECT_NE(p.error.find(needle), std::string::npos) << "message: " << p.error << "\nwanted: " << needle;
}

// The parts of a plan a fixed answer states.
struct Want {
  int rank;
  int mode_of_dim[5];
  std::uint64_t dims[5];
  std::uint64_t strides[4];  // bytes, rank - 1 of them
  std::uint32_t box[5];
  std::uint32_t box_bytes;
  std::uint32_t smem_align;
  tma::Swizzle swizzle;
};

void expect_plan(TmaPlan const& p, Want const& w) {
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_TRUE(p.error.empty());
  EXPECT_EQ(p.rank, w.rank);
  EXPECT_EQ(p.desc.rank, w.rank);
  for (int d = 0; d < w.rank; ++d) {
    SCOPED_TRACE("TMA dimension " + std::to_string(d));
    EXPECT_EQ(p.mode_of_dim[d], w.mode_of_dim[d]);
    EXPECT_EQ(p.dim_of_mode[w.mode_of_dim[d]], d);
    EXPECT_EQ(p.desc.dims[d], w.dims[d]);
    EXPECT_EQ(p.desc.box[d], w.box[d]);
    EXPECT_EQ(p.desc.elem_strides[d], 1u);  // dense boxes only
    if (d > 0) EXPECT_EQ(p.desc.strides[d - 1], w.strides[d - 1]);
  }
  for (int d = w.rank; d < 5; ++d) {
    EXPECT_EQ(p.mode_of_dim[d], -1) << "dimension " << d << " is past the rank";
    EXPECT_EQ(p.desc.box[d], 1u) << "dimension " << d << " is past the rank";
  }
  for (int d = w.rank - 1; d < 4; ++d) EXPECT_EQ(p.desc.strides[d], 0u) << "stride " << d << " is past the rank";
  EXPECT_EQ(p.box_bytes, w.box_bytes);
  EXPECT_EQ(p.smem_align, w.smem_align);
  EXPECT_EQ(p.desc.swizzle, w.swizzle);
}

// ---------------------------------------------------------------------------
// Fixed answers
// ---------------------------------------------------------------------------

TEST(TmaDescRank, Rank1) {
  // 1000 bf16 in a row, boxes of 128: one dimension, no stride.
  auto g = make_layout(make_shape(1000), make_stride(_1{}));
  auto s = make_layout(make_shape(_128{}), make_stride(_1{}));
  TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
  expect_plan(p, Want{1, {0}, {1000}, {}, {128}, 256, 128, tma::Swizzle::none});
  EXPECT_EQ(p.desc.type, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(p.desc.elem_bytes, 2);
  // A mode coordinate, as a tuple or as the integer a rank-1 tensor takes.
  EXPECT_EQ(p.tma_coords(make_coord(640))[0], 640);
  EXPECT_EQ(p.tma_coords(640)[0], 640);
  EXPECT_EQ(p.tma_coords(make_tma_coord_tensor(make_shape(1000))(384))[0], 384);
  EXPECT_EQ(p.tma_coords(640)[1], 0);
  // An integer shape is rank 1 too, the default stride 1.
  TmaPlan const q = make_tma_desc(host_ptr<bf16>(), make_layout(1000), s);
  expect_plan(q, Want{1, {0}, {1000}, {}, {128}, 256, 128, tma::Swizzle::none});
  // One 128-byte swizzle row (64 bf16) is a rank-1 box as well: its row 0 is
  // not permuted, and the map still says 128B.
  TmaPlan const r = make_tma_desc(host_ptr<float>(), make_layout(make_shape(4096), make_stride(_1{})),
                                  make_composed_layout(Swizzle<3, 2, 3>{}, _0{}, make_layout(make_shape(_32{}))));
  expect_plan(r, Want{1, {0}, {4096}, {}, {32}, 128, 1024, tma::Swizzle::b128});
  EXPECT_EQ(r.desc.type, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
}

TEST(TmaDescRank, Rank4ContiguousModeInside) {
  // (A, B, C, D) = (6, 40, 5, 3) bf16 with B contiguous: rows of 40 padded
  // to 48, then A, C, D. TMA dimensions (B, A, C, D).
  auto g = make_layout(make_shape(6, 40, 5, 3), make_stride(48, _1{}, 288, 1600));
  // Box (2, 16, 5, 2), packed B fastest, then A, C, D.
  auto s = make_layout(make_shape(_2{}, _16{}, _5{}, _2{}), make_stride(_16{}, _1{}, _32{}, Int<160>{}));
  TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
  expect_plan(p, Want{4, {1, 0, 2, 3}, {40, 6, 5, 3}, {96, 576, 3200}, {16, 2, 5, 2}, 640, 128, tma::Swizzle::none});
  TmaCoords const c = p.tma_coords(make_coord(2, 16, 0, 1));
  EXPECT_EQ(c[0], 16);
  EXPECT_EQ(c[1], 2);
  EXPECT_EQ(c[2], 0);
  EXPECT_EQ(c[3], 1);
  EXPECT_EQ(c[4], 0);
  // The same box with the 32B swizzle: rows of 16 bf16 are 32 bytes.
  auto sw = make_composed_layout(Swizzle<1, 3, 3>{}, _0{}, s);
  TmaPlan const q = make_tma_desc(host_ptr<bf16>(), g, sw);
  expect_plan(q, Want{4, {1, 0, 2, 3}, {40, 6, 5, 3}, {96, 576, 3200}, {16, 2, 5, 2}, 640, 256, tma::Swizzle::b32});
}

TEST(TmaDescRank, Rank5) {
  // (3, 4, 5, 6, 37) f32, mode 4 contiguous; byte strides 160, 480, 1920,
  // 9600 for modes 0-3. TMA dimensions (4, 0, 1, 2, 3).
  auto g = make_layout(make_shape(3, 4, 5, 6, 37), make_stride(40, 120, 480, 2400, _1{}));
  // Box (1, 2, 3, 2, 8): 8 f32 = 32 bytes along mode 4, packed as TMA writes it.
  auto s = make_layout(make_shape(_1{}, _2{}, _3{}, _2{}, _8{}), make_stride(_8{}, _8{}, _16{}, _48{}, _1{}));
  TmaPlan const p = make_tma_desc(host_ptr<float>(), g, s);
  expect_plan(p, Want{5, {4, 0, 1, 2, 3}, {37, 3, 4, 5, 6}, {160, 480, 1920, 9600}, {8, 1, 2, 3, 2}, 384, 128,
                      tma::Swizzle::none});
  TmaCoords const c = p.tma_coords(make_coord(1, 2, 3, 4, 24));
  int const want[5] = {24, 1, 2, 3, 4};
  for (int d = 0; d < 5; ++d) EXPECT_EQ(c[d], want[d]) << "dimension " << d;
  // 32B swizzle on 32-byte rows (Swizzle<1,2,3> in f32 elements).
  TmaPlan const q = make_tma_desc(host_ptr<float>(), g, make_composed_layout(Swizzle<1, 2, 3>{}, _0{}, s));
  expect_plan(q, Want{5, {4, 0, 1, 2, 3}, {37, 3, 4, 5, 6}, {160, 480, 1920, 9600}, {8, 1, 2, 3, 2}, 384, 256,
                      tma::Swizzle::b32});
  // The coordinate map at rank 5 carries the same permutation.
  TmaCoordMap const m = p.coord_map();
  EXPECT_EQ(m.rank, 5);
  for (int d = 0; d < 5; ++d) EXPECT_EQ(m.mode_of_dim[d], p.mode_of_dim[d]) << "dimension " << d;
}

// ---------------------------------------------------------------------------
// Laws over generated tensors
// ---------------------------------------------------------------------------

// A rank-R tensor with mode `unit` contiguous (extent e[unit]) and the other
// modes laid out after it in mode order, each stride a multiple of 16 bytes
// with some padding; its box takes b[m] along mode m, packed as TMA writes it.
// Checks make_tma_desc's @posts:
//   desc.dims[d] == size of mode mode_of_dim[d], desc.box[d] == box along it,
//   desc.strides[d-1] == stride of mode mode_of_dim[d] * sizeof(T),
//   dim_of_mode[mode_of_dim[d]] == d, mode_of_dim[0] == unit and the others
//   in mode order, box_bytes the product of the box; and ok, which
//   make_tma_desc gives only when smem_layout(c) * sizeof(T) is TMA's packed
//   byte offset at every box coordinate c.
template <int R>
int check_rank_laws(std::mt19937& rng) {
  using T = float;
  int checked = 0;
  for (int unit = 0; unit < R; ++unit) {
    for (int trial = 0; trial < 8; ++trial) {
      std::int64_t e[R], st[R], b[R];
      std::int64_t next = 0;  // the next free element for a mode's stride
      for (int m = 0; m < R; ++m) {
        e[m] = 1 + std::int64_t(rng() % 6);  // boxes stay within a CTA's shared memory
        b[m] = 1 + std::int64_t(rng() % std::uint32_t(e[m]));
      }
      b[unit] = 4 * (1 + std::int64_t(rng() % 4));  // 16-byte multiples of f32
      e[unit] = b[unit] + std::int64_t(rng() % 13);
      st[unit] = 1;
      next = (e[unit] + 3) / 4 * 4 + 4 * std::int64_t(rng() % 3);  // padded to 16 bytes
      for (int m = 0; m < R; ++m) {
        if (m == unit) continue;
        st[m] = next;
        next = st[m] * e[m] + 4 * std::int64_t(rng() % 2);
      }
      // The box, packed: the unit mode fastest, then the others in mode order.
      std::int64_t sb[R];
      std::int64_t pitch = b[unit];
      sb[unit] = 1;
      for (int m = 0; m < R; ++m)
        if (m != unit) {
          sb[m] = pitch;
          pitch *= b[m];
        }
      auto const [g, s] = [&]<int... I>(std::integer_sequence<int, I...>) {
        return std::make_pair(make_layout(make_shape(e[I]...), make_stride(st[I]...)),
                              make_layout(make_shape(b[I]...), make_stride(sb[I]...)));
      }(std::make_integer_sequence<int, R>{});
      TmaPlan const p = make_tma_desc(host_ptr<T>(), g, s);
      std::string const what = "rank " + std::to_string(R) + ", contiguous mode " + std::to_string(unit);
      EXPECT_TRUE(p.ok) << what << ": " << p.error;
      if (!p.ok) return checked;
      EXPECT_EQ(p.rank, R) << what;
      EXPECT_EQ(p.mode_of_dim[0], unit) << what;
      int prev = -1;
      for (int d = 0; d < R; ++d) {
        int const m = p.mode_of_dim[d];
        EXPECT_EQ(p.dim_of_mode[m], d) << what;
        EXPECT_EQ(p.desc.dims[d], std::uint64_t(e[m])) << what << ", dimension " << d;
        EXPECT_EQ(p.desc.box[d], std::uint32_t(b[m])) << what << ", dimension " << d;
        EXPECT_EQ(p.desc.elem_strides[d], 1u) << what;
        if (d > 0) {
          EXPECT_GT(m, prev) << what << ": the other modes follow in mode order";
          prev = m;
          EXPECT_EQ(p.desc.strides[d - 1], std::uint64_t(st[m] * std::int64_t(sizeof(T)))) << what << ", dimension " << d;
        }
      }
      std::int64_t bytes = sizeof(T);
      for (int m = 0; m < R; ++m) bytes *= b[m];
      EXPECT_EQ(std::int64_t(p.box_bytes), bytes) << what;
      ++checked;
    }
  }
  return checked;
}

TEST(TmaDescRank, LawsAtEveryRankAndContiguousMode) {
  std::mt19937 rng(std::random_device{}());
  int const n = check_rank_laws<1>(rng) + check_rank_laws<2>(rng) + check_rank_laws<3>(rng) +
                check_rank_laws<4>(rng) + check_rank_laws<5>(rng);
  EXPECT_EQ(n, 8 * (1 + 2 + 3 + 4 + 5));
}

// @law TmaCoordMap::apply(m)[d] == m[mode_of_dim[d]] for every permutation
// of ranks 1 to 5, 0 past the rank.
TEST(TmaDescRank, CoordinateMapPermutesEveryRank) {
  std::int64_t const m[5] = {11, -3, 70000, 5, 123456};
  int checked = 0;
  for (int r = 1; r <= 5; ++r) {
    int perm[5] = {0, 1, 2, 3, 4};
    do {
      TmaCoordMap map;
      map.rank = r;
      for (int d = 0; d < 5; ++d) map.mode_of_dim[d] = perm[d];
      TmaCoords const a = map.apply(m[0], m[1], m[2], m[3], m[4]);
      for (int d = 0; d < 5; ++d) {
        EXPECT_EQ(a[d], d < r ? m[perm[d]] : 0) << "rank " << r << ", dimension " << d;
        ++checked;
      }
    } while (std::next_permutation(perm, perm + r));
  }
  EXPECT_EQ(checked, 5 * (1 + 2 + 6 + 24 + 120));
  // Tuples of every length convert like apply.
  TmaCoordMap const five{5, {4, 0, 1, 2, 3}};
  TmaCoords const t = five(make_coord(1, 2, _3{}, 4, 5));
  EXPECT_EQ(t[0], 5);
  EXPECT_EQ(t[1], 1);
  EXPECT_EQ(t[4], 4);
  TmaCoords const four = TmaCoordMap{4, {1, 0, 2, 3}}(make_coord(7, 8, 9, 10));
  EXPECT_EQ(four[0], 8);
  EXPECT_EQ(four[1], 7);
  EXPECT_EQ(four[3], 10);
  EXPECT_EQ(four[4], 0);
}

// ---------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------

TEST(TmaDescRank, RankRules) {
  // Rank 0: no mode at all.
  auto l0 = make_layout(make_shape(), make_stride());
  expect_error(make_tma_desc(host_ptr<bf16>(), l0, l0), "gmem layout has rank 0; TMA tiles have rank 1 to 5");
  // Rank 6: one more than cuTensorMapEncodeTiled takes.
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(2, 2, 2, 2, 2, 64)),
                             make_layout(make_shape(_2{}, _2{}, _2{}, _2{}, _2{}, _64{}))),
               "gmem layout has rank 6; TMA tiles have rank 1 to 5");
  // A box of another rank than the tensor.
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(8, 8, 8, 64)),
                             make_layout(make_shape(_8{}, _8{}, _8{}, _8{}, _8{}))),
               "smem layout has rank 5, the gmem layout 4");
}

TEST(TmaDescRank, StrideRulesAtHigherRanks) {
  // Rank 4, mode 2's stride 100 bf16 = 200 bytes.
  auto s4 = make_layout(make_shape(_8{}, _2{}, _2{}, _2{}));
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(16, 4, 4, 4), make_stride(_1{}, 16, 100, 1600)), s4),
               "gmem mode 2 has stride 100 elements = 200 bytes, not a multiple of 16");
  // Rank 5, the last mode's stride 2^40 bytes.
  auto s5 = make_layout(make_shape(_8{}, _2{}, _2{}, _2{}, _2{}));
  expect_error(make_tma_desc(host_ptr<bf16>(),
                             make_layout(make_shape(std::int64_t(16), std::int64_t(4), std::int64_t(4), std::int64_t(4),
                                                    std::int64_t(4)),
                                         make_stride(_1{}, std::int64_t(16), std::int64_t(64), std::int64_t(256),
                                                     std::int64_t(1) << 39)),
                             s5),
               "gmem mode 4 has a stride of 1099511627776 bytes, not below 2^40");
  // Rank 5, a negative stride.
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(16, 4, 4, 4, 4), make_stride(_1{}, 16, -64, 256, 1024)),
                             s5),
               "gmem mode 2 has stride -64; TMA strides are positive");
  // Rank 1 with a stride other than 1: no contiguous mode.
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(64), make_stride(8)),
                             make_layout(make_shape(_8{}))),
               "no gmem mode has stride 1");
  // Rank 4, two contiguous modes.
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(16, 4, 4, 4), make_stride(_1{}, 16, _1{}, 1024)), s4),
               "gmem modes 0 and 2 both have stride 1");
}

TEST(TmaDescRank, BoxRulesAtHigherRanks) {
  auto g4 = make_layout(make_shape(256, 256, 16, 16));  // column-major, bf16
  // Rank 1: 4 bf16 = 8 bytes is not whole 16-byte units.
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(64), make_stride(_1{})), make_layout(make_shape(_4{}))),
               "the box along the contiguous gmem mode 0 is 4 elements = 8 bytes, not a multiple of 16");
  // Rank 4: an extent of 512.
  expect_error(make_tma_desc(host_ptr<bf16>(), g4, make_layout(make_shape(_8{}, _2{}, Int<512>{}, _2{}))),
               "smem mode 2 (the box along gmem mode 2) has size 512, outside [1, 256]");
  // Rank 4: every extent legal, but 64 x 256 x 8 x 2 bf16 = 512 KiB is more
  // than a CTA's shared memory (and, at rank 5, than box_bytes could hold).
  expect_error(make_tma_desc(host_ptr<bf16>(), g4, make_layout(make_shape(_64{}, _256{}, _8{}, _2{}))),
               "the box is 524288 bytes, more than the 232448 bytes (227 KiB) of shared memory a CTA can have");
  // Rank 5: the box packed with the wrong mode fastest.
  auto g5 = make_layout(make_shape(16, 4, 4, 4, 4));
  auto s5 = make_layout(make_shape(_8{}, _2{}, _2{}, _2{}, _2{}), make_stride(_16{}, _1{}, _2{}, _4{}, _8{}));
  expect_error(make_tma_desc(host_ptr<bf16>(), g5, s5),
               "smem layout is not the box TMA writes: element (1, 0, 0, 0, 0) at offset 16, TMA writes it at 1");
  // Rank 5: a misaligned base is refused as at rank 2.
  expect_error(make_tma_desc(host_ptr<bf16>(8), g5, make_layout(make_shape(_8{}, _2{}, _2{}, _2{}, _2{}))),
               "not 16-byte aligned");
}

}  // namespace
