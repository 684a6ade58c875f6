// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CUTLASS's PipelineTmaAsync under Tessera's names: a ring of Stages shared
// memory buffers filled by TMA (possibly multicast across a cluster) and
// read by consumer warps, guarded per stage by a full barrier (a
// ClusterTransactionBarrier: the producer's leader arms it with the stage's
// bytes, the TMA unit completes them) and an empty barrier (a
// ClusterBarrier: the consumers' releases). sm_90; built for an older
// target, a kernel that uses it fails to build, naming the requirement.
//
//   using Pipeline = PipelineTmaAsync<6>;
//   __shared__ typename Pipeline::SharedStorage storage;
//   typename Pipeline::Params params;
//   params.transaction_bytes = tma_a.box_bytes() + tma_b.box_bytes();   // bytes landing in this CTA per stage
//   params.num_consumers = 256;                                         // consumer threads, whole warps
//   bool const producer = warp_idx == 0;
//   params.role = producer ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
//   params.is_leader = threadIdx.x == 0;
//   Pipeline pipeline(storage, params, Shape<_2, _1, _1>{});            // thread 0 initialises the barriers
//   cluster_sync();                                                     // __syncthreads() for a cluster of 1
//
//   if (producer) {
//     if (threadIdx.x == 0) {
//       auto write = make_producer_start_state<Pipeline>();
//       for (int k = 0; k < num_k; ++k, ++write) {
//         pipeline.producer_acquire(write);                             // stage free; the leader arms its barrier
//         std::uint64_t* bar = pipeline.producer_get_barrier(write);
//         copy(tma_a.with(*bar, mask_a), tAgA(_, k), tAsA(_, write.index()));
//         copy(tma_b.with(*bar), tBgB(_, k), tBsB(_, write.index()));
//         pipeline.producer_commit(write);                              // no-op: the bytes complete the phase
//       }
//       pipeline.producer_tail(write);                                  // every release seen: safe to exit
//     }
//   } else {
//     typename Pipeline::PipelineState read;                            // (0, 0, 0)
//     for (int k = 0; k < num_k; ++k, ++read) {
//       pipeline.consumer_wait(read);
//       ... read sA(_, _, read.index()) ...
//       pipeline.consumer_release(read);                                // every consumer thread, warp-converged
//     }
//   }
//
// Laws and invariants:
//   - Stage i's n-th fill (n = 0, 1, ...) completes phase n of full[i] and
//     is released by phase n of empty[i]. A state's phase is n % 2 for the
//     consumer and (n + 1) % 2 for the producer, which waits for the release
//     of fill n - 1: its first lap (phase 1 on fresh barriers) never blocks
//     (pipeline_state.hpp).
//   - full[i] counts 1 arrival per phase (the producer leader's
//     arrive_and_expect_tx(transaction_bytes)) plus transaction_bytes bytes,
//     from this CTA's TMA and from peers multicasting into it. A peer's bytes
//     may land before the leader's arrival: the transaction count may go
//     below zero, but the phase cannot complete without the arrival.
//   - empty[i] counts release_peer_count(X, Y) * num_consumers / 32
//     arrivals per phase: each consumer warp's lanes 0 .. X+Y-2 arrive once
//     each, lane j on the empty barrier of peer j of this CTA
//     (release_peers.hpp): every CTA of the cluster that shares its x or its
//     y coordinate, itself included, which are exactly the CTAs whose
//     producers may multicast into it along a row or a column. Cluster of
//     1: lane 0 of each consumer warp arrives on its own CTA's barrier.
//   - consumer_release begins with __syncwarp(), so the arrivals come after
//     every lane's reads of the stage: all 32 lanes of each consumer warp
//     call it, together.
//   - producer_tail(state), given the producer's state after its last
//     acquire, returns once every stage has been released by every peer:
//     no peer's consumers will arrive on this CTA's barriers again, and no
//     peer's TMA writes into it, so the CTA may exit.
//
// Differences from CUTLASS: releases are per consumer warp (CUTLASS's per
// consumer warpgroup), so consumers may be single warps reading with
// ordinary loads, and num_consumers must be a multiple of 32 (not 128);
// thread 0 of the CTA initialises the barriers (CUTLASS: an elected lane of
// warp 0); producer_commit takes no byte count (CUTLASS's is for its unit
// tests); Params has no num_producers (one leader arms each stage); the
// cluster shape may be CuTe's Shape<_X, _Y, _1>, a run-time tuple or a
// dim3, with Z = 1.

#include <cstdint>
#include <type_traits>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/cluster.cuh>
#include <tessera/arch/sm90/cluster_barrier.cuh>
#include <tessera/arch/sm90/fence.cuh>
#include <tessera/layout.hpp>
#include <tessera/pipeline/pipeline_barrier_ring.cuh>
#include <tessera/pipeline/pipeline_state.hpp>
#include <tessera/pipeline/pipeline_token.hpp>
#include <tessera/pipeline/release_peers.hpp>

namespace tessera {

namespace detail {

struct PipelineClusterExtent {
  int x, y, z;
};

// (X, Y, Z) of a cluster shape: a dim3, one integer, or a tuple of 1 to 3
// integers (CuTe's Shape<_2, _1, _1>, make_shape(2, 1, 1)).
template <class ClusterShape>
TESSERA_HOST_DEVICE constexpr PipelineClusterExtent pipeline_cluster_extent(ClusterShape const& s) {
  if constexpr (requires { s.x; s.y; s.z; }) {
    return {int(s.x), int(s.y), int(s.z)};
  } else if constexpr (is_tuple_v<ClusterShape>) {
    constexpr int R = tuple_size_v<ClusterShape>;
    static_assert(R >= 1 && R <= 3, "PipelineTmaAsync: the cluster shape has 1 to 3 modes (X, Y, Z)");
    int y = 1, z = 1;
    if constexpr (R >= 2) y = int(get<1>(s));
    if constexpr (R >= 3) z = int(get<2>(s));
    return {int(get<0>(s)), y, z};
  } else {
    static_assert(is_integral_v<ClusterShape>,
                  "PipelineTmaAsync: the cluster shape is a dim3, an integer or a tuple of integers (X, Y, Z)");
    return {int(s), 1, 1};
  }
}

template <class ClusterShape>
constexpr bool pipeline_cluster_shape_ok() {
  if constexpr (is_static_v<ClusterShape>) {
    constexpr PipelineClusterExtent e = pipeline_cluster_extent(ClusterShape{});
    static_assert(e.z == 1,
                  "PipelineTmaAsync: the cluster shape's Z extent must be 1 (releases reach the rows and columns of a "
                  "2-D cluster)");
    static_assert(e.x >= 1 && e.y >= 1 && e.x * e.y <= 16,
                  "PipelineTmaAsync: a cluster has 1 to 16 CTAs (X * Y)");
    return e.z == 1 && e.x >= 1 && e.y >= 1 && e.x * e.y <= 16;
  } else {
    return true;
  }
}

}  // namespace detail

template <int Stages_>
class PipelineTmaAsync
    : public detail::PipelineBarrierRing<(Stages_ >= 1 ? std::uint32_t(Stages_) : 1u),
                                         arch::ClusterTransactionBarrier, arch::ClusterBarrier> {
  static_assert(Stages_ >= 1, "PipelineTmaAsync: Stages must be at least 1");
  using Ring = detail::PipelineBarrierRing<(Stages_ >= 1 ? std::uint32_t(Stages_) : 1u),
                                           arch::ClusterTransactionBarrier, arch::ClusterBarrier>;
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

  // Declare it in shared memory (a __shared__ variable or a member of the
  // kernel's shared struct): 16 bytes a stage.
  struct SharedStorage {
    FullBarrier full_barrier_[Stages];
    EmptyBarrier empty_barrier_[Stages];
  };

  // transaction_bytes and num_consumers must be the same in every thread and
  // every CTA of the cluster; role and is_leader are the thread's own.
  struct Params {
    std::uint32_t transaction_bytes = 0;  // bytes that land in this CTA per stage, from every TMA that writes it
    ThreadCategory role = ThreadCategory::NonParticipant;
    std::uint32_t is_leader = 0;      // the one producer thread per CTA that arms the full barriers
    std::uint32_t num_consumers = 0;  // consumer threads per CTA: whole warps, each calling consumer_release
  };

  // Every thread of the CTA constructs it; thread 0 (of the CTA) initialises
  // every barrier and fences the initialisation for the cluster. Before any
  // thread uses the pipeline, synchronise: cluster_sync() for a cluster of
  // several CTAs (a peer may arrive on, or multicast into, this CTA's
  // barriers as soon as it passes), __syncthreads() for one.
  template <class ClusterShape>
  __device__ PipelineTmaAsync(SharedStorage& storage, Params params, ClusterShape cluster_shape)
      : Ring(storage.full_barrier_, storage.empty_barrier_), params_(params) {
    static_assert(detail::pipeline_cluster_shape_ok<ClusterShape>(), "PipelineTmaAsync: cluster shape refused (above)");
    detail::PipelineClusterExtent const c = detail::pipeline_cluster_extent(cluster_shape);
    TESSERA_ASSERT(c.z == 1 && c.x >= 1 && c.y >= 1 && c.x * c.y <= 16);
    TESSERA_ASSERT(params.num_consumers > 0 && params.num_consumers % 32 == 0);
    TESSERA_ASSERT(std::uint32_t(c.x * c.y) == arch::cluster_nctarank());
    std::uint32_t const tid = detail::pipeline_linear_thread_idx();
    if (tid == 0) {
      std::uint32_t const releases = std::uint32_t(release_peer_count(c.x, c.y)) * (params.num_consumers / 32u);
      for (std::uint32_t s = 0; s < Stages; ++s) {
        full_[s].init(1u);
        empty_[s].init(releases);
      }
      arch::fence_mbarrier_init();
    }
    int const lane = int(tid % 32u);
    bool const consumer = params.role == ThreadCategory::Consumer || params.role == ThreadCategory::ProducerConsumer;
    is_signalling_thread_ = consumer && lane < release_peer_count(c.x, c.y);
    if (c.x * c.y == 1) {
      dst_blockid_ = 0;
      dst_is_self_ = true;
    } else {
      int const cx = int(arch::cluster_ctaid_x()), cy = int(arch::cluster_ctaid_y());
      dst_blockid_ = is_signalling_thread_ ? release_peer_rank(c.x, c.y, cx, cy, lane) : 0u;
      dst_is_self_ = dst_blockid_ == std::uint32_t(cx + c.x * cy);
    }
  }

  // Any other storage: most likely another pipeline's (another stage count).
  template <class OtherStorage, class ClusterShape>
  __device__ PipelineTmaAsync(OtherStorage&, Params, ClusterShape) {
    static_assert(detail::pipeline_dependent_false_v<OtherStorage>,
                  "PipelineTmaAsync: the shared storage must be this pipeline's SharedStorage (same Stages) "
                  "[declare it as typename PipelineTmaAsync<Stages>::SharedStorage]");
  }

  // ---- producer ----

  // producer_try_acquire, producer_tail: the ring's (pipeline_barrier_ring.cuh).

  // Waits until the stage is free (its previous fill released by every
  // peer), then the leader arms the full barrier: one arrival expecting
  // transaction_bytes.
  __device__ void producer_acquire(PipelineState state) const {
    TESSERA_ASSERT(params_.role == ThreadCategory::Producer || params_.role == ThreadCategory::ProducerConsumer);
    this->wait_empty(state);
    arm(state);
  }
  // The same after producer_try_acquire: waits only if the probe failed.
  __device__ void producer_acquire(PipelineState state, ProducerToken token) const {
    this->wait_empty(state, token);
    arm(state);
  }

  // No-op: the TMA's bytes complete the phase the leader armed.
  __device__ void producer_commit(PipelineState) const {}

  // The stage's full barrier, for copy(tma.with(*bar[, mask]), ...).
  __device__ ProducerBarrierType* producer_get_barrier(PipelineState state) const {
    return &full_[state.index()].barrier_;
  }

  // ---- consumer ----

  // consumer_try_wait, consumer_test_wait, consumer_wait: the ring's.

  // This warp is done reading the stage: after a __syncwarp, lanes 0 ..
  // X+Y-2 arrive on the empty barriers of this CTA's peers (see the top).
  // Every lane of every consumer warp calls it, together.
  __device__ void consumer_release(PipelineState state) const {
    TESSERA_ASSERT(params_.role == ThreadCategory::Consumer || params_.role == ThreadCategory::ProducerConsumer);
    __syncwarp();
    if (is_signalling_thread_) {
      if (dst_is_self_) empty_[state.index()].arrive();
      else empty_[state.index()].arrive(dst_blockid_, 1u);
    }
  }

 private:
  __device__ void arm(PipelineState state) const {
    if (params_.is_leader != 0u) full_[state.index()].arrive_and_expect_tx(params_.transaction_bytes);
  }

  Params params_{};
  std::uint32_t dst_blockid_ = 0;
  bool is_signalling_thread_ = false;
  bool dst_is_self_ = true;
};

}  // namespace tessera
