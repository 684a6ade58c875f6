// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: PipelineTmaAsync: the shared storage must be this pipeline's SharedStorage
//
// Misuse: a 6-stage pipeline over the barriers of a 4-stage one (the kernel's
// shared struct declared with the old stage count). Without the named
// refusal the pipeline would index past the storage's barriers.
#include <tessera/pipeline/pipeline_tma_async.cuh>

using namespace tessera;

__global__ void kernel() {
  __shared__ PipelineTmaAsync<4>::SharedStorage storage;
  PipelineTmaAsync<6>::Params params;
  params.num_consumers = 32;
  PipelineTmaAsync<6> pipeline(storage, params, Shape<_1, _1, _1>{});
  (void)pipeline;
}

int main() { return 0; }
