// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: PipelineTransactionAsync: Stages must be at least 1
//
// Misuse: a transaction pipeline over a ring of no stages.
#include <tessera/pipeline/pipeline_transaction_async.cuh>

using namespace tessera;

__global__ void kernel() {
  using Pipeline = PipelineTransactionAsync<0>;
  __shared__ Pipeline::SharedStorage storage;
  Pipeline::Params params;
  Pipeline pipeline(storage, params);
  (void)pipeline;
}

int main() { return 0; }
