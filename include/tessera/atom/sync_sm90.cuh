// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CuTe's names for the sm_90 synchronisation around WGMMA, clusters and
// mbarriers, in namespace tessera, so that device code written against them
// (seed 002's mainloops) ports with `using namespace tessera;`. Each is the
// tessera::arch wrapper of the same PTX (tessera/arch/sm90/*.cuh), so the
// architecture rules are the same: built for a target without the
// instruction, a kernel that calls one fails to build, naming the
// requirement.
//
//   warpgroup_arrive()           wgmma.fence.sync.aligned (sm_90a): register
//                                and shared-memory writes before it are seen
//                                by the wgmma.mma_async that follow
//   warpgroup_commit_batch()     wgmma.commit_group.sync.aligned (sm_90a)
//   warpgroup_wait<N>()          wgmma.wait_group.sync.aligned N (sm_90a): at
//                                most N committed batches still in flight
//   warpgroup_fence_operand(x)   no instruction: keeps the compiler from moving
//                                accesses of x (a 32-bit register, an array or
//                                a register Tensor of them, or a compact
//                                register Tensor of 16-bit, tf32 or 8-bit
//                                values, fenced as the 32-bit words wgmma
//                                reads it as) across the above
//   block_rank_in_cluster()      %cluster_ctarank (sm_90)
//   cluster_size()               %cluster_nctarank: the CTAs in this cluster (sm_90)
//   cluster_arrive(), cluster_wait(), cluster_sync(), elect_one_sync() (sm_90)
//   cluster_local_smem_ptr(p, r) seed 002's name for distributed shared memory:
//                                p's location in the shared memory of CTA r of
//                                the cluster, as a generic pointer (mapa; see
//                                arch::map_shared_rank for what may use it)
//   cast_smem_ptr_to_uint(p)     the 32-bit shared-window address of p
//   mbarrier_init, mbarrier_arrive, mbarrier_arrive_expect_tx,
//   mbarrier_try_wait_parity, mbarrier_wait(bar, parity) (sm_90)
//
// The usual WGMMA step (the accumulators fenced on both sides):
//   warpgroup_fence_operand(acc); warpgroup_arrive();
//   ... wgmma.mma_async ...;
//   warpgroup_commit_batch(); warpgroup_wait<0>(); warpgroup_fence_operand(acc);

#include <cstdint>
#include <type_traits>

#include <tessera/arch/sm90/cluster.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>
#include <tessera/arch/sm90/wgmma.cuh>
#include <tessera/tensor.hpp>

namespace tessera {

__device__ __forceinline__ void warpgroup_arrive() { arch::wgmma_fence(); }

__device__ __forceinline__ void warpgroup_commit_batch() { arch::wgmma_commit_group(); }

template <int kPending>
__device__ __forceinline__ void warpgroup_wait() {
  constexpr bool kInRange = kPending >= 0 && kPending <= 7;
  static_assert(kInRange, "warpgroup_wait<N>: wgmma.wait_group takes N in [0, 7] (batches left in flight)");
  if constexpr (kInRange) arch::wgmma_wait_group<kPending>();
}

// One register (float, 32-bit integer), an array of them, or a register
// Tensor: of such registers element by element, of any other element type
// (f16/bf16 accumulators, RS-form A fragments of bf16, tf32 or 8-bit values)
// as the 32-bit words its compact storage packs, which is how wgmma reads it.
namespace detail {
template <class V>
inline constexpr bool is_fence_register_v =
    std::is_same_v<V, float> || std::is_same_v<V, std::uint32_t> || std::is_same_v<V, std::int32_t>;

template <class U>
constexpr bool is_packed_tensor() {
  if constexpr (is_tensor_v<U>) return !is_fence_register_v<std::remove_cv_t<typename U::value_type>>;
  else return false;
}

// Compact (offset i at index i) and whole 32-bit words.
template <class L, int kElemBytes>
constexpr bool fence_compact_words() {
  if constexpr (!is_compact_identity<L>()) {
    return false;
  } else {
    return (decltype(size(L{}))::value * kElemBytes) % 4 == 0;
  }
}
}  // namespace detail

template <class T>
__device__ __forceinline__ void warpgroup_fence_operand(T& x) {
  using U = std::remove_cv_t<T>;
  if constexpr (detail::is_packed_tensor<U>()) {
    using L = std::remove_cvref_t<decltype(x.layout())>;
    constexpr int kBytes = int(sizeof(typename U::value_type));
    static_assert(detail::fence_compact_words<L, kBytes>(),
                  "warpgroup_fence_operand: a register Tensor of non-32-bit-register values is fenced as the 32-bit "
                  "words of its storage, so it must be compact (static layout, offset i at index i) and fill whole "
                  "words");
    auto* words = reinterpret_cast<std::uint32_t*>(&x(0));
#pragma unroll
    for (int i = 0; i < int(size(x)) * kBytes / 4; ++i) arch::wgmma_fence_operand(words[i]);
  } else if constexpr (is_tensor_v<U>) {
#pragma unroll
    for (int i = 0; i < int(size(x)); ++i) warpgroup_fence_operand(x(i));
  } else if constexpr (std::is_array_v<U>) {
#pragma unroll
    for (int i = 0; i < int(std::extent_v<U>); ++i) warpgroup_fence_operand(x[i]);
  } else {
    constexpr bool kRegister = detail::is_fence_register_v<U>;
    static_assert(kRegister,
                  "warpgroup_fence_operand: operands are 32-bit registers (float, uint32_t, int32_t), arrays or "
                  "register Tensors of them [16-bit accumulators: pass their register Tensor, fenced as 32-bit pairs]");
    if constexpr (kRegister) arch::wgmma_fence_operand(x);
  }
}

__device__ __forceinline__ std::uint32_t block_rank_in_cluster() { return arch::cluster_ctarank(); }
__device__ __forceinline__ std::uint32_t cluster_size() { return arch::cluster_nctarank(); }

// make_tensor(make_smem_ptr(cluster_local_smem_ptr(p, r)), layout) views the
// peer's tile through the same layout; element reads, writes and copies
// through it are generic accesses and reach CTA r.
template <class T>
__device__ __forceinline__ T* cluster_local_smem_ptr(T* p, std::uint32_t cta_rank) {
  return arch::map_shared_rank(p, cta_rank);
}

__device__ __forceinline__ std::uint32_t cast_smem_ptr_to_uint(void const* p) { return arch::smem_u32(p); }

using arch::cluster_arrive;
using arch::cluster_sync;
using arch::cluster_wait;
using arch::elect_one_sync;
using arch::mbarrier_arrive;
using arch::mbarrier_arrive_expect_tx;
using arch::mbarrier_init;
using arch::mbarrier_try_wait_parity;
using arch::mbarrier_wait;

}  // namespace tessera
