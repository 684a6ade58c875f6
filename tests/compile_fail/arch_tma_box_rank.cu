// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tma: a TMA box has 1 to 5 coordinates
//
// A TMA instruction's rank is its number of coordinates, and tensor maps
// have rank 1 to 5 (cp.async.bulk.tensor.{1d..5d}); a sixth coordinate
// fails the build by name rather than reaching ptxas.
#include <tessera/arch/sm90/tma.cuh>

__global__ void kernel(const void* tmap, int x) {
  __shared__ alignas(128) unsigned char box[1024];
  __shared__ uint64_t bar;
  tessera::arch::tma_load(box, tmap, &bar, x, 0, 0, 0, 0, 0);
}

int main() { return 0; }
