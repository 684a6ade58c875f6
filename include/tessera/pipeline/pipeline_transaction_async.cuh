// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CUTLASS's PipelineTransactionAsync under Tessera's names: a ring of Stages
// shared-memory buffers whose full barriers are transaction barriers, as in
// PipelineTmaAsync, but whose bytes are posted by any producer threads, not
// by one TMA leader: st.async into a peer CTA's shared memory, bulk copies
// (cp.async.bulk) issued by several threads, or anything else that
// completes transaction bytes on an mbarrier. Per stage a full barrier
// (ClusterTransactionBarrier) counts producer_arv_count producer commits
// plus the bytes the producers expect, and an empty barrier (ClusterBarrier)
// counts consumer_arv_count consumer releases. sm_90.
//
//   using Pipeline = PipelineTransactionAsync<4>;
//   __shared__ typename Pipeline::SharedStorage storage;
//   __shared__ float ring[4][1024];
//   typename Pipeline::Params params;
//   params.role = producer ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
//   params.producer_arv_count = 32;                 // the producer warp's threads, each committing
//   params.consumer_arv_count = 64;                 // two consumer warps' threads, each releasing
//   params.dst_blockid = peer;                      // cluster of 2: this CTA fills the peer's ring
//   Pipeline pipeline(storage, params);             // thread 0 initialises the barriers
//   cluster_sync();                                 // __syncthreads() when dst_blockid is kThisCta
//   producer thread, write from make_producer_start_state<Pipeline>():
//     pipeline.producer_acquire(write);                                  // the peer released the stage
//     pipeline.producer_expect_transaction(write, 128);                  // this thread's bytes
//     for (...) st_async_v4_b32(&ring[write.index()][i], ..., pipeline.producer_get_barrier(write), peer);
//     pipeline.producer_commit(write); ++write;                          // one arrival
//   consumer thread, read from (0, 0, 0):
//     pipeline.consumer_wait(read); ... ring[read.index()] ...; pipeline.consumer_release(read); ++read;
//
// Laws and invariants:
//   - The phases and states are PipelineAsync's (pipeline_barrier_ring.cuh,
//     pipeline_state.hpp): fill n of a stage completes phase n of its full
//     barrier and is released by phase n of its empty barrier.
//   - A fill completes when every producer has committed
//     (producer_arv_count arrivals) and every expected byte has landed.
//     Each producer thread expects its bytes before it commits (program
//     order, same barrier), so when the last commit arrives every expected
//     byte has been counted; bytes that land before they are expected drive
//     the transaction count below zero for a while, which PTX allows, and
//     cannot complete the phase early while commits are missing.
//   - dst_blockid is the thread's own. A producer's: the CTA whose stages
//     it fills (its expects and commits go to that CTA's full barriers). A
//     consumer's: the CTA whose producers fill its stages (its releases go
//     to that CTA's empty barriers). kThisCta (the default): this CTA, with
//     the .shared::cta forms, no cluster launch needed.
//   - Remote commits and releases arrive with release at cluster scope
//     (arrive_release_cluster), and every wait acquires at cluster scope, so
//     what a producer wrote into the peer's buffers (st.async, whose
//     complete_tx releases at cluster scope, or plain stores through
//     distributed shared memory) is visible to the consumers after their
//     wait, and a consumer's reads are done before the producer refills the
//     stage, with no separate fence.
//     NOTE: a release at cluster scope costs a memory barrier per remote
//     arrive (mbarrier.cuh's NOTE); this pipeline chooses the ordering that
//     holds for plain stores too over that cost.
//   - producer_tail, given the producer's state after its last acquire,
//     returns once every stage has been released: the CTA may exit.
//
// Differences from CUTLASS: producer_expect_transaction is per thread and
// never arrives (CUTLASS arms the stage from one leader in
// producer_acquire); producer_commit takes no byte count; dst_blockid
// splits by role as above; thread 0 of the CTA initialises the barriers.

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/cluster_barrier.cuh>
#include <tessera/arch/sm90/fence.cuh>
#include <tessera/pipeline/pipeline_barrier_ring.cuh>
#include <tessera/pipeline/pipeline_state.hpp>
#include <tessera/pipeline/pipeline_token.hpp>

namespace tessera {

template <int Stages_>
class PipelineTransactionAsync
    : public detail::PipelineBarrierRing<(Stages_ >= 1 ? std::uint32_t(Stages_) : 1u),
                                         arch::ClusterTransactionBarrier, arch::ClusterBarrier,
                                         /*kClusterAcquire=*/true> {
  static_assert(Stages_ >= 1, "PipelineTransactionAsync: Stages must be at least 1");
  using Ring = detail::PipelineBarrierRing<(Stages_ >= 1 ? std::uint32_t(Stages_) : 1u),
                                           arch::ClusterTransactionBarrier, arch::ClusterBarrier, true>;
  using Ring::empty_;
  using Ring::full_;

 public:
  static constexpr std::uint32_t Stages = Stages_ >= 1 ? std::uint32_t(Stages_) : 1u;
  using FullBarrier = arch::ClusterTransactionBarrier;
  using EmptyBarrier = arch::ClusterBarrier;
  using ProducerBarrierType = FullBarrier::ValueType;
  using ConsumerBarrierType = EmptyBarrier::ValueType;
  using PipelineState = tessera::PipelineState<Stages>;
  using ThreadCategory = PipelineThreadCategory;

  // dst_blockid's "this CTA, not through the cluster window".
  static constexpr std::uint32_t kThisCta = 0xffffffffu;

  struct SharedStorage {
    FullBarrier full_barrier_[Stages];
    EmptyBarrier empty_barrier_[Stages];
  };

  // The counts must be the same in every thread (and, across a cluster, in
  // the CTAs at both ends); role and dst_blockid are the thread's own.
  struct Params {
    ThreadCategory role = ThreadCategory::NonParticipant;
    std::uint32_t producer_arv_count = 1;  // producer_commit calls completing one fill of a stage
    std::uint32_t consumer_arv_count = 1;  // consumer_release calls freeing one fill of a stage
    std::uint32_t dst_blockid = kThisCta;  // producer: the CTA it fills; consumer: the CTA filling it
  };

  // Every thread of the CTA constructs it; thread 0 initialises the
  // barriers and fences the initialisation for the cluster. Then
  // cluster_sync() when any dst_blockid names a CTA of the cluster (a peer
  // may arrive or store into this CTA as soon as it passes), else
  // __syncthreads().
  __device__ PipelineTransactionAsync(SharedStorage& storage, Params const& params)
      : Ring(storage.full_barrier_, storage.empty_barrier_), params_(params) {
    TESSERA_ASSERT(params.producer_arv_count > 0 && params.consumer_arv_count > 0);
    if (detail::pipeline_linear_thread_idx() == 0) {
      for (std::uint32_t s = 0; s < Stages; ++s) {
        full_[s].init(params.producer_arv_count);
        empty_[s].init(params.consumer_arv_count);
      }
      arch::fence_mbarrier_init();
    }
  }

  // Any other storage: most likely another pipeline's (another stage count).
  template <class OtherStorage>
  __device__ PipelineTransactionAsync(OtherStorage&, Params const&) {
    static_assert(detail::pipeline_dependent_false_v<OtherStorage>,
                  "PipelineTransactionAsync: the shared storage must be this pipeline's SharedStorage (same Stages) "
                  "[declare it as typename PipelineTransactionAsync<Stages>::SharedStorage]");
  }

  // ---- producer ----
  // producer_try_acquire, producer_tail: the ring's (pipeline_barrier_ring.cuh).

  // Waits until the stage's previous fill has been released.
  __device__ void producer_acquire(PipelineState state) const {
    TESSERA_ASSERT(params_.role == ThreadCategory::Producer || params_.role == ThreadCategory::ProducerConsumer);
    this->wait_empty(state);
  }
  __device__ void producer_acquire(PipelineState state, ProducerToken token) const { this->wait_empty(state, token); }

  // Adds `transaction_bytes` to what the stage's full barrier (in the
  // destination CTA) waits for, without arriving. Before this thread's
  // producer_commit of the same state.
  __device__ void producer_expect_transaction(PipelineState state, std::uint32_t transaction_bytes) const {
    if (params_.dst_blockid == kThisCta) full_[state.index()].expect_transaction(transaction_bytes);
    else full_[state.index()].expect_transaction(transaction_bytes, params_.dst_blockid);
  }

  // This thread's part of the fill is issued: one arrival on the stage's
  // full barrier in the destination CTA (release at cluster scope when it
  // is reached through the cluster window).
  __device__ void producer_commit(PipelineState state) const {
    TESSERA_ASSERT(params_.role == ThreadCategory::Producer || params_.role == ThreadCategory::ProducerConsumer);
    if (params_.dst_blockid == kThisCta) full_[state.index()].arrive();
    else full_[state.index()].arrive_release_cluster(params_.dst_blockid);
  }

  // The stage's full barrier, this CTA's address: the bar of an st.async or
  // bulk copy into the destination CTA (the wrappers map it there).
  __device__ ProducerBarrierType* producer_get_barrier(PipelineState state) const {
    return &full_[state.index()].barrier_;
  }

  // ---- consumer ----
  // consumer_try_wait, consumer_test_wait, consumer_wait: the ring's, acquiring at cluster scope.

  // This thread is done reading the stage: one arrival on the empty barrier
  // of the CTA that fills it.
  __device__ void consumer_release(PipelineState state) const {
    TESSERA_ASSERT(params_.role == ThreadCategory::Consumer || params_.role == ThreadCategory::ProducerConsumer);
    if (params_.dst_blockid == kThisCta) empty_[state.index()].arrive();
    else empty_[state.index()].arrive_release_cluster(params_.dst_blockid);
  }

 private:
  Params params_{};
};

}  // namespace tessera
