// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Host-side launch preparation shared by the Ampere tensor-core kernels
// (sm80_tensorop.cuh, sm80_tiled.cuh).

#include <cuda_runtime.h>

namespace tessera::kernels::sm80 {

// Lets `fn` use `smem_bytes` of dynamic shared memory and prefer the
// largest shared-memory carve-out; the first failing call's cudaError_t as
// an int (0 on success).
template <class Fn>
int set_smem_attributes(Fn* fn, int smem_bytes) {
  cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
  if (e == cudaSuccess) e = cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
  return int(e);
}

}  // namespace tessera::kernels::sm80
