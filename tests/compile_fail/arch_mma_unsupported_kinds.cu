// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: mma_sync: no mma.sync for this shape and operand kinds
//
// bf16 inputs with an f16 accumulator is not an mma.sync form: the operand
// kind check rejects it at compile time on every target.
#include <tessera/arch/sm80/mma.cuh>

__global__ void kernel(uint32_t* out) {
  using Bad = tessera::arch::MmaSync<16, 8, 16, tessera::arch::F16, tessera::arch::BF16,
                                     tessera::arch::BF16, tessera::arch::F16>;
  uint32_t a[4] = {1, 2, 3, 4}, b[2] = {5, 6}, c[2] = {0, 0}, d[2];
  Bad::fma(d, a, b, c);
  out[threadIdx.x] = d[0] ^ d[1];
}

int main() { return 0; }
