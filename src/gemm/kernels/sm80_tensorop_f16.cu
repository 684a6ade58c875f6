// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Instantiations of the sm80 tensor-core GEMM: f16 inputs, f32 accumulation.
// Also the only kind with the SingleStage / Pipelined mainloop variants.
#include <tessera/gemm/sm80_tensorop.cuh>

namespace tessera::kernels::sm80 {
Launch select_f16_f32acc(bool a_k_major, bool b_k_major, Sm80Variant v) {
  return select<__half, float, true, true>(a_k_major, b_k_major, v);
}
}  // namespace tessera::kernels::sm80
