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
//   block_id_in_cluster()        dim3 %cluster_ctaid: this CTA's position in
//                                its cluster (sm_90)
//   cluster_shape()              dim3 %cluster_nctaid: CTAs per cluster in each
//                                dimension (sm_90)
//   cluster_id_in_grid()         dim3 %clusterid: this cluster's position in
//                                the grid (sm_90)
//   cluster_grid_dims()          dim3 %nclusterid: clusters in the grid in each
//                                dimension (sm_90)
//                                (without a cluster launch every CTA is a
//                                cluster of one: (0,0,0), (1,1,1), blockIdx,
//                                gridDim)
//   cluster_arrive(), cluster_wait(), cluster_sync(), elect_one_sync() (sm_90)
//   elect_one_leader_sync()      elect.sync with both results, as CuTe's
//                                ElectOneLaneIdReturnType: is_leader (1 in
//                                exactly one lane of the warp, as
//                                elect_one_sync) and leader_lane_id (that
//                                lane's id, in every lane); all 32 lanes call
//                                it together (sm_90)
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

// Cluster geometry, one special register per dimension. The rank is
// x + shape.x * (y + shape.y * z) of block_id_in_cluster(), and blockIdx.d ==
// cluster_id_in_grid().d * cluster_shape().d + block_id_in_cluster().d.
// Unlike CuTe, which answers as if every CTA were a cluster of one when built
// for an older target, these fail the build there, as every cluster
// instruction does: the answers would be right, but a kernel that asks
// almost always goes on to a cluster barrier or multicast that cannot run.
__device__ __forceinline__ dim3 block_id_in_cluster() {
  return {arch::cluster_ctaid_x(), arch::cluster_ctaid_y(), arch::cluster_ctaid_z()};
}
__device__ __forceinline__ dim3 cluster_shape() {
  return {arch::cluster_nctaid_x(), arch::cluster_nctaid_y(), arch::cluster_nctaid_z()};
}
__device__ __forceinline__ dim3 cluster_id_in_grid() {
  return {arch::clusterid_x(), arch::clusterid_y(), arch::clusterid_z()};
}
__device__ __forceinline__ dim3 cluster_grid_dims() {
  return {arch::nclusterid_x(), arch::nclusterid_y(), arch::nclusterid_z()};
}

// CuTe's spelling of both elect.sync results (uint32_t fields, so code that
// unpacks or compares them ports unchanged).
struct ElectOneLaneIdReturnType {
  std::uint32_t is_leader;
  std::uint32_t leader_lane_id;
};
__device__ __forceinline__ ElectOneLaneIdReturnType elect_one_leader_sync() {
  arch::ElectedLane const e = arch::elect_one_lane_sync();
  return {e.is_leader ? 1u : 0u, e.leader_lane};
}

// make_tensor(make_smem_ptr(cluster_local_smem_ptr(p, r)), layout) views the
// peer's tile through the same layout; element reads, writes and copies
// through it are generic accesses and reach CTA r.
template <class T>
__device__ __forceinline__ T* cluster_local_smem_ptr(T* p, std::uint32_t cta_rank) {
  return arch::map_shared_rank(p, cta_rank);
}

__device__ __forceinline__ std::uint32_t cast_smem_ptr_to_uint(void const* p) { return arch::smem_u32(p); }

using arch::cluster_arrive;
using arch::cluster_arrive_relaxed;
using arch::cluster_sync;
using arch::cluster_wait;
using arch::elect_one_sync;
using arch::mbarrier_arrive;
using arch::mbarrier_arrive_expect_tx;
using arch::mbarrier_init;
using arch::mbarrier_try_wait_parity;
using arch::mbarrier_wait;

}  // namespace tessera
