// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm80_or_newer
// nvcc-flags: -gencode=arch=compute_75,code=sm_75
//
// prefetch.global.L2::evict_last exists from sm_80 on: built for sm_75 the
// build must fail and name the requirement. (The plain prefetch_l2 builds
// there; built for sm_80/sm_90a both compile.)
#include <tessera/arch/sm80/prefetch.cuh>

__global__ void kernel(const float* in, float* out) {
  tessera::arch::prefetch_l2(in + 32 * threadIdx.x);
  tessera::arch::prefetch_l2_evict_last(in + 32 * threadIdx.x);
  out[threadIdx.x] = in[threadIdx.x];
}

int main() { return 0; }
