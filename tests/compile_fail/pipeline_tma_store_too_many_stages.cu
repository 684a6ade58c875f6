// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: PipelineTmaStore: Stages must be at most 64
//
// Misuse: 65 store buffers. cp.async.bulk.wait_group.read takes at most 63
// groups left in flight, so no instruction expresses the acquire.
#include <tessera/pipeline/pipeline_tma_store.cuh>

using namespace tessera;

__global__ void kernel() {
  using StorePipeline = PipelineTmaStore<65>;
  StorePipeline pipeline;
  typename StorePipeline::PipelineState write;
  pipeline.producer_acquire(write);
}

int main() { return 0; }
