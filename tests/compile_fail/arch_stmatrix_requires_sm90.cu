// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm90_or_newer
//
// stmatrix exists from sm_90 on. The default compile_fail targets are sm_80
// and sm_90a: the sm_80 pass reaches the off-target branch and the build
// fails naming the requirement. A kernel meant for both targets must guard
// the call with `#if TESSERA_SM90_ENABLED`.
#include <tessera/arch/sm90/stmatrix.cuh>

__global__ void kernel(const uint32_t* in) {
  __shared__ alignas(16) uint32_t tile[256];
  tessera::arch::stmatrix_x1(tile + 4 * (threadIdx.x % 8), in[threadIdx.x]);
}

int main() { return 0; }
