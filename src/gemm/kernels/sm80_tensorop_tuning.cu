// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Instantiations of the sm80 tensor-core GEMM's tuning candidates
// (Sm80Variant::t*, sm80_config.hpp): f16 inputs, TN, with f32 and with f16
// accumulation. Kept in their own translation unit so they build in parallel
// with the production instantiations; scripts/gpu/ampere.sh times them.
#include <tessera/gemm/sm80_tensorop.cuh>

namespace tessera::kernels::sm80 {
Launch select_tuning_f16_f32acc(Sm80Variant v) { return select_tuning<__half, float, false>(v); }
Launch select_tuning_f16_f16acc(Sm80Variant v) { return select_tuning<__half, __half, true>(v); }
}  // namespace tessera::kernels::sm80
