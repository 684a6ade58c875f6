// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm80_or_newer
// nvcc-flags: -gencode=arch=compute_75,code=sm_75
//
// cp.async exists from sm_80 on: built for sm_75 the build must fail and name
// the requirement. (Built for sm_80/sm_90a it compiles.)
#include <tessera/arch/sm80/cp_async.cuh>

__global__ void kernel(const float* in, float* out) {
  __shared__ alignas(16) float tile[128];
  tessera::arch::cp_async<16, tessera::arch::CacheGlobal>(tile + 4 * threadIdx.x, in + 4 * threadIdx.x);
  tessera::arch::cp_async_fence();
  tessera::arch::cp_async_wait<0>();
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

int main() { return 0; }
