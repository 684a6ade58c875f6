// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: PipelineTransactionAsync: the shared storage must be this pipeline's SharedStorage
//
// Misuse: a 4-stage transaction pipeline over a 2-stage one's barriers
// (the kernel's shared struct declared with the old stage count). Without
// the named refusal the pipeline would index past the storage's barriers.
#include <tessera/pipeline/pipeline_transaction_async.cuh>

using namespace tessera;

__global__ void kernel() {
  __shared__ PipelineTransactionAsync<2>::SharedStorage storage;
  PipelineTransactionAsync<4>::Params params;
  PipelineTransactionAsync<4> pipeline(storage, params);
  (void)pipeline;
}

int main() { return 0; }
