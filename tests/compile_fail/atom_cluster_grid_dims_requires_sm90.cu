// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm90_or_newer
//
// The cluster geometry registers (%nclusterid here; %clusterid,
// %cluster_ctaid and %cluster_nctaid share the wrapper) exist from sm_90 on.
// CuTe answers gridDim on older targets; Tessera fails the sm_80 pass of the
// default targets, naming the requirement.
#include <tessera/atom/sync_sm90.cuh>

__global__ void kernel(unsigned* out) { out[threadIdx.x] = tessera::cluster_grid_dims().x; }

int main() { return 0; }
