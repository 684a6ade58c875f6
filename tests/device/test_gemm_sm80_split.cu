// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The tail split of the Ampere kernels, host side (no GPU needed, so it also
// runs in CI): the laws of the CTA -> (tile, K-slice) map (sm80_unit,
// sm80_split.hpp) and of the rule that picks the split count
// (choose_tail_splits, src/gemm/split_k.hpp), over generated corpora, plus
// the seed problem's fixed answer; the laws of wave_launch_cost, the same
// file's wave-fill price. The kernels' results with a split tail
// are checked against an fp64 reference in test_gemm_sm80 (split_* cases).
// No kernels here: the device passes (sm_80, sm_90a) compile nothing but
// this guard, and the host pass does all the work (tests/CMakeLists.txt,
// "host-only .cu tests").
#if !defined(__CUDA_ARCH__)

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <tessera/gemm/sm80_split.hpp>

#include "gemm/split_k.hpp"

namespace {

using tessera::kernels::sm80::Params;
using tessera::kernels::sm80::Sm80Unit;
using tessera::kernels::sm80::sm80_unit;

// The launcher's plan for `tiles` tiles, `k_tiles` k-tiles each, split from
// `split_from` on into `s` slices (sm80_tensorop.cu: equal slices, the last
// shorter, none empty). Returns the CTA count.
int plan(Params& p, int tiles, int k_tiles, int split_from, int s) {
  int const per = (k_tiles + s - 1) / s;
  p.splits = (k_tiles + per - 1) / per;
  p.split_from = split_from;
  p.split_k_tiles = per;
  return p.splits > 1 ? split_from + (tiles - split_from) * p.splits : tiles;
}

// Every (tile, k-tile) pair is computed by exactly one CTA; a split tile's
// slices are non-empty, contiguous and ascending in CTA order; split_slot
// is tile - split_from for split tiles and -1 for whole ones.
TEST(Sm80TailSplit, UnitsCoverEveryTileAndKTileOnce) {
  int checked = 0;
  for (int tiles : {1, 2, 7, 16, 100, 289, 1600})
    for (int k_tiles : {1, 2, 3, 4, 5, 16, 63, 64})
      for (int s : {2, 3, 4, 5, 16})
        for (int split_from : {0, tiles / 2, tiles - 1}) {
          if (split_from < 0) continue;
          Params p{};
          int const ctas = plan(p, tiles, k_tiles, split_from, s);
          std::vector<int> seen(std::size_t(tiles) * k_tiles, 0);
          std::vector<int> next_kt(std::size_t(tiles), 0);  // the k-tile the tile's next slice must start at
          for (int u = 0; u < ctas; ++u) {
            Sm80Unit const w = sm80_unit(u, p, k_tiles);
            ASSERT_GE(w.tile, 0);
            ASSERT_LT(w.tile, tiles);
            ASSERT_GT(w.k_tiles, 0) << "empty slice: tiles " << tiles << " k_tiles " << k_tiles << " s " << s;
            ASSERT_EQ(w.kt0, next_kt[std::size_t(w.tile)]) << "slices out of order or with a gap";
            next_kt[std::size_t(w.tile)] = w.kt0 + w.k_tiles;
            bool const split = p.splits > 1 && w.tile >= split_from;
            EXPECT_EQ(w.split_slot, split ? w.tile - split_from : -1);
            for (int kt = w.kt0; kt < w.kt0 + w.k_tiles; ++kt) ++seen[std::size_t(w.tile) * k_tiles + std::size_t(kt)];
          }
          for (int x : seen) ASSERT_EQ(x, 1) << "tiles " << tiles << " k_tiles " << k_tiles << " s " << s;
          ++checked;
        }
  EXPECT_GT(checked, 500);
}

// Unsplit launches (splits == 1) are the identity: CTA u computes tile u,
// all of K.
TEST(Sm80TailSplit, UnsplitUnitIsTheWholeTile) {
  Params p{};
  for (int u : {0, 1, 263, 264, 1599}) {
    Sm80Unit const w = sm80_unit(u, p, 64);
    EXPECT_EQ(w.tile, u);
    EXPECT_EQ(w.kt0, 0);
    EXPECT_EQ(w.k_tiles, 64);
    EXPECT_EQ(w.split_slot, -1);
  }
}

// choose_tail_splits: 1 or in [2, 16]; 1 unless there is at least one full
// wave and the last one is at most half full; tail x s never exceeds the
// slots; each slice keeps >= 4 k-tiles.
TEST(Sm80TailSplit, RuleLaws) {
  for (std::int64_t slots : {108, 132, 216, 264})
    for (std::int64_t tiles = 1; tiles <= 4 * slots + 3; ++tiles)
      for (std::int64_t k_blocks : {1, 4, 8, 16, 64, 128}) {
        int const s = tessera::detail::choose_tail_splits(tiles, k_blocks, int(slots));
        std::int64_t const tail = tiles % slots;
        ASSERT_TRUE(s == 1 || (s >= 2 && s <= 16)) << s;
        if (tiles < slots || tail == 0 || 2 * tail > slots) ASSERT_EQ(s, 1) << tiles << " on " << slots;
        if (s > 1) {
          ASSERT_LE(tail * s, slots);
          ASSERT_GE(k_blocks / s, 4);
        }
      }
}

// one_slice_per_sm: never above s; s itself when s < 2 or the tiles fill
// whole waves; otherwise min(s, sms / tail) when that is >= 2.
TEST(Sm80TailSplit, OneSlicePerSmLaws) {
  for (int sms : {108, 132})
    for (int per_sm : {1, 2, 3})
      for (std::int64_t tiles = 1; tiles <= 3 * sms * per_sm; ++tiles)
        for (int s : {1, 2, 3, 8, 16}) {
          std::int64_t const slots = std::int64_t(sms) * per_sm;
          int const r = tessera::detail::one_slice_per_sm(s, tiles, slots, sms);
          std::int64_t const tail = tiles % slots;
          ASSERT_LE(r, s);
          if (s < 2 || tail == 0) {
            ASSERT_EQ(r, s);
            continue;
          }
          std::int64_t const cap = sms / tail;
          ASSERT_EQ(r, cap >= 2 && s > cap ? cap : s) << tiles << " tiles, s " << s;
          if (r < s) ASSERT_LE(tail * r, sms) << "more slice CTAs than SMs after the cap";
        }
}

// wave_launch_cost (the wave-fill price of select_sm90_ws_variant's 128 x w
// rule): 0 without tiles; q full waves cost q tiles; non-decreasing in the
// tile count; a part-filled last wave adds between tile_cost / (1 +
// speedup) and tile_cost; a wave more adds exactly tile_cost.
TEST(SplitKCostModel, WaveLaunchCostLaws) {
  using tessera::detail::wave_launch_cost;
  for (std::int64_t slots : {1, 2, 64, 108, 132})
    for (double cost : {1.0, 19.0, 67.0, 1e6})
      for (double speedup : {0.0, 0.3, 1.0}) {
        SCOPED_TRACE(testing::Message() << "slots " << slots << " cost " << cost << " speedup " << speedup);
        EXPECT_EQ(wave_launch_cost(0, cost, slots, speedup), 0.0);
        EXPECT_EQ(wave_launch_cost(-5, cost, slots, speedup), 0.0);
        double prev = 0.0;
        for (std::int64_t tiles = 1; tiles <= 4 * slots + 3; ++tiles) {
          double const c = wave_launch_cost(tiles, cost, slots, speedup);
          ASSERT_GE(c, prev) << tiles << " tiles";
          prev = c;
          std::int64_t const full = tiles / slots;
          double const part = c - double(full) * cost;
          if (tiles % slots == 0) {
            ASSERT_EQ(c, double(full) * cost) << tiles << " tiles";
          } else {
            ASSERT_GE(part, cost / (1.0 + speedup) * (1.0 - 1e-12)) << tiles << " tiles";
            ASSERT_LE(part, cost * (1.0 + 1e-12)) << tiles << " tiles";
          }
          ASSERT_NEAR(wave_launch_cost(tiles + slots, cost, slots, speedup), c + cost, 1e-9 * (c + cost));
        }
      }
  // Fixed answers (132 SMs, 0.3): 72 tiles of 67 -> 67 / (1 + 0.3 * 60 / 132);
  // 200 tiles -> 67 + 67 / (1 + 0.3 * 64 / 132).
  EXPECT_DOUBLE_EQ(wave_launch_cost(72, 67.0, 132, 0.3), 67.0 / (1.0 + 0.3 * 60.0 / 132.0));
  EXPECT_DOUBLE_EQ(wave_launch_cost(200, 67.0, 132, 0.3), 67.0 + 67.0 / (1.0 + 0.3 * 64.0 / 132.0));
}

// The seed problem on an H100 (132 SMs, two CTAs of the 128x128 tile each):
// 1600 tiles = 6 waves of 264 and 16 tiles, 64 k-tiles: the rule says 16
// slices of 4, one slice CTA per SM makes it 8 of 8. 4096^3 (1024 tiles:
// the last wave 232 of 264) is not split.
TEST(Sm80TailSplit, SeedProblemOnAnH100) {
  int const s = tessera::detail::choose_tail_splits(1600, 64, 264);
  EXPECT_EQ(s, 16);
  EXPECT_EQ(tessera::detail::one_slice_per_sm(s, 1600, 264, 132), 8);
  EXPECT_EQ(tessera::detail::choose_tail_splits(1024, 64, 264), 1);
}

}  // namespace

#endif  // !defined(__CUDA_ARCH__)
