// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Instantiations of the sm80 tensor-core GEMM: tf32 (f32 storage, m16n8k8
// tf32 mma.sync, operands rounded with cvt.rna), f32 accumulation.
// M/N-major tf32 operands read shared memory with 32-bit loads instead of
// ldmatrix.trans (which would split the 32-bit words): slower, still correct.
#include <tessera/gemm/sm80_tensorop.cuh>

namespace tessera::kernels::sm80 {
Launch select_tf32(bool a_k_major, bool b_k_major, Sm80Variant v) {
  return select<float, float, false, false>(a_k_major, b_k_major, v);
}
}  // namespace tessera::kernels::sm80
