// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: OrderedSequenceBarrier: Length must be at least 2
//
// Misuse: an ordered sequence of one group. With no one to take turns with,
// the group would wait on the barrier it arrives on; a kernel that meant
// "one consumer warpgroup" wants no OrderedSequenceBarrier at all.
#include <tessera/pipeline/ordered_sequence_barrier.cuh>

using namespace tessera;

__global__ void kernel() {
  using Order = OrderedSequenceBarrier<2, 1>;
  __shared__ Order::SharedStorage storage;
  Order::Params params;
  params.group_size = 128;
  Order order(storage, params);
  order.wait();
  order.arrive();
}

int main() { return 0; }
