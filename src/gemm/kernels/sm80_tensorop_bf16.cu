// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Instantiations of the sm80 tensor-core GEMM: bf16 inputs, f32 accumulation.
#include <tessera/gemm/sm80_tensorop.cuh>

namespace tessera::kernels::sm80 {
Launch select_bf16_f32acc(bool a_k_major, bool b_k_major, Sm80Variant v) {
  return select<__nv_bfloat16, float, true, false>(a_k_major, b_k_major, v);
}
}  // namespace tessera::kernels::sm80
