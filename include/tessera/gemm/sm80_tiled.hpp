// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Sm80TiledTN<Elem, Acc>: the layouts and atoms of seed 000's TN HGEMM as
// Tessera objects -- the shared-memory layout, the global->shared TiledCopy,
// the TiledMMA and the shared->register copies -- for the kernel in
// sm80_tiled.cuh. Host-visible, so the host tests can partition with exactly
// what the kernel partitions with.
//
// The tile is the seed's (and Sm80Variant::tile128x128's for 16-bit TN):
// 128x128x64, 3 cp.async stages, 4 warps (2x2) of 64x64, mma.sync m16n8k16.
//
//   smem_layout()  (BLK_M,BLK_K,PIPE) = (128,64,3): the seed's swizzle atom
//                  Swizzle<3,3,3> o (8,64):(64,1) tiled over the stages; the
//                  same bytes as SwizzledSmemTile<128,128> (row r, 16-byte
//                  chunk c at chunk c ^ (r % 8)).
//   g2s()          cp.async of 16 bytes, threads (16,8):(8,1) over (M,K):
//                  thread t moves chunk t % 8 of rows t / 8 + 16 i, i < 8.
//   g2s_zfill()    the same with a byte count (residue tiles).
//   tiled_mma()    the atom over warps (2,2,1), warp w = wm + 2 wn, with the
//                  permutations M: (16,2,4):(1,64,16), N: (8,2,8):(1,64,8),
//                  which give warp (wm,wn) the contiguous 64x64 block at
//                  (64 wm, 64 wn): MMA_M = 4 atoms of 16 rows, MMA_N = 8
//                  atoms of 8 columns, exactly the hand-indexed kernel's
//                  acc[mi][ni] (the smem epilogue stages either).
//   s2r_atom()     ldmatrix .x4 (SM75_U32x4_LDSM_N) for make_tiled_copy_A/B.
//   staging_layout()  (BLK_M,BLK_N) f32 epilogue tile: row-major with the
//                  16-byte chunks of a row XOR-ed with row % 8
//                  (Swizzle<3,2,5>); Sm80Epilogue::offset's map.
//
// NOTE: the permutations only relabel which warp owns which rows and
// columns; the seed's Tile<_32,_32,_16> (warp tiles interleaved every 16
// rows / 8 columns) issues the same instructions. The contiguous form is
// chosen so that tCrC(v,mi,ni) sits where the hand-indexed kernel's
// acc[mi][ni][v] does, which the host tests compare one to one.

#include <type_traits>

#include <tessera/atom.hpp>
#include <tessera/layout.hpp>

namespace tessera::kernels::sm80 {

template <class Elem, class AccT>
struct Sm80TiledTN {
  static_assert(std::is_same_v<Elem, half_t> || std::is_same_v<Elem, bfloat16_t>,
                "Sm80TiledTN: 16-bit inputs only (half_t, bfloat16_t) [tf32 takes Sm80Variant::tile128x128]");
  static_assert(std::is_same_v<AccT, float> || (std::is_same_v<AccT, half_t> && std::is_same_v<Elem, half_t>),
                "Sm80TiledTN: accumulate in float, or in half_t for half_t inputs");

  using Element = Elem;
  using Acc = AccT;

  static constexpr int kBlockM = 128;
  static constexpr int kBlockN = 128;
  static constexpr int kBlockK = 64;
  static constexpr int kStages = 3;
  static constexpr int kThreads = 128;

  using MmaOp = std::conditional_t<
      std::is_same_v<AccT, half_t>, SM80_16x8x16_F16F16F16F16_TN,
      std::conditional_t<std::is_same_v<Elem, half_t>, SM80_16x8x16_F32F16F16F32_TN, SM80_16x8x16_F32BF16BF16F32_TN>>;

  TESSERA_HOST_DEVICE static constexpr auto smem_layout() {
    auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Int<kBlockK>>, Stride<Int<kBlockK>, _1>>{});
    return tile_to_shape(atom, make_shape(Int<kBlockM>{}, Int<kBlockK>{}, Int<kStages>{}));
  }
  // Elements of one operand's ring (A's and B's are the same size).
  static constexpr int kRingElems = kBlockM * kBlockK * kStages;

  TESSERA_HOST_DEVICE static constexpr auto g2s_threads() { return Layout<Shape<_16, _8>, Stride<_8, _1>>{}; }
  TESSERA_HOST_DEVICE static constexpr auto g2s() {
    return make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, Elem>{}, g2s_threads(), Layout<Shape<_1, _8>>{});
  }
  TESSERA_HOST_DEVICE static constexpr auto g2s_zfill() {
    return make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL_N<uint128_t>, Elem>{}, g2s_threads(),
                           Layout<Shape<_1, _8>>{});
  }

  TESSERA_HOST_DEVICE static constexpr auto tiled_mma() {
    auto perm_m = Layout<Shape<_16, _2, _4>, Stride<_1, _64, _16>>{};
    auto perm_n = Layout<Shape<_8, _2, _8>, Stride<_1, _64, _8>>{};
    return make_tiled_mma(MmaOp{}, Layout<Shape<_2, _2, _1>>{}, make_tile(perm_m, perm_n, _16{}));
  }

  TESSERA_HOST_DEVICE static constexpr auto s2r_atom() { return Copy_Atom<SM75_U32x4_LDSM_N, Elem>{}; }

  TESSERA_HOST_DEVICE static constexpr auto staging_layout() {
    return composition(Swizzle<3, 2, 5>{}, Layout<Shape<Int<kBlockM>, Int<kBlockN>>, Stride<Int<kBlockN>, _1>>{});
  }

  // Dynamic shared memory: the two rings, reused by the f32 staging tile.
  static constexpr int kMainloopSmemBytes = 2 * kRingElems * 2;
  static constexpr int kEpilogueSmemBytes = kBlockM * kBlockN * 4;
  static constexpr int kSmemBytes = kMainloopSmemBytes > kEpilogueSmemBytes ? kMainloopSmemBytes : kEpilogueSmemBytes;
};

}  // namespace tessera::kernels::sm80
