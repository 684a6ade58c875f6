// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CUTLASS's OrderedSequenceBarrier under Tessera's names: Length groups of
// threads (the consumer warpgroups of a ping-pong GEMM) take turns in a
// fixed order, group 0, 1, ..., Length - 1, 0, ..., at each of
// SequenceDepth points of their loop. A group waits for its turn, does its
// work, then arrives to pass the turn to group (g + 1) % Length:
//
//   using Order = OrderedSequenceBarrier<2, 2>;   // 2 ordered sections, 2 warpgroups
//   __shared__ typename Order::SharedStorage order_storage;
//   typename Order::Params params;
//   params.group_id = warp_group_idx;             // 0 .. Length - 1
//   params.group_size = 128;                      // threads per group, all arriving
//   Order order(order_storage, params);           // thread 0 initialises the barriers
//   __syncthreads();
//   for (...) {
//     order.wait();   ... mainloop MMAs ...  order.arrive();    // stage 0: MMAs in turn
//     order.wait();   ... epilogue ...       order.arrive();    // stage 1: epilogues in turn
//   }
//
// Protocol (the arithmetic and its laws: ordered_sequence.hpp):
//   - SharedStorage holds Depth x Length mbarriers; barrier (d, g) is group
//     g's permission at stage d and counts group_size arrivals per phase.
//   - Every thread of group g keeps its own state (stage d, parity p),
//     starting at (0, 1) for group 0 and (0, 0) for the others. wait()
//     blocks on barrier (d, g) for parity p; arrive() is one arrival of the
//     calling thread on barrier (d, (g + 1) % Length), then steps the state
//     to stage d + 1, wrapping to 0 and flipping p after stage Depth - 1.
//   - So at each stage the turns go 0, 1, ..., Length - 1, 0, ... exactly,
//     each group once per round, and no two groups are between wait() and
//     arrive() at the same stage at once; different stages are independent
//     (group 1 may run stage 0 while group 0 runs stage 1).
//   - arrive() releases and wait() acquires at CTA scope: what a group wrote
//     (shared or global memory) before its arrive() is visible to the next
//     group after its wait().
//   - Every thread of a group calls wait() and arrive() the same number of
//     times, in the same order (group_size arrivals complete a turn).
//
// Differences from CUTLASS: the turn arithmetic is ordered_sequence.hpp's
// (a PipelineState per group, host-tested); thread 0 of the CTA
// initialises the barriers; Length < 2 and SequenceDepth < 1 are refused at
// compile time, by name. sm_90 (the mbarrier wrappers).

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/cluster_barrier.cuh>
#include <tessera/pipeline/ordered_sequence.hpp>
#include <tessera/pipeline/pipeline_barrier_ring.cuh>
#include <tessera/pipeline/pipeline_state.hpp>

namespace tessera {

template <int SequenceDepth_, int Length_>
class OrderedSequenceBarrier {
  static_assert(SequenceDepth_ >= 1,
                "OrderedSequenceBarrier: SequenceDepth must be at least 1 (the number of ordered points per loop)");
  static_assert(Length_ >= 2,
                "OrderedSequenceBarrier: Length must be at least 2 (one group has no one to take turns with)");

 public:
  static constexpr std::uint32_t SequenceDepth = SequenceDepth_ >= 1 ? std::uint32_t(SequenceDepth_) : 1u;
  static constexpr std::uint32_t Length = Length_ >= 2 ? std::uint32_t(Length_) : 2u;
  using Barrier = arch::ClusterBarrier;
  using State = PipelineState<SequenceDepth>;

  // In shared memory: 8 bytes per (stage, group).
  struct SharedStorage {
    Barrier barrier_[SequenceDepth][Length];
  };

  struct Params {
    std::uint32_t group_id = 0;    // this thread's group, in [0, Length)
    std::uint32_t group_size = 0;  // threads per group (the same for every group), each calling wait/arrive
  };

  // Every thread of the CTA constructs it (a thread outside the groups may
  // too, and never call wait/arrive); thread 0 initialises the barriers.
  // __syncthreads() before any thread uses it.
  __device__ OrderedSequenceBarrier(SharedStorage& storage, Params const& params)
      : barrier_(storage.barrier_),
        group_id_(params.group_id),
        next_group_(ordered_sequence_next_group(params.group_id, Length)),
        state_(ordered_sequence_start_state<SequenceDepth>(params.group_id)) {
    TESSERA_ASSERT(params.group_id < Length && params.group_size > 0);
    if (detail::pipeline_linear_thread_idx() == 0) {
      for (std::uint32_t d = 0; d < SequenceDepth; ++d)
        for (std::uint32_t g = 0; g < Length; ++g) barrier_[d][g].init(params.group_size);
    }
  }

  // Any other storage: another depth or length's.
  template <class OtherStorage>
  __device__ OrderedSequenceBarrier(OtherStorage&, Params const&) {
    static_assert(detail::pipeline_dependent_false_v<OtherStorage>,
                  "OrderedSequenceBarrier: the shared storage must be this barrier's SharedStorage (same "
                  "SequenceDepth and Length)");
  }

  // Blocks until it is this group's turn at the current stage.
  __device__ void wait() const { barrier_[state_.index()][group_id_].wait(state_.phase()); }

  // This thread's part of the turn is done: one arrival on the next group's
  // barrier at this stage, then on to the next stage.
  __device__ void arrive() {
    barrier_[state_.index()][next_group_].arrive();
    ++state_;
  }

  // The stage and parity the next wait() uses (for tests and debugging).
  [[nodiscard]] __device__ State state() const { return state_; }

 private:
  Barrier (*barrier_)[Length] = nullptr;  // barrier_[stage][group]
  std::uint32_t group_id_ = 0;
  std::uint32_t next_group_ = 0;
  State state_{};
};

}  // namespace tessera
