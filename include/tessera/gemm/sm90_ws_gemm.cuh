// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// sm90_ws_gemm: warp-specialised persistent GEMM for Hopper (sm_90a).
//
// Kernel orientation (the launcher maps every supported GemmArgs onto it):
//   D'(i, j) = alpha * sum_k A'(i, k) * B'(j, k) + beta * C'(i, j)
// with A' (M, K) and B' (N, K), 16-bit inputs (bf16 or f16) or tf32, f32
// accumulation (f16 inputs may ask for f16 accumulation, kF16Acc), D'
// row-major f32/f16/bf16 (or any strides, direct epilogue).
// A' and B' are each K-major (K contiguous) or, for 16-bit inputs,
// MN-major: the producer then loads (64 x M'/N', 64 x K) TMA boxes whose
// 128B-swizzled image is the wgmma MN-major canonical layout, and the
// consumers' wgmma reads it with the transpose bit set (p.a_mn / p.b_mn),
// so all four BLAS layouts run without a copy. tf32 has no transposed
// wgmma: an MN-major tf32 A' is loaded the same way (boxes of 32 elements
// of M') and the consumers read it into registers for the RS form; B' must
// be K-major, so the launcher makes the MN-major tf32 operand A' (two
// MN-major tf32 operands: one is copied K-major first, by tessera::gemm).
//
// One CTA = 384 threads = 3 warpgroups, one CTA per SM, persistent over
// 128x256 output tiles (grouped rasterisation, kGroupM tile rows per group so
// CTAs running at the same time share B tiles in L2):
//   warpgroup 0  producer: one elected thread issues the TMA loads of the
//                A (128x64) and B (256x64) K-blocks into a ring of kStages
//                stages; full[s] completes on the bytes, empty[s] on the 8
//                consumer warps releasing the stage. setmaxnreg.dec 40.
//   warpgroup 1,2 consumers: rows 0-63 and 64-127 of the tile; per K-block
//                4 x wgmma.m64n256k16 (SS, 128B-swizzled K-major operands),
//                one group kept in flight; then the epilogue (alpha/beta in
//                registers, predicated stores to global). setmaxnreg.inc 232.
// Tails in M, N and K come from TMA zero fill (loads) and the predicated
// epilogue (stores).
//
// Variant (WsGemmPingPongConfig, `kPingPong`): the tile is 64x256 and each
// consumer warpgroup owns whole tiles, alternating (consumer c takes the
// CTA's tiles 2i + c), so one warpgroup's epilogue overlaps the other's
// mainloop. The ring is shared and filled in tile order; a consumer skips
// the other's K-blocks when it counts stages. 5 stages of 40 KiB.
//
// Epilogue variant (`kTmaStore`): instead of storing the accumulator
// fragments straight to global memory (each warp writes 8 rows x 8 bytes per
// instruction: poorly coalesced), each consumer warpgroup stages its 64-row
// block in groups of 64 rows x 128 bytes through double-buffered, swizzled
// shared tiles (stmatrix for 16-bit outputs, .trans for a column-major D'
// in the 128 x 160..224 tiles; st.shared for f32) and issues TMA stores per group (ws_epi_offset); the
// TMA unit clips rows and columns past the matrix, so edge tiles need no
// predication.
//
// Narrow variant (WsGemmNarrowConfig<N>, cooperative 128 x N, N = 16..128;
// also N = 160, 176, 192, 208 and 224 for mid-size problems, see
// select_sm90_ws_variant, which take the TMA-store epilogue there,
// WsGemmNarrowTmaConfig<N>):
// for a GEMM with one small dimension the launcher puts that dimension on the
// tile's N side (computing D^T = B^T A^T when it is M, so D' may be column-
// major: the direct epilogue stores through (d_row, d_col) strides). The
// small B stage leaves room for 6-12 stages, which keeps enough bytes in
// flight per SM for a memory-bound problem.
//
// Split-K (`splits` > 1, any configuration without clusters): the work units
// are (tile, K slice) pairs. Every unit adds its f32 sum into the tile's
// buffer in L2 (red.global.add.v4, in the accumulator fragment's order),
// then counts itself in on a per-(tile, 64-row block) counter; the unit that
// arrives last loads the block into its accumulators, zeroes the block and
// the counter for the next launch and runs the configuration's epilogue
// (alpha, beta, D; the TMA store where the configuration has it). No second
// kernel, and no unit ever waits for another.
//
// Element types: bf16 or f16 (K-block = 64 elements), or tf32 (f32 storage,
// K-block = 32 elements); either way one K-block row is one 128-byte swizzle
// row and one wgmma K step is 32 bytes, so the stage layout is the same.

#include <cuda.h>  // CUtensorMap (a plain 128-byte struct; no driver library is linked)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/gpu_atomic.cuh>
#include <tessera/arch/sm80/ldmatrix.cuh>
#include <tessera/arch/sm90/cluster.cuh>
#include <tessera/arch/sm90/fence.cuh>
#include <tessera/arch/sm90/gmma_desc.hpp>
#include <tessera/arch/sm90/gmma_layout.hpp>
#include <tessera/arch/sm90/mbarrier.cuh>
#include <tessera/arch/sm90/named_barrier.cuh>
#include <tessera/arch/sm90/setmaxnreg.cuh>
#include <tessera/arch/sm90/stmatrix.cuh>
#include <tessera/arch/sm90/tma.cuh>
#include <tessera/arch/sm90/wgmma.cuh>
#include <tessera/gemm/api.hpp>
#include <tessera/gemm/acc_view.cuh>
#include <tessera/gemm/sm90_ws_timeline.cuh>
#include <tessera/gemm/sm90_ws_variant.hpp>

namespace tessera::kernels::sm90 {

struct WsGemmParams {
  int m = 0, n = 0, k = 0;  // kernel orientation
  int tiles_m = 0, tiles_n = 0, k_blocks = 0;
  void* d = nullptr;
  std::int64_t d_row = 0, d_col = 1;  // D'(i, j) is element i * d_row + j * d_col of d
  bool d_pair_ok = false;  // d_col == 1 and D'(i, j..j+1) can be stored as one 2-element vector
  // TMA-store epilogue only: D' is column-major (the transposed orientation,
  // D' = D^T of a row-major D; 16-bit outputs), its tensor map (m, n).
  bool d_trans = false;
  const void* c = nullptr;  // read only when beta != 0
  std::int64_t c_row = 0, c_col = 0;
  // TMA-store epilogue, beta != 0: C' is laid out as D' (same orientation,
  // 16-byte aligned base and rows) and the kernel's tmap_c maps it in D's
  // boxes, so each group of C' comes into the group's shared buffer by TMA
  // (ws_load_c_group) instead of element by element from global memory.
  bool c_tma = false;
  float alpha = 1.0f, beta = 0.0f;
  int group_m = 8;  // tile rows per rasterisation group (>= 1)
  // Split-K: tiles [split_from, tiles) are cut into `splits` work units
  // each (K-slices of split_k_blocks K-blocks, the last one shorter), the
  // tiles before split_from run whole (k_blocks K-blocks): split_from = 0 is
  // a uniform split-K, split_from = the last wave's first tile splits only
  // the tail. Every unit of a split tile adds its raw f32 sum into the tile's
  // accumulation buffer (partial + (tile - split_from) * tile area, zero
  // between launches) with red.global.add and counts itself in on
  // counters[tile * (kBlockM / 64) + row block]; the last one to arrive
  // takes the block's sum (ws_splitk_gather), zeroes it again and runs the
  // epilogue. The counters must be 0 at launch and are 0 again when the
  // kernel ends.
  int splits = 1;
  int split_from = 0;
  int split_k_blocks = 0;
  float* partial = nullptr;
  int* counters = nullptr;
  // MN-major operands: A' (m, k) with m contiguous, B' (n, k) with n
  // contiguous (16-bit inputs; tf32: A' only, read through registers). The
  // tensor map's inner dimension is then M'/N' and a stage holds TMA boxes
  // of (W bytes of M'/N', kBlockK rows), see WsGemmConfigT::kMnAtomBytes.
  bool a_mn = false, b_mn = false;
};

// kPingPong = false: both consumers share a kBlockM (128) x kBlockN tile,
// consumer c rows 64c..64c+63. kPingPong = true: a whole kBlockM x kBlockN
// tile per consumer (kBlockM / 64 wgmma row halves), consumers alternate
// tiles. Every consumer holds 128 f32 accumulators per thread.
//
// kCluster = 2: CTA pairs (a cluster of 2 along x) compute vertically
// adjacent tiles (tm = 2 pm + rank, same tn); each CTA loads its own A and
// one half of B (kBlockN / 2 rows) multicast into both CTAs, so B crosses
// L2 -> SM once per pair (an MN-major B: half of its boxes each).
// Consumers release a stage in both CTAs. Both CTAs
// walk the same unit sequence, so in the ping-pong kernel the same consumer
// owns a unit in both and the stage counts agree.
//
// kTmaStore = true: the epilogue goes through shared memory and TMA stores
// (two 8 KiB sub-tile buffers per consumer warpgroup after the ring).
template <bool kPingPong_, int kBlockM_, int kBlockN_, int kStages_, int kCluster_ = 1, bool kTmaStore_ = false,
          bool kDeferStores_ = false, bool kTransStore_ = false>
struct WsGemmConfigT {
  static constexpr bool kPingPong = kPingPong_;
  static constexpr bool kTmaStore = kTmaStore_;
  // The TMA-store epilogue of 16-bit outputs packs the block into registers
  // when its K loop ends and writes it to shared memory one group per
  // K-block during the next tile's first four K-blocks, behind their wgmmas
  // (ws_pack_group, ws_store_packed_group).
  static constexpr bool kDeferStores = kDeferStores_;
  static constexpr int kCluster = kCluster_;
  static constexpr int kBlockM = kBlockM_, kBlockN = kBlockN_;
  // A K-block is one 128-byte swizzle row of each operand: 64 16-bit or 32
  // tf32 elements.
  static constexpr int kBlockKBytes = 128;
  template <class TIn>
  static constexpr int kBlockK = kBlockKBytes / int(sizeof(TIn));
  static constexpr int kWgRows = kPingPong ? kBlockM : 64;  // rows of the tile one consumer computes
  static constexpr int kHalves = kWgRows / 64;               // m64 wgmma row blocks per consumer
  static constexpr int kConsumers = 2;             // warpgroups
  static constexpr int kThreads = 128 * (1 + kConsumers);
  // Warps that release each stage: both consumers (cooperative) or the one
  // that owns the tile (ping-pong).
  static constexpr int kConsumerWarps = (kPingPong ? 4 : 4 * kConsumers) * kCluster;
  static constexpr int kStages = kStages_;
  static constexpr int kABytes = kBlockM * kBlockKBytes;
  static constexpr int kBBytes = kBlockN * kBlockKBytes;
  static constexpr int kStageBytes = kABytes + kBBytes;
  static constexpr int kAlignSlack = 1024;  // dynamic smem is only 16-byte aligned by contract
  // Epilogue sub-tile: 64 rows x 128 bytes (one 128B swizzle row per tile
  // row), two buffers per consumer so one TMA store drains while the next
  // sub-tile is written.
  static constexpr int kEpiTileBytes = 64 * 128;
  // The wide cooperative tiles (128 x 160..224) with the TMA store: only
  // their epilogue can also write a column-major D' (the transposed
  // orientation; stmatrix .trans), so the other TMA-store kernels keep their
  // code as measured (no run-time orientation branch); and they exist for
  // 16-bit inputs only (function_for in the launcher).
  static constexpr bool kWideTmaStore = kTmaStore && !kPingPong && kCluster == 1 && kBlockN != 256;
  // The TMA-store kernels whose epilogue can write a column-major D': the
  // wide tiles, and the configurations that ask for it (kTransStore_:
  // ping-pong 64x128, WsGemmPingPong64x128TmaStoreTransConfig).
  static constexpr bool kTransTmaStore = kWideTmaStore || kTransStore_;
  static_assert(!kTransStore_ || (kTmaStore && kCluster == 1 && !kDeferStores_),
                "WsGemmConfigT: a column-major D' store needs the unclustered TMA-store epilogue without deferral");
  static constexpr int kEpiBytes = kTmaStore ? kConsumers * 2 * kEpiTileBytes : 0;
  // Ring, epilogue buffers, then full[kStages], empty[kStages], order[2],
  // one split-K "last unit" flag per consumer (8 bytes in all) and two C
  // barriers per consumer (WsEpiC).
  static constexpr int kSmemBytes =
      kStages * kStageBytes + kEpiBytes + (2 * kStages + 2) * 8 + 8 + kConsumers * 2 * 8 + kAlignSlack;
  static constexpr int kGroupM = 1024 / kBlockM;  // default tile rows per group: 1024 rows of A
  static constexpr int kProducerRegs = 40, kConsumerRegs = 232;

  static_assert(kBlockN % 8 == 0 && kBlockN >= 8 && kBlockN <= 256,
                "WsGemmConfig: kBlockN must be a multiple of 8 in [8, 256] [the m64nNk wgmma shapes]");
  static_assert(kProducerRegs * 128 + kConsumerRegs * 128 * kConsumers <= 65536,
                "WsGemmConfig: setmaxnreg budget exceeds the 64K-register file");
  static_assert(kConsumers * 4 == 8, "WsGemmConfig: the split-K flags take the 8 bytes before the C barriers");
  static_assert(kSmemBytes <= 227 * 1024, "WsGemmConfig: the ring does not fit the 227 KiB opt-in shared memory");
  static_assert(kPingPong ? (kBlockM % 64 == 0) : (kBlockM == 64 * kConsumers),
                "WsGemmConfig: cooperative tiles have 64 rows per consumer; ping-pong tiles a multiple of 64 rows");
  static_assert(kStageBytes % 1024 == 0, "WsGemmConfig: stages (and the epilogue buffers after them) must stay 1024-byte aligned");
  static_assert(!kDeferStores || (kTmaStore && !kPingPong && kCluster == 1 && kBlockN == 256),
                "WsGemmConfig: kDeferStores needs the unclustered cooperative 128x256 TMA-store kernel (four "
                "128-byte groups per 64x256 block of 16-bit outputs)");
  static_assert(kCluster == 1 || kCluster == 2, "WsGemmConfig: clusters (B multicast) are implemented for pairs only");
  static_assert(kCluster == 1 || kBlockN % 16 == 0,
                "WsGemmConfig: a cluster pair multicasts B in halves of whole 8-row swizzle atoms (kBlockN % 16 == 0)");
  static_assert(kHalves * kBlockN / 2 <= 128,
                "WsGemmConfig: a consumer may hold at most 128 f32 accumulators per thread (64x256 or 128x128)");

  // What a 128B-swizzled TMA box of (rows, 64) 16-bit or (rows, 32) 32-bit
  // elements leaves in shared memory, one 64-row consumer slice: (row, k) ->
  // element offset.
  template <int kBytes>
  using SmemSliceLayout = decltype(make_composed_layout(
      Swizzle<3, 4 - (kBytes / 2), 3>{}, Int<0>{},
      make_layout(make_shape(Int<64>{}, Int<128 / kBytes>{}), make_stride(Int<128 / kBytes>{}, Int<1>{}))));
  static_assert(arch::is_gmma_k_major_canonical<2>(SmemSliceLayout<2>{}, arch::GmmaSwizzle::b128),
                "WsGemmConfig: the 16-bit TMA tile layout is not the wgmma 128B K-major canonical layout");
  static_assert(arch::is_gmma_k_major_canonical<4>(SmemSliceLayout<4>{}, arch::GmmaSwizzle::b128),
                "WsGemmConfig: the tf32 TMA tile layout is not the wgmma 128B K-major canonical layout");

  // MN-major operands (16-bit): a stage holds TMA boxes of (W bytes of M/N,
  // 64 K rows), W = 128 (64 elements; A, and B when 64 divides kBlockN) or
  // for B the widest of 64 and 32 bytes whose elements divide kBlockN (32,
  // 160, 224: 64 bytes; 16, 176, 208: 32 bytes), boxes 64 * W bytes apart; the
  // wgmma descriptor's LBO is that box stride, its SBO 8 * W, and a k16 step
  // advances 16 * W bytes.
  static constexpr int kMnBytesB = kBlockN % 64 == 0 ? 128 : kBlockN % 32 == 0 ? 64 : 32;
  static constexpr arch::GmmaSwizzle kMnSwizzleB = kMnBytesB == 128  ? arch::GmmaSwizzle::b128
                                                   : kMnBytesB == 64 ? arch::GmmaSwizzle::b64
                                                                     : arch::GmmaSwizzle::b32;
  static constexpr int kMnAtomBytesA = 64 * 128;
  static constexpr int kMnAtomBytesB = 64 * kMnBytesB;
  // An MN-major A' stage of any element type: boxes of 128 bytes of M' (64
  // 16-bit or 32 tf32 elements) by kBlockK K rows, each 128 * kBlockK bytes
  // (16-bit: kMnAtomBytesA; tf32: 4 KiB), kBlockM / kMnBoxA<T> per stage.
  template <class TIn>
  static constexpr int kMnBoxA = 128 / int(sizeof(TIn));
  template <class TIn>
  static constexpr int kMnBoxBytesA = 128 * kBlockK<TIn>;
  // One atom of the MN-major stage (the 128B case): (m, k) -> element offset.
  using SmemMnAtomLayout = decltype(make_composed_layout(
      Swizzle<3, 3, 3>{}, Int<0>{}, make_layout(make_shape(Int<64>{}, Int<64>{}), make_stride(Int<1>{}, Int<64>{}))));
  static_assert(arch::is_gmma_mn_major_canonical<2>(SmemMnAtomLayout{}, arch::GmmaSwizzle::b128),
                "WsGemmConfig: the MN-major TMA box layout is not the wgmma 128B MN-major canonical layout");
  static_assert(kBlockN % (kMnBytesB / 2) == 0, "WsGemmConfig: MN-major B boxes must tile kBlockN");
};

// NOTE: 4 stages of 48 KiB = 192 KiB, the most that fits under the 227 KiB
// opt-in limit with the alignment slack; 4 stages hide the TMA latency for a
// 128x256x64 tile. The ping-pong rings: 5 stages of 40 KiB (64x256) and 7 of
// 32 KiB (128x128).
using WsGemmConfig = WsGemmConfigT<false, 128, 256, 4>;
using WsGemmPingPongConfig = WsGemmConfigT<true, 64, 256, 5>;
using WsGemmPingPong128Config = WsGemmConfigT<true, 128, 128, 7>;
using WsGemmCluster2Config = WsGemmConfigT<false, 128, 256, 4, 2>;
// NOTE: the TMA-store epilogue takes 32 KiB of shared memory: the cooperative
// ring keeps its 4 stages (230,520 bytes in all, under 232,448), the 128x128
// ping-pong ring drops from 7 to 6 stages.
// NOTE: with 16-bit outputs its epilogue writes each block to shared memory
// behind the next tile's first four K-blocks (kDeferStores). Session 42
// (H200, layouts.sh, rotating inputs, median of 100, ratio to cuBLAS, same
// run; the session 10 form, which staged half of each block in the last
// K-block's ring stage and did not wait for its stores, -> deferred):
// 4096^3 0.993 -> 1.003, 4096x6144x4096 0.997 -> 1.006, 8192^3 1.025 ->
// 1.033, 2048^3 0.956 -> 0.964, 4096x4096x14336 1.000 -> 1.001.
// The deferred kernel does not read C (ws_pack_group): with beta != 0, a
// 16-bit output takes WsGemmTmaStoreReadCConfig, which stores each block
// when its tile ends (the rolling two-buffer epilogue of f32 outputs and of
// the cluster pairs). Sessions 47-48 (runs 387-392).
using WsGemmTmaStoreConfig = WsGemmConfigT<false, 128, 256, 4, 1, true, true>;
using WsGemmTmaStoreReadCConfig = WsGemmConfigT<false, 128, 256, 4, 1, true, false>;
// Clusters of 2 with the TMA-store epilogue: the same ring and buffers (each
// CTA stores its own tile; only the B loads are shared).
using WsGemmCluster2TmaStoreConfig = WsGemmConfigT<false, 128, 256, 4, 2, true>;
using WsGemmPingPong128TmaStoreConfig = WsGemmConfigT<true, 128, 128, 6, 1, true>;
// Ping-pong 64x128 (one m64n128 block per consumer, 9 stages of 24 KiB): for
// problems with fewer 128x128 tiles than SMs, twice the CTAs of 128x128.
using WsGemmPingPong64x128Config = WsGemmConfigT<true, 64, 128, 9>;
// The same with the TMA-store epilogue (8 stages + 32 KiB of epilogue
// buffers): for small problems whose 128x128 tiles leave half the SMs idle.
using WsGemmPingPong64x128TmaStoreConfig = WsGemmConfigT<true, 64, 128, 8, 1, true>;
// The same writing a column-major D' (the transposed orientation, 16-bit
// outputs; stmatrix .trans as the wide tiles): for m > n skinny problems
// (written in session 54, first run in session 55: run 424).
using WsGemmPingPong64x128TmaStoreTransConfig = WsGemmConfigT<true, 64, 128, 8, 1, true, false, true>;

// Narrow cooperative tiles 128 x N (N = 16, 32, 64, 128, and 160, 176,
// 192, 208, 224 for mid-size problems whose 128 x N tiles fill their waves
// better than 128x256):
// as many stages as fit (after kEpiBytes of epilogue buffers), at most 12 (N = 16: 12 x 18 KiB; 32: 11 x 20 KiB;
// 64: 9 x 24 KiB; 128: 7 x 32 KiB; 160: 6 x 36 KiB; 176: 5 x 38 KiB; 192:
// 5 x 40 KiB; 208: 5 x 42 KiB; 224: 5 x 44 KiB). Direct epilogue (D' may
// be column-major here).
template <int kN, int kEpiBytes = 0>
constexpr int ws_narrow_stages() {
  constexpr int stage = (128 + kN) * 128;
  constexpr int fit = (227 * 1024 - 1024 - 256 - kEpiBytes) / stage;
  return fit < 12 ? fit : 12;
}
template <int kN>
using WsGemmNarrowConfig = WsGemmConfigT<false, 128, kN, ws_narrow_stages<kN>()>;
// The wide ones (N = 160..224) with the TMA-store epilogue: 32 KiB of
// epilogue buffers after the ring, one or two stages fewer (160, 176: 5
// stages; 192, 208, 224: 4). Groups of 64 rows x 128 bytes in TMA boxes
// of 128, 64 or 32 bytes (ws_epi_box_bytes), D' row- or column-major.
template <int kN>
using WsGemmNarrowTmaConfig = WsGemmConfigT<false, 128, kN, ws_narrow_stages<kN, 32 * 1024>(), 1, true>;
// Ping-pong 64x128 in clusters of 2 (the two 64-row tiles of one 128-column
// block share its B' multicast), direct or TMA-store epilogue.
using WsGemmPingPong64x128Cluster2Config = WsGemmConfigT<true, 64, 128, 9, 2>;
using WsGemmPingPong64x128Cluster2TmaStoreConfig = WsGemmConfigT<true, 64, 128, 8, 2, true>;
// Ping-pong 128x128 in clusters of 2 (the rings of WsGemmPingPong128Config
// and WsGemmPingPong128TmaStoreConfig): for rows only 16-byte aligned whose
// 128x128 tiles fill more than half the SMs and 128x256 tiles fewer than
// half (select_sm90_ws_variant).
using WsGemmPingPong128Cluster2Config = WsGemmConfigT<true, 128, 128, 7, 2>;
using WsGemmPingPong128Cluster2TmaStoreConfig = WsGemmConfigT<true, 128, 128, 6, 2, true>;

template <class T>
struct WsFamily;
template <>
struct WsFamily<__nv_bfloat16> {
  using type = arch::F32BF16BF16;
};
template <>
struct WsFamily<__half> {
  using type = arch::F32F16F16;
};
// f32 storage read as tf32 (wgmma uses the top 19 bits of each element).
template <>
struct WsFamily<float> {
  using type = arch::F32TF32TF32;
};

// Tile `tile` of a tiles_m x tiles_n grid (tiles_m: p.tiles_m, or the
// number of tile-row pairs for clusters) in grouped order.
__device__ __forceinline__ void ws_tile_coords(int tile, const WsGemmParams& p, int& tm, int& tn, int tiles_m) {
  int const group_tiles = p.group_m * p.tiles_n;
  int const group = tile / group_tiles;
  int const first_m = group * p.group_m;
  int const left = tiles_m - first_m;
  int const rows = left < p.group_m ? left : p.group_m;
  int const in_group = tile - group * group_tiles;
  tm = first_m + in_group % rows;
  tn = in_group / rows;
}

template <class TOut>
__device__ __forceinline__ float ws_load(const void* base, std::int64_t off) {
  if constexpr (sizeof(TOut) == 4) {
    return static_cast<const float*>(base)[off];
  } else if constexpr (std::is_same_v<TOut, __half>) {
    return __half2float(static_cast<const __half*>(base)[off]);
  } else {
    return __bfloat162float(static_cast<const __nv_bfloat16*>(base)[off]);
  }
}

template <class TOut>
__device__ __forceinline__ void ws_store1(void* base, std::int64_t off, float v) {
  if constexpr (sizeof(TOut) == 4) {
    static_cast<float*>(base)[off] = v;
  } else if constexpr (std::is_same_v<TOut, __half>) {
    static_cast<__half*>(base)[off] = __float2half_rn(v);
  } else {
    static_cast<__nv_bfloat16*>(base)[off] = __float2bfloat16_rn(v);
  }
}

template <class TOut>
__device__ __forceinline__ void ws_store2(void* base, std::int64_t off, float v0, float v1) {
  if constexpr (sizeof(TOut) == 4) {
    *reinterpret_cast<float2*>(static_cast<float*>(base) + off) = make_float2(v0, v1);
  } else if constexpr (std::is_same_v<TOut, __half>) {
    *reinterpret_cast<__half2*>(static_cast<__half*>(base) + off) = __floats2half2_rn(v0, v1);
  } else {
    *reinterpret_cast<__nv_bfloat162*>(static_cast<__nv_bfloat16*>(base) + off) = __floats2bfloat162_rn(v0, v1);
  }
}

// (v0, v1) += beta * (C'(row, col), C'(row, col + 1)), columns past n
// skipped; `row` < m. Both epilogues call it only when beta != 0.
template <class TOut>
__device__ __forceinline__ void ws_add_c_pair(const WsGemmParams& p, int row, int col, float& v0, float& v1) {
  std::int64_t const coff = std::int64_t(row) * p.c_row + std::int64_t(col) * p.c_col;
  if (col < p.n) v0 += p.beta * ws_load<TOut>(p.c, coff);
  if (col + 1 < p.n) v1 += p.beta * ws_load<TOut>(p.c, coff + p.c_col);
}

// D'(row, col) and D'(row, col + 1) = alpha * (s0, s1) + beta * C' (columns
// past n skipped; `row` < m). D'(i, j) is d[i * d_row + j * d_col]: one
// 2-element store when d_pair_ok (row-major D', aligned), else single
// elements (the column-major D' of the transposed orientation).
template <class TOut>
__device__ __forceinline__ void ws_store_result_pair(const WsGemmParams& p, int row, int col, float s0, float s1) {
  float v0 = p.alpha * s0;
  float v1 = p.alpha * s1;
  bool const in0 = col < p.n, in1 = col + 1 < p.n;
  if (p.beta != 0.0f) ws_add_c_pair<TOut>(p, row, col, v0, v1);
  std::int64_t const off = std::int64_t(row) * p.d_row + std::int64_t(col) * p.d_col;
  if (in1 && p.d_pair_ok) {
    ws_store2<TOut>(p.d, off, v0, v1);
  } else {
    if (in0) ws_store1<TOut>(p.d, off, v0);
    if (in1) ws_store1<TOut>(p.d, off + p.d_col, v1);
  }
}

// One m64nN accumulator of a consumer warpgroup -> global memory. `acc` is
// the block's view as f32 fragment values (acc_view.cuh), as in every
// epilogue below. Fragment map (wgmma.cuh): acc[4j + 2h + e] is row
// 16w + g + 8h, column 8j + 2q + e of the warpgroup's 64xN block.
template <class TOut, int kN, class Acc>
__device__ __forceinline__ void ws_epilogue(const Acc& acc, const WsGemmParams& p, int row0, int col0) {
  int const t = threadIdx.x % 128;
  int const w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    int const row = row0 + 16 * w + g + 8 * h;
    if (row >= p.m) continue;
#pragma unroll
    for (int j = 0; j < kN / 8; ++j)
      ws_store_result_pair<TOut>(p, row, col0 + 8 * j + 2 * q, acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
  }
}

// The TMA-store epilogue's shared image. A consumer warpgroup writes its
// 64 x kN block of D' in groups of 64 rows x 128 bytes of columns (kW =
// 128 / sizeof(TOut) columns; the last group of a block whose rows are not
// a multiple of 128 bytes is narrower), each group into one 8 KiB buffer
// that one bulk group of TMA stores drains. Inside a group:
//   - D' row-major (`trans` false): TMA boxes of (box_bytes of columns, 64
//     rows) side by side, box_bytes = ws_epi_box_bytes(kN * sizeof(TOut)):
//     the widest of 128, 64 and 32 bytes that divides the block's rows, so
//     that no box crosses into the next tile (128 x 160: 64-byte boxes;
//     176, 208: 32). Box b of a group starts 64 * box_bytes * b bytes in, its
//     row r at r * box_bytes, with the TMA swizzle of that span.
//   - D' column-major (`trans`, 16-bit outputs, the wide cooperative tiles
//     only: WsGemmConfigT::kWideTmaStore; the transposed orientation,
//     D' = D^T of a row-major D): group column c (a row of D) is 128 bytes
//     at c * 128 holding the block's 64 rows, 128B swizzle; TMA boxes of
//     (64 rows, ws_epi_trans_rows(kN) columns) stacked (J = 64, 32 or 16:
//     the largest dividing kN), each J * 128 bytes.
// The TMA swizzle of a span of S bytes (128, 64, 32) moves the 16-byte
// chunk at bits 4.. of a 1024-byte aligned offset by the XOR of bits 7..
// (S / 16 - 1 of them): Swizzle<3,4,3>, <2,4,3>, <1,4,3> on byte offsets.
__host__ __device__ constexpr int ws_epi_box_bytes(int row_bytes) {
  return row_bytes % 128 == 0 ? 128 : row_bytes % 64 == 0 ? 64 : 32;
}
__host__ __device__ constexpr int ws_epi_trans_rows(int n) { return n % 64 == 0 ? 64 : n % 32 == 0 ? 32 : 16; }
__host__ __device__ constexpr int ws_tma_swizzle(int offset, int span) {
  return offset ^ (((offset >> 7) & (span / 16 - 1)) << 4);
}
// Byte offset of element (r, c) of a group (r: row of the 64-row block, c:
// column of the group) in its buffer. Eight consecutive elements of a row
// (row-major) or of a column (column-major) starting at a multiple of 8
// fill one 16-byte chunk: a stmatrix row address or a vector store.
__host__ __device__ constexpr int ws_epi_offset(int r, int c, int out_bytes, int box_bytes, bool trans) {
  if (trans) return ws_tma_swizzle(c * 128 + r * out_bytes, 128);
  int const x = c * out_bytes;
  return ws_tma_swizzle((x / box_bytes) * 64 * box_bytes + r * box_bytes + x % box_bytes, box_bytes);
}

// stmatrix.x4 of the 16-bit TMA-store epilogue: the address, in a group
// buffer, that lane `lane` of warp `w` gives when the warp stores 8-column
// blocks jb and jb + 1 (jb even) of its 16-row strip: lanes 8i .. 8i + 7
// address the rows of matrix i = (h = i % 2, block jb + i / 2), the strip's
// rows 8h .. 8h + 7. Row-major: matrix row r8 is D' row 16w + 8h + r8,
// columns 8 (jb + i / 2) ..; column-major (stmatrix .trans, which stores
// the transpose of each 8x8 matrix): the stored row r8 is group column
// 8 (jb + i / 2) + r8, holding D' rows 16w + 8h .. + 7.
// (Host-tested against the wgmma fragment map: test_hopper_gemm_sm90.)
__host__ __device__ constexpr int ws_stmatrix_row_offset(int w, int lane, int jb, int box_bytes, bool trans) {
  int const r8 = lane % 8, h = (lane / 8) % 2, dj = lane / 16;
  return trans ? ws_epi_offset(16 * w + 8 * h, 8 * (jb + dj) + r8, 2, box_bytes, true)
               : ws_epi_offset(16 * w + 8 * h + r8, 8 * (jb + dj), 2, box_bytes, false);
}

// Group `sub` (64 rows x up to kW = 128 / sizeof(TOut) columns) of a
// consumer warpgroup's m64nN block as this thread's f32 values, times alpha
// plus beta * C: v[4 jb + 2 h + e] is row 16w + g + 8h, column 8 jb + 2q + e
// of the group (zero past the block's kN columns). The C term is a separate
// pass over the values, skipped as a whole when beta == 0, so that the
// common case runs (and fetches) only the scaling; kReadC false compiles it
// out (the deferred epilogue, which the launcher never gives beta != 0), and
// p.c_tma skips it (C' is in the group's buffer: ws_epilogue_write_subtile).
template <class TOut, int kN, bool kReadC = true, class Acc>
__device__ __forceinline__ void ws_group_values(const Acc& acc, const WsGemmParams& p, int sub, int row0, int col0,
                                                float (&v)[4 * (128 / int(sizeof(TOut))) / 8]) {
  constexpr int kW = 128 / int(sizeof(TOut));
  constexpr int kBlocks = kW / 8;  // 8-column blocks of a full group
  int const t = threadIdx.x % 128;
  int const w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
  int const blocks = (kN - sub * kW) / 8 < kBlocks ? (kN - sub * kW) / 8 : kBlocks;  // in this group
#pragma unroll
  for (int i = 0; i < 4 * kBlocks; ++i) v[i] = i < 4 * blocks ? p.alpha * acc[4 * sub * kBlocks + i] : 0.0f;
  if (kReadC && p.beta != 0.0f && !p.c_tma) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      int const grow = row0 + 16 * w + g + 8 * h;
      if (grow >= p.m) continue;
#pragma unroll
      for (int jb = 0; jb < kBlocks; ++jb)
        if (jb < blocks)
          ws_add_c_pair<TOut>(p, grow, col0 + sub * kW + 8 * jb + 2 * q, v[4 * jb + 2 * h], v[4 * jb + 2 * h + 1]);
    }
  }
}

// Two values rounded to a 16-bit output type, packed as one register (the
// first in the low half), as stmatrix takes them.
template <class TOut>
__device__ __forceinline__ uint32_t ws_pack_pair(float a, float b) {
  if constexpr (std::is_same_v<TOut, __half>) {
    __half2 const x = __floats2half2_rn(a, b);
    return *reinterpret_cast<const uint32_t*>(&x);
  } else {
    __nv_bfloat162 const x = __floats2bfloat162_rn(a, b);
    return *reinterpret_cast<const uint32_t*>(&x);
  }
}

// The inverse of ws_pack_pair: the register's low half first.
template <class TOut>
__device__ __forceinline__ float2 ws_unpack_pair(uint32_t r) {
  if constexpr (std::is_same_v<TOut, __half>) return __half22float2(*reinterpret_cast<const __half2*>(&r));
  else return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&r));
}

// Writes group `sub` of a consumer warpgroup's m64nN f32 accumulator
// (ws_group_values) into `tile` (8 KiB, 1024-byte aligned) as
// ws_epi_offset lays it out for the TMA stores (kColMajor and p.d_trans:
// D' column-major, 16-bit outputs; kColMajor is
// WsGemmConfigT::kWideTmaStore).
// 16-bit outputs go out by stmatrix: the fragment of one 8x8 block of the
// accumulator (acc[4j + 2h], acc[4j + 2h + 1]: row g + 8h, columns 8j + 2q
// and + 1 of the warp's 16-row strip) is exactly the register an
// m8n8.b16 stmatrix takes from lane 4g + q, so one stmatrix.x4 (.trans for
// a column-major D') stores the 16x16 block of column blocks j and j + 1,
// each matrix row one whole 16-byte chunk. f32 outputs (row-major D' only)
// use 8-byte st.shared. Either way the 8 rows of one matrix land on 8
// different chunks of the 128-byte bank window: no bank conflicts.
// With p.c_tma, `tile` holds group `sub` of C' (ws_load_c_group, same
// layout): each thread first reads the C' values of the places it writes
// (ldmatrix at its stmatrix addresses; the f32 pairs it stores) and adds
// beta times them; the warp's later stores overwrite exactly what it read.
// `sub` is a compile-time constant after the callers' unrolling, so the
// blocks past kN in a narrower last group fold away.
template <class TOut, int kN, bool kColMajor, class Acc>
__device__ __forceinline__ void ws_epilogue_write_subtile(const Acc& acc, const WsGemmParams& p, uint8_t* tile,
                                                          int sub, int row0, int col0) {
  constexpr int kOutBytes = int(sizeof(TOut));
  constexpr int kW = 128 / kOutBytes;
  constexpr int kBlocks = kW / 8;  // 8-column blocks of a full group
  constexpr int kBox = ws_epi_box_bytes(kN * kOutBytes);
  int const t = threadIdx.x % 128;
  int const w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
  int const blocks = (kN - sub * kW) / 8 < kBlocks ? (kN - sub * kW) / 8 : kBlocks;  // in this group
  float v[4 * kBlocks];
  ws_group_values<TOut, kN>(acc, p, sub, row0, col0, v);
  if constexpr (kOutBytes == 2) {
#pragma unroll
    for (int jb = 0; jb < kBlocks; jb += 2) {
      if (jb >= blocks) continue;
      bool const trans = kColMajor && p.d_trans;
      uint8_t* const at = tile + ws_stmatrix_row_offset(w, lane, jb, kBox, trans);
      if (p.c_tma) {
        // ldmatrix from the addresses stmatrix writes hands each lane the
        // pairs of C' that its accumulator pairs become (the inverse map).
        uint32_t c[4];
        if (trans) arch::ldmatrix<4, true>(at, c);
        else arch::ldmatrix<4, false>(at, c);
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          int const k = 4 * (jb + i / 2) + 2 * (i % 2);
          float2 const cf = ws_unpack_pair<TOut>(c[i]);
          v[k] += p.beta * cf.x;
          v[k + 1] += p.beta * cf.y;
        }
      }
      uint32_t s[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        int const k = 4 * (jb + i / 2) + 2 * (i % 2);  // matrix i = (h = i % 2, jb + i / 2)
        s[i] = ws_pack_pair<TOut>(v[k], v[k + 1]);
      }
      if (trans) arch::stmatrix<4, true>(at, s);
      else arch::stmatrix<4, false>(at, s);
    }
  } else {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      int const r = 16 * w + g + 8 * h;  // row in the 64-row block
#pragma unroll
      for (int jb = 0; jb < kBlocks; ++jb)
        if (jb < blocks) {
          float2* const at = reinterpret_cast<float2*>(tile + ws_epi_offset(r, 8 * jb + 2 * q, kOutBytes, kBox, false));
          float2 x = make_float2(v[4 * jb + 2 * h], v[4 * jb + 2 * h + 1]);
          if (p.c_tma) {
            float2 const c = *at;
            x.x += p.beta * c.x;
            x.y += p.beta * c.y;
          }
          *at = x;
        }
    }
  }
}

// The deferred epilogue (WsGemmConfigT::kDeferStores: 16-bit outputs, a
// 64x256 block per consumer, row-major D', four full 64-column groups).
// ws_pack_group rounds group `sub` into 16 registers, s[4 (jb / 2) + i]
// the register of stmatrix matrix i = (h = i % 2, block jb + i / 2) for the
// even blocks jb; ws_store_packed_group stores them as
// ws_epilogue_write_subtile would have. alpha * acc only: beta * C is not
// read (beta != 0 takes WsGemmTmaStoreReadCConfig). With the C pass the
// kernel spilled 68 / 68 bytes, all of it but one 4-byte store per tile on
// the beta != 0 path (cuobjdump of run 384); without it, none (session 48).
template <class TOut, class Acc>
__device__ __forceinline__ void ws_pack_group(const Acc& acc, const WsGemmParams& p, int sub, int row0, int col0,
                                              uint32_t* s) {
  static_assert(sizeof(TOut) == 2, "ws_pack_group: 16-bit outputs only");
  float v[32];
  ws_group_values<TOut, 256, false>(acc, p, sub, row0, col0, v);
#pragma unroll
  for (int jb = 0; jb < 8; jb += 2)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      int const k = 4 * (jb + i / 2) + 2 * (i % 2);
      s[2 * jb + i] = ws_pack_pair<TOut>(v[k], v[k + 1]);
    }
}
__device__ __forceinline__ void ws_store_packed_group(const uint32_t* s, uint8_t* tile) {
  int const t = threadIdx.x % 128;
  int const w = t / 32, lane = t % 32;
#pragma unroll
  for (int jb = 0; jb < 8; jb += 2) {
    uint32_t const r[4] = {s[2 * jb], s[2 * jb + 1], s[2 * jb + 2], s[2 * jb + 3]};
    arch::stmatrix<4, false>(tile + ws_stmatrix_row_offset(w, lane, jb, 128, false), r);
  }
}

// The TMA boxes of group `sub` of the 64-row block at D' (row0, col0), as
// ws_epi_offset lays them out: f(byte offset in the group buffer, box
// coordinates c0, c1 in the D' tensor map) for each box, none for a box past
// the block's kN columns or wholly outside D'. box_bytes: one box's bytes.
template <class TOut, int kN, bool kColMajor>
struct WsGroupBoxes {
  static constexpr int kW = 128 / int(sizeof(TOut));
  static constexpr int kBoxCols = ws_epi_box_bytes(kN * int(sizeof(TOut))) / int(sizeof(TOut));
  static constexpr int kTransRows = ws_epi_trans_rows(kN);
  // Whether D' is column-major here (the launcher refuses f32 with a
  // column-major D').
  __device__ static bool trans(const WsGemmParams& p) { return kColMajor && sizeof(TOut) == 2 && p.d_trans; }
  __device__ static int box_bytes(const WsGemmParams& p) {
    return trans(p) ? 128 * kTransRows : 64 * kBoxCols * int(sizeof(TOut));
  }
  template <class F>
  __device__ static void each(const WsGemmParams& p, int sub, int row0, int col0, F&& f) {
    if (row0 >= p.m) return;
    bool const trans = WsGroupBoxes::trans(p);
    int const cols = trans ? kTransRows : kBoxCols;  // D' columns per box
#pragma unroll
    for (int bx = 0; bx < 4; ++bx) {  // at most 4 boxes per group (32-byte or 16-row boxes)
      int const c = sub * kW + bx * cols;  // first column of box bx in the block
      if (bx * cols >= kW || c >= kN || col0 + c >= p.n) continue;
      int const off = bx * cols * (trans ? 128 : 64 * int(sizeof(TOut)));
      if (trans) f(off, row0, col0 + c);
      else f(off, col0 + c, row0);
    }
  }
};

// Thread 0's TMA stores of group `sub` from `tile` (WsGroupBoxes).
template <class TOut, int kN, bool kColMajor>
__device__ __forceinline__ void ws_store_subtile(const WsGemmParams& p, const void* tmap_d, uint8_t* tile, int sub,
                                                 int row0, int col0) {
  WsGroupBoxes<TOut, kN, kColMajor>::each(
      p, sub, row0, col0, [&](int off, int c0, int c1) { arch::tma_store_2d(tmap_d, tile + off, c0, c1); });
}

// Thread 0 (p.c_tma): group `sub` of C' into `tile` by TMA, the same boxes
// at the same offsets as the stores of D' (tmap_c is encoded as tmap_d with
// C's base and rows), completing one phase of `bar`: its expected bytes are
// those of the boxes issued (a box partly outside C' counts whole; TMA fills
// the outside with zeros), and a group with no box completes the phase by
// the arrival alone. The buffer must be free: no store still reading it.
template <class TOut, int kN, bool kColMajor>
__device__ __forceinline__ void ws_load_c_group(const WsGemmParams& p, const void* tmap_c, uint8_t* tile,
                                                uint64_t* bar, int sub, int row0, int col0) {
  using Boxes = WsGroupBoxes<TOut, kN, kColMajor>;
  uint32_t boxes = 0;
  Boxes::each(p, sub, row0, col0, [&](int, int, int) { ++boxes; });
  arch::mbarrier_arrive_expect_tx(bar, boxes * uint32_t(Boxes::box_bytes(p)));
  Boxes::each(p, sub, row0, col0,
              [&](int off, int c0, int c1) { arch::tma_load_2d(tile + off, tmap_c, bar, c0, c1); });
}

// Groups (64 rows x 128 bytes) of a consumer warpgroup's 64 x kN block of
// TOut outputs.
template <class TOut, int kN>
inline constexpr int kWsEpiGroups = (kN * int(sizeof(TOut)) + 127) / 128;

// A consumer's C' source for the TMA-store epilogue (p.c_tma): the tensor
// map and the consumer's two barriers, bar[b] completing once per group of
// C' loaded into buffer b; bit b of `phase` is the parity of bar[b]'s next
// completion (every thread of the warpgroup waits on each, so each keeps
// the same bits).
struct WsEpiC {
  const void* tmap = nullptr;
  uint64_t* bar = nullptr;
  uint32_t phase = 0;
};

// Thread 0 (p.c_tma): groups 0 and 1 of C' for the block at (row0, col0)
// into the two buffers of `buf`, after every store still reading them.
template <class TOut, int kN, bool kColMajor>
__device__ __forceinline__ void ws_prefetch_c(const WsGemmParams& p, const WsEpiC& c, uint8_t* buf, int row0,
                                              int col0) {
  constexpr int kSub = kWsEpiGroups<TOut, kN>;
  arch::tma_store_wait_read<0>();
#pragma unroll
  for (int sub = 0; sub < (kSub < 2 ? kSub : 2); ++sub)
    ws_load_c_group<TOut, kN, kColMajor>(p, c.tmap, buf + sub * 8192, &c.bar[sub], sub, row0, col0);
}

// One m64nN f32 accumulator of a consumer warpgroup -> shared memory ->
// TMA store, in groups of 64 rows x kW columns (ws_epilogue_write_subtile).
// `buf` holds two kEpiTileBytes buffers. Buffer reuse: thread 0 of the
// warpgroup issues every store of this warpgroup; before a buffer is
// rewritten it waits until at most one bulk group (the other buffer's) is
// still reading, then the warpgroup meets at named barrier `bar_id`. A block
// of an odd number of groups waits for all of its stores before its first
// group instead: the previous call's last group used buffer 0 too (that
// wait comes a whole K loop after those stores were issued).
// `ring` (not null): group g goes to ring + g * ring_stride instead, 8 KiB
// that nothing else uses until the kernel ends (a cooperative consumer's own
// A rows of ring stage g after its last unit), and no group waits.
// p.c_tma (beta * C' by TMA): groups 0 and 1 of C' come into the two
// buffers first (ws_prefetch_c; `c_issued`: the caller already did, in
// the K loop), group g + 2 into g's buffer as soon
// as g's store has read it; each group waits for its C' instead of for a
// buffer, and `ring` is not used (its stages may still be read by wgmma
// where the loads are issued early).
// NOTE: session 42, run 355 (H200, layouts.sh, rotating inputs, same run,
// the defaults without -> with the ring): 2048x1024x512 0.920 -> 0.937,
// 1536^3 0.858 -> 0.864, 1536^2x1024 0.888 -> 0.895, 3072^2x512 0.963 ->
// 0.967; 2048^3, 2560^2x4096 and 4096^3 within 0.2%.
template <class TOut, int kN, bool kColMajor, class Acc>
__device__ __forceinline__ void ws_epilogue_tma(const Acc& acc, const WsGemmParams& p, const void* tmap_d,
                                                uint8_t* buf, uint32_t bar_id, int row0, int col0,
                                                uint8_t* ring, int ring_stride, WsEpiC& c, bool c_issued) {
  constexpr int kSub = kWsEpiGroups<TOut, kN>;
  static_assert((kN * int(sizeof(TOut))) % 32 == 0 && (sizeof(TOut) == 4 || kN % 16 == 0),
                "ws_epilogue_tma: a 64xN block must split into TMA boxes of at least 32 bytes and whole 16x16 "
                "stmatrix blocks");
  int const t = threadIdx.x % 128;
  bool const c_tma = p.c_tma;
  if (c_tma) ring = nullptr;
  if (c_tma && !c_issued && t == 0) ws_prefetch_c<TOut, kN, kColMajor>(p, c, buf, row0, col0);
#pragma unroll
  for (int sub = 0; sub < kSub; ++sub) {
    uint8_t* const tile = ring ? ring + sub * ring_stride : buf + (sub % 2) * 8192;
    if (c_tma) {
      arch::mbarrier_wait(&c.bar[sub % 2], (c.phase >> (sub % 2)) & 1u);
      c.phase ^= 1u << (sub % 2);
    } else if (t == 0 && !ring) {
      if (sub == 0 && kSub % 2 == 1) arch::tma_store_wait_read<0>();
      else arch::tma_store_wait_read<1>();
    }
    arch::named_barrier_sync(bar_id, 128);
    ws_epilogue_write_subtile<TOut, kN, kColMajor>(acc, p, tile, sub, row0, col0);
    // Generic-proxy writes -> visible to the async proxy (the TMA store),
    // then every thread's part is in before thread 0 issues the store.
    arch::fence_proxy_async_shared_cta();
    arch::named_barrier_sync(bar_id, 128);
    if (t == 0) {
      // An empty bulk group (group outside D) keeps the
      // one-group-per-buffer count of the wait above.
      ws_store_subtile<TOut, kN, kColMajor>(p, tmap_d, tile, sub, row0, col0);
      arch::tma_store_commit_group();
      if (c_tma && sub + 2 < kSub) {
        arch::tma_store_wait_read<0>();
        ws_load_c_group<TOut, kN, kColMajor>(p, c.tmap, tile, &c.bar[sub % 2], sub + 2, row0, col0);
      }
    }
  }
}

// Split-K, one consumer warpgroup's 64 x kN block (rows r0.. of the split
// tile whose f32 accumulation buffer is `ws`: kBM x kN floats, all zero
// between launches; the block's 64 x kN floats start at ws + r0 * kN, in
// fragment order: thread t's acc[4i .. 4i + 3] at float4 i * 128 + t): add
// the unscaled sum into the block with red.global.add.v4 (in L2, from every
// unit of the tile), count in on counter `slot`; if this unit is the last
// of the `splits` units of the block, load the whole sum into `acc`, zero
// the block again for the next launch and return true: the caller then
// runs its ordinary epilogue (alpha, beta, D) on acc. Otherwise false.
// NOTE: run 15 (H100): with one slice per unit and the last unit summing all
// of them, the finishing read was splits x 64 x kN x 4 bytes through one SM
// (2 MB for 16 slices of 128x256: ~20 us); the in-L2 reduction leaves one
// block read per tile whatever the split count. The order of the float
// additions in L2 is not fixed, so split-K results may differ in the last
// bits from run to run.
// NOTE: run 88 (H100, scripts/gpu/fixup_bw.sh): handing a 128x256 f32 tile
// to L2 took 4.18 us from one SM (8.76 us with 132 SMs at once) as
// red.add.v2 in the fragment's row pattern (8 rows x 32 bytes per warp
// instruction), 2.62 us (5.31) as red.add.v4 in fragment order (512
// contiguous bytes per instruction); plain st.global.cg.v4 2.10 (4.42),
// bulk reduce from shared memory 3.26 (5.54).
// Ordering: the warpgroup's reductions, a warpgroup barrier, then thread 0's
// acq_rel increment of the counter (release: this unit's additions are
// performed before its count; acquire: the last unit sees every other
// unit's), then a barrier before the reads (L1 bypassed: other SMs added the
// data). No unit waits for another, so any schedule of the units terminates.
// Through an F16AccView (an f16 accumulator read in place) the f32 sum is
// rounded to f16, as the unsplit K loop leaves it; an F32AccView keeps it.
template <int kN, class Acc>
__device__ __forceinline__ bool ws_splitk_gather(const Acc& acc, const WsGemmParams& p, float* ws, int r0, int slot,
                                                 uint32_t bar_id, volatile int* last_flag) {
  int const t = threadIdx.x % 128;
  float4* const block = reinterpret_cast<float4*>(ws + std::int64_t(r0) * kN);
  constexpr int kVec = kN / 8;  // float4s per thread
#pragma unroll
  for (int i = 0; i < kVec; ++i)
    arch::red_add_quad_f32(reinterpret_cast<float*>(block + i * 128 + t), acc[4 * i], acc[4 * i + 1], acc[4 * i + 2],
                           acc[4 * i + 3]);
  arch::named_barrier_sync(bar_id, 128);
  if (t == 0) {
    // acq_rel (arch/gpu_atomic.cuh): publishes this warpgroup's additions
    // (the barrier above ordered them first) and, for the last unit,
    // acquires every other unit's.
    int const before = arch::atomic_add_acq_rel_gpu(p.counters + slot, 1);
    bool const last = before == p.splits - 1;
    // Every unit of the block has counted in: reset for the next launch.
    if (last) arch::store_relaxed_gpu(p.counters + slot, 0);
    *last_flag = last ? 1 : 0;
  }
  arch::named_barrier_sync(bar_id, 128);
  if (*last_flag == 0) return false;
#pragma unroll
  for (int i = 0; i < kVec; ++i) acc.set4(i, __ldcg(block + i * 128 + t));
#pragma unroll
  for (int i = 0; i < kVec; ++i) __stcg(block + i * 128 + t, make_float4(0.0f, 0.0f, 0.0f, 0.0f));
  return true;
}

// A work unit: a whole tile, or one K-slice of a split tile (tiles from
// p.split_from on, when p.splits > 1), covering K-blocks [kb0, kb0 + kbs).
struct WsUnit {
  int tile, kb0, kbs;
};

// The work units of a launch: tiles, or tile-row pairs x tile columns for a
// cluster (`rows` unit rows); whole tiles [0, split_from), then the split
// tiles' K-slices, slice fastest (ws_unit). Each role of ws_gemm_kernel
// computes them after its setmaxnreg: a value computed before the role split
// and live across setmaxnreg is spilled by ptxas (one local store before
// it, a reload after). The empty asm keeps the parameter reads on this side
// of the caller's setmaxnreg. It was the whole spill of the cooperative
// 128x256 deferred kernel with f16 accumulation (4 / 16 bytes; found in
// session 45, adopted in session 46: same-run A/B of runs 378-379 within
// the spread, 8192^3 1.028 -> 1.028, 128x8192x8192 0.948 -> 0.971).
struct WsUnitCounts {
  int rows;
  int units;
};
template <int kCluster>
__device__ __forceinline__ WsUnitCounts ws_unit_counts(const WsGemmParams& p) {
  int tiles_m = p.tiles_m, tiles_n = p.tiles_n, splits = p.splits, split_from = p.split_from;
  asm volatile("" : "+r"(tiles_m), "+r"(tiles_n), "+r"(splits), "+r"(split_from));
  int const rows = kCluster == 2 ? (tiles_m + 1) / 2 : tiles_m;
  int const tiles = rows * tiles_n;
  return {rows, splits == 1 ? tiles : split_from + (tiles - split_from) * splits};
}

// The stride between one CTA's (or cluster's) work units: the grid's CTAs
// (clusters). Read after the caller's setmaxnreg for the same reason as
// ws_unit_counts: read before it, ptxas kept it live across and spilled it
// in ping-pong 128x128 with f16 accumulation (its last 4 bytes; session 46,
// measured no slower in session 47, runs 383-384).
template <int kCluster>
__device__ __forceinline__ int ws_unit_step() {
  return kCluster == 2 ? int(gridDim.x) / 2 : int(gridDim.x);
}

__device__ __forceinline__ WsUnit ws_unit(int u, const WsGemmParams& p) {
  if (p.splits == 1 || u < p.split_from) return {u, 0, p.k_blocks};
  int const v = u - p.split_from;
  int const q = v / p.splits;
  int const kb0 = (v - q * p.splits) * p.split_k_blocks;
  int const left = p.k_blocks - kb0;
  return {p.split_from + q, kb0, left < p.split_k_blocks ? left : p.split_k_blocks};
}

// A consumer warp gives a ring stage back: to its own CTA's producer and,
// in a cluster, to the peer's (whose multicast also writes this stage).
template <class Cfg>
__device__ __forceinline__ void ws_release(uint64_t* empty_bar, uint32_t rank) {
  arch::mbarrier_arrive(empty_bar);
  if constexpr (Cfg::kCluster == 2) arch::mbarrier_arrive_cluster(empty_bar, rank ^ 1u);
}

// The wgmma family of the mainloop: f32 accumulation for every input type,
// or f16 accumulation (F16F16F16) for f16 inputs when kF16Acc.
template <class TIn, bool kF16Acc>
using WsMmaFamily = std::conditional_t<kF16Acc, arch::F16F16F16, typename WsFamily<TIn>::type>;

// kF16Acc: f16 inputs accumulate in f16 (wgmma .f16.f16.f16: one packed
// register per two f32 fragment values, the same element map), the
// request of GemmArgs::accumulate == f16. The epilogue (and a split-K
// unit's hand-off) widens the finished block to f32 first, so every
// epilogue below serves both.
template <class TIn, class TOut, class Cfg = WsGemmConfig, bool kF16Acc = false>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    ws_gemm_kernel(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
                   const __grid_constant__ CUtensorMap tmap_d, const __grid_constant__ CUtensorMap tmap_c,
                   const WsGemmParams p) {
#if TESSERA_SM90A_ENABLED
  static_assert(!kF16Acc || (std::is_same_v<TIn, __half> && std::is_same_v<TOut, __half>),
                "ws_gemm_kernel: f16 accumulation is offered for f16 inputs and an f16 output only");
  using Mma = arch::Wgmma<WsMmaFamily<TIn, kF16Acc>, Cfg::kBlockN>;
  using AccReg = std::conditional_t<kF16Acc, uint32_t, float>;
  constexpr int kAccF32 = Cfg::kBlockN / 2;  // f32 values of one m64nN block per thread
  constexpr int kBlockK = Cfg::template kBlockK<TIn>;
  static_assert(Mma::kK * int(sizeof(TIn)) == 32, "ws_gemm_kernel: one wgmma K step must be 32 bytes of the swizzle row");
  static_assert(Mma::kRegsD * (kF16Acc ? 2 : 1) == kAccF32,
                "ws_gemm_kernel: an f16 accumulator register holds two values of the f32 fragment");
  static_assert(kAccF32 * Cfg::kHalves <= 128, "ws_gemm_kernel: a consumer holds at most 128 f32 accumulators per thread");

  extern __shared__ __align__(1024) uint8_t smem_raw[];
  // The 128B swizzle pattern and the wgmma descriptor both work on absolute
  // address bits: every stage must start 1024-byte aligned.
  uint32_t const raw_addr = arch::smem_u32(smem_raw);
  uint8_t* const smem = smem_raw + ((1024u - (raw_addr & 1023u)) & 1023u);
  uint8_t* const sA = smem;                                 // kStages x (kBlockM rows x 128 B)
  uint8_t* const sB = smem + Cfg::kStages * Cfg::kABytes;   // kStages x (256 rows x 128 B)
  uint8_t* const sEpi = smem + Cfg::kStages * Cfg::kStageBytes;  // kConsumers x 2 x 8 KiB (kTmaStore)
  uint64_t* const full = reinterpret_cast<uint64_t*>(sEpi + Cfg::kEpiBytes);
  uint64_t* const empty = full + Cfg::kStages;
  // Ping-pong only: order[c] completes a phase each time consumer c has
  // passed every full[] wait of one of its tiles (see the consumer loop).
  uint64_t* const order = empty + Cfg::kStages;
  // Split-K: per consumer, whether its unit was the last of its block.
  volatile int* const last_flag = reinterpret_cast<volatile int*>(order + 2);
  // p.c_tma: consumer c's C' barriers c_bar[2c], c_bar[2c + 1] (WsEpiC).
  uint64_t* const c_bar = order + 3;

  int const wg = int(threadIdx.x) / 128;
  int const warp = int(threadIdx.x) / 32;
  int const lane = int(threadIdx.x) % 32;
  TESSERA_WS_MARK_IF(threadIdx.x == 0, 0);  // sm90_ws_timeline.cuh: nothing unless measuring

  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < Cfg::kStages; ++s) {
      arch::mbarrier_init(&full[s], 1);
      arch::mbarrier_init(&empty[s], Cfg::kConsumerWarps);
    }
    arch::mbarrier_init(&order[0], 1);
    arch::mbarrier_init(&order[1], 1);
#pragma unroll
    for (int b = 0; b < 2 * Cfg::kConsumers; ++b) arch::mbarrier_init(&c_bar[b], 1);
    arch::fence_mbarrier_init();
  }
  __syncthreads();
  TESSERA_WS_MARK_IF(threadIdx.x == 0, 9);

  // Work units (ws_unit_counts and the stride between a CTA's units,
  // ws_unit_step, computed by each role after its setmaxnreg).
  uint32_t const rank = Cfg::kCluster == 2 ? arch::cluster_ctarank() : 0u;
  int const unit0 = Cfg::kCluster == 2 ? int(blockIdx.x) / 2 : int(blockIdx.x);
  // Cluster: the peer's barriers exist before any multicast or remote
  // arrive. The inits are released by fence_mbarrier_init, so the arrival
  // is relaxed (the release form costs a GPU-scope membar).
  if constexpr (Cfg::kCluster == 2) {
    arch::cluster_arrive_relaxed();
    arch::cluster_wait();
  }

  if (wg == 0) {
    // ---------------- producer warpgroup ----------------
    arch::setmaxnreg_dec<Cfg::kProducerRegs>();
    WsUnitCounts const units = ws_unit_counts<Cfg::kCluster>(p);
    int const unit_rows = units.rows, num_tiles = units.units;
    int const unit_step = ws_unit_step<Cfg::kCluster>();
    if (warp == 0 && arch::elect_one_sync()) {
      arch::tma_prefetch_descriptor(&tmap_a);
      arch::tma_prefetch_descriptor(&tmap_b);
      TESSERA_WS_MARK_IF(true, 10);
      int stage = 0;
      uint32_t phase = 0;
      auto next_stage = [&]() {
        if (++stage == Cfg::kStages) {
          stage = 0;
          phase ^= 1u;
        }
      };
      for (int tile = unit0; tile < num_tiles; tile += unit_step) {
        int tm, tn;
        WsUnit const unit = ws_unit(tile, p);
        ws_tile_coords(unit.tile, p, tm, tn, unit_rows);
        if constexpr (Cfg::kCluster == 2) tm = 2 * tm + int(rank);
        for (int kb = unit.kb0; kb < unit.kb0 + unit.kbs; ++kb) {
          TESSERA_WS_MARK_IF(tile == unit0 && kb == unit.kb0, 11);
          arch::mbarrier_wait(&empty[stage], phase ^ 1u);
          // Cluster: the full stage still arrives here as kStageBytes (own A,
          // own B half, the peer's B half multicast into this CTA).
          arch::mbarrier_arrive_expect_tx(&full[stage], uint32_t(Cfg::kStageBytes));
          if (p.a_mn) {
            // (128 bytes of M', kBlockK rows) per box.
            constexpr int kBoxM = Cfg::template kMnBoxA<TIn>;
#pragma unroll
            for (int j = 0; j < Cfg::kBlockM / kBoxM; ++j)
              arch::tma_load_2d(sA + stage * Cfg::kABytes + j * Cfg::template kMnBoxBytesA<TIn>, &tmap_a,
                                &full[stage], tm * Cfg::kBlockM + kBoxM * j, kb * kBlockK);
          } else {
            arch::tma_load_2d(sA + stage * Cfg::kABytes, &tmap_a, &full[stage], kb * kBlockK, tm * Cfg::kBlockM);
          }
          if (p.b_mn) {
            // (kMnBytesB of N', kBlockK rows) per box; in a cluster each CTA
            // loads its share of the boxes (rank 0 the first half), multicast
            // into both at the same offsets.
            constexpr int kBoxN = Cfg::kMnBytesB / 2;
            constexpr int kBoxes = Cfg::kBlockN / kBoxN;
            constexpr int kMine = kBoxes / Cfg::kCluster;
            static_assert(kMine * Cfg::kCluster == kBoxes, "WsGemmConfig: a cluster pair multicasts whole MN-major B boxes");
#pragma unroll
            for (int i = 0; i < kMine; ++i) {
              int const j = int(rank) * kMine + i;
              uint8_t* const dst = sB + stage * Cfg::kBBytes + j * Cfg::kMnAtomBytesB;
              if constexpr (Cfg::kCluster == 2)
                arch::tma_load_2d_multicast(dst, &tmap_b, &full[stage], uint16_t(0x3), tn * Cfg::kBlockN + kBoxN * j,
                                            kb * kBlockK);
              else
                arch::tma_load_2d(dst, &tmap_b, &full[stage], tn * Cfg::kBlockN + kBoxN * j, kb * kBlockK);
            }
          } else if constexpr (Cfg::kCluster == 2) {
            int const half = Cfg::kBlockN / 2;
            arch::tma_load_2d_multicast(sB + stage * Cfg::kBBytes + int(rank) * half * 128, &tmap_b, &full[stage],
                                        uint16_t(0x3), kb * kBlockK, tn * Cfg::kBlockN + int(rank) * half);
          } else {
            arch::tma_load_2d(sB + stage * Cfg::kBBytes, &tmap_b, &full[stage], kb * kBlockK, tn * Cfg::kBlockN);
          }
          TESSERA_WS_MARK_IF(tile == unit0 && kb == unit.kb0, 1);
          next_stage();
        }
      }
      TESSERA_WS_MARK_IF(true, 2);
      // Cluster: the peer's consumers give this CTA's stages back with
      // remote arrives, which must land before this CTA exits. Waiting, as
      // for one more round of fills, until both CTAs' consumers have given
      // back every stage covers them, and the peer has consumed every half
      // multicast from here. (This replaces a cluster barrier at the exit,
      // which also waited for the slower CTA's epilogue.) It needs every
      // filled stage given back, which the consumers of every
      // configuration do at the end of each unit.
      if constexpr (Cfg::kCluster == 2) {
        for (int i = 0; i < Cfg::kStages; ++i) {
          arch::mbarrier_wait(&empty[stage], phase ^ 1u);
          next_stage();
        }
      }
    }
  } else {
    // ---------------- consumer warpgroups ----------------
    arch::setmaxnreg_inc<Cfg::kConsumerRegs>();
    WsUnitCounts const units = ws_unit_counts<Cfg::kCluster>(p);
    int const unit_rows = units.rows, num_tiles = units.units;
    int const unit_step = ws_unit_step<Cfg::kCluster>();
    int const cw = wg - 1;
    TESSERA_WS_CONSUMER_STATE;
    AccReg acc[Cfg::kHalves][Mma::kRegsD];
    // Row block hf as f32 fragment values (acc_view.cuh). f16 accumulators:
    // a consumer's one block (cooperative 64x256; ping-pong 64xN) is read in
    // place, each value widened where the epilogue uses it; the two 64x128
    // blocks of ping-pong 128x128 are both widened into `widened` when the K
    // loop ends. Widening in the cooperative kernels (the first version)
    // spilled 4 bytes there; read in place they are spill-free and as fast
    // (run 143). Ping-pong 128x128 widens: read in place it ran 3% slower
    // at 1000^3 (run 143, same machine), and widening one block at a time
    // before its epilogue no faster (run 144). Its 8-byte spill, long put
    // down to the widening, was the launch values live across setmaxnreg
    // (ws_unit_counts, ws_unit_step; session 46).
    constexpr bool kWiden = kF16Acc && Cfg::kHalves > 1;
    [[maybe_unused]] float widened[kWiden ? Cfg::kHalves : 1][kWiden ? kAccF32 : 1];
    auto acc_view = [&](int hf) {
      if constexpr (kWiden) return F32AccView<kAccF32>{widened[hf]};
      else if constexpr (kF16Acc) return F16AccView<kAccF32>{acc[hf]};
      else return F32AccView<kAccF32>{acc[hf]};
    };
    // `seq` numbers the K-blocks the producer streams through the ring (all
    // of the CTA's tiles, in order): stage seq % kStages, phase parity
    // (seq / kStages) & 1. Ping-pong: this consumer's tiles are the CTA's
    // units 2i + cw and it skips the other's K-blocks after each unit.
    // Cooperative: every tile, rows 64 * cw .. 64 * cw + 63.
    int const tile_step = Cfg::kPingPong ? 2 * unit_step : unit_step;
    int const first = Cfg::kPingPong ? unit0 + cw * unit_step : unit0;
    uint32_t seq = 0;  // ring sequence number
    if (Cfg::kPingPong && cw == 1 && unit0 < num_tiles) seq = uint32_t(ws_unit(unit0, p).kbs);
    int const a_row_off = Cfg::kPingPong ? 0 : cw * 64 * 128;                   // bytes into the A stage
    // tf32 with an MN-major A' (p.a_mn): wgmma has no transposed tf32 form,
    // so each consumer reads its A' rows from the MN-major stage into
    // registers and issues the RS form. Per m64k8 step thread (warp w of the
    // warpgroup, g = lane / 4, q = lane % 4) holds the mma.sync tf32 A
    // fragment of its warp's 16 rows: (g, q), (g + 8, q), (g, q + 4),
    // (g + 8, q + 4). Element (m, k) of the stage lies in box m / 32 (32 K
    // rows of 128 bytes, 128B swizzle) at k * 128 + ((m % 32 / 4) ^ (k % 8))
    // * 16 + (m % 4) * 4. rs_off[i]: the byte offset of fragment value i at
    // row block 0, k step 0; row block hf adds 2 boxes (8 KiB), a k8 step 8
    // rows (1 KiB), neither changing the swizzle term.
    [[maybe_unused]] uint32_t rs_off[4];
    if constexpr (sizeof(TIn) == 4) {
      int const g = lane / 4, q = lane % 4;
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        int const m = a_row_off / 128 + 16 * (warp % 4) + g + 8 * (i & 1);
        int const k = q + 4 * (i >> 1);
        rs_off[i] = uint32_t((m / 32) * 4096 + k * 128 + ((((m % 32) >> 2) ^ (k & 7)) << 4) + (m & 3) * 4);
      }
    }
    uint32_t my_tiles = 0;  // tiles this consumer has started
    [[maybe_unused]] WsEpiC epi_c;
    epi_c.tmap = &tmap_c;
    epi_c.bar = c_bar + 2 * cw;
    // kDeferStores (16-bit outputs): the last block this consumer finished,
    // packed to 16 bits in registers (four groups of 16), whose groups go to
    // shared memory and out by TMA store one per K-block, group j in K-block
    // j of the next unit (between its wgmma issue and its wait), through
    // the consumer's two 8 KiB buffers: D' block (pend_row0, pend_col0).
    constexpr bool kDefer = Cfg::kDeferStores && sizeof(TOut) == 2;
    // Only the 16-bit K loop stores groups (the tf32 one never has a 16-bit output).
    static_assert(!kDefer || sizeof(TIn) == 2, "ws_gemm_kernel: kDeferStores with a 16-bit output needs 16-bit inputs");
    [[maybe_unused]] uint32_t packed[kDefer ? 64 : 1];
    bool pending = false;
    int pend_row0 = 0, pend_col0 = 0;
    auto store_group = [&](int j, bool in_ring = false) {
      if constexpr (kDefer) {
        uint8_t* const buf = in_ring ? sA + a_row_off + j * Cfg::kABytes
                                     : sEpi + cw * 2 * Cfg::kEpiTileBytes + (j % 2) * Cfg::kEpiTileBytes;
        // The group that last read this buffer was issued two groups ago.
        if (threadIdx.x % 128 == 0 && !in_ring) arch::tma_store_wait_read<1>();
        arch::named_barrier_sync(uint32_t(1 + cw), 128);
        ws_store_packed_group(packed + 16 * j, buf);
        arch::fence_proxy_async_shared_cta();
        arch::named_barrier_sync(uint32_t(1 + cw), 128);
        if (threadIdx.x % 128 == 0) {
          ws_store_subtile<TOut, Cfg::kBlockN, false>(p, &tmap_d, buf, j, pend_row0, pend_col0);
          arch::tma_store_commit_group();
        }
      }
    };
    // The packed block's groups from `from` on (compile-time indices into
    // `packed` after unrolling).
    auto store_pending = [&](int from, bool in_ring = false) {
      if constexpr (kDefer) {
        if (pending) {
#pragma unroll
          for (int j = 0; j < 4; ++j)
            if (j >= from) store_group(j, in_ring);
        }
        pending = false;
      }
    };
    for (int tile = first; tile < num_tiles; tile += tile_step, ++my_tiles) {
      int tm, tn;
      WsUnit const unit = ws_unit(tile, p);
      // Whether this consumer goes on to the epilogue for the 64-row block
      // at D' row row0: always for a whole tile; for a K-slice of a split
      // tile only as the block's last unit, with the whole sum then in `a`.
      auto finishes_block = [&](auto const& a, int row0) {
        if (p.splits == 1 || unit.tile < p.split_from) return true;
        int const r0 = row0 - tm * Cfg::kBlockM;  // row block inside the tile
        float* const ws = p.partial + std::int64_t(unit.tile - p.split_from) * (Cfg::kBlockM * Cfg::kBlockN);
        int const slot = unit.tile * (Cfg::kBlockM / 64) + r0 / 64;
        return ws_splitk_gather<Cfg::kBlockN>(a, p, ws, r0, slot, uint32_t(1 + cw), last_flag + cw);
      };
      ws_tile_coords(unit.tile, p, tm, tn, unit_rows);
      if constexpr (Cfg::kCluster == 2) tm = 2 * tm + int(rank);
      if constexpr (Cfg::kPingPong) {
        // A waiter on full[s] must not be two phases ahead of the barrier
        // (parity would alias): start this tile's K-blocks only once the
        // other consumer has passed all full[] waits of the CTA tile before
        // (whose fills include the previous use of every stage we need).
        // Consumer 1 waits for consumer 0's (my_tiles)-th signal, consumer 0
        // (from its second tile on) for consumer 1's (my_tiles - 1)-th.
        if (cw == 1) arch::mbarrier_wait(&order[0], my_tiles & 1u);
        else if (my_tiles > 0) arch::mbarrier_wait(&order[1], (my_tiles - 1u) & 1u);
      }
      if constexpr (kF16Acc) {
        // The tile's first wgmma (scale-d 0) ignores acc but names it as an
        // in-out operand, so whatever defined acc last would reach it around
        // the tile loop: the previous tile's wgmma, or the split-K finish's
        // f16 stores (F16AccView::set4). An empty asm that "defines" acc
        // here ends those live ranges without emitting an instruction. A
        // real definition (acc = 0 after widening, session 13's first version)
        // made ptxas serialise every wgmma of the kernel (C7515, "non wgmma
        // instructions defining accumulator registers"): 0.53-0.72x cuBLAS
        // in the ping-pong kernels (run 137). ptxas 13.0 accepts the split-K
        // stores even without this asm; it stays so that no non-wgmma
        // definition can reach a wgmma. tests/ptxas/ fails on C7515.
#pragma unroll
        for (int hf = 0; hf < Cfg::kHalves; ++hf)
#pragma unroll
          for (int r = 0; r < Mma::kRegsD; ++r) asm volatile("" : "=r"(acc[hf][r]));
      }
      int prev_stage = 0;
      // beta * C' by TMA: the first two groups of C' (of row block 0) start
      // loading at K-block c_at of the K loop (thread 0 of the consumer only;
      // -1 elsewhere), most of a K loop before the epilogue reads them. Their
      // buffers are free once the previous epilogue's stores have read them:
      // ws_prefetch_c waits for that, two K-blocks after those stores were
      // issued. A whole tile always runs its epilogue (a K-slice of a split
      // tile learns that only later).
      // NOTE: session 48 issued them behind the last K-block's wgmmas, so
      // the epilogue's first wait met most of a TMA load's latency. Run 398
      // (H200, same-run A/B, beta = 1): 4096^3 0.949 -> 0.959x cuBLAS,
      // 8192^3 0.991 -> 1.003, 1536^3 0.816 -> 0.832; beta = 0 unchanged.
      [[maybe_unused]] bool c_early = false;
      [[maybe_unused]] int c_at = -1;
      if constexpr (Cfg::kTmaStore && !kDefer) {
        c_early = p.c_tma && (p.splits == 1 || unit.tile < p.split_from);
        if (c_early && threadIdx.x % 128 == 0) c_at = unit.kbs > 2 ? 2 : unit.kbs - 1;
      }
      auto prefetch_c = [&](int kb) {
        if constexpr (Cfg::kTmaStore && !kDefer)
          if (kb == c_at)
            ws_prefetch_c<TOut, Cfg::kBlockN, Cfg::kTransTmaStore>(p, epi_c, sEpi + cw * 2 * Cfg::kEpiTileBytes,
                                                                  tm * Cfg::kBlockM + a_row_off / 128,
                                                                  tn * Cfg::kBlockN);
      };
      // The K loop, per operand major-ness (the wgmma transpose immediates
      // are compile-time: one copy of the loop per case, chosen per tile).
      auto mainloop = [&]<int kMnA, int kMnB>() {
        for (int kb = 0; kb < unit.kbs; ++kb, ++seq) {
          int const stage = int(seq % uint32_t(Cfg::kStages));
          uint32_t const phase = (seq / uint32_t(Cfg::kStages)) & 1u;
          arch::mbarrier_wait(&full[stage], phase);
          TESSERA_WS_CONSUMER_DATA(cw);
          // Row block a_row_off / 128 of A' and each 64-row half hf start
          // 64 x 128 B = 8 KiB apart in both majors. A k16 (tf32: k8) step
          // is 32 bytes inside the K-major 128-byte swizzle row, or 16 rows
          // of W bytes of an MN-major box.
          uint32_t const a_addr = arch::smem_u32(sA + stage * Cfg::kABytes + a_row_off);
          uint32_t const b_addr = arch::smem_u32(sB + stage * Cfg::kBBytes);
          arch::GmmaDescriptor const da =
              kMnA ? arch::make_gmma_desc_mn_major<arch::GmmaSwizzle::b128>(a_addr, Cfg::kMnAtomBytesA)
                   : arch::make_gmma_desc_k_major<arch::GmmaSwizzle::b128, 128>(a_addr);
          arch::GmmaDescriptor const db =
              kMnB ? arch::make_gmma_desc_mn_major<Cfg::kMnSwizzleB>(b_addr, Cfg::kMnAtomBytesB)
                   : arch::make_gmma_desc_k_major<arch::GmmaSwizzle::b128, 128>(b_addr);
          constexpr uint32_t kStepA = kMnA ? 16u * 128u : 32u;
          constexpr uint32_t kStepB = kMnB ? 16u * uint32_t(Cfg::kMnBytesB) : 32u;
#pragma unroll
          for (int hf = 0; hf < Cfg::kHalves; ++hf) arch::wgmma_fence_operand(acc[hf]);
          arch::wgmma_fence();
#pragma unroll
          for (int kk = 0; kk < kBlockK / Mma::kK; ++kk) {
#pragma unroll
            for (int hf = 0; hf < Cfg::kHalves; ++hf)
              Mma::template ss<kMnA, kMnB>(acc[hf], da.advanced(kStepA * kk + 8192u * hf).desc,
                                           db.advanced(kStepB * kk).desc, (kb | kk) != 0 ? 1 : 0);
          }
          arch::wgmma_commit_group();
#pragma unroll
          for (int hf = 0; hf < Cfg::kHalves; ++hf) arch::wgmma_fence_operand(acc[hf]);
          if constexpr (kDefer) {
            // Behind this K-block's wgmmas: group kb of the previous block.
            if (pending && kb < 4) {
              if (kb == 0) store_group(0);
              else if (kb == 1) store_group(1);
              else if (kb == 2) store_group(2);
              else store_group(3);
            }
          }
          prefetch_c(kb);
          // Keep this K-block's group in flight; the previous one is done, so
          // its stage goes back to the producer.
          arch::wgmma_wait_group<1>();
          if (kb > 0 && lane == 0) ws_release<Cfg>(&empty[prev_stage], rank);
          prev_stage = stage;
        }
      };
      if constexpr (sizeof(TIn) == 2) {
        if (p.a_mn && p.b_mn) mainloop.template operator()<1, 1>();
        else if (p.a_mn) mainloop.template operator()<1, 0>();
        else if (p.b_mn) mainloop.template operator()<0, 1>();
        else mainloop.template operator()<0, 0>();
      } else if (p.a_mn) {
        // tf32, A' MN-major through registers (see rs_off; B' is K-major:
        // the launcher orients the problem so). Each K-block is two wgmma
        // groups of two k8 steps, the first half's A registers in set 0, the
        // second half's in set 1. One group stays in flight, so a set is
        // reloaded only after the group that read it (the one before the
        // other set's group) has completed.
        // NOTE: first version: one group per K-block, two register sets
        // alternating per K-block (a K loop unrolled by two). Cooperative
        // 64-row blocks compiled fine; ping-pong 128x128 (two row blocks per
        // consumer: 128 accumulators + 64 A registers) made ptxas serialise
        // every wgmma for lack of registers (C7512). Half-K-block groups need
        // half the A registers and no unrolling.
        constexpr int kSteps = kBlockK / Mma::kK;  // k8 steps per K-block
        constexpr int kPart = kSteps / 2;          // k8 steps per group
        uint32_t ra[2][Cfg::kHalves][kPart][4];
        for (int kb = 0; kb < unit.kbs; ++kb, ++seq) {
          int const stage = int(seq % uint32_t(Cfg::kStages));
          uint32_t const phase = (seq / uint32_t(Cfg::kStages)) & 1u;
          arch::mbarrier_wait(&full[stage], phase);
          TESSERA_WS_CONSUMER_DATA(cw);
          const uint8_t* const a_stage = sA + stage * Cfg::kABytes;
          arch::GmmaDescriptor const db = arch::make_gmma_desc_k_major<arch::GmmaSwizzle::b128, 128>(
              arch::smem_u32(sB + stage * Cfg::kBBytes));
          auto half = [&]<int kSet>() {
#pragma unroll
            for (int hf = 0; hf < Cfg::kHalves; ++hf)
#pragma unroll
              for (int s = 0; s < kPart; ++s)
#pragma unroll
                for (int i = 0; i < 4; ++i)
                  ra[kSet][hf][s][i] = *reinterpret_cast<const uint32_t*>(a_stage + rs_off[i] + 8192 * hf +
                                                                          1024 * (kSet * kPart + s));
#pragma unroll
            for (int hf = 0; hf < Cfg::kHalves; ++hf) {
              arch::wgmma_fence_operand(acc[hf]);
#pragma unroll
              for (int s = 0; s < kPart; ++s) arch::wgmma_fence_operand(ra[kSet][hf][s]);
            }
            arch::wgmma_fence();
#pragma unroll
            for (int s = 0; s < kPart; ++s) {
              int const kk = kSet * kPart + s;
#pragma unroll
              for (int hf = 0; hf < Cfg::kHalves; ++hf)
                Mma::rs(acc[hf], ra[kSet][hf][s], db.advanced(32u * uint32_t(kk)).desc, (kb | kk) != 0 ? 1 : 0);
            }
            arch::wgmma_commit_group();
#pragma unroll
            for (int hf = 0; hf < Cfg::kHalves; ++hf) arch::wgmma_fence_operand(acc[hf]);
            arch::wgmma_wait_group<1>();
          };
          half.template operator()<0>();
          prefetch_c(kb);
          half.template operator()<1>();
          // Every group of the previous K-block has completed: its stage goes back.
          if (kb > 0 && lane == 0) ws_release<Cfg>(&empty[prev_stage], rank);
          prev_stage = stage;
        }
      } else {
        mainloop.template operator()<0, 0>();
      }
      // This thread has passed every full[] wait of the tile: the fills they
      // waited for are complete, which is all the other consumer needs.
      if (Cfg::kPingPong && threadIdx.x % 128 == 0) arch::mbarrier_arrive(&order[cw]);
      // Ping-pong: the other consumer's next unit streams through the ring next.
      if (Cfg::kPingPong && tile + unit_step < num_tiles) seq += uint32_t(ws_unit(tile + unit_step, p).kbs);
      arch::wgmma_wait_group<0>();
      TESSERA_WS_MARK_IF(threadIdx.x == 128, 12);
#pragma unroll
      for (int hf = 0; hf < Cfg::kHalves; ++hf) arch::wgmma_fence_operand(acc[hf]);
      if constexpr (kWiden) {
#pragma unroll
        for (int hf = 0; hf < Cfg::kHalves; ++hf) widen_f16_block(acc[hf], widened[hf]);
      }
      // The unit's last stage goes back before its epilogue.
      if (lane == 0) ws_release<Cfg>(&empty[prev_stage], rank);
      if constexpr (kDefer) {
        // The previous block's groups that this unit's K loop (shorter than
        // four K-blocks) did not store, then this block packed.
        store_pending(unit.kbs);
        int const row0 = tm * Cfg::kBlockM + a_row_off / 128;
        auto const v0 = acc_view(0);
        if (finishes_block(v0, row0)) {
#pragma unroll
          for (int j = 0; j < 4; ++j) ws_pack_group<TOut>(v0, p, j, row0, tn * Cfg::kBlockN, packed + 16 * j);
          pending = true;
          pend_row0 = row0;
          pend_col0 = tn * Cfg::kBlockN;
        }
      } else {
#pragma unroll
        for (int hf = 0; hf < Cfg::kHalves; ++hf) {
          int const row0 = tm * Cfg::kBlockM + a_row_off / 128 + 64 * hf;
          auto const v = acc_view(hf);
          if (!finishes_block(v, row0)) continue;
          if constexpr (Cfg::kTmaStore) {
            // Named barriers 1 and 2 (0 is __syncthreads): one per consumer
            // (also used by the split-K epilogue).
            // The cooperative consumer's last unit: its groups go to its own
            // A rows of the idle ring, one stage each, none waiting for a
            // buffer (ws_epilogue_tma).
            uint8_t* const ring =
                (!Cfg::kPingPong && kWsEpiGroups<TOut, Cfg::kBlockN> <= Cfg::kStages && tile + tile_step >= num_tiles)
                    ? sA + a_row_off
                    : nullptr;
            ws_epilogue_tma<TOut, Cfg::kBlockN, Cfg::kTransTmaStore>(v, p, &tmap_d, sEpi + cw * 2 * Cfg::kEpiTileBytes,
                                                uint32_t(1 + cw), row0, tn * Cfg::kBlockN, ring, Cfg::kABytes,
                                                epi_c, c_early && hf == 0);
          } else {
            ws_epilogue<TOut, Cfg::kBlockN>(v, p, row0, tn * Cfg::kBlockN);
          }
        }
      }
    }
    TESSERA_WS_MARK_IF(threadIdx.x == 128, 13);
    // The last block: in this consumer's A rows of the idle ring.
    store_pending(0, true);
    // The shared sources must outlive the bulk stores; wait for the global
    // writes too, so the kernel's completion covers them.
    if constexpr (Cfg::kTmaStore) {
      if (threadIdx.x % 128 == 0) arch::tma_store_wait_writes<0>();
    }
    TESSERA_WS_CONSUMER_DONE(cw);
  }
#else
  // Compiled for another target in a multi-architecture build: never launched
  // there (the registry limits the kernel to sm_90 devices).
  (void)tmap_a;
  (void)tmap_b;
  (void)tmap_d;
  (void)tmap_c;
  (void)p;
  __trap();
#endif
}

}  // namespace tessera::kernels::sm90

namespace tessera::detail {

// Whether sm90_ws_gemm can run `args` (validated arguments): bf16/f16 inputs
// with f32 accumulation in any order (f16 inputs and output also with f16
// accumulation), or tf32 inputs (f32 output) with at most one M/N-major
// operand, not the small side of a skinny problem (one dimension <= 64, the
// other >= 1024; it is read through registers as wgmma's A); 16-byte aligned A/B base
// pointers, leading dimensions and batch strides; k > 0. Does not query the
// device.
bool can_implement_sm90_ws_gemm(const GemmArgs& args);

// Encodes the tensor maps and launches on `stream`. Returns cannot_implement
// (with the rule broken) when can_implement_sm90_ws_gemm is false, so that
// dispatch can fall back to another kernel.
Status launch_sm90_ws_gemm(const GemmArgs& args, gemm_stream_t stream);

Status launch_sm90_ws_gemm(const GemmArgs& args, gemm_stream_t stream, Sm90WsVariant variant);
// Whether launching `args` with `variant` would bring beta * C in by TMA
// (the TMA-store epilogue, WsGemmParams::c_tma) rather than element by
// element: for tests that must cover both paths. Does not query the device.
bool sm90_ws_reads_c_by_tma(const GemmArgs& args, const Sm90WsVariant& variant);
// The variant launch_sm90_ws_gemm(args, stream) runs on the current device:
// select_sm90_ws_variant with `args`' kernel orientation, row alignment and
// operand majors (for timing drivers that alter the default).
Sm90WsVariant default_sm90_ws_variant(const GemmArgs& args);

}  // namespace tessera::detail
