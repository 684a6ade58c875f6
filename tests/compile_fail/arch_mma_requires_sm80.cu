// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm80_or_newer
// nvcc-flags: -gencode=arch=compute_75,code=sm_75
//
// mma.sync m16n8k16 exists from sm_80 on. Built for sm_75 the wrapper's
// off-target branch calls the undefined tessera_error_requires_sm80_or_newer,
// and ptxas refuses the unresolved call. (Built for sm_80/sm_90a it compiles.)
#include <tessera/arch/sm80/mma.cuh>

__global__ void kernel(float* out, const uint32_t* in) {
  uint32_t a[4] = {in[0], in[1], in[2], in[3]};
  uint32_t b[2] = {in[4], in[5]};
  float c[4] = {0.f, 0.f, 0.f, 0.f};
  float d[4];
  tessera::arch::mma_m16n8k16_f32f16f16f32(d, a, b, c);
  out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
}

int main() { return 0; }
