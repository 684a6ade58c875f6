// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Instantiations of the sm80 tensor-core GEMM: f16 inputs, f16 accumulation
// (the seed's HGEMM, mma.sync ...f16.f16.f16.f16).
#include <tessera/gemm/sm80_tensorop.cuh>

namespace tessera::kernels::sm80 {
Launch select_f16_f16acc(bool a_k_major, bool b_k_major, Sm80Variant v) {
  return select<__half, __half, true, false>(a_k_major, b_k_major, v);
}
}  // namespace tessera::kernels::sm80
