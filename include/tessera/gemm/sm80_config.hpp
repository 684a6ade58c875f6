// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Compile-time description of one Ampere tensor-core GEMM kernel: the three
// tiling levels (threadblock TileShape, per-warp WarpShape, mma.sync
// instruction shape), the mainloop policy, the operand majorness and the
// global-memory access width. Host-visible so the launcher and the tests can
// compute grid, block and shared-memory sizes without nvcc.

#include <cstdint>
#include <type_traits>

namespace tessera::kernels {

// An (M, N, K) extent known at compile time.
template <int kM_, int kN_, int kK_>
struct GemmShape {
  static constexpr int kM = kM_;
  static constexpr int kN = kN_;
  static constexpr int kK = kK_;
};

// Mainloop policies (seed 001). Each names how a k-tile reaches shared memory.
// MainloopSingleStage: gmem -> registers -> one smem tile, barrier, compute, barrier.
struct MainloopSingleStage {
  static constexpr int kStages = 1;
};
// MainloopPipelined: two smem tiles and a register double buffer: the global
// loads of k-tile k+1 are in flight while the warps compute k-tile k.
struct MainloopPipelined {
  static constexpr int kStages = 2;
};
// MainloopMultistage: a ring of kStages smem tiles filled by cp.async;
// k-tile k+kStages-1 is requested while k-tile k is consumed.
// kSpread: the cp.async requests of a k-tile are issued in kKSteps slices,
// one per k-step, instead of all at k-step 0 (a tuning candidate).
template <int kStages_, bool kSpread_ = false>
struct MainloopMultistage {
  static_assert(kStages_ >= 2, "MainloopMultistage: needs at least 2 stages [use MainloopSingleStage]");
  static_assert(!kSpread_ || kStages_ >= 3,
                "MainloopMultistage: spread requests need 3+ stages [the last slice is committed just before the "
                "wait]");
  static constexpr int kStages = kStages_;
  static constexpr bool kSpread = kSpread_;
};

// The element kinds the kernel multiplies. Storage types live in the .cuh
// (half, bfloat16, float); here only their sizes matter.
enum class Sm80Element : std::uint8_t { f16, bf16, tf32 };

constexpr int sm80_element_bytes(Sm80Element e) { return e == Sm80Element::tf32 ? 4 : 2; }

// Everything that fixes one kernel instantiation.
//   ElemBytes     2 (f16/bf16) or 4 (tf32 stored as f32)
//   TileShapeT    threadblock tile (BLK_M, BLK_N, BLK_K)
//   WarpShapeT    per-warp tile (WARP_M, WARP_N, BLK_K)
//   MainloopT     one of the policies above
//   kAKMajor      A stored (M,K):(ld,1) when true, (M,K):(1,ld) when false
//   kBKMajor      B stored (N,K):(ld,1) when true, (N,K):(1,ld) when false
//   kAccessBytes  bytes per global load (16, 8, 4, or the element size)
template <int kElemBytes_, class TileShapeT, class WarpShapeT, class MainloopT, bool kAKMajor_,
          bool kBKMajor_, int kAccessBytes_, int kEpiloguePasses_ = 1>
struct Sm80TileConfig {
  using TileShape = TileShapeT;
  using WarpShape = WarpShapeT;
  using Mainloop = MainloopT;

  static constexpr int kElemBytes = kElemBytes_;
  static constexpr bool kAKMajor = kAKMajor_;
  static constexpr bool kBKMajor = kBKMajor_;
  static constexpr int kAccessBytes = kAccessBytes_;

  static constexpr int kBlockM = TileShape::kM;
  static constexpr int kBlockN = TileShape::kN;
  static constexpr int kBlockK = TileShape::kK;
  static constexpr int kWarpM = WarpShape::kM;
  static constexpr int kWarpN = WarpShape::kN;
  static constexpr int kWarpsM = kBlockM / kWarpM;
  static constexpr int kWarpsN = kBlockN / kWarpN;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  static constexpr int kStages = Mainloop::kStages;

  // Instruction shape: m16n8k16 for 16-bit inputs, m16n8k8 for tf32.
  static constexpr int kInstM = 16;
  static constexpr int kInstN = 8;
  static constexpr int kInstK = kElemBytes == 2 ? 16 : 8;
  static constexpr int kMmaM = kWarpM / kInstM;    // MMA_M per warp
  static constexpr int kMmaN = kWarpN / kInstN;    // MMA_N per warp
  static constexpr int kKSteps = kBlockK / kInstK;  // MMA_K per k-tile

  // Shared memory of one stage (A tile + B tile) and of the whole kernel.
  static constexpr int kStageBytesA = kBlockM * kBlockK * kElemBytes;
  static constexpr int kStageBytesB = kBlockN * kBlockK * kElemBytes;
  static constexpr int kMainloopSmemBytes = kStages * (kStageBytesA + kStageBytesB);
  // The epilogue stages the f32 accumulator tile through the same memory,
  // in kEpiloguePasses bands of kBlockM / kEpiloguePasses rows (each band the
  // accumulators of whole warp rows) where the whole tile would not fit.
  static constexpr int kEpiloguePasses = kEpiloguePasses_;
  static constexpr int kEpilogueSmemBytes = kBlockM / kEpiloguePasses * kBlockN * 4;
  static constexpr int kSmemBytes =
      kMainloopSmemBytes > kEpilogueSmemBytes ? kMainloopSmemBytes : kEpilogueSmemBytes;

  static_assert(kElemBytes == 2 || kElemBytes == 4, "Sm80TileConfig: element must be 2 or 4 bytes");
  static_assert(kBlockK * kElemBytes == 128,
                "Sm80TileConfig: BLK_K must span 128 bytes (64 f16/bf16, 32 tf32) [the smem "
                "swizzle works on 128-byte rows]");
  static_assert(kBlockM % kWarpM == 0 && kBlockN % kWarpN == 0,
                "Sm80TileConfig: the warp tile must divide the threadblock tile");
  static_assert(WarpShape::kK == kBlockK, "Sm80TileConfig: the warp tile spans the whole BLK_K");
  static_assert(kWarpM % kInstM == 0 && kWarpN % (2 * kInstN) == 0,
                "Sm80TileConfig: warp tile must be a multiple of 16x16 [B fragments load 16 columns "
                "per ldmatrix.x4]");
  static_assert(kBlockM * kElemBytes % 128 == 0 && kBlockN * kElemBytes % 128 == 0,
                "Sm80TileConfig: M/N-major smem rows must be multiples of 128 bytes");
  static_assert(kAccessBytes == 16 || kAccessBytes == 8 || kAccessBytes == 4 || kAccessBytes == kElemBytes,
                "Sm80TileConfig: global access must be 16, 8, 4 bytes or one element");
  static_assert(kAccessBytes >= kElemBytes, "Sm80TileConfig: global access narrower than an element");
  static_assert(kEpiloguePasses >= 1 && kWarpsM % kEpiloguePasses == 0,
                "Sm80TileConfig: each epilogue pass stages whole warp rows [passes must divide BLK_M / WARP_M]");
};

namespace sm80 {

enum class OutputType : int { f16 = 0, bf16 = 1, f32 = 2 };

// Default M-tiles per rasterisation group (sm80_tensorop.cuh, rasterize()).
inline constexpr int kRasterGroupM = 8;

// What the epilogue needs to know about C and D, in kernel orientation: D is
// row-major (D(i,j) at d[i*ldd + j]); C(i,j) at c[i*c_row + j*c_col].
struct EpilogueParams {
  void* d;
  std::int64_t ldd;
  const void* c;  // null allowed when beta == 0
  std::int64_t c_row, c_col;
  float alpha, beta;
  OutputType out;
  bool d_vec_ok;  // D pointer and ldd*sizeof allow 16-byte stores
  bool c_vec_ok;  // c_col == 1 and C pointer / c_row*sizeof allow 16-byte loads
};

// Kernel arguments (by value). Kernel orientation: D(i,j) = sum_k A(i,k) B(k,j)
// with A (m,k), B (k,n); the host swaps A and B for a column-major D.
//   A(i,k) at a[i*lda + k] when A is K-major, a[k*lda + i] otherwise;
//   B(k,j) at b[j*ldb + k] when B is K-major, b[k*ldb + j] otherwise.
struct Params {
  int m, n, k;
  int batch_count;
  int tiles_m, tiles_n;
  int raster_group;  // M-tiles per rasterisation group (>= 1)
  const void* a;
  std::int64_t lda, batch_a;
  const void* b;
  std::int64_t ldb, batch_b;
  std::int64_t batch_c, batch_d;  // elements
  EpilogueParams epi;
  // Tail split (sm80_split.cuh; batch_count == 1 only): the tiles from
  // split_from on (in rasterisation order) are each computed by `splits`
  // CTAs, K-slices of split_k_tiles k-tiles (the last one shorter), which
  // add their f32 sums into the tile's buffer partial + (tile - split_from)
  // x BLK_M x BLK_N and count in on counters[tile - split_from]; the last
  // one writes D. splits == 1: every CTA computes one whole tile. The
  // buffers and counters are zero at launch and zero again when it ends.
  int splits = 1;
  int split_from = 0;
  int split_k_tiles = 0;
  float* partial = nullptr;
  int* counters = nullptr;
};

// The configurations behind each Sm80Variant for an element of kE bytes.
template <int kE>
inline constexpr int kBlockKFor = 128 / kE;

template <int kE, bool kA, bool kB>
using ConfigTile128x256 = Sm80TileConfig<kE, GemmShape<128, 256, kBlockKFor<kE>>, GemmShape<64, 64, kBlockKFor<kE>>,
                                         MainloopMultistage<4>, kA, kB, 16>;
// NOTE: the seed's 4 warps (2x2) of 64x64 for the 16-bit TN case; 8 warps
// (2x4) of 64x32 for tf32 and for layouts with an M/N-major operand, whose
// extra address registers (ldmatrix.trans rows, scalar tf32 loads) made the
// 64x64 warp tile spill 12-168 bytes under the 255-register cap.
template <int kE, bool kA, bool kB>
using Warp128x128 = std::conditional_t<kE == 2 && kA && kB, GemmShape<64, 64, kBlockKFor<kE>>,
                                       GemmShape<64, 32, kBlockKFor<kE>>>;
template <int kE, bool kA, bool kB>
using ConfigTile128x128 =
    Sm80TileConfig<kE, GemmShape<128, 128, kBlockKFor<kE>>, Warp128x128<kE, kA, kB>, MainloopMultistage<3>, kA, kB, 16>;
// NOTE: the element-wide variant moves 8x more units per thread; 8 warps of
// 64x32 halve both the units and the accumulators per thread. 16-bit data
// has no cp.async of 2 bytes, so its element-wide loads are synchronous: for
// the TN case (both operands K-major) the Pipelined policy keeps the next
// k-tile's loads in registers while the current one is multiplied, hiding
// the global latency that a synchronous copy in the multistage ring would
// expose once per k-tile. (M/N-major 2-byte staging spilled 148 bytes, so
// those layouts keep the multistage ring.) tf32 uses 4-byte cp.async.
template <int kE, bool kA, bool kB>
using ConfigScalar = std::conditional_t<
    kE == 2 && kA && kB,
    Sm80TileConfig<kE, GemmShape<128, 128, kBlockKFor<kE>>, GemmShape<64, 32, kBlockKFor<kE>>, MainloopPipelined, kA,
                   kB, kE>,
    Sm80TileConfig<kE, GemmShape<128, 128, kBlockKFor<kE>>, GemmShape<64, 32, kBlockKFor<kE>>, MainloopMultistage<3>,
                   kA, kB, kE>>;
template <int kE, bool kA, bool kB>
using ConfigPipelined = Sm80TileConfig<kE, GemmShape<128, 128, kBlockKFor<kE>>, GemmShape<64, 32, kBlockKFor<kE>>,
                                       MainloopPipelined, kA, kB, 16>;
template <int kE, bool kA, bool kB>
using ConfigSingleStage = Sm80TileConfig<kE, GemmShape<128, 128, kBlockKFor<kE>>, GemmShape<64, 32, kBlockKFor<kE>>,
                                         MainloopSingleStage, kA, kB, 16>;

// ---- tuning candidates (issue 4: the seed shape at >= 430 TFLOP/s) --------
// Instantiated for 16-bit TN only (src/gemm/kernels/sm80_tensorop_tuning.cu);
// scripts/gpu/ampere.sh times each of them on the seed problem. Every one is
// a plain Sm80TileConfig: only the tiling levels and the stage count differ.
// 128x128, 4 warps of 64x64, 4 stages (128 KiB: one CTA per SM).
template <int kE>
using ConfigT128x128S4 = Sm80TileConfig<kE, GemmShape<128, 128, kBlockKFor<kE>>, GemmShape<64, 64, kBlockKFor<kE>>, MainloopMultistage<4>,
                                        true, true, 16>;
// 128x128, 8 warps (2x4) of 64x32, 3 stages: half the accumulators per thread,
// two CTAs (16 warps) per SM.
template <int kE>
using ConfigT128x128W8 = Sm80TileConfig<kE, GemmShape<128, 128, kBlockKFor<kE>>, GemmShape<64, 32, kBlockKFor<kE>>, MainloopMultistage<3>,
                                        true, true, 16>;
// 128x256, 8 warps (2x4) of 64x64, 3 stages (144 KiB).
template <int kE>
using ConfigT128x256S3 = Sm80TileConfig<kE, GemmShape<128, 256, kBlockKFor<kE>>, GemmShape<64, 64, kBlockKFor<kE>>, MainloopMultistage<3>,
                                        true, true, 16>;
// 256x128, 8 warps (4x2) of 64x64, 3 or 4 stages.
template <int kE>
using ConfigT256x128S3 = Sm80TileConfig<kE, GemmShape<256, 128, kBlockKFor<kE>>, GemmShape<64, 64, kBlockKFor<kE>>, MainloopMultistage<3>,
                                        true, true, 16>;
template <int kE>
using ConfigT256x128S4 = Sm80TileConfig<kE, GemmShape<256, 128, kBlockKFor<kE>>, GemmShape<64, 64, kBlockKFor<kE>>, MainloopMultistage<4>,
                                        true, true, 16>;
// The seed tile and the 128x256 tile with the cp.async requests of a k-tile
// spread over its k-steps (MainloopMultistage<N, true>).
template <int kE>
using ConfigT128x128Spread = Sm80TileConfig<kE, GemmShape<128, 128, kBlockKFor<kE>>, GemmShape<64, 64, kBlockKFor<kE>>,
                                            MainloopMultistage<3, true>, true, true, 16>;
template <int kE>
using ConfigT128x256Spread = Sm80TileConfig<kE, GemmShape<128, 256, kBlockKFor<kE>>, GemmShape<64, 64, kBlockKFor<kE>>,
                                            MainloopMultistage<4, true>, true, true, 16>;
// 128x256, 4 warps (2x2) of 64x128, 3 stages: 12 ldmatrix.x4 per 64 mma.sync
// instead of 8 per 32. Only with f16 accumulation (128 accumulator registers;
// f32 would need 256).
template <int kE>
using ConfigT128x256W4 = Sm80TileConfig<kE, GemmShape<128, 256, kBlockKFor<kE>>, GemmShape<64, 128, kBlockKFor<kE>>, MainloopMultistage<3>,
                                        true, true, 16>;
// The same warps with 2 stages (96 KiB) and the epilogue in two 64-row
// passes (64 KiB), so two CTAs (8 warps) share an SM.
template <int kE>
using ConfigT128x256W4S2 = Sm80TileConfig<kE, GemmShape<128, 256, kBlockKFor<kE>>, GemmShape<64, 128, kBlockKFor<kE>>,
                                          MainloopMultistage<2>, true, true, 16, 2>;

}  // namespace sm80

}  // namespace tessera::kernels
