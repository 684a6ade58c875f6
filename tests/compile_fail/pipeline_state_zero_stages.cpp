// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: PipelineState: Stages must be at least 1
// Misuse: a pipeline state over a ring of no stages (CUTLASS's PipelineState
// accepts 0 and divides by it in advance()).
#include <tessera/pipeline/pipeline_state.hpp>

using namespace tessera;

int misuse() {
  PipelineState<0> s;
  ++s;
  return s.index();
}
