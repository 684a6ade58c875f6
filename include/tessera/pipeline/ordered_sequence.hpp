// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The turn arithmetic of OrderedSequenceBarrier (ordered_sequence_barrier.cuh),
// host and device, constexpr, no CUDA headers, so that the host tests can
// check it against a model of the mbarriers.
//
// Length groups take turns, in the order 0, 1, ..., Length - 1, 0, 1, ...,
// at each of SequenceDepth independent points (stages) of their loop. A
// group's k-th wait/arrive pair (k = 0, 1, ...) is at stage k % Depth; its
// j-th visit of a stage (j = k / Depth) is round j there. Barrier (d, g),
// one mbarrier, is group g's permission at stage d: the group before it,
// (g + Length - 1) % Length, completes one of its phases per visit.
//
//   group g > 0, round j at stage d: waits for phase j of (d, g), completed
//     by group g - 1's arrive of round j at d;
//   group 0, round j: waits for phase j - 1 of (d, 0), completed by group
//     Length - 1's arrive of round j - 1; round 0 waits on parity 1 of a
//     fresh barrier, which returns at once (mbarrier.cuh), so group 0 goes
//     first.
//
// So a group's state is a PipelineState over the Depth stages: index = the
// stage, phase = the parity to wait for, starting at 1 for group 0 and 0
// for the others, flipping each time the group wraps past stage Depth - 1
// (every Depth turns). A barrier is never more than one phase ahead of the
// group waiting on it (group g - 1's next arrive there needs group g's
// arrive first, all the way round the ring), so a parity names the phase.

#include <cstdint>

#include <tessera/config.hpp>
#include <tessera/pipeline/pipeline_state.hpp>

namespace tessera {

// Group `group_id`'s first state: stage 0, parity 1 for group 0 (its first
// turn is free), 0 for every other group.
template <std::uint32_t SequenceDepth>
[[nodiscard]] TESSERA_HOST_DEVICE constexpr PipelineState<SequenceDepth> ordered_sequence_start_state(
    std::uint32_t group_id) {
  return PipelineState<SequenceDepth>{0, group_id == 0u ? 1u : 0u, 0u};
}

// The group whose turn follows group `group_id`'s: (group_id + 1) % length.
// @pre length >= 1, group_id < length
[[nodiscard]] TESSERA_HOST_DEVICE constexpr std::uint32_t ordered_sequence_next_group(std::uint32_t group_id,
                                                                                     std::uint32_t length) {
  return group_id + 1u == length ? 0u : group_id + 1u;
}

}  // namespace tessera
