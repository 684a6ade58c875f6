// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Split-K finished inside the kernel, host side: the cost model that decides
// how a tile's K range is cut into work units, and the per-stream f32
// workspace and tile counters the units reduce into. Shared by the Hopper
// kernel (uniform split-K and tail split) and the Ampere kernels (tail
// split); the device halves are in sm90_ws_gemm.cuh and sm80_split.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/gemm/api.hpp"

namespace tessera::detail {

// Counters per stream: split tiles (times 64-row blocks on Hopper) of one
// launch must fit.
inline constexpr std::int64_t kCounterSlots = 1 << 16;

// Cost of one work unit covering 1/s of a tile's `k_blocks` K-blocks (s = 1:
// the whole tile), in K-blocks: the unit's K-blocks, its fill and epilogue,
// and for s > 1 the reduction (see the NOTE in split_k.cpp).
[[nodiscard]] double split_unit_cost(std::int64_t k_blocks, std::int64_t s);

// Uniform split count for `tiles` tiles of `k_blocks` K-blocks each on
// `slots` concurrently resident CTAs: the smallest waves x unit cost, with
// >= 4 K-blocks per unit; 1..16.
[[nodiscard]] int choose_splits(std::int64_t tiles, std::int64_t k_blocks, int slots);

// Tail split: when the last wave of `tiles` tiles on `slots` resident CTAs is
// at most half full, its tiles are cut into s K-slices (tail x s <= slots,
// >= 4 K-blocks each, s <= 16) if a slice is cheaper than a whole tile.
// Returns 1 for no split.
// Laws: the result is 1 or in [2, 16]; 1 whenever tiles < slots, tiles %
// slots == 0 or 2 * (tiles % slots) > slots; tail x result <= slots.
[[nodiscard]] int choose_tail_splits(std::int64_t tiles, std::int64_t k_blocks, int slots);

// The tail split count s for CTAs that share an SM (slots = sms x CTAs per
// SM): at most one slice CTA per SM where that still leaves 2 or more
// slices (a slice alone on its SM runs faster than two sharing one).
// Laws: the result is s when s < 2 or the tail is a multiple of slots;
// otherwise min(s, sms / tail) when sms / tail >= 2, else s; never above s.
[[nodiscard]] int one_slice_per_sm(int s, std::int64_t tiles, std::int64_t slots, int sms);

// Cost of `tiles` equal tiles of `tile_cost` each on `slots` resident CTAs,
// in tile_cost's unit: the full waves at the full-wave rate, then the
// part-filled last wave, whose b busy CTAs each run 1 + speedup (1 - b /
// slots) times faster (fewer of them share the L2 and the power budget;
// fitted to the Hopper kernel in session 33, see select_sm90_ws_variant).
// Laws: 0 for tiles <= 0; q * tile_cost for q full waves; non-decreasing in
// tiles; a part-filled last wave adds between tile_cost / (1 + speedup) and
// tile_cost; `slots` more tiles add exactly tile_cost.
[[nodiscard]] double wave_launch_cost(std::int64_t tiles, double tile_cost, std::int64_t slots, double speedup);

// The workspace of one stream: f32 accumulation buffers (at least the bytes
// asked for) and kCounterSlots tile counters, all zero between launches
// (every launch zeroes what it used). Null pointers when allocation failed;
// the caller then runs unsplit.
struct SplitkWorkspace {
  float* partial = nullptr;
  int* counters = nullptr;
};
[[nodiscard]] SplitkWorkspace splitk_workspace(std::size_t bytes, gemm_stream_t stream);

}  // namespace tessera::detail
