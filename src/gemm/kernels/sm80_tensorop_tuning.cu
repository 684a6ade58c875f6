// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Instantiations of the sm80 tensor-core GEMM's tuning candidates
// (Sm80Variant::t*, sm80_config.hpp): f16 inputs, TN, with f32 and with f16
// accumulation. Kept in their own translation unit so they build in parallel
// with the production instantiations; scripts/gpu/ampere.sh and
// scripts/gpu/seed_f16acc.sh time them. t128x128_tma is the seed tile fed by
// TMA (sm80_tma_gemm.cuh; its body exists in the sm_90 image only);
// t128x128_ws the seed tile fed by two copy warps, one per operand
// (sm80_ws_gemm.cuh), f16 accumulation only (with f32 accumulators it
// spills at the register cap of two 192-thread CTAs per SM).
#include <tessera/gemm/sm80_tensorop.cuh>
#include <tessera/gemm/sm80_tma_gemm.cuh>
#include <tessera/gemm/sm80_ws_gemm.cuh>

namespace tessera::kernels::sm80 {
Launch select_tuning_f16_f32acc(Sm80Variant v) {
  if (v == Sm80Variant::t128x128_tma) return describe_tma<ConfigTile128x128<2, true, true>, __half, float>();
  return select_tuning<__half, float, false>(v);
}
Launch select_tuning_f16_f16acc(Sm80Variant v) {
  if (v == Sm80Variant::t128x128_tma) return describe_tma<ConfigTile128x128<2, true, true>, __half, __half>();
  if (v == Sm80Variant::t128x128_ws) return describe_ws<ConfigTile128x128<2, true, true>, __half, __half, 2>();
  return select_tuning<__half, __half, true>(v);
}
}  // namespace tessera::kernels::sm80
