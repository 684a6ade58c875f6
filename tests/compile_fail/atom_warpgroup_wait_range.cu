// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: warpgroup_wait<N>: wgmma.wait_group takes N in [0, 7]
//
// wgmma.wait_group's immediate is 0..7: a larger N fails the build, naming
// the range.
#include <tessera/atom/sync_sm90.cuh>

__global__ void kernel() { tessera::warpgroup_wait<8>(); }

int main() { return 0; }
