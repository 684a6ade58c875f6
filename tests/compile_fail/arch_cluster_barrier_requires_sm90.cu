// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm90_or_newer
//
// ClusterBarrier's members are Tessera's mbarrier wrappers, sm_90 here
// (try_wait, the .shared::cta forms). The default compile_fail targets are
// sm_80 and sm_90a: the sm_80 pass reaches the off-target branch and the
// build fails naming the requirement.
#include <tessera/arch/sm90/cluster_barrier.cuh>

__global__ void kernel(unsigned* out) {
  __shared__ tessera::arch::ClusterBarrier bar;
  if (threadIdx.x == 0) bar.init(1);
  __syncthreads();
  bar.arrive();
  out[threadIdx.x] = bar.try_wait(0) ? 1u : 0u;
}

int main() { return 0; }
