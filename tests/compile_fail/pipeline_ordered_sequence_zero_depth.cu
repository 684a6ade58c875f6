// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: OrderedSequenceBarrier: SequenceDepth must be at least 1
//
// Misuse: no ordered point in the loop (a ring of no stages; the state's
// stage arithmetic would divide by zero).
#include <tessera/pipeline/ordered_sequence_barrier.cuh>

using namespace tessera;

__global__ void kernel() {
  using Order = OrderedSequenceBarrier<0, 2>;
  __shared__ Order::SharedStorage storage;
  Order::Params params;
  params.group_size = 128;
  Order order(storage, params);
  order.wait();
}

int main() { return 0; }
