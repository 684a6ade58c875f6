// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: warpgroup_fence_operand: operands are 32-bit registers
//
// The fence pins whole 32-bit registers; a tensor of 16-bit values would
// pin halves the compiler may have packed differently from wgmma's
// accumulator pairs, so it is refused by name.
#include <tessera/atom/sync_sm90.cuh>
#include <cuda_fp16.h>

__global__ void kernel(__half* out) {
  __half acc[8];
  for (int i = 0; i < 8; ++i) acc[i] = __float2half(float(i));
  auto t = tessera::make_tensor(&acc[0], tessera::make_layout(tessera::Int<8>{}));
  tessera::warpgroup_fence_operand(t);
  out[threadIdx.x] = acc[threadIdx.x % 8];
}

int main() { return 0; }
