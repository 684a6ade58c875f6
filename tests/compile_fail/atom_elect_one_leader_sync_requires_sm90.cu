// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm90_or_newer
//
// elect.sync exists from sm_90 on: elect_one_leader_sync built for the
// sm_80 pass of the default targets fails the build, naming the
// requirement, instead of electing lane 0 by convention.
#include <tessera/atom/sync_sm90.cuh>

__global__ void kernel(unsigned* out) { out[threadIdx.x] = tessera::elect_one_leader_sync().leader_lane_id; }

int main() { return 0; }
