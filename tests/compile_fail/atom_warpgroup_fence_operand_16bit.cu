// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: warpgroup_fence_operand: operands are 32-bit registers
//
// The fence pins whole 32-bit registers. A compact 16-bit register Tensor
// (an f16 GMMA accumulator) is fenced as its 32-bit pairs; a bare array of
// 16-bit values would pin halves the compiler may pack differently from
// wgmma's accumulator pairs, so it is refused by name.
#include <tessera/atom/sync_sm90.cuh>
#include <cuda_fp16.h>

__global__ void kernel(__half* out) {
  __half acc[8];
  for (int i = 0; i < 8; ++i) acc[i] = __float2half(float(i));
  tessera::warpgroup_fence_operand(acc);
  out[threadIdx.x] = acc[threadIdx.x % 8];
}

int main() { return 0; }
