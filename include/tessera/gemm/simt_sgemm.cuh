// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// simt_sgemm: the library's full-precision fp32 GEMM on the CUDA cores
// (FFMA), D = alpha * op(A) * op(B) + beta * C, sm_80+.
//
// Kernel orientation: the kernel computes Dk(i,j) = sum_k Ak(i,k) Bk(k,j)
// with Dk contiguous along j. A row-major D is Dk = D; a column-major D is
// computed as D^T = B^T A^T (Ak = B^T, Bk = A^T), so D is always written
// along its contiguous direction.
//
// Mainloop: a kStages-deep cp.async ring of (BLK_K, BLK_M) and (BLK_K, BLK_N)
// shared-memory tiles, both M/N-contiguous so that the inner product reads
// each thread's A and B fragments with 128-bit shared loads (LDS.128). How a
// tile gets there depends on how the operand is stored (OperandMode):
//   vec16  M/N-contiguous, 16-byte aligned: cp.async 16 B, no transposition;
//   vec16_k K-contiguous, 16-byte aligned, and only for a configuration
//          that opts in (kVec16K; the others use elem_k, see the NOTE at
//          plan_sgemm): cp.async 16 B along K into a
//          K-major tile (BLK_MN rows of BLK_K+4 floats); the fragments are
//          read along K (one LDS.128 = 4 k steps of one row), so the thread
//          owns rows lane, lane+kLanes, ... (not 4-row blocks) to keep those
//          reads conflict-free (row pitch (BLK_K+4)/4 chunks is odd);
//   elem_k K-contiguous (not 16-byte aligned, or kVec16K off): cp.async
//          4 B per element,
//          scattered into the transposed tile (M/N-contiguous);
//   elem_mn M/N-contiguous but not 16-byte aligned: cp.async 4 B.
// Every copy is predicated (zero fill), so any M, N, K, ld and element-aligned
// pointer is handled by the same mainloop.
//
// Thread tile: each thread owns (4*kRepM) x (4*kRepN) outputs as kRepM x kRepN
// blocks of 4x4 (along a K-major operand's dimension: rows kLanes apart
// instead, see vec16_k); the lanes of a warp form a kLanesM x kLanesN grid
// whose 4x4 blocks are adjacent, so one LDS.128 of a warp touches kLanesM (A) or
// kLanesN (B) distinct 16-byte chunks in distinct banks, each broadcast to
// the lanes sharing it: no bank conflict, and kRepM + kRepN loads feed
// 16 * kRepM * kRepN FFMAs per k step (8x8: 64 FFMA per 4 LDS.128).
//
// Written with the Tessera algebra for every index map (shared-memory tiles,
// the thread-tile offsets); the copies call the arch cp.async wrappers
// directly. The same kernel written with Tensors, cp.async TiledCopys and a
// UniversalFMA TiledMMA is simt_tiled.cuh (simt_tiled_sgemm); after its
// fixes it measured as fast overall (docs/performance.md, SIMT SGEMM v6,
// runs 38-41) and is the f32 default; this one runs when named.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <string>

#include <tessera/arch/sm80/cp_async.cuh>
#include <tessera/gemm/api.hpp>
#include <tessera/gemm/launch_attributes.hpp>
#include <tessera/layout.hpp>

namespace tessera::kernels::simt {

// How one operand tile travels from global to shared memory (see above).
enum class OperandMode : std::uint8_t { vec16, elem_mn, elem_k, vec16_k };

// Whether the operand's shared tile is K-major (vec16_k) rather than M/N-major.
TESSERA_HOST_DEVICE constexpr bool kmajor(OperandMode m) { return m == OperandMode::vec16_k; }

// The tile configuration. kBlockM x kBlockN outputs per CTA, kBlockK per
// k tile, kStages tiles in flight, kWarpsM x kWarpsN warps, each thread
// (4*kRepM) x (4*kRepN) outputs, lanes kLanesM x (32/kLanesM) per warp,
// kMinBlocks CTAs per SM asked of the register allocator, fragments of the
// next k step prefetched or not (M/N-major tiles), kKFrag k steps per
// fragment read from a K-major tile (4: LDS.128, 2: LDS.64, 1: LDS.32),
// 16-byte aligned K-contiguous operands copied into K-major tiles (vec16_k,
// kVec16K) or element-wise into M/N-major ones (elem_k, the default),
// and the order of the FFMAs of one k step (kFfmaOrder, see ffma_walk).
template <int kBlockM_, int kBlockN_, int kBlockK_, int kStages_, int kWarpsM_, int kWarpsN_, int kRepM_,
          int kRepN_, int kLanesM_, int kMinBlocks_, bool kFragPrefetch_ = true, int kKFrag_ = 4,
          bool kVec16K_ = false, int kFfmaOrder_ = 0>
struct SgemmConfig {
  static constexpr int kBlockM = kBlockM_;
  static constexpr int kBlockN = kBlockN_;
  static constexpr int kBlockK = kBlockK_;
  static constexpr int kStages = kStages_;
  static constexpr int kWarpsM = kWarpsM_;
  static constexpr int kWarpsN = kWarpsN_;
  static constexpr int kRepM = kRepM_;
  static constexpr int kRepN = kRepN_;
  static constexpr int kLanesM = kLanesM_;
  static constexpr int kLanesN = 32 / kLanesM_;
  static constexpr int kMinBlocks = kMinBlocks_;
  // Load step k+1's fragments before step k's FFMAs (2x the fragment registers).
  static constexpr bool kFragPrefetch = kFragPrefetch_;
  static constexpr int kKFrag = kKFrag_;
  // Whether plan_sgemm may pick vec16_k (K-major tiles) for this configuration.
  static constexpr bool kVec16K = kVec16K_;
  // The order of the kThrM x kThrN FFMAs of one k step (ffma_walk).
  static constexpr int kFfmaOrder = kFfmaOrder_;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  static constexpr int kThrM = 4 * kRepM;  // outputs per thread along M
  static constexpr int kThrN = 4 * kRepN;
  static constexpr int kWarpTileM = kLanesM * kThrM;
  static constexpr int kWarpTileN = kLanesN * kThrN;
  // NOTE: +4 floats per shared row: rows stay 16-byte aligned for LDS.128
  // and cp.async 16, and the elem_k scatter (8 k x 4 rows per warp) lands
  // in 32 distinct banks (bank = 4*k + row).
  static constexpr int kLdA = kBlockM + 4;
  static constexpr int kLdB = kBlockN + 4;
  // K-major tiles (vec16_k): rows of BLK_K + 4 floats, an odd number of
  // 16-byte chunks, so 8 consecutive rows' chunk q lie in 8 distinct
  // 16-byte bank groups.
  static constexpr int kLdKA = kBlockK + 4;
  static constexpr int kLdKB = kBlockK + 4;
  // One stage holds either form of the tile (only the M/N-major one
  // without kVec16K).
  static constexpr int kStageA =
      kVec16K && kBlockM * kLdKA > kBlockK * kLdA ? kBlockM * kLdKA : kBlockK * kLdA;
  static constexpr int kStageB =
      kVec16K && kBlockN * kLdKB > kBlockK * kLdB ? kBlockN * kLdKB : kBlockK * kLdB;
  static constexpr int kSmemFloats = kStages * (kStageA + kStageB);
  static constexpr int kSmemBytes = kSmemFloats * 4;
  // Tiles rasterised in groups of kGroupM tile rows (L2 reuse of B panels).
  static constexpr int kGroupM = 8;

  static_assert(kLanesM == 4 || kLanesM == 8, "SgemmConfig: kLanesM must be 4 or 8 (a warp is 4x8 or 8x4 lanes)");
  static_assert(kWarpsM * kWarpTileM == kBlockM, "SgemmConfig: kWarpsM * kLanesM * 4 * kRepM must equal kBlockM");
  static_assert(kWarpsN * kWarpTileN == kBlockN, "SgemmConfig: kWarpsN * kLanesN * 4 * kRepN must equal kBlockN");
  static_assert(kBlockK % 8 == 0, "SgemmConfig: kBlockK must be a multiple of 8 [the elem_k copy maps 8 k per warp row]");
  static_assert(kStages >= 2, "SgemmConfig: the cp.async ring needs at least 2 stages");
  static_assert(kKFrag == 1 || kKFrag == 2 || kKFrag == 4, "SgemmConfig: kKFrag must be 1, 2 or 4");
  static_assert(kBlockK % kKFrag == 0, "SgemmConfig: kBlockK must be a multiple of kKFrag");
  static_assert(kVec16K || kKFrag == 4,
                "SgemmConfig: kKFrag only shapes K-major fragment reads [set kVec16K or leave kKFrag at 4]");
  static_assert((kLdKA / 4) % 2 == 1, "SgemmConfig: the K-major row pitch must be an odd number of 16-byte chunks");
  static_assert((kBlockM * kBlockK) % kThreads == 0 && (kBlockN * kBlockK) % kThreads == 0,
                "SgemmConfig: a tile must split evenly over the threads");
  static_assert((kBlockM / 4 * kBlockK) % kThreads == 0 && (kBlockN / 4 * kBlockK) % kThreads == 0,
                "SgemmConfig: the 16-byte chunks of a tile must split evenly over the threads");
  static_assert(kThreads % (kBlockM / 4) == 0 && kThreads % (kBlockN / 4) == 0,
                "SgemmConfig: the thread count must be a multiple of the chunks per tile row [vec16 copy]");

  // (BLK_K,BLK_M,PIPE) -> float offset in the A region; likewise B.
  // M/N-major (kK = false) or K-major (kK = true, the vec16_k tile).
  template <bool kK = false>
  TESSERA_HOST_DEVICE static constexpr auto smem_layout_a() {
    if constexpr (kK)
      return make_layout(make_shape(Int<kBlockK>{}, Int<kBlockM>{}, Int<kStages>{}),
                         make_stride(_1{}, Int<kLdKA>{}, Int<kStageA>{}));
    else
      return make_layout(make_shape(Int<kBlockK>{}, Int<kBlockM>{}, Int<kStages>{}),
                         make_stride(Int<kLdA>{}, _1{}, Int<kStageA>{}));
  }
  template <bool kK = false>
  TESSERA_HOST_DEVICE static constexpr auto smem_layout_b() {
    if constexpr (kK)
      return make_layout(make_shape(Int<kBlockK>{}, Int<kBlockN>{}, Int<kStages>{}),
                         make_stride(_1{}, Int<kLdKB>{}, Int<kStageB>{}));
    else
      return make_layout(make_shape(Int<kBlockK>{}, Int<kBlockN>{}, Int<kStages>{}),
                         make_stride(Int<kLdB>{}, _1{}, Int<kStageB>{}));
  }
  // (V4,REP_M) -> row of a thread's value inside its warp tile, relative to
  // the lane's first row (lane_m * kLaneStepM); likewise columns. M/N-major
  // tiles: kRepM blocks of 4 consecutive rows (LDS.128 along M); K-major:
  // rows kLanesM apart (the lanes of a warp read consecutive rows).
  template <bool kK = false>
  TESSERA_HOST_DEVICE static constexpr auto thr_rows() {
    if constexpr (kK)
      return make_layout(make_shape(_4{}, Int<kRepM>{}), make_stride(Int<kLanesM>{}, Int<kLanesM * 4>{}));
    else
      return make_layout(make_shape(_4{}, Int<kRepM>{}), make_stride(_1{}, Int<kLanesM * 4>{}));
  }
  template <bool kK = false>
  TESSERA_HOST_DEVICE static constexpr auto thr_cols() {
    if constexpr (kK)
      return make_layout(make_shape(_4{}, Int<kRepN>{}), make_stride(Int<kLanesN>{}, Int<kLanesN * 4>{}));
    else
      return make_layout(make_shape(_4{}, Int<kRepN>{}), make_stride(_1{}, Int<kLanesN * 4>{}));
  }
  // Distance between the first rows (columns) of neighbouring lanes.
  template <bool kK = false>
  static constexpr int kLaneStep = kK ? 1 : 4;
};

// Step s of a k step's kM x kN outer product (s in [0, kM*kN)) -> the
// accumulator (i, j) it updates, in the walk kOrder:
//   0 rows: (0,0) (0,1) .. (0,kN-1) (1,0) ..: a[i] is shared by consecutive
//     FFMAs, none is shared across a row change;
//   1 serpentine rows: odd rows right to left, so b[kN-1] (b[0]) is shared
//     across each row change too;
//   2 serpentine columns: the transposed walk (b[j] shared);
//   3 row-pair zig-zag: rows 2p, 2p+1 walked together column by column,
//     alternating (2p,j) (2p+1,j) (2p+1,j+1) (2p,j+1) ..., odd pairs right to
//     left: every consecutive pair of FFMAs shares a[i] or b[j], and the
//     shared operand alternates between the two slots;
//   4 column-pair zig-zag: the transposed walk of 3;
//   5 row bands: the columns in bands of 4 (the 4 values of one LDS.128 of
//     B); inside a band, serpentine rows (a[i] shared along a row's 4
//     columns, b[j] across the turn); odd bands bottom to top;
//   6 column bands: the transposed walk of 5 (bands of 4 rows).
// The walk changes nothing but the instruction order ptxas starts from: its
// `.reuse` operand caching and the register-bank spread of the operands that
// are read from the register file (see docs/performance.md, SIMT SGEMM v4).
template <int kOrder, int kM, int kN>
TESSERA_HOST_DEVICE constexpr void ffma_walk(int s, int& i, int& j) {
  static_assert(kOrder >= 0 && kOrder <= 6, "ffma_walk: kOrder must be 0..6");
  static_assert((kOrder != 3 || kM % 2 == 0) && (kOrder != 4 || kN % 2 == 0),
                "ffma_walk: the pair walks need an even number of rows (3) or columns (4)");
  static_assert((kOrder != 5 || kN % 4 == 0) && (kOrder != 6 || kM % 4 == 0),
                "ffma_walk: the band walks need a multiple of 4 columns (5) or rows (6)");
  if constexpr (kOrder == 0) {
    i = s / kN;
    j = s % kN;
  } else if constexpr (kOrder == 1) {
    i = s / kN;
    j = i % 2 == 0 ? s % kN : kN - 1 - s % kN;
  } else if constexpr (kOrder == 2) {
    j = s / kM;
    i = j % 2 == 0 ? s % kM : kM - 1 - s % kM;
  } else if constexpr (kOrder == 3) {
    int const pair = s / (2 * kN), q = s % (2 * kN);
    int const col = q / 2;
    j = pair % 2 == 0 ? col : kN - 1 - col;
    i = 2 * pair + (col % 2 == 0 ? q % 2 : 1 - q % 2);
  } else if constexpr (kOrder == 5) {
    int const band = s / (4 * kM), q = s % (4 * kM);
    int const row = q / 4;
    i = band % 2 == 0 ? row : kM - 1 - row;
    j = 4 * band + (row % 2 == 0 ? q % 4 : 3 - q % 4);
  } else if constexpr (kOrder == 6) {
    int const band = s / (4 * kN), q = s % (4 * kN);
    int const col = q / 4;
    j = band % 2 == 0 ? col : kN - 1 - col;
    i = 4 * band + (col % 2 == 0 ? q % 4 : 3 - q % 4);
  } else {
    int const pair = s / (2 * kM), q = s % (2 * kM);
    int const row = q / 2;
    i = pair % 2 == 0 ? row : kM - 1 - row;
    j = 2 * pair + (row % 2 == 0 ? q % 2 : 1 - q % 2);
  }
}

// acc += a x b (one k step of the thread tile), the FFMAs in Cfg's walk.
template <class Cfg>
__device__ __forceinline__ void outer_product(float (&acc)[Cfg::kThrM][Cfg::kThrN], const float (&a)[Cfg::kThrM],
                                              const float (&b)[Cfg::kThrN]) {
#pragma unroll
  for (int s = 0; s < Cfg::kThrM * Cfg::kThrN; ++s) {
    int i = 0, j = 0;
    ffma_walk<Cfg::kFfmaOrder, Cfg::kThrM, Cfg::kThrN>(s, i, j);
    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
  }
}

// The shipped configuration and the ones the benchmark times by default
// (scripts/gpu/simt.sh), each tested by tests/device/test_simt_sgemm.cu. All
// have 8 warps and 8x8 values per thread and use elem_k for K-contiguous
// operands unless said otherwise. Five earlier candidates were measured and
// retired (docs/performance.md: 2 stages, 128x128x8, 4x8 lanes, 128x256x16,
// no fragment double buffer); scripts/gpu/simt_retired_configs.hpp defines
// them for simt.sh's ids 2 and 4-7 and its emulation.
// 128x128x16, 3 stages, 8 warps (2x4) of 64x32, 8x8 per thread, 2 CTAs/SM
// (<= 128 registers), 49.5 KB shared memory (M/N-major stages).
// Measured best of run 2 (BK=16 beat BK=8 in every order).
using Sgemm128x128x16 = SgemmConfig<128, 128, 16, 3, 2, 4, 2, 2, 8, 2>;
// The same with 4 stages (80 KB).
using Sgemm128x128x16S4 = SgemmConfig<128, 128, 16, 4, 2, 4, 2, 2, 8, 2>;
// 128x128x32, 2 stages, row bands: the 4-stage default's shared memory
// (67.6 KB) with half its k tiles, so half the cp.async waits and barriers
// per k. Under the 128-register cap ptxas (nvcc 13, sm_90a) keeps the
// 16-byte M/N copy pair (vec16/vec16, 120 registers) and three other mode
// pairs spill-free and spills 192-264 bytes in the other five (every elem_k
// B, and elem_mn with elem_mn), so the library instantiates it for the
// vec16 pair only (SgemmDeepK, simt_tiled.cuh). (In v2, before the FFMA
// walks, 9 of its 16 kernels spilled.)
using Sgemm128x128x32S2WalkBands = SgemmConfig<128, 128, 32, 2, 2, 4, 2, 2, 8, 2, true, 4, false, 5>;
// The default tile with vec16_k for 16-byte aligned K-contiguous operands
// (K-major tiles, 60 KB): the one configuration that opts in (see the NOTE
// at plan_sgemm), kept so that path stays tested and timed.
using Sgemm128x128x16K = SgemmConfig<128, 128, 16, 3, 2, 4, 2, 2, 8, 2, true, 4, true>;
// v4: the default tile with another FFMA walk (ffma_walk) of each k step's
// 8x8 outer product (sm_90a SASS statistics in docs/performance.md, v4).
// Serpentine columns (walk 2): 90-96% of the FFMAs carry a `.reuse` flag
// (walk 0: 76-80%) and 7-10% have two register-file source operands in one
// bank (register % 4; walk 0: 14-19%).
using Sgemm128x128x16WalkCols = SgemmConfig<128, 128, 16, 3, 2, 4, 2, 2, 8, 2, true, 4, false, 2>;
// Row bands (walk 5): 89-92% reuse flags, 6.7-6.9% bank conflicts: the
// fewest of the walks tried for the 8x8 tile.
using Sgemm128x128x16WalkBands = SgemmConfig<128, 128, 16, 3, 2, 4, 2, 2, 8, 2, true, 4, false, 5>;
// Row bands with 4 stages (run 9's best geometric mean was s4).
using Sgemm128x128x16S4WalkBands = SgemmConfig<128, 128, 16, 4, 2, 4, 2, 2, 8, 2, true, 4, false, 5>;
// 256x128x16, 16x8 per thread (FFMA:LDS.128 = 128:6), 8 warps, 1 CTA/SM
// (197-212 registers), 75 KB, serpentine rows: for this tall thread tile the
// row walk gave the fewest bank conflicts (6.3-6.4%; walk 0: 6.4-8.8%,
// walk 2: 10-11%, walk 5: 8-9%, walk 6: 4.6-7.5%).
using Sgemm256x128x16WalkRows = SgemmConfig<256, 128, 16, 3, 2, 4, 4, 2, 8, 1, true, 4, false, 1>;
using SgemmDefault = Sgemm128x128x16S4WalkBands;

// The problem in kernel orientation. Element (i,k) of Ak is
// a[i*a_m + k*a_k]; (k,j) of Bk is b[k*b_k + j*b_n]; Ck(i,j) is
// c[i*c_m + j*c_n]; Dk(i,j) is d[i*d_m + j].
struct SgemmParams {
  int m = 0, n = 0, k = 0, batch_count = 1;
  int tiles_m = 0, tiles_n = 0;
  const float* a = nullptr;
  std::int64_t a_m = 0, a_k = 0, a_batch = 0;
  const float* b = nullptr;
  std::int64_t b_k = 0, b_n = 0, b_batch = 0;
  const float* c = nullptr;  // null when beta == 0 (never read then)
  std::int64_t c_m = 0, c_n = 0, c_batch = 0;
  float* d = nullptr;
  std::int64_t d_m = 0, d_batch = 0;
  float alpha = 1.0f, beta = 0.0f;
  bool c_vec = false;  // Ck contiguous along j and 16-byte aligned rows
  bool d_vec = false;  // Dk rows 16-byte aligned
};

namespace detail {

// %tid.x and %ctaid.x through volatile asm: never merged with earlier reads,
// so the compiler recomputes instead of keeping a value live (or spilled).
__device__ __forceinline__ int tid_x() {
  int v;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(v));
  return v;
}
__device__ __forceinline__ int ctaid_x() {
  int v;
  asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(v));
  return v;
}

// One operand's global -> shared copy for one thread. kExtent is BLK_M (A) or
// BLK_N (B). Pass p of a k tile copies the element (or 16-byte chunk) at
// (mn0 + dmn(p), kk0 + dk(p)) of the (BLK_MN,BLK_K) tile; the pass offsets
// are compile-time, so only the thread's base and `ld` live in registers.
template <class Cfg, OperandMode kMode, int kExtent>
struct TileCopy {
  static constexpr int kThreads = Cfg::kThreads;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kBK = Cfg::kBlockK;
  static constexpr int kChunksK = kBK / 4;  // vec16_k: 16-byte chunks per tile row
  static constexpr int kPasses = kMode == OperandMode::vec16     ? kExtent / 4 * kBK / kThreads
                                 : kMode == OperandMode::vec16_k ? kExtent * kChunksK / kThreads
                                                                 : kExtent * kBK / kThreads;
  // Row pitch of the K-major tile (vec16_k).
  static constexpr int kLdK = kBK + 4;
  static_assert(kPasses >= 1 && kPasses <= 32, "TileCopy: between 1 and 32 copies per thread per tile");
  static_assert(kMode != OperandMode::elem_mn || (kBK % kWarps == 0 && kExtent % 32 == 0),
                "TileCopy: the element-wide M/N copy needs kBlockK to be a multiple of the warp count");
  static_assert(kMode != OperandMode::vec16_k || (kThreads % kChunksK == 0 && (kExtent * kChunksK) % kThreads == 0),
                "TileCopy: the K-major copy needs the 16-byte chunks of a tile to split evenly over the threads");

  // vec16: 16-byte chunks, consecutive threads along M/N, passes along K.
  // elem_mn: one warp = 32 consecutive M/N elements of one k (128 B), warps
  //   along K, passes along K then M/N.
  // elem_k: one warp = 8 consecutive k x 4 rows (32-byte row segments in
  //   global memory, banks 4*k + row in shared memory: conflict-free), warps
  //   along K then rows, passes along rows.
  // vec16_k: kChunksK consecutive threads cover one row's BLK_K floats,
  //   passes along rows.
  TESSERA_HOST_DEVICE static constexpr int dmn(int p) {
    if (kMode == OperandMode::vec16) return 0;
    if (kMode == OperandMode::vec16_k) return p * (kThreads / kChunksK);
    if (kMode == OperandMode::elem_mn) return (kWarps * p) / kBK * 32;
    return p * (kThreads / kBK);
  }
  TESSERA_HOST_DEVICE static constexpr int dk(int p) {
    if (kMode == OperandMode::vec16) return p * (kThreads / (kExtent / 4));
    if (kMode == OperandMode::elem_mn) return (kWarps * p) % kBK;
    return 0;  // elem_k, vec16_k
  }

  const float* src;      // element (mn0, kk0) of the current k tile
  std::int64_t ld;       // the operand's stride along its non-contiguous dimension
  std::uint32_t mn_ok;   // elem_*: bit p is set when pass p's row/column is inside
  int mn_bytes;          // vec16: bytes of the chunk inside the matrix (0..16)

  // Thread t's pass-0 coordinates (mn0, kk0) inside the tile.
  __device__ __forceinline__ static void coords(int t, int& mn, int& kk0) {
    if constexpr (kMode == OperandMode::vec16) {
      mn = (t % (kExtent / 4)) * 4;
      kk0 = t / (kExtent / 4);
    } else if constexpr (kMode == OperandMode::elem_mn) {
      mn = t % 32;
      kk0 = t / 32;
    } else if constexpr (kMode == OperandMode::vec16_k) {
      mn = t / kChunksK;
      kk0 = (t % kChunksK) * 4;
    } else {
      constexpr int kGroupsK = kBK / 8;
      int const w = t / 32;
      kk0 = (w % kGroupsK) * 8 + t % 8;
      mn = (w / kGroupsK) * 4 + (t / 8) % 4;
    }
  }

  // `mn_base`: the tile's first M/N index; `mn_size`: M or N.
  __device__ __forceinline__ void init(const float* base, std::int64_t ld_, int mn_base, int mn_size) {
    int mn = 0, kk0 = 0;
    coords(static_cast<int>(threadIdx.x), mn, kk0);
    ld = ld_;
    mn_ok = 0;
    mn_bytes = 0;
    if constexpr (kMode == OperandMode::vec16) {
      int const left = mn_size - (mn_base + mn);
      mn_bytes = left >= 4 ? 16 : left > 0 ? 4 * left : 0;
    } else {
#pragma unroll
      for (int p = 0; p < kPasses; ++p)
        if (mn_base + mn + dmn(p) < mn_size) mn_ok |= 1u << p;
    }
    std::int64_t const i = mn_base + mn;
    src = base + (kMode == OperandMode::elem_k || kMode == OperandMode::vec16_k ? i * ld + kk0 : i + kk0 * ld);
  }

  // Issue this thread's copies of the k tile starting at `k_begin` into
  // `stage`; elements with k >= k_size (or outside M/N) are zero-filled.
  // NOTE: the thread's tile coordinates are recomputed here from %tid (a
  // few integer instructions per k tile) instead of living in registers
  // across the k loop; kept live, they made ptxas spill 36-112 bytes under
  // the 128-register cap of 2 CTAs/SM.
  // `t` is the thread index (tid_x()); `ld_smem` the M/N-major tile's pitch.
  __device__ __forceinline__ void issue(float* stage, int k_begin, int k_size, int ld_smem, int t) const {
    int mn = 0, kk0 = 0;
    coords(t, mn, kk0);
    int const k_left = k_size - k_begin - kk0;  // pass p's k is inside iff dk(p) < k_left
    if constexpr (kMode == OperandMode::vec16_k) {
      // Bytes of this thread's chunk inside K (0..16), the same every pass.
      std::uint32_t const k_bytes = k_left >= 4 ? 16u : k_left > 0 ? 4u * static_cast<std::uint32_t>(k_left) : 0u;
      float* const dst0 = stage + mn * kLdK + kk0;
#pragma unroll
      for (int p = 0; p < kPasses; ++p)
        arch::cp_async_zfill<16, arch::CacheGlobal>(dst0 + dmn(p) * kLdK, src + dmn(p) * ld,
                                                    ((mn_ok >> p) & 1u) ? k_bytes : 0u);
      return;
    }
    int const smem0 = kk0 * ld_smem + mn;
#pragma unroll
    for (int p = 0; p < kPasses; ++p) {
      float* dst = stage + smem0 + dk(p) * ld_smem + dmn(p);
      bool const k_ok = dk(p) < k_left;
      if constexpr (kMode == OperandMode::vec16) {
        arch::cp_async_zfill<16, arch::CacheGlobal>(dst, src + dk(p) * ld,
                                                    k_ok ? static_cast<std::uint32_t>(mn_bytes) : 0u);
      } else if constexpr (kMode == OperandMode::elem_mn) {
        arch::cp_async<4>(dst, src + dmn(p) + dk(p) * ld, k_ok && ((mn_ok >> p) & 1u));
      } else {
        arch::cp_async<4>(dst, src + dmn(p) * ld, k_ok && ((mn_ok >> p) & 1u));
      }
    }
  }

  // Advance to the next k tile.
  __device__ __forceinline__ void next_tile() {
    src += kMode == OperandMode::elem_k || kMode == OperandMode::vec16_k ? kBK : kBK * ld;
  }
};

// kG consecutive k values of one row (column) of a K-major tile into
// grp[0..kG)[idx]: one LDS.128 (kG = 4), LDS.64 (2) or LDS.32 (1).
template <int kG, int kRows, int kCols>
__device__ __forceinline__ void load_k_vec(const float* src, float (&grp)[kRows][kCols], int idx) {
  if constexpr (kG == 4) {
    float4 const v = *reinterpret_cast<const float4*>(src);
    grp[0][idx] = v.x;
    grp[1][idx] = v.y;
    grp[2][idx] = v.z;
    grp[3][idx] = v.w;
  } else if constexpr (kG == 2) {
    float2 const v = *reinterpret_cast<const float2*>(src);
    grp[0][idx] = v.x;
    grp[1][idx] = v.y;
  } else {
    grp[0][idx] = *src;
  }
}

// Tile (tile_m, tile_n) of CTA `bid`: groups of kGroupM tile rows, walked
// column by column, so the CTAs resident at one time share B panels in L2.
template <int kGroupM>
__device__ __forceinline__ void rasterize(int bid, int tiles_m, int tiles_n, int& tile_m, int& tile_n) {
  int const per_group = kGroupM * tiles_n;
  int const group = bid / per_group;
  int const first_m = group * kGroupM;
  int const rows = tiles_m - first_m < kGroupM ? tiles_m - first_m : kGroupM;
  int const in_group = bid - group * per_group;
  tile_m = first_m + in_group % rows;
  tile_n = in_group / rows;
}

}  // namespace detail

template <class Cfg, OperandMode kModeA, OperandMode kModeB>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks) simt_sgemm_kernel(SgemmParams p) {
  // Preconditions: Ak is M-contiguous unless kModeA is elem_k or vec16_k
  // (then K-contiguous); likewise Bk; vec16 and vec16_k operands have
  // 16-byte aligned pointers and leading dimensions (host checks).
  static_assert(Cfg::kVec16K || (!kmajor(kModeA) && !kmajor(kModeB)),
                "simt_sgemm_kernel: vec16_k operands need a configuration with kVec16K [use elem_k]");
  extern __shared__ __align__(16) float smem[];
  constexpr bool kKA = kmajor(kModeA);  // A's shared tile is K-major
  constexpr bool kKB = kmajor(kModeB);
  constexpr auto sA_layout = Cfg::template smem_layout_a<kKA>();  // (BLK_K,BLK_M,PIPE)
  constexpr auto sB_layout = Cfg::template smem_layout_b<kKB>();  // (BLK_K,BLK_N,PIPE)
  float* sA = smem;
  float* sB = smem + Cfg::kStages * Cfg::kStageA;

  int tile_m = 0, tile_n = 0;
  detail::rasterize<Cfg::kGroupM>(static_cast<int>(blockIdx.x), p.tiles_m, p.tiles_n, tile_m, tile_n);
  int const m_base = tile_m * Cfg::kBlockM;
  int const n_base = tile_n * Cfg::kBlockN;

  int const warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  int const warp_m = warp / Cfg::kWarpsN, warp_n = warp % Cfg::kWarpsN;
  int const lane_m = lane / Cfg::kLanesN, lane_n = lane % Cfg::kLanesN;
  // First row/column of this thread's values inside the CTA tile.
  int const thr_m = warp_m * Cfg::kWarpTileM + lane_m * Cfg::template kLaneStep<kKA>;
  int const thr_n = warp_n * Cfg::kWarpTileN + lane_n * Cfg::template kLaneStep<kKB>;
  constexpr auto rows = Cfg::template thr_rows<kKA>();  // (V4,REP_M) -> row offset
  constexpr auto cols = Cfg::template thr_cols<kKB>();  // (V4,REP_N) -> column offset

  // The non-unit stride of each operand.
  constexpr bool kKContigA = kModeA == OperandMode::elem_k || kKA;
  constexpr bool kKContigB = kModeB == OperandMode::elem_k || kKB;
  std::int64_t const ld_a = kKContigA ? p.a_m : p.a_k;
  std::int64_t const ld_b = kKContigB ? p.b_n : p.b_k;
  int const num_k_tiles = (p.k + Cfg::kBlockK - 1) / Cfg::kBlockK;

  for (int batch = static_cast<int>(blockIdx.y); batch < p.batch_count; batch += static_cast<int>(gridDim.y)) {
    detail::TileCopy<Cfg, kModeA, Cfg::kBlockM> copy_a;
    detail::TileCopy<Cfg, kModeB, Cfg::kBlockN> copy_b;
    copy_a.init(p.a + batch * p.a_batch, ld_a, m_base, p.m);
    copy_b.init(p.b + batch * p.b_batch, ld_b, n_base, p.n);

    // Prologue: tiles 0 .. kStages-2 in flight, one cp.async group each.
#pragma unroll
    for (int s = 0; s < Cfg::kStages - 1; ++s) {
      if (s < num_k_tiles) {
        copy_a.issue(sA + sA_layout(0, 0, s), s * Cfg::kBlockK, p.k, Cfg::kLdA, detail::tid_x());
        copy_b.issue(sB + sB_layout(0, 0, s), s * Cfg::kBlockK, p.k, Cfg::kLdB, detail::tid_x());
        copy_a.next_tile();
        copy_b.next_tile();
      }
      arch::cp_async_fence();
    }

    float acc[Cfg::kThrM][Cfg::kThrN];
#pragma unroll
    for (int i = 0; i < Cfg::kThrM; ++i)
#pragma unroll
      for (int j = 0; j < Cfg::kThrN; ++j) acc[i][j] = 0.0f;

    int read_stage = 0;
    int write_stage = Cfg::kStages - 1;
    for (int t = 0; t < num_k_tiles; ++t) {
      // Tile t has landed (at most kStages-2 younger groups pending), and
      // every thread is done with tile t-1, whose stage is refilled below.
      arch::cp_async_wait<Cfg::kStages - 2>();
      __syncthreads();
      int const k_next = t + Cfg::kStages - 1;
      if (k_next < num_k_tiles) {
        int const tid = detail::tid_x();
        copy_a.issue(sA + sA_layout(0, 0, write_stage), k_next * Cfg::kBlockK, p.k, Cfg::kLdA, tid);
        copy_b.issue(sB + sB_layout(0, 0, write_stage), k_next * Cfg::kBlockK, p.k, Cfg::kLdB, tid);
        copy_a.next_tile();
        copy_b.next_tile();
      }
      arch::cp_async_fence();

      const float* tA = sA + sA_layout(0, thr_m, read_stage);  // this thread's first row of sA
      const float* tB = sB + sB_layout(0, thr_n, read_stage);
      if constexpr (!kKA && !kKB) {
        // NOTE: with kFragPrefetch the fragments are double-buffered in
        // registers: the LDS.128 of step kk+1 issue before the FFMAs of step
        // kk; without, ptxas schedules the loads itself.
        float frag_a[Cfg::kFragPrefetch ? 2 : 1][Cfg::kThrM];
        float frag_b[Cfg::kFragPrefetch ? 2 : 1][Cfg::kThrN];
        auto load_frags = [&](int kk, int buf) {
#pragma unroll
          for (int r = 0; r < Cfg::kRepM; ++r) {
            float4 const v = *reinterpret_cast<const float4*>(tA + sA_layout(kk, rows(0, r), 0));
            frag_a[buf][4 * r + 0] = v.x;
            frag_a[buf][4 * r + 1] = v.y;
            frag_a[buf][4 * r + 2] = v.z;
            frag_a[buf][4 * r + 3] = v.w;
          }
#pragma unroll
          for (int r = 0; r < Cfg::kRepN; ++r) {
            float4 const v = *reinterpret_cast<const float4*>(tB + sB_layout(kk, cols(0, r), 0));
            frag_b[buf][4 * r + 0] = v.x;
            frag_b[buf][4 * r + 1] = v.y;
            frag_b[buf][4 * r + 2] = v.z;
            frag_b[buf][4 * r + 3] = v.w;
          }
        };
        if constexpr (Cfg::kFragPrefetch) load_frags(0, 0);
#pragma unroll
        for (int kk = 0; kk < Cfg::kBlockK; ++kk) {
          int const buf = Cfg::kFragPrefetch ? kk & 1 : 0;
          if constexpr (Cfg::kFragPrefetch) {
            if (kk + 1 < Cfg::kBlockK) load_frags(kk + 1, (kk + 1) & 1);
          } else {
            load_frags(kk, 0);
          }
          outer_product<Cfg>(acc, frag_a[buf], frag_b[buf]);
        }
      } else {
        // At least one K-major tile: k steps in groups of kKFrag. A K-major
        // operand's fragments of a whole group come from one vector load per
        // row (column); an M/N-major one's per k step, 4 values per LDS.128.
        // NOTE: with both tiles K-major, groups of 4 would hold 2 x 32
        // fragment registers next to the 64 accumulators (> 128): 2 at most.
        // Likewise a K-major operand next to a misaligned (elem_mn) one:
        // groups of 4 spilled there (sm_80: 28 bytes).
        constexpr bool kTight = (kKA && (kKB || kModeB == OperandMode::elem_mn)) || (kKB && kModeA == OperandMode::elem_mn);
        constexpr int kG = kTight && Cfg::kKFrag > 2 ? 2 : Cfg::kKFrag;
        // NOTE: with A K-major and 4 or more groups unrolled, ptxas spilled
        // (28-76 bytes) at 128 registers; rolled, it did not (126). With 2
        // groups (BLK_K = 8) it is the other way round.
        constexpr int kGroupUnroll = (kKA || kTight) && Cfg::kBlockK / kG > 2 ? 1 : Cfg::kBlockK / kG;
#pragma unroll kGroupUnroll
        for (int g = 0; g < Cfg::kBlockK / kG; ++g) {
          float grp_a[kKA ? kG : 1][Cfg::kThrM];
          float grp_b[kKB ? kG : 1][Cfg::kThrN];
          if constexpr (kKA) {
#pragma unroll
            for (int i = 0; i < Cfg::kThrM; ++i)
              detail::load_k_vec<kG>(tA + sA_layout(g * kG, rows(i), 0), grp_a, i);
          }
          if constexpr (kKB) {
#pragma unroll
            for (int j = 0; j < Cfg::kThrN; ++j)
              detail::load_k_vec<kG>(tB + sB_layout(g * kG, cols(j), 0), grp_b, j);
          }
#pragma unroll
          for (int q = 0; q < kG; ++q) {
            int const kk = g * kG + q;
            float fa[Cfg::kThrM], fb[Cfg::kThrN];
            if constexpr (kKA) {
#pragma unroll
              for (int i = 0; i < Cfg::kThrM; ++i) fa[i] = grp_a[q][i];
            } else {
#pragma unroll
              for (int r = 0; r < Cfg::kRepM; ++r) {
                float4 const v = *reinterpret_cast<const float4*>(tA + sA_layout(kk, rows(0, r), 0));
                fa[4 * r + 0] = v.x;
                fa[4 * r + 1] = v.y;
                fa[4 * r + 2] = v.z;
                fa[4 * r + 3] = v.w;
              }
            }
            if constexpr (kKB) {
#pragma unroll
              for (int j = 0; j < Cfg::kThrN; ++j) fb[j] = grp_b[q][j];
            } else {
#pragma unroll
              for (int r = 0; r < Cfg::kRepN; ++r) {
                float4 const v = *reinterpret_cast<const float4*>(tB + sB_layout(kk, cols(0, r), 0));
                fb[4 * r + 0] = v.x;
                fb[4 * r + 1] = v.y;
                fb[4 * r + 2] = v.z;
                fb[4 * r + 3] = v.w;
              }
            }
            outer_product<Cfg>(acc, fa, fb);
          }
        }
      }
      read_stage = read_stage + 1 == Cfg::kStages ? 0 : read_stage + 1;
      write_stage = write_stage + 1 == Cfg::kStages ? 0 : write_stage + 1;
    }
    // Drain (only empty groups can be pending) and let every thread leave the
    // last stage before a next batch refills the ring.
    arch::cp_async_wait<0>();
    __syncthreads();

    // Epilogue straight from registers: 4 consecutive columns per store.
    // beta == 0 never reads C. NOTE: the output coordinates are recomputed
    // here from %tid/%ctaid read through volatile asm (not merged with the
    // values above), so nothing but the accumulators and the copy state stays
    // live across the k loop: with them kept, ptxas spilled 40-64 bytes.
    int e_tile_m = 0, e_tile_n = 0;
    detail::rasterize<Cfg::kGroupM>(detail::ctaid_x(), p.tiles_m, p.tiles_n, e_tile_m, e_tile_n);
    int const e_tid = detail::tid_x();
    int const e_warp = e_tid / 32, e_lane = e_tid % 32;
    int const out_m = e_tile_m * Cfg::kBlockM + (e_warp / Cfg::kWarpsN) * Cfg::kWarpTileM +
                      (e_lane / Cfg::kLanesN) * Cfg::template kLaneStep<kKA>;
    int const out_n = e_tile_n * Cfg::kBlockN + (e_warp % Cfg::kWarpsN) * Cfg::kWarpTileN +
                      (e_lane % Cfg::kLanesN) * Cfg::template kLaneStep<kKB>;
    float* d = p.d + batch * p.d_batch;
    const float* c = p.beta != 0.0f ? p.c + batch * p.c_batch : nullptr;
#pragma unroll
    for (int rm = 0; rm < Cfg::kRepM; ++rm) {
#pragma unroll
      for (int v = 0; v < 4; ++v) {
        int const i = out_m + rows(v, rm);
        if (i >= p.m) continue;
#pragma unroll
        for (int rn = 0; rn < Cfg::kRepN; ++rn) {
          int const j = out_n + cols(0, rn);
          float out[4];
#pragma unroll
          for (int e = 0; e < 4; ++e) out[e] = p.alpha * acc[4 * rm + v][4 * rn + e];
          float* drow = d + i * p.d_m;
          if constexpr (kKB) {
            // K-major B: the thread's 4 values of this block are kLanesN
            // columns apart; one element at a time.
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              int const je = out_n + cols(e, rn);
              if (je >= p.n) continue;
              if (c != nullptr) out[e] += p.beta * c[i * p.c_m + je * p.c_n];
              drow[je] = out[e];
            }
          } else if (j + 3 < p.n) {
            if (c != nullptr) {
              const float* crow = c + i * p.c_m;
              if (p.c_vec) {
                float4 const cv = *reinterpret_cast<const float4*>(crow + j);
                out[0] += p.beta * cv.x;
                out[1] += p.beta * cv.y;
                out[2] += p.beta * cv.z;
                out[3] += p.beta * cv.w;
              } else {
#pragma unroll
                for (int e = 0; e < 4; ++e) out[e] += p.beta * crow[(j + e) * p.c_n];
              }
            }
            if (p.d_vec) {
              *reinterpret_cast<float4*>(drow + j) = make_float4(out[0], out[1], out[2], out[3]);
            } else {
#pragma unroll
              for (int e = 0; e < 4; ++e) drow[j + e] = out[e];
            }
          } else {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              if (j + e >= p.n) break;
              if (c != nullptr) out[e] += p.beta * c[i * p.c_m + (j + e) * p.c_n];
              drow[j + e] = out[e];
            }
          }
        }
      }
    }
  }
}

// ---- host side ---------------------------------------------------------------

// Whether simt_sgemm computes `args` (validated by validate_arguments):
// f32 in, f32 out, f32 accumulation (not tf32), sizes and offsets within int.
inline bool sgemm_can_implement(const GemmArgs& args) {
  if (args.input != DataType::f32 || resolved_output(args) != DataType::f32 || args.accumulate != DataType::f32)
    return false;
  if (args.m > INT_MAX || args.n > INT_MAX || args.k > INT_MAX - 64 || args.batch_count > INT_MAX) return false;
  return true;
}

namespace detail {

inline bool aligned16(const void* ptr, std::int64_t ld, std::int64_t batch_stride, std::int64_t batch_count) {
  if (reinterpret_cast<std::uintptr_t>(ptr) % 16 != 0) return false;
  if (ld % 4 != 0) return false;
  return batch_count <= 1 || batch_stride % 4 == 0;
}

// The kernel-orientation parameters and the two operand modes.
struct SgemmPlan {
  SgemmParams p;
  OperandMode mode_a = OperandMode::elem_k;
  OperandMode mode_b = OperandMode::elem_k;
};

// `vec16_k`: the configuration's kVec16K (whether K-major tiles may be used).
inline SgemmPlan plan_sgemm(const GemmArgs& args, bool vec16_k) {
  SgemmPlan r;
  SgemmParams& p = r.p;
  bool const swap = args.d.order == MatrixOrder::col_major;  // compute D^T = B^T A^T
  const MatrixDesc& ka = swap ? args.b : args.a;
  const MatrixDesc& kb = swap ? args.a : args.b;
  bool const row_a = ka.order == MatrixOrder::row_major;
  bool const row_b = kb.order == MatrixOrder::row_major;
  p.m = static_cast<int>(swap ? args.n : args.m);
  p.n = static_cast<int>(swap ? args.m : args.n);
  p.k = static_cast<int>(args.k);
  p.batch_count = static_cast<int>(args.batch_count);
  // Ak(i,k): without swap A(i,k); with swap B(k,i). Row-major A: (ld, 1);
  // row-major B read as B^T: (1, ld).
  p.a = static_cast<const float*>(ka.data);
  p.a_batch = ka.batch_stride;
  bool const a_mn_contig = swap ? row_a : !row_a;
  p.a_m = a_mn_contig ? 1 : ka.ld;
  p.a_k = a_mn_contig ? ka.ld : 1;
  // Bk(k,j): without swap B(k,j); with swap A(j,k).
  p.b = static_cast<const float*>(kb.data);
  p.b_batch = kb.batch_stride;
  bool const b_mn_contig = swap ? !row_b : row_b;
  p.b_n = b_mn_contig ? 1 : kb.ld;
  p.b_k = b_mn_contig ? kb.ld : 1;
  bool const a16 = aligned16(ka.data, ka.ld, ka.batch_stride, args.batch_count);
  bool const b16 = aligned16(kb.data, kb.ld, kb.batch_stride, args.batch_count);
  // NOTE: vec16_k only where the configuration opts in (kVec16K): on an
  // NVIDIA H200 it was slower than elem_k everywhere it was chosen (ratio to
  // cuBLAS SGEMM, median of 25, same run). Run 2, K-contiguous operands on
  // elem_k, 128x128x16 s3: 8192^3 tt 0.870 nt 0.887 tn 0.822, 4095x4097x4093
  // tt 0.889 nt 0.896 tn 0.802. Run 8, vec16_k: 8192^3 tt 0.744 nt 0.883
  // tn 0.751, 4096^3 tt 0.733 nt 0.900 tn 0.746; 128x128x8 s4 tt 0.834 ->
  // 0.756. (The K-major loops ran LDS.64 and a rolled k-group loop.)
  r.mode_a = a_mn_contig ? (a16 ? OperandMode::vec16 : OperandMode::elem_mn)
                         : (a16 && vec16_k ? OperandMode::vec16_k : OperandMode::elem_k);
  r.mode_b = b_mn_contig ? (b16 ? OperandMode::vec16 : OperandMode::elem_mn)
                         : (b16 && vec16_k ? OperandMode::vec16_k : OperandMode::elem_k);
  // Ck(i,j): C stored like D is contiguous along j.
  bool const read_c = args.beta != 0.0f;
  bool const c_like_d = args.c.order == args.d.order;
  p.c = read_c ? static_cast<const float*>(args.c.data) : nullptr;
  p.c_m = c_like_d ? args.c.ld : 1;
  p.c_n = c_like_d ? 1 : args.c.ld;
  p.c_batch = args.c.batch_stride;
  p.c_vec = read_c && c_like_d && aligned16(args.c.data, args.c.ld, args.c.batch_stride, args.batch_count);
  p.d = static_cast<float*>(args.d.data);
  p.d_m = args.d.ld;
  p.d_batch = args.d.batch_stride;
  p.d_vec = aligned16(args.d.data, args.d.ld, args.d.batch_stride, args.batch_count);
  p.alpha = args.alpha;
  p.beta = args.beta;
  return r;
}

template <class Cfg, OperandMode kA, OperandMode kB>
const void* sgemm_function() {
  return reinterpret_cast<const void*>(&simt_sgemm_kernel<Cfg, kA, kB>);
}

template <class Cfg, OperandMode kA>
const void* sgemm_function(OperandMode b) {
  switch (b) {
    case OperandMode::vec16: return sgemm_function<Cfg, kA, OperandMode::vec16>();
    case OperandMode::elem_mn: return sgemm_function<Cfg, kA, OperandMode::elem_mn>();
    case OperandMode::elem_k: return sgemm_function<Cfg, kA, OperandMode::elem_k>();
    case OperandMode::vec16_k:
      if constexpr (Cfg::kVec16K) return sgemm_function<Cfg, kA, OperandMode::vec16_k>();
      return nullptr;
  }
  return nullptr;
}

template <class Cfg>
const void* sgemm_function(OperandMode a, OperandMode b) {
  switch (a) {
    case OperandMode::vec16: return sgemm_function<Cfg, OperandMode::vec16>(b);
    case OperandMode::elem_mn: return sgemm_function<Cfg, OperandMode::elem_mn>(b);
    case OperandMode::elem_k: return sgemm_function<Cfg, OperandMode::elem_k>(b);
    case OperandMode::vec16_k:
      if constexpr (Cfg::kVec16K) return sgemm_function<Cfg, OperandMode::vec16_k>(b);
      return nullptr;
  }
  return nullptr;
}

}  // namespace detail

// The __global__ function, block size and dynamic shared memory for `args`.
template <class Cfg>
GemmKernel::LaunchShape sgemm_launch_shape(const GemmArgs& args) {
  if (!sgemm_can_implement(args)) return {};
  detail::SgemmPlan const r = detail::plan_sgemm(args, Cfg::kVec16K);
  return {detail::sgemm_function<Cfg>(r.mode_a, r.mode_b), Cfg::kThreads, Cfg::kSmemBytes};
}

namespace detail {

// The launch path the FFMA kernels share (simt_sgemm, simt_tiled_sgemm):
// plan the kernel orientation and operand modes (vec16_k only if
// `vec16k`), count tiles, opt in to the shared memory, launch
// `pick(mode_a, mode_b)` on a (tiles, batches) grid. Errors name `kernel`.
// The shared-memory opt-in is asked of the runtime once per kernel and
// device (set_smem_attributes_once).
template <class Cfg, class Pick>
Status launch_planned_sgemm(const GemmArgs& args, gemm_stream_t stream, const char* kernel, bool vec16k, Pick pick) {
  auto fail = [kernel](StatusCode code, std::string msg) {
    return Status{code, std::string(kernel) + ": " + std::move(msg)};
  };
  if (!sgemm_can_implement(args))
    return fail(StatusCode::cannot_implement, "needs f32 inputs, f32 output and f32 accumulation, sizes below 2^31");
  if (args.m == 0 || args.n == 0 || args.batch_count == 0) return {};
  SgemmPlan r = plan_sgemm(args, vec16k);
  std::int64_t const tiles_m = (r.p.m + Cfg::kBlockM - 1) / Cfg::kBlockM;
  std::int64_t const tiles_n = (r.p.n + Cfg::kBlockN - 1) / Cfg::kBlockN;
  // Whole groups of kGroupM tile rows must fit the int block index.
  if ((tiles_m + Cfg::kGroupM) * tiles_n > INT_MAX) return fail(StatusCode::cannot_implement, "too many tiles");
  r.p.tiles_m = static_cast<int>(tiles_m);
  r.p.tiles_n = static_cast<int>(tiles_n);
  const void* fn = pick(r.mode_a, r.mode_b);
  if constexpr (Cfg::kSmemBytes > 48 * 1024) {
    auto const e = static_cast<cudaError_t>(::tessera::detail::set_smem_attributes_once(fn, Cfg::kSmemBytes));
    if (e != cudaSuccess)
      return fail(StatusCode::cannot_implement, std::to_string(Cfg::kSmemBytes) +
                                                    " bytes of shared memory per block: " + cudaGetErrorString(e));
  }
  constexpr int kMaxGridY = 65535;
  dim3 const grid(static_cast<unsigned>(tiles_m * tiles_n),
                  static_cast<unsigned>(args.batch_count < kMaxGridY ? args.batch_count : kMaxGridY));
  void* kernel_args[] = {&r.p};
  cudaError_t const err = cudaLaunchKernel(fn, grid, dim3(Cfg::kThreads), kernel_args,
                                           static_cast<size_t>(Cfg::kSmemBytes), stream);
  if (err != cudaSuccess) return fail(StatusCode::cuda_error, std::string("launch failed: ") + cudaGetErrorString(err));
  return {};
}

}  // namespace detail

// Enqueue D = alpha*op(A)*op(B) + beta*C with configuration Cfg on `stream`.
// `args` must have passed validate_arguments and sgemm_can_implement.
template <class Cfg>
Status sgemm_launch(const GemmArgs& args, gemm_stream_t stream) {
  return detail::launch_planned_sgemm<Cfg>(args, stream, "simt_sgemm", Cfg::kVec16K, [](OperandMode a, OperandMode b) {
    return detail::sgemm_function<Cfg>(a, b);
  });
}

}  // namespace tessera::kernels::simt
