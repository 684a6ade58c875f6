// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// sm90_ws_gemm's kernel variants (tile shape, schedule, cluster, epilogue,
// split-K, orientation) and the per-shape rule that picks one: host code,
// apart from the kernels (include/tessera/gemm/sm90_ws_gemm.cuh), so that the
// rule builds, and changes, without recompiling them.

#include <cstdint>
#include <type_traits>

namespace tessera::detail {

// A kernel variant, for timing and testing side by side (the default launch,
// launch_sm90_ws_gemm(args, stream), picks one with select_sm90_ws_variant).
// group_m 0 keeps the configuration's default.
struct Sm90WsVariant {
  bool pingpong = false;  // consumers alternate whole tiles
  int group_m = 0;        // tile rows per rasterisation group
  int tile_n = 256;       // ping-pong: 256 (64x256 tiles, WsGemmPingPongConfig) or 128 (tile_m x 128:
                          // WsGemmPingPong128Config or, with tile_m 64, WsGemmPingPong64x128Config);
                          // cooperative: 256 (128x256, WsGemmConfig) or
                          // 224, 208, 192, 176, 160, 128, 64, 32, 16 (128xN, WsGemmNarrowConfig<N>,
                          // direct epilogue; 160..224 also WsGemmNarrowTmaConfig<N> with tma_store)
  int cluster = 1;        // 2 = CTA pairs with B multicast: cooperative 128x256 (WsGemmCluster2Config,
                          // WsGemmCluster2TmaStoreConfig with tma_store) or ping-pong 64x128 / 128x128
                          // (WsGemmPingPong{64x128,128}Cluster2[TmaStore]Config); operands in any order, either
                          // orientation, no split-K
  bool tma_store = false; // epilogue through shared memory + TMA store (cooperative 128x256, also in clusters,
                          // cooperative 128 x 160..224, and ping-pong 128x128 / 64x128 only); falls back to the
                          // direct epilogue when D's base, ld, batch stride or row length is not a multiple of
                          // 16 bytes, with `transpose` (a column-major D' is TMA-stored by the 128 x 160..224
                          // tiles and unclustered ping-pong 64x128, for 16-bit outputs, only), or for tf32
                          // inputs on the 128 x 160..224 tiles
  int splits = 1;         // split-K: work units per output tile (not with clusters), finished in the
                          // kernel by the last unit of each tile; partial sums in an f32 workspace
                          // taken with cudaMallocAsync on the stream (no split when that fails)
  bool transpose = false; // compute D^T = B^T A^T instead of D when D is row-major (D when it is
                          // column-major): the other orientation, D' column-major (the direct epilogue, or
                          // with tma_store the TMA store of the 128 x 160..224 and unclustered ping-pong
                          // 64x128 tiles' 16-bit outputs)
  int tile_m = 128;       // ping-pong with tile_n 128 only: 128 or 64
  bool split_tail = false;// with splits > 1: split only the tiles of the persistent grid's last,
                          // partly filled wave (whole waves run unsplit); no split if none is partial
  bool balance_waves = false;  // unsplit launches: ceil(units / waves) persistent CTAs instead of one per
                               // SM, so that every wave is full (512 tiles: 4 waves of 128 CTAs rather
                               // than 3 of 132 and one of 116); the same number of waves either way

  // Every field equal: the same kernel, launched the same way.
  bool operator==(const Sm90WsVariant&) const = default;
};

// The variant the default launch runs for a problem of kernel orientation
// m x n x k (D' row-major; a column-major D swaps m and n) with inputs of
// `elem_bytes` bytes on `sms` multiprocessors; `row_align`: the largest of
// 128, 64, 32 and 16 bytes that every row of both operands starts at (base
// pointer, leading dimension and batch stride);
// `a_k_major` / `b_k_major`: A' (m x k) / B' (k x n) of that orientation
// K-contiguous; `c_by_tma`: beta != 0 and the TMA-store epilogue would
// load C by TMA and store D (the launcher's c_tma_loadable and
// d_tma_storable), D's elements `out_bytes` (2 or 4) bytes, which changes
// the pick only where the beta = 0 one has the direct epilogue (the skinny
// problems). See the NOTEs in src/gemm/sm90_ws_select.cpp.
Sm90WsVariant select_sm90_ws_variant(std::int64_t m, std::int64_t n, std::int64_t k, int sms, int elem_bytes = 2,
                                     int row_align = 128, bool a_k_major = true, bool b_k_major = true,
                                     bool c_by_tma = false, int out_bytes = 2);
// `row_align` is a byte count since session 11 (it was a bool "rows 128-byte
// aligned"): a bool there is a compile error, not a silent 1 or 0.
template <class Bool>
  requires std::is_same_v<Bool, bool>
Sm90WsVariant select_sm90_ws_variant(std::int64_t, std::int64_t, std::int64_t, int, int, Bool, bool = true,
                                     bool = true, bool = false, int = 2) {
  static_assert(!std::is_same_v<Bool, bool>,
                "select_sm90_ws_variant: row_align is the rows' alignment in bytes (16, 32, 64 or 128), not a bool");
  return {};
}
}  // namespace tessera::detail
