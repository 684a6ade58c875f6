// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Tail split of the Ampere tensor-core kernels, the host-visible half: which
// tile and which K-slice one CTA computes. (The reduction of a split tile's
// slices is device code: sm80_split.cuh.)
//
// A launch with Params::splits == s > 1 runs split_from whole tiles, then s
// CTAs for each of the tiles split_from .. tiles-1 (the partly filled last
// wave): CTA u >= split_from computes slice (u - split_from) % s of tile
// split_from + (u - split_from) / s, k-tiles [slice x split_k_tiles, ...).
// Laws (test_gemm_sm80_split): over the CTAs of a launch every (tile, k-tile)
// pair is computed exactly once; a split tile's slices are contiguous,
// ascending and non-empty; split_slot is tile - split_from for split tiles
// and -1 otherwise.

#include <tessera/config.hpp>
#include <tessera/gemm/sm80_config.hpp>

namespace tessera::kernels::sm80 {

struct Sm80Unit {
  int tile;        // in rasterisation order (rasterize())
  int kt0;         // first k-tile
  int k_tiles;     // k-tiles computed
  int split_slot;  // index of the split tile's buffer and counter; -1 for a whole tile
};

// The work of CTA `u` for a problem of `k_tiles` k-tiles per tile.
TESSERA_HOST_DEVICE TESSERA_INLINE Sm80Unit sm80_unit(int u, const Params& p, int k_tiles) {
  if (p.splits <= 1 || u < p.split_from) return {u, 0, k_tiles, -1};
  int const v = u - p.split_from;
  int const q = v / p.splits;
  int const kt0 = (v - q * p.splits) * p.split_k_tiles;
  int const left = k_tiles - kt0;
  return {p.split_from + q, kt0, left < p.split_k_tiles ? left : p.split_k_tiles, q};
}

}  // namespace tessera::kernels::sm80
