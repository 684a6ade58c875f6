// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Host-visible face of the Ampere tensor-core GEMM (mma.sync, sm_80+):
// kernel variants, the per-instantiation launch description, and the
// GemmArgs entry points the registry calls. No CUDA header needed.
//
//   GemmKernel tessera::kernels::gemm_kernel_sm80_tensorop();   // registry record
//   Status     tessera::kernels::sm80_tensorop_launch_variant(args, variant, stream);

#include <cstdint>

#include <tessera/gemm/api.hpp>
#include <tessera/gemm/sm80_config.hpp>

namespace tessera::kernels {

// Which instantiation runs. `automatic` is what gemm() uses.
enum class Sm80Variant : std::uint8_t {
  automatic,     // t128x128_tma for f16-accumulated TN on sm_90, tile128x256 for big 16-bit
                 // problems, else tile128x128, scalar when misaligned (sm80_tensorop_chosen_variant)
  tile128x256,   // 128x256x64, 8 warps (2x4) of 64x64, 4-stage cp.async; 16-bit inputs, 192 KiB smem
  tile128x128,   // 128x128xBK, 3-stage cp.async: the seed's 4 warps (2x2) of 64x64 for 16-bit TN,
                 // 8 warps (2x4) of 64x32 for tf32 and M/N-major operands
  scalar,        // 128x128, 8 warps, element-wide guarded loads: any pointer, any ld (16-bit TN
                 // through MainloopPipelined, otherwise 3-stage; tf32 with 4-byte cp.async)
  pipelined,     // 128x128x64, 8 warps of 64x32, MainloopPipelined; f16 -> f32 acc only
  single_stage,  // 128x128x64, 8 warps of 64x32, MainloopSingleStage; f16 -> f32 acc only
  tiled,         // the seed tile (128x128x64, 4 warps of 64x64, 3 stages) written with Tensors,
                 // TiledCopy and TiledMMA (sm80_tiled.cuh); 16-bit TN, 16-byte aligned only
  // Tuning candidates, f16 inputs, TN (both operands K-major), 16-byte aligned
  // only (sm80_config.hpp, ConfigT*); never chosen automatically, except
  // t128x128_tma (see `automatic`).
  t128x128_s4,   // 4 warps of 64x64, 4 stages
  t128x128_w8,   // 8 warps of 64x32, 3 stages
  t128x256_s3,   // 8 warps of 64x64, 3 stages
  t256x128_s3,   // 8 warps (4x2) of 64x64, 3 stages
  t256x128_s4,   // 8 warps (4x2) of 64x64, 4 stages
  t128x256_w4,   // 4 warps of 64x128, 3 stages; f16 accumulation only
  t128x128_spread,  // the seed tile (4 warps of 64x64, 3 stages), cp.async spread over the k-steps
  t128x256_spread,  // 128x256 (8 warps of 64x64, 4 stages), cp.async spread over the k-steps
  t128x256_w4s2,    // 4 warps of 64x128, 2 stages, epilogue in 2 passes: 2 CTAs per SM; f16 accumulation only
  t128x128_tma,     // the seed tile with TMA loads instead of cp.async (sm80_tma_gemm.cuh): sm_90 devices, one
                    // matrix (no batch), K > 0
  t128x128_ws,      // the seed tile fed by two copy warps (one per operand) through cp.async, signalled with
                    // hardware barriers (sm80_ws_gemm.cuh): sm_80 instructions only; f16 accumulation only
};

[[nodiscard]] constexpr bool is_tuning_variant(Sm80Variant v) { return v >= Sm80Variant::t128x128_s4; }

[[nodiscard]] constexpr const char* to_string(Sm80Variant v) {
  switch (v) {
    case Sm80Variant::automatic: return "automatic";
    case Sm80Variant::tile128x256: return "tile128x256";
    case Sm80Variant::tile128x128: return "tile128x128";
    case Sm80Variant::scalar: return "scalar";
    case Sm80Variant::pipelined: return "pipelined";
    case Sm80Variant::single_stage: return "single_stage";
    case Sm80Variant::tiled: return "tiled";
    case Sm80Variant::t128x128_s4: return "t128x128_s4";
    case Sm80Variant::t128x128_w8: return "t128x128_w8";
    case Sm80Variant::t128x256_s3: return "t128x256_s3";
    case Sm80Variant::t256x128_s3: return "t256x128_s3";
    case Sm80Variant::t256x128_s4: return "t256x128_s4";
    case Sm80Variant::t128x256_w4: return "t128x256_w4";
    case Sm80Variant::t128x128_spread: return "t128x128_spread";
    case Sm80Variant::t128x256_spread: return "t128x256_spread";
    case Sm80Variant::t128x256_w4s2: return "t128x256_w4s2";
    case Sm80Variant::t128x128_tma: return "t128x128_tma";
    case Sm80Variant::t128x128_ws: return "t128x128_ws";
  }
  return "?";
}

namespace sm80 {

// One instantiation: its __global__ function and launch resources.
// function == nullptr: this (types, variant) pair is not instantiated.
struct Launch {
  const void* function = nullptr;
  int threads = 0;
  int smem_bytes = 0;
  int block_m = 0, block_n = 0;
  int access_bytes = 0;
  // The instantiation that runs a launch with a split tail (Params::splits >
  // 1; same threads and shared memory); nullptr when there is none.
  const void* split_function = nullptr;
  // The kernel takes (tensor map of A, tensor map of B, Params) and loads
  // with TMA (sm80_tma_gemm.cuh); otherwise it takes Params alone.
  bool tma_maps = false;
};

// Dynamic shared memory of the TMA-fed form of configuration Cfg: the ring
// (or the epilogue's staging tile), 1024 bytes to align the stages for the
// 128B swizzle, and one 8-byte mbarrier per stage.
template <class Cfg>
constexpr int tma_ring_smem_bytes() {
  return Cfg::kSmemBytes + 1024 + Cfg::kStages * 8;
}

// Threads of the copy-warp form of configuration Cfg (sm80_ws_gemm.cuh): its
// MMA warps and kCopyWarps copy warps.
template <class Cfg, int kCopyWarps = 1>
inline constexpr int kWsThreads = Cfg::kThreads + 32 * kCopyWarps;

// Dynamic shared memory of the copy-warp form: the ring (or the epilogue's
// staging tile); its stages are signalled with hardware barriers.
template <class Cfg>
constexpr int ws_ring_smem_bytes() {
  return Cfg::kSmemBytes;
}

// Per input kind, defined in src/gemm/kernels/sm80_tensorop_<kind>.cu.
Launch select_f16_f32acc(bool a_k_major, bool b_k_major, Sm80Variant v);
Launch select_bf16_f32acc(bool a_k_major, bool b_k_major, Sm80Variant v);
Launch select_f16_f16acc(bool a_k_major, bool b_k_major, Sm80Variant v);
Launch select_tf32(bool a_k_major, bool b_k_major, Sm80Variant v);
// The tuning candidates (TN only), in sm80_tensorop_tuning.cu.
Launch select_tuning_f16_f32acc(Sm80Variant v);
Launch select_tuning_f16_f16acc(Sm80Variant v);

}  // namespace sm80
}  // namespace tessera::kernels

namespace tessera::kernels {

// Whether the tensor-core kernel computes `args` (validated arguments):
// inputs f16/bf16/tf32 (not full f32), sizes that fit 32-bit tile indices.
bool sm80_tensorop_can_implement(const GemmArgs& args);
// Run a chosen variant; `automatic` picks by size and alignment. Returns
// cannot_implement when the variant does not cover the problem (e.g. a
// 16-byte variant with misaligned operands).
// raster_group: M-tiles per rasterisation group, 0 for the default (8).
// tail_splits: how the tiles after the last full wave of resident CTAs run
// (sm80_split.hpp): kSm80TailSplitAuto by the cost model (split only when
// that wave is at most half full and slices pay); 1 never split; s >= 2 cut
// into s K-slices (fewer when K has fewer k-tiles; every tile when there is
// less than one wave). Batched problems never split; nor when the split
// workspace cannot be allocated.
inline constexpr int kSm80TailSplitAuto = -1;
Status sm80_tensorop_launch_variant(const GemmArgs& args, Sm80Variant variant, gemm_stream_t stream,
                                    int raster_group = 0, int tail_splits = kSm80TailSplitAuto);
// Whether `variant` runs `args` (types, operand orders, alignment, one
// matrix for the TMA-fed and copy-warp variants): what
// sm80_tensorop_launch_variant would accept. Queries the device's compute
// capability only for `automatic` (which variant it stands for).
bool sm80_tensorop_variant_covers(const GemmArgs& args, Sm80Variant variant);
// The variant `automatic` runs for `args` on the current device (never
// `automatic`); `automatic` when the kernel does not implement `args`.
Sm80Variant sm80_tensorop_chosen_variant(const GemmArgs& args);
// The kernel, threads and dynamic shared memory of `variant` for `args`
// (function == nullptr when it does not cover them); the tail-split
// instantiation when the automatic split applies (queries the device's SM
// count and occupancy for that). Its shared-memory attributes are set on
// the current device, as a launch sets them.
GemmKernel::LaunchShape sm80_tensorop_variant_launch_shape(const GemmArgs& args, Sm80Variant variant);
// The registry records: "sm80_tensorop" (automatic variant) and "sm80_tiled"
// (Sm80Variant::tiled).
GemmKernel gemm_kernel_sm80_tensorop();
GemmKernel gemm_kernel_sm80_tiled();

}  // namespace tessera::kernels
