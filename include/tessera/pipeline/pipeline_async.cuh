// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CUTLASS's PipelineAsync under Tessera's names: a ring of Stages buffers in
// one CTA whose producers fill them with ordinary stores or cp.async (then
// cp.async.wait) rather than TMA, so both sides signal by arriving. Per
// stage a full barrier counts producer_arv_count producer arrivals and an
// empty barrier consumer_arv_count consumer arrivals (ClusterBarrier each).
// sm_90 (Tessera's mbarrier wrappers); built for an older target, a kernel
// that uses it fails to build, naming the requirement.
//
//   using Pipeline = PipelineAsync<4>;
//   __shared__ typename Pipeline::SharedStorage storage;
//   typename Pipeline::Params params;
//   params.role = warp_idx == 0 ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
//   params.producer_arv_count = 32;                 // the producer warp's threads
//   params.consumer_arv_count = 64;                 // two consumer warps' threads
//   Pipeline pipeline(storage, params);             // thread 0 initialises the barriers
//   __syncthreads();
//   producer thread:  pipeline.producer_acquire(write); ... st.shared ...; pipeline.producer_commit(write); ++write;
//                     (write starts at make_producer_start_state<Pipeline>())
//   consumer thread:  pipeline.consumer_wait(read); ... ld.shared ...; pipeline.consumer_release(read); ++read;
//
// Laws: those of PipelineTmaAsync (pipeline_tma_async.cuh) for the phases
// and states, with every participating thread arriving for itself:
// producer_commit is one release-arrival of the calling thread on the full
// barrier, consumer_release one on the empty barrier, and a consumer's
// wait (an acquire) sees every producer store made before the commits that
// completed the phase. So each producer thread commits each stage exactly
// once, each consumer thread releases each stage exactly once, and the
// counts are those threads' numbers.
//
// Differences from CUTLASS: one CTA only (no dst_blockid: arrivals go to
// this CTA's barriers); thread 0 of the CTA initialises the barriers.

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/cluster_barrier.cuh>
#include <tessera/pipeline/pipeline_barrier_ring.cuh>
#include <tessera/pipeline/pipeline_state.hpp>
#include <tessera/pipeline/pipeline_token.hpp>

namespace tessera {

template <int Stages_>
class PipelineAsync
    : public detail::PipelineBarrierRing<(Stages_ >= 1 ? std::uint32_t(Stages_) : 1u), arch::ClusterBarrier,
                                         arch::ClusterBarrier> {
  static_assert(Stages_ >= 1, "PipelineAsync: Stages must be at least 1");
  using Ring = detail::PipelineBarrierRing<(Stages_ >= 1 ? std::uint32_t(Stages_) : 1u), arch::ClusterBarrier,
                                           arch::ClusterBarrier>;
  using Ring::empty_;
  using Ring::full_;

 public:
  static constexpr std::uint32_t Stages = Stages_ >= 1 ? std::uint32_t(Stages_) : 1u;
  using FullBarrier = arch::ClusterBarrier;
  using EmptyBarrier = arch::ClusterBarrier;
  using ProducerBarrierType = FullBarrier::ValueType;
  using ConsumerBarrierType = EmptyBarrier::ValueType;
  using PipelineState = tessera::PipelineState<Stages>;
  using ThreadCategory = PipelineThreadCategory;

  struct SharedStorage {
    FullBarrier full_barrier_[Stages];
    EmptyBarrier empty_barrier_[Stages];
  };

  // The counts must be the same in every thread; role is the thread's own.
  struct Params {
    ThreadCategory role = ThreadCategory::NonParticipant;
    std::uint32_t producer_arv_count = 1;  // producer threads, each committing every stage
    std::uint32_t consumer_arv_count = 1;  // consumer threads, each releasing every stage
  };

  // Every thread of the CTA constructs it; thread 0 initialises the
  // barriers. __syncthreads() before any thread uses it.
  __device__ PipelineAsync(SharedStorage& storage, Params const& params)
      : Ring(storage.full_barrier_, storage.empty_barrier_), params_(params) {
    TESSERA_ASSERT(params.producer_arv_count > 0 && params.consumer_arv_count > 0);
    if (detail::pipeline_linear_thread_idx() == 0) {
      for (std::uint32_t s = 0; s < Stages; ++s) {
        full_[s].init(params.producer_arv_count);
        empty_[s].init(params.consumer_arv_count);
      }
    }
  }

  // ---- producer ----

  // producer_try_acquire, producer_tail: the ring's (pipeline_barrier_ring.cuh).
  // Waits until every consumer has released the stage's previous fill.
  __device__ void producer_acquire(PipelineState state) const { this->wait_empty(state); }
  __device__ void producer_acquire(PipelineState state, ProducerToken token) const { this->wait_empty(state, token); }
  // This thread's stores into the stage are done: one arrival on its full barrier.
  __device__ void producer_commit(PipelineState state) const {
    TESSERA_ASSERT(params_.role == ThreadCategory::Producer || params_.role == ThreadCategory::ProducerConsumer);
    full_[state.index()].arrive();
  }
  __device__ ProducerBarrierType* producer_get_barrier(PipelineState state) const {
    return &full_[state.index()].barrier_;
  }

  // ---- consumer ----

  // consumer_try_wait, consumer_test_wait, consumer_wait: the ring's.
  // This thread is done reading the stage: one arrival on its empty barrier.
  __device__ void consumer_release(PipelineState state) const {
    TESSERA_ASSERT(params_.role == ThreadCategory::Consumer || params_.role == ThreadCategory::ProducerConsumer);
    empty_[state.index()].arrive();
  }

 private:
  Params params_{};
};

}  // namespace tessera
