// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: PipelineTmaStore: Stages must be at least 1
//
// Misuse: a store ring of no buffers (producer_acquire would wait for at
// most -1 groups in flight).
#include <tessera/pipeline/pipeline_tma_store.cuh>

using namespace tessera;

__global__ void kernel() {
  using StorePipeline = PipelineTmaStore<0>;
  StorePipeline pipeline;
  typename StorePipeline::PipelineState write;
  pipeline.producer_acquire(write);
}

int main() { return 0; }
