// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: cp_async: CacheGlobal (cp.async.cg) copies exactly 16 bytes
//
// cp.async.cg has no 4- or 8-byte form; asking for one is a compile error.
#include <tessera/arch/sm80/cp_async.cuh>

__global__ void kernel(const float* in) {
  __shared__ alignas(16) float tile[64];
  tessera::arch::cp_async<8, tessera::arch::CacheGlobal>(tile + 2 * threadIdx.x, in + 2 * threadIdx.x);
}

int main() { return 0; }
