// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The TiledCopy builders beyond make_tiled_copy / make_tiled_copy_A/B/C, and
// the TiledMMA partition shapes asked without a tensor:
//   - make_tiled_copy_S/D keep the other copy's (thr,val) -> (m,n) side;
//   - make_tiled_copy_C_atom hands thread t, value v < NumValSrc, exactly the
//     C element the TiledMMA gives it, and its partition of an (M,N) tensor
//     covers the tensor once;
//   - make_cotiled_copy hands thread t, value v, exactly the offset
//     atom_tv_layout names, over a row-major, a column-major and a blocked
//     data layout;
//   - partition_shape_A/B/C and the free partition_fragment_A/B/C agree with
//     every thread's partition of a tensor of that shape.

#include <cstdint>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

#include "host_test.hpp"

namespace {

using namespace tessera;
using tessera::test::str;

TEST(TiledCopyBuilders, SourceAndDestinationSidesCarryOver) {
  // register -> smem as 32-bit stores; its smem side re-issued as 128-bit reads
  auto r2s = make_tiled_copy(Copy_Atom<UniversalCopy<std::uint32_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                             Layout<Shape<_1, _8>>{});
  auto s = make_tiled_copy_S(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, r2s);
  auto d = make_tiled_copy_D(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, r2s);
  // the same functions (the value modes regroup into the new atom's vectors)
  auto s_tv = s.get_layoutS_TV(), d_tv = d.get_layoutD_TV();
  auto rs_tv = r2s.get_layoutS_TV(), rd_tv = r2s.get_layoutD_TV();
  for (int thr = 0; thr < 128; ++thr)
    for (int v = 0; v < 8; ++v) {
      ASSERT_EQ(int(s_tv(thr, v)), int(rs_tv(thr, v))) << thr << "," << v;
      ASSERT_EQ(int(d_tv(thr, v)), int(rd_tv(thr, v))) << thr << "," << v;
    }
  static_assert(std::is_same_v<decltype(s)::Tiler_MN, decltype(r2s)::Tiler_MN>);
  // the new atom moves 8 halves at once: one atom per thread's block
  std::vector<half_t> buf(16 * 64);
  auto t = make_tensor(buf.data(), make_shape(_16{}, _64{}), make_stride(_64{}, _1{}));
  for (int thr = 0; thr < 128; ++thr) {
    auto a = r2s.get_slice(thr).partition_S(t);
    auto b = s.get_slice(thr).partition_S(t);
    EXPECT_EQ(int(size<0>(b)), 8);
    ASSERT_EQ(int(size(a)), int(size(b)));
    for (int i = 0; i < int(size(a)); ++i) ASSERT_EQ(&a(i), &b(i)) << thr << "," << i;
  }
}

template <class Op, class CopyOp, class T>
void check_c_atom(int expected_vals) {
  auto mma = make_tiled_mma(Op{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  auto cp = make_tiled_copy_C_atom(Copy_Atom<CopyOp, T>{}, mma);
  int const M = int(tile_size<0>(mma)), N = int(tile_size<1>(mma));
  auto c_tv = mma.get_layoutC_TV();  // (t,v) -> m + M n
  auto s_tv = cp.get_layoutS_TV();   // (t,v) -> index into the copy's tile
  auto tiler = typename decltype(cp)::Tiler_MN{};
  auto tile = make_layout(typename decltype(cp)::TileShape_MN{});
  ASSERT_EQ(int(size<1>(s_tv)), expected_vals);
  ASSERT_EQ(int(size<0>(s_tv)), int(size(mma)));
  std::set<int> tile_hits;
  for (int t = 0; t < int(size(mma)); ++t)
    for (int v = 0; v < expected_vals; ++v) {
      auto const tc = tile.get_hier_coord(int(s_tv(t, v)));  // coordinate in the copy's tile
      int const m = int(get<0>(tiler)(get<0>(tc))), n = int(get<1>(tiler)(get<1>(tc)));
      EXPECT_EQ(m + M * n, int(c_tv(t, v))) << "thread " << t << " value " << v;
      EXPECT_TRUE(tile_hits.insert(int(s_tv(t, v))).second) << "tile element reached twice";
    }
  EXPECT_EQ(int(tile_hits.size()), int(size(tile)));  // the tile is exactly what the values touch
  // Partitioning an (M,N)-tiled tensor covers it once, and value v of the
  // first copy tile is the MMA's (t, v) element.
  std::vector<float> buf(2 * M * 3 * N);
  auto g = make_tensor(buf.data(), make_shape(2 * M, 3 * N));  // column-major
  std::vector<int> hits(buf.size(), 0);
  for (int t = 0; t < int(size(mma)); ++t) {
    auto part = cp.get_slice(t).partition_S(g);
    for (int i = 0; i < int(size(part)); ++i) ++hits[&part(i) - buf.data()];
    for (int v = 0; v < expected_vals; ++v) {
      int const idx = int(c_tv(t, v));
      EXPECT_EQ(&part(v, 0, 0) - buf.data(), idx % M + 2 * M * (idx / M)) << t << "," << v;
    }
  }
  for (std::size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i], 1) << i;
}

TEST(TiledCopyBuilders, CAtomPicksTheMmaValues) {
  // fixed answer: 2x2 warps of 16x8x16, first two accumulators per thread
  // (rows group + 16 warp_m, columns 2 tig + e + 8 warp_n): a 16x16 tile
  // of layouts, column pairs walked tig first, in the MMA's value order
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  auto cp = make_tiled_copy_C_atom(Copy_Atom<UniversalCopy<std::uint32_t>, half_t>{}, mma);
  EXPECT_EQ(str(typename decltype(cp)::Tiler_MN{}), "((_8,_2):(_1,_16),(_8,_2):(_2,_1))");
  EXPECT_EQ(str(typename decltype(cp)::TileShape_MN{}), "((_8,_2),(_8,_2))");
  EXPECT_EQ(str(typename decltype(cp)::TiledLayout_TV{}), "((_4,_8,_2,_2),_2):((_16,_1,_8,_64),_128)");

  // two halves per 32-bit store: the C fragment's (row, 2 tig + {0,1}) pairs
  check_c_atom<SM80_16x8x16_F32F16F16F32_TN, UniversalCopy<std::uint32_t>, half_t>(2);
  // one float at a time
  check_c_atom<SM80_16x8x16_F32F16F16F32_TN, UniversalCopy<float>, float>(1);
  // four halves: both row halves of an atom
  check_c_atom<SM80_16x8x8_F16F16F16F16_TN, UniversalCopy<std::uint64_t>, half_t>(4);
}

template <class AtomTV, class Data>
void check_cotiled(AtomTV atom_tv, Data data) {
  auto cp = make_cotiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, atom_tv, data);
  std::vector<float> buf(size_t(cosize(data)));
  auto t = make_tensor(buf.data(), data);
  for (int thr = 0; thr < int(size<0>(atom_tv)); ++thr) {
    auto part = cp.get_slice(thr).partition_D(t);  // (CPY, CPY_M, CPY_N): the tile may repeat
    ASSERT_EQ(int(size(part)) * int(size<0>(atom_tv)), int(size(data))) << str(data);
    for (int v = 0; v < int(size<1>(atom_tv)); ++v)  // the first tile's values
      ASSERT_EQ(&part(v) - buf.data(), int(atom_tv(thr, v))) << str(data) << " thread " << thr << " value " << v;
  }
}

TEST(TiledCopyBuilders, CotiledCopyHandsOutTheAtomsOffsets) {
  // thread t holds offsets 4t .. 4t+3 (one 128-bit vector each)
  auto atom_tv = Layout<Shape<_32, _4>, Stride<_4, _1>>{};
  check_cotiled(atom_tv, Layout<Shape<_8, _16>, Stride<_16, _1>>{});  // row-major 8x16
  check_cotiled(atom_tv, Layout<Shape<_16, _8>>{});                    // column-major 16x8
  check_cotiled(atom_tv, Layout<Shape<Shape<_4, _2>, _16>, Stride<Stride<_1, _64>, _4>>{});  // blocked
  // only half the data: the tile is what the atom reaches
  check_cotiled(Layout<Shape<_16, _4>, Stride<_4, _1>>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{});
}

template <class Mma>
void check_partition_shapes(Mma const& mma) {
  auto sC = make_shape(Int<2 * decltype(tile_size<0>(mma))::value>{}, Int<3 * decltype(tile_size<1>(mma))::value>{});
  auto sA = make_shape(get<0>(sC), Int<2 * decltype(tile_size<2>(mma))::value>{});
  auto sB = make_shape(get<1>(sC), get<1>(sA));
  for (int t = 0; t < int(size(mma)); ++t) {
    auto thr = mma.get_slice(t);
    EXPECT_EQ(str(partition_shape_C(mma, sC)), str(shape(thr.partition_C(make_identity_tensor(sC)))));
    EXPECT_EQ(str(partition_shape_A(mma, sA)), str(shape(thr.partition_A(make_identity_tensor(sA)))));
    EXPECT_EQ(str(partition_shape_B(mma, sB)), str(shape(thr.partition_B(make_identity_tensor(sB)))));
  }
  auto fC = partition_fragment_C(mma, sC);
  auto fA = partition_fragment_A(mma, sA);
  EXPECT_EQ(str(shape(fC)), str(partition_shape_C(mma, sC)));
  EXPECT_EQ(str(shape(fA)), str(partition_shape_A(mma, sA)));
  EXPECT_EQ(str(shape(partition_fragment_B(mma, sB))), str(partition_shape_B(mma, sB)));
  // the same fragment ThrMMA makes from a shape
  EXPECT_EQ(str(fC.layout()), str(mma.get_slice(0).partition_fragment_C(sC).layout()));
}

TEST(TiledMmaPartitionShapes, AgreeWithEveryThreadsPartition) {
  check_partition_shapes(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{}));
  check_partition_shapes(make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2, _1>>{}));
  check_partition_shapes(make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _8, _1>>{}));
  // fixed answer: seed 000's TiledMMA, C (128,128) -> 4 values x 4 x 8 atoms per thread
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
  EXPECT_EQ(str(partition_shape_C(mma, make_shape(_128{}, _128{}))), "((_2,_2),_4,_8)");
  EXPECT_EQ(str(partition_shape_A(mma, make_shape(_128{}, _32{}))), "((_2,_2,_2),_4,_2)");
  static_assert(std::is_same_v<typename decltype(partition_fragment_C(mma, make_shape(_128{}, _128{})))::value_type,
                               float>);
}

}  // namespace
