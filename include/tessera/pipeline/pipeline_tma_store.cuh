// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CUTLASS's PipelineTmaStore under Tessera's names: the producer-only ring
// of an epilogue that writes tiles to shared memory and stores them to
// global memory with TMA (or plain bulk copies). No mbarriers: the stores'
// own bulk async-groups are the ring's bookkeeping.
//
//   using StorePipeline = PipelineTmaStore<4>;
//   StorePipeline store_pipeline(typename StorePipeline::Params{});
//   typename StorePipeline::PipelineState write;          // (0, 0, 0)
//   for (int t = 0; t < num_tiles; ++t, ++write) {
//     if (issuer) store_pipeline.producer_acquire(write);   // buffer write.index() no longer read
//     named_barrier_sync(id, n);                           // the writers wait for the issuer's acquire
//     ... every writer: st.shared / stmatrix into sD(_, _, write.index()) ...
//     fence_proxy_async_shared_cta();                      // every writer: generic writes -> async proxy
//     named_barrier_sync(id, n);
//     if (issuer) {
//       copy(tma_store, tDsD(_, _, write.index()), tDgD(_, _, t));   // or bulk_copy_s2g
//       store_pipeline.producer_commit(write);             // closes this tile's bulk group
//     }
//   }
//   if (issuer) store_pipeline.producer_tail(write);       // before the CTA exits or reuses the buffers
//
// Laws:
//   - Bulk async-groups belong to the thread that commits them, so one
//     thread (the issuer) issues every store and calls producer_acquire,
//     producer_commit and producer_tail; the other writers learn of the
//     acquire through a barrier, as above.
//   - Each tile is one group (producer_commit after its stores). The n-th
//     producer_acquire (n = 0, 1, ...) returns once at most Stages - 1
//     groups are still reading shared memory (cp.async.bulk.wait_group.read
//     Stages - 1): the groups of tiles n - Stages + 1 .. n - 1, so the
//     group of tile n - Stages, the last to read buffer n % Stages, is done
//     with it. The first Stages acquires return at once.
//   - producer_tail waits for every group's reads (wait_group.read 0): the
//     buffers may be reused or the CTA may exit. Their writes to global
//     memory are visible after the kernel; a later read in the same kernel
//     needs arch::tma_store_wait_writes<0>() instead.
//
// Differences from CUTLASS: the state passed to producer_acquire /
// producer_commit is accepted for the ring's vocabulary and not needed (the
// groups count themselves); Params is empty; Stages is limited to 64
// (wait_group.read takes N in [0, 63]). sm_90; built for an older target, a
// kernel that uses it fails to build, naming the requirement.

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/tma.cuh>
#include <tessera/pipeline/pipeline_state.hpp>

namespace tessera {

template <int Stages_>
class PipelineTmaStore {
  static_assert(Stages_ >= 1, "PipelineTmaStore: Stages must be at least 1");
  static_assert(Stages_ <= 64,
                "PipelineTmaStore: Stages must be at most 64 (cp.async.bulk.wait_group.read takes N in [0, 63])");

 public:
  static constexpr std::uint32_t Stages = Stages_ >= 1 && Stages_ <= 64 ? std::uint32_t(Stages_) : 1u;
  using PipelineState = tessera::PipelineState<Stages>;

  struct Params {};

  __device__ explicit PipelineTmaStore(Params const& = {}) {}

  // Waits until buffer state.index()'s last store has read it: at most
  // Stages - 1 bulk groups of this thread are still reading shared memory.
  __device__ void producer_acquire(PipelineState) const {
    arch::tma_store_wait_read<int(Stages) - 1>();
  }

  // Closes the bulk group of this buffer's stores (cp.async.bulk.commit_group).
  __device__ void producer_commit(PipelineState) const { arch::tma_store_commit_group(); }

  // Waits until every store of this thread has read its buffer.
  __device__ void producer_tail(PipelineState) const { arch::tma_store_wait_read<0>(); }
  __device__ void producer_tail() const { arch::tma_store_wait_read<0>(); }
};

}  // namespace tessera
