// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm80_or_newer
// nvcc-flags: -gencode=arch=compute_75,code=sm_75
//
// Turing has integer mma.sync only as m8n8k16; m16n8k16 and m16n8k32 s8/u8
// need sm_80. Built for sm_75 the m16n8k32 wrapper takes its off-target
// branch, whose call to the undefined tessera_error_requires_sm80_or_newer
// ptxas refuses. (m8n8k16 s8 builds for sm_75.)
#include <tessera/arch/sm80/mma.cuh>

__global__ void kernel(uint32_t* out, const uint32_t* in) {
  uint32_t a[4] = {in[0], in[1], in[2], in[3]};
  uint32_t b[2] = {in[4], in[5]};
  uint32_t c[4] = {0, 0, 0, 0};
  uint32_t d[4];
  tessera::arch::Mma_m16n8k32_s32s8s8s32::fma(d, a, b, c);
  out[threadIdx.x] = d[0] ^ d[1] ^ d[2] ^ d[3];
}

int main() { return 0; }
