// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm90a
//
// CuTe's warpgroup names (tessera/atom/sync_sm90.cuh) keep the rule of the
// wgmma instructions they stand for: built for the default compile_fail
// targets (sm_80 and sm_90a), the sm_80 pass fails and names sm_90a. A
// kernel meant for both targets guards the calls with
// `#if TESSERA_SM90A_ENABLED`.
#include <tessera/atom/sync_sm90.cuh>

__global__ void kernel(float* out) {
  float acc[4] = {0.f, 1.f, 2.f, 3.f};
  tessera::warpgroup_fence_operand(acc);
  tessera::warpgroup_arrive();
  tessera::warpgroup_commit_batch();
  tessera::warpgroup_wait<0>();
  tessera::warpgroup_fence_operand(acc);
  out[threadIdx.x] = acc[threadIdx.x % 4];
}

int main() { return 0; }
