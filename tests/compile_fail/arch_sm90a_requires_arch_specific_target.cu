// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm90a
// nvcc-flags: -gencode=arch=compute_90,code=sm_90
//
// wgmma and the other sm_90a instructions need the architecture-specific
// target: plain sm_90 must fail the build. This program writes its own
// stand-in wrapper gated exactly as the sm_90a wrappers are (on
// TESSERA_SM90A_ENABLED), so it checks the gate itself, not one wrapper.
// (Built for sm_90a alone it compiles.)
#include <tessera/arch/arch.cuh>

__device__ __forceinline__ void sm90a_only_fence() {
#if TESSERA_SM90A_ENABLED
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  tessera_error_requires_sm90a();
#endif
}

__global__ void kernel() { sm90a_only_fence(); }

int main() { return 0; }
