// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: PipelineTmaAsync: the cluster shape's Z extent must be 1
//
// Misuse: a 2x1x2 cluster. Consumer releases reach the CTAs sharing this
// CTA's row or column of a 2-D cluster (release_peers.hpp); a third
// dimension would leave some multicasting peers unsignalled.
#include <tessera/pipeline/pipeline_tma_async.cuh>

using namespace tessera;

__global__ void kernel() {
  __shared__ PipelineTmaAsync<4>::SharedStorage storage;
  PipelineTmaAsync<4>::Params params;
  params.num_consumers = 32;
  PipelineTmaAsync<4> pipeline(storage, params, Shape<_2, _1, _2>{});
  (void)pipeline;
}

int main() { return 0; }
