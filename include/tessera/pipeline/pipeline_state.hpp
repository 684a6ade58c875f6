// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CUTLASS's PipelineState: a position in a ring of Stages buffers guarded by
// mbarriers, as (index, phase, count). Host and device, constexpr; no CUDA
// headers (the pipelines that use it are pipeline_tma_async.cuh and
// pipeline_async.cuh).
//
//   index  the stage to use next, in [0, Stages)
//   phase  the parity to wait for on that stage's barrier, 0 or 1
//   count  how many steps the state has taken since it was made
//
// Laws, for a state s made as (i, p, c) and advanced n times (++ or
// advance(n), which are the same):
//   index == (i + n) % Stages
//   phase == p ^ (((i + n) / Stages) % 2)    the parity flips at each wrap
//   count == c + n                           (modulo 2^32)
// A consumer starts at (0, 0, 0): the first fill of stage i completes phase
// 0 of its full barrier. A producer starts at (0, 1, 0)
// (make_producer_start_state): a fresh empty barrier is in phase 0, so a
// wait on parity 1 returns at once and the first lap through the ring never
// blocks; from the second lap on it waits for the consumers' releases of
// the lap before.

#include <cstdint>

#include <tessera/config.hpp>

namespace tessera {

template <std::uint32_t Stages_>
struct PipelineState {
  static_assert(Stages_ >= 1, "PipelineState: Stages must be at least 1 (a ring of no buffers has no position)");
  static constexpr std::uint32_t Stages = Stages_;

  int index_ = 0;
  std::uint32_t phase_ = 0;
  std::uint32_t count_ = 0;

  constexpr PipelineState() = default;
  // @pre 0 <= index < Stages, phase in {0, 1}
  TESSERA_HOST_DEVICE constexpr PipelineState(int index, std::uint32_t phase, std::uint32_t count)
      : index_(index), phase_(phase), count_(count) {
    TESSERA_ASSERT(index >= 0 && std::uint32_t(index) < Stages && phase <= 1u);
  }

  [[nodiscard]] TESSERA_HOST_DEVICE constexpr int index() const { return index_; }
  [[nodiscard]] TESSERA_HOST_DEVICE constexpr std::uint32_t phase() const { return phase_; }
  [[nodiscard]] TESSERA_HOST_DEVICE constexpr std::uint32_t count() const { return count_; }

  // One step: the next stage, the parity flipped on wrapping to stage 0.
  TESSERA_HOST_DEVICE constexpr PipelineState& operator++() {
    if (std::uint32_t(++index_) == Stages) {
      index_ = 0;
      phase_ ^= 1u;
    }
    ++count_;
    return *this;
  }
  TESSERA_HOST_DEVICE constexpr PipelineState operator++(int) {
    PipelineState const before = *this;
    ++*this;
    return before;
  }

  // n steps at once (the laws above).
  TESSERA_HOST_DEVICE constexpr PipelineState& advance(std::uint32_t num_iterations) {
    std::uint64_t const end = std::uint64_t(index_) + num_iterations;
    phase_ ^= std::uint32_t((end / Stages) & 1u);
    index_ = int(end % Stages);
    count_ += num_iterations;
    return *this;
  }
  TESSERA_HOST_DEVICE constexpr PipelineState& operator+=(std::uint32_t num_iterations) {
    return advance(num_iterations);
  }

  // `start` advanced by num_iterations.
  [[nodiscard]] TESSERA_HOST_DEVICE static constexpr PipelineState make_pipeline_state(PipelineState start,
                                                                                       std::uint32_t num_iterations) {
    return start.advance(num_iterations);
  }

  [[nodiscard]] TESSERA_HOST_DEVICE friend constexpr bool operator==(PipelineState const& a, PipelineState const& b) {
    return a.index_ == b.index_ && a.phase_ == b.phase_ && a.count_ == b.count_;
  }
};

// The producer's first state on Pipeline's ring: (0, 1, 0), see above.
template <class Pipeline>
[[nodiscard]] TESSERA_HOST_DEVICE constexpr auto make_producer_start_state() {
  return PipelineState<Pipeline::Stages>{0, 1u, 0u};
}

}  // namespace tessera
