// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The half that every mbarrier pipeline shares (PipelineAsync,
// PipelineTmaAsync, PipelineTransactionAsync): a ring of Stages full and
// Stages empty barriers in shared memory, and the waits on them that a
// PipelineState names. What differs between the pipelines (who arms a full
// barrier, how a commit or a release arrives and where) stays in each
// pipeline's own file. sm_90 (the mbarrier wrappers').
//
// Laws (pipeline_state.hpp has the states'):
//   - a producer at state s owns stage s.index() once empty[s.index()] has
//     completed the phase of parity s.phase() (the releases of the fill
//     before); producer_tail(s) waits for the Stages states s, s + 1, ...,
//     so it returns once every stage's last fill has been released;
//   - a consumer at state s may read stage s.index() once full[s.index()]
//     has completed the phase of parity s.phase();
//   - kClusterAcquire selects the waits' scope: false, acquire at CTA scope
//     (the arrivals and the data come from this CTA, or are TMA bytes);
//     true, at cluster scope (peers publish data into this CTA: st.async,
//     arrive_release_cluster).

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/pipeline/pipeline_state.hpp>
#include <tessera/pipeline/pipeline_token.hpp>

namespace tessera::detail {

// Thread 0 of the CTA is the one that initialises a pipeline's barriers.
__device__ __forceinline__ std::uint32_t pipeline_linear_thread_idx() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

template <class T>
inline constexpr bool pipeline_dependent_false_v = false;

template <std::uint32_t Stages, class FullBarrier, class EmptyBarrier, bool kClusterAcquire = false>
class PipelineBarrierRing {
 public:
  using PipelineState = tessera::PipelineState<Stages>;

  // ---- producer ----

  // One probe of the stage's empty barrier. skip_wait: the caller knows the
  // stage is free; WaitDone without probing.
  __device__ ProducerToken producer_try_acquire(PipelineState state, std::uint32_t skip_wait = 0u) const {
    if (skip_wait != 0u) return {BarrierStatus::WaitDone};
    return {try_wait(empty_[state.index()], state.phase()) ? BarrierStatus::WaitDone : BarrierStatus::WaitAgain};
  }

  // Waits for the releases of the last Stages fills (the states state,
  // state + 1, ... state + Stages - 1, whose waits cover them all). Call
  // with the state after the last producer_acquire's step.
  __device__ void producer_tail(PipelineState state) const {
    for (std::uint32_t i = 0; i < Stages; ++i, ++state) wait(empty_[state.index()], state.phase());
  }

  // ---- consumer ----

  // One probe of the stage's full barrier (may suspend briefly). skip_wait:
  // the caller knows the stage is ready; WaitDone without probing.
  __device__ ConsumerToken consumer_try_wait(PipelineState state, std::uint32_t skip_wait = 0u) const {
    if (skip_wait != 0u) return {BarrierStatus::WaitDone};
    return {try_wait(full_[state.index()], state.phase()) ? BarrierStatus::WaitDone : BarrierStatus::WaitAgain};
  }
  // The same with a probe that never suspends.
  __device__ ConsumerToken consumer_test_wait(PipelineState state, std::uint32_t skip_wait = 0u) const {
    if (skip_wait != 0u) return {BarrierStatus::WaitDone};
    return {test_wait(full_[state.index()], state.phase()) ? BarrierStatus::WaitDone : BarrierStatus::WaitAgain};
  }
  // Waits until the stage's fill is complete (waits only if the probe that
  // gave `token` failed).
  __device__ void consumer_wait(PipelineState state) const { wait(full_[state.index()], state.phase()); }
  __device__ void consumer_wait(PipelineState state, ConsumerToken token) const {
    if (!(token == BarrierStatus::WaitDone)) wait(full_[state.index()], state.phase());
  }

 protected:
  __device__ PipelineBarrierRing(FullBarrier* full, EmptyBarrier* empty) : full_(full), empty_(empty) {}
  PipelineBarrierRing() = default;

  // The stage is free: its previous fill released (waits only if the probe
  // that gave `token` failed).
  __device__ void wait_empty(PipelineState state) const { wait(empty_[state.index()], state.phase()); }
  __device__ void wait_empty(PipelineState state, ProducerToken token) const {
    if (!(token == BarrierStatus::WaitDone)) wait(empty_[state.index()], state.phase());
  }

  template <class Barrier>
  __device__ static void wait(Barrier const& b, std::uint32_t phase) {
    if constexpr (kClusterAcquire) b.wait_acquire_cluster(phase);
    else b.wait(phase);
  }
  template <class Barrier>
  __device__ static bool try_wait(Barrier const& b, std::uint32_t phase) {
    if constexpr (kClusterAcquire) return b.try_wait_acquire_cluster(phase);
    else return b.try_wait(phase);
  }
  template <class Barrier>
  __device__ static bool test_wait(Barrier const& b, std::uint32_t phase) {
    if constexpr (kClusterAcquire) return b.test_wait_acquire_cluster(phase);
    else return b.test_wait(phase);
  }

  FullBarrier* full_ = nullptr;
  EmptyBarrier* empty_ = nullptr;
};

}  // namespace tessera::detail
