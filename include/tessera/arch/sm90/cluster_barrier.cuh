// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CUTLASS's barrier classes beside CuTe, under Tessera's namespace:
// ClusterBarrier, a 64-bit mbarrier in shared memory, and
// ClusterTransactionBarrier, the same with a transaction (byte) count, the
// completion mechanism of TMA. Each member is one of the mbarrier wrappers
// (mbarrier.cuh), so the architecture rule is theirs: sm_90, and a kernel
// that reaches one built for an older target fails to build, naming the
// requirement.
//
//   __shared__ ClusterTransactionBarrier full;    // or a SharedStorage member
//   if (threadIdx.x == 0) { full.init(1); fence_mbarrier_init(); }
//   __syncthreads();                              // cluster_sync() with peers
//   if (threadIdx.x == 0) {
//     full.arrive_and_expect_tx(tma.box_bytes());
//     copy(tma.with(full.barrier_), coord, sA);   // or reinterpret_cast<uint64_t&>(full)
//   }
//   full.wait(phase);                             // phase: 0, 1, 0, ... as it completes
//
// Laws (the PTX mbarrier's):
//   - A phase completes when its pending arrivals reach 0 and its
//     transaction count is 0; the barrier then flips its phase parity and
//     re-arms with the init() count.
//   - wait(p) / try_wait(p) / test_wait(p) succeed once the phase of parity p
//     has completed, i.e. while the phase in progress has parity !p. A fresh
//     barrier is in phase 0, so a wait on parity 1 returns at once (how a
//     producer starts on "empty" barriers).
//   - The arrive forms release, the wait forms acquire, both at CTA scope.
//     An arrive on another CTA's barrier (the cta_id forms, through mapa
//     and .shared::cluster) orders the arriving thread's own accesses; data
//     it wrote for the peer to read needs a cluster-scope fence first, or
//     the opt-in pair arrive_release_cluster (release at cluster scope) and
//     wait_acquire_cluster / try_wait_acquire_cluster / test_wait_acquire_
//     cluster on the owning CTA (acquire at cluster scope), which need none.
//   - Only the CTA that owns a barrier may wait on it; peers can only
//     arrive, expect and complete transactions.
//
// Differences from CUTLASS: test_wait and try_wait return bool; the static
// forms take the barrier's pointer as a deduced `uint64_t const*` (a
// literal 0 is a CTA id, never a null barrier: bar.arrive(0) arrives on CTA
// 0's barrier); a barrier is not copyable (a copy would be a different
// barrier) but is trivially default constructible, so that `__shared__
// ClusterBarrier bar;` and arrays of them in shared structs work.

#include <concepts>
#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>

namespace tessera::arch {

struct ClusterBarrier {
  using ValueType = std::uint64_t;

  // The mbarrier itself: 8 bytes, 8-byte aligned, in shared memory.
  // Public (unlike CUTLASS's) so that copy(tma.with(bar.barrier_), ...) can
  // name it; initialise it through init(), never by assignment.
  alignas(8) ValueType barrier_;

  ClusterBarrier() = default;
  ClusterBarrier(ClusterBarrier const&) = delete;
  ClusterBarrier& operator=(ClusterBarrier const&) = delete;

  // mbarrier.init with `arrive_count` arrivals per phase (phase 0 begins).
  // Other CTAs and the TMA unit see it after fence_mbarrier_init() and a
  // cluster barrier; this CTA after a CTA barrier.
  __device__ void init(std::uint32_t arrive_count) const { init(&barrier_, arrive_count); }
  // Non-blocking: whether the phase of parity `phase` has completed
  // (mbarrier.test_wait); false without testing when pred is 0.
  __device__ bool test_wait(std::uint32_t phase, std::uint32_t pred = 1u) const {
    return test_wait(&barrier_, phase, pred);
  }
  // One probe that may suspend the thread for a hardware-chosen time
  // (mbarrier.try_wait): whether the phase of parity `phase` has completed.
  __device__ bool try_wait(std::uint32_t phase) const { return try_wait(&barrier_, phase); }
  // Blocks until the phase of parity `phase` has completed.
  __device__ void wait(std::uint32_t phase) const { wait(&barrier_, phase); }
  // One arrival on this CTA's barrier.
  __device__ void arrive() const { arrive(&barrier_); }
  // One arrival on the barrier at the same offset in CTA `cta_id` of the
  // cluster (possibly this one), when pred is nonzero.
  __device__ void arrive(std::uint32_t cta_id, std::uint32_t pred = 1u) const { arrive(&barrier_, cta_id, pred); }
  // mbarrier.inval: before the memory is used for anything but an mbarrier.
  __device__ void invalidate() const { invalidate(&barrier_); }

  // Publishing across the cluster (opt-in; the forms above stay CTA-scoped).
  // One arrival on the barrier at this offset in CTA `cta_id`, when pred is
  // nonzero, releasing at cluster scope: what this thread wrote before it,
  // in any CTA's shared memory, is visible to a cluster-scope wait below on
  // that CTA that sees the phase complete. No __threadfence() needed.
  __device__ void arrive_release_cluster(std::uint32_t cta_id, std::uint32_t pred = 1u) const {
    arrive_release_cluster(&barrier_, cta_id, pred);
  }
  // wait / try_wait / test_wait acquiring at cluster scope: the other half
  // of arrive_release_cluster (and of st.async's complete_tx).
  __device__ void wait_acquire_cluster(std::uint32_t phase) const { wait_acquire_cluster(&barrier_, phase); }
  __device__ bool try_wait_acquire_cluster(std::uint32_t phase) const {
    return try_wait_acquire_cluster(&barrier_, phase);
  }
  __device__ bool test_wait_acquire_cluster(std::uint32_t phase, std::uint32_t pred = 1u) const {
    return test_wait_acquire_cluster(&barrier_, phase, pred);
  }

  template <std::same_as<ValueType> V>
  __device__ static void init(V const* smem_ptr, std::uint32_t arrive_count) {
    mbarrier_init(mut(smem_ptr), arrive_count);
  }
  template <std::same_as<ValueType> V>
  __device__ static bool test_wait(V const* smem_ptr, std::uint32_t phase, std::uint32_t pred = 1u) {
    return pred != 0u && mbarrier_test_wait_parity(mut(smem_ptr), phase);
  }
  template <std::same_as<ValueType> V>
  __device__ static bool try_wait(V const* smem_ptr, std::uint32_t phase) {
    return mbarrier_try_wait_parity(mut(smem_ptr), phase);
  }
  template <std::same_as<ValueType> V>
  __device__ static void wait(V const* smem_ptr, std::uint32_t phase) {
    mbarrier_wait(mut(smem_ptr), phase);
  }
  template <std::same_as<ValueType> V>
  __device__ static void arrive(V const* smem_ptr) {
    mbarrier_arrive(mut(smem_ptr));
  }
  template <std::same_as<ValueType> V>
  __device__ static void arrive(V const* smem_ptr, std::uint32_t cta_id, std::uint32_t pred) {
    if (pred != 0u) mbarrier_arrive_cluster(mut(smem_ptr), cta_id);
  }
  template <std::same_as<ValueType> V>
  __device__ static void invalidate(V const* smem_ptr) {
    mbarrier_inval(mut(smem_ptr));
  }
  template <std::same_as<ValueType> V>
  __device__ static void arrive_release_cluster(V const* smem_ptr, std::uint32_t cta_id, std::uint32_t pred) {
    if (pred != 0u) mbarrier_arrive_release_cluster(mut(smem_ptr), cta_id);
  }
  template <std::same_as<ValueType> V>
  __device__ static void wait_acquire_cluster(V const* smem_ptr, std::uint32_t phase) {
    mbarrier_wait_acquire_cluster(mut(smem_ptr), phase);
  }
  template <std::same_as<ValueType> V>
  __device__ static bool try_wait_acquire_cluster(V const* smem_ptr, std::uint32_t phase) {
    return mbarrier_try_wait_parity_acquire_cluster(mut(smem_ptr), phase);
  }
  template <std::same_as<ValueType> V>
  __device__ static bool test_wait_acquire_cluster(V const* smem_ptr, std::uint32_t phase, std::uint32_t pred = 1u) {
    return pred != 0u && mbarrier_test_wait_parity_acquire_cluster(mut(smem_ptr), phase);
  }

 protected:
  // The members are const, as CUTLASS's are: the barrier's state lives in
  // shared memory and changes under every observer, const or not.
  __device__ static ValueType* mut(ValueType const* p) { return const_cast<ValueType*>(p); }
};

struct ClusterTransactionBarrier : ClusterBarrier {
  // One arrival that also expects `transaction_bytes` more bytes in the
  // current phase (mbarrier.arrive.expect_tx): what a TMA issuer does before
  // its copies.
  __device__ void arrive_and_expect_tx(std::uint32_t transaction_bytes) const {
    arrive_and_expect_tx(&barrier_, transaction_bytes);
  }
  // The same on the barrier at this offset in CTA `cta_id`, when pred is nonzero.
  __device__ void arrive_and_expect_tx(std::uint32_t transaction_bytes, std::uint32_t cta_id,
                                       std::uint32_t pred = 1u) const {
    arrive_and_expect_tx(&barrier_, transaction_bytes, cta_id, pred);
  }
  // Expect `transaction_bytes` more bytes without arriving (mbarrier.expect_tx).
  __device__ void expect_transaction(std::uint32_t transaction_bytes) const {
    expect_transaction(&barrier_, transaction_bytes);
  }
  // The same on the barrier at this offset in CTA `cta_id` (possibly this
  // one), when pred is nonzero (relaxed: it orders no memory access).
  __device__ void expect_transaction(std::uint32_t transaction_bytes, std::uint32_t cta_id,
                                     std::uint32_t pred = 1u) const {
    expect_transaction(&barrier_, transaction_bytes, cta_id, pred);
  }
  // Count `transaction_bytes` as arrived on the barrier at this offset in CTA
  // `dst_cta_id` (possibly this one), when pred is nonzero
  // (mbarrier.complete_tx, relaxed: it publishes no data).
  __device__ void complete_transaction(std::uint32_t dst_cta_id, std::uint32_t transaction_bytes,
                                       std::uint32_t pred = 1u) const {
    complete_transaction(&barrier_, dst_cta_id, transaction_bytes, pred);
  }

  template <std::same_as<ValueType> V>
  __device__ static void arrive_and_expect_tx(V const* smem_ptr, std::uint32_t transaction_bytes) {
    mbarrier_arrive_expect_tx(mut(smem_ptr), transaction_bytes);
  }
  template <std::same_as<ValueType> V>
  __device__ static void arrive_and_expect_tx(V const* smem_ptr, std::uint32_t transaction_bytes, std::uint32_t cta_id,
                                              std::uint32_t pred) {
    if (pred != 0u) mbarrier_arrive_expect_tx_cluster(mut(smem_ptr), cta_id, transaction_bytes);
  }
  template <std::same_as<ValueType> V>
  __device__ static void expect_transaction(V const* smem_ptr, std::uint32_t transaction_bytes) {
    mbarrier_expect_tx(mut(smem_ptr), transaction_bytes);
  }
  template <std::same_as<ValueType> V>
  __device__ static void expect_transaction(V const* smem_ptr, std::uint32_t transaction_bytes, std::uint32_t cta_id,
                                            std::uint32_t pred) {
    if (pred != 0u) mbarrier_expect_tx_cluster(mut(smem_ptr), cta_id, transaction_bytes);
  }
  template <std::same_as<ValueType> V>
  __device__ static void complete_transaction(V const* smem_ptr, std::uint32_t dst_cta_id,
                                              std::uint32_t transaction_bytes, std::uint32_t pred) {
    if (pred != 0u) mbarrier_complete_tx_cluster(mut(smem_ptr), dst_cta_id, transaction_bytes);
  }
};

static_assert(sizeof(ClusterBarrier) == 8 && alignof(ClusterBarrier) == 8,
              "ClusterBarrier: one 64-bit mbarrier, nothing else");
static_assert(sizeof(ClusterTransactionBarrier) == 8, "ClusterTransactionBarrier: one 64-bit mbarrier, nothing else");

}  // namespace tessera::arch
