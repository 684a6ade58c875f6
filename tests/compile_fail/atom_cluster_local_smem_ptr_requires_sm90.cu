// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm90_or_newer
//
// Distributed shared memory (cluster_local_smem_ptr, mapa) exists from
// sm_90 on. The default compile_fail targets are sm_80 and sm_90a: the sm_80
// pass reaches the off-target branch and the build fails naming the
// requirement instead of leaving a kernel that would fault at run time.
#include <tessera/atom/sync_sm90.cuh>

__global__ void kernel(float* out) {
  __shared__ float buf[32];
  buf[threadIdx.x % 32] = float(threadIdx.x);
  float* peer = tessera::cluster_local_smem_ptr(buf, 1u - tessera::block_rank_in_cluster());
  out[threadIdx.x] = peer[threadIdx.x % 32];
}

int main() { return 0; }
