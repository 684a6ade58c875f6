// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Seed 002's Hopper bf16 GEMMs written the way it writes them, in CuTe's
// vocabulary (`using namespace tessera;`): TMA copies made by make_tma_copy,
// mbarriers, a TiledMMA of GMMA atoms over 128B-swizzled K-major tiles.
// C (M,N) row-major f32 = A (M,K) row-major x B (N,K) row-major^T; any M, N
// (TMA reads zeros past the edges; direct epilogue stores are predicated,
// TMA stores clipped, and those need N % 4 == 0), K a multiple of 8 (the TMA
// row stride is a multiple of 16 bytes).
//
//   h1_seed  seed 002's hopper_gemm_complete.cu: one warpgroup, 128x128x64
//            tiles, kStages-deep TMA ring; thread 0 refills a stage after
//            warpgroup_wait<0> retires the batch that read it (the seed
//            refills it first, racing that batch, and waits with <1>, which
//            makes ptxas serialise the wgmmas: see the loop).
//   h2_ws    warp-specialised, as 002's "Ping-Pong"/cooperative discussion
//            (persistent_body with one CTA per tile):
//            a producer warpgroup (setmaxnreg 40; one thread issues the TMA
//            loads into a 4-stage ring, waiting on empty[s]) and two consumer
//            warpgroups (setmaxnreg 232) sharing a 128x256 tile, each 64x256
//            (AtomLayout 2x1 of SM90_64x256x16), releasing a stage through
//            empty[s] once warpgroup_wait<1> has retired the batch that read it.
//   h3_persistent  h2 with one CTA per SM walking the tiles, the ring running
//            on across tiles (the next tile's loads overlap this tile's
//            epilogue).
//   h4_tma_store  h3 with the epilogue through shared memory and TMA stores
//            (make_tma_copy(SM90_TMA_STORE{}, ...), tma_store_fence/arrive/
//            wait); needs N % 4 == 0.
//   h5 (h4_tma_store, group_m = 16)  h4 walking the tiles in groups of 16
//            M-tiles, N-first within a group, so that the tiles in flight
//            share A and B panels in L2.
//   h6 (h4_tma_store<..., 2>)  h5 in clusters of 2 CTAs on vertically
//            adjacent tiles, which share B's 256-row box: each CTA loads its
//            half and multicasts it to both, in CuTe's form (tma_partition
//            with Layout<_2>, copy(tma_b.with(full[s], 0b11), ...)); a stage
//            is free once both CTAs' consumers released it.
//   h7 (h4_tma_store<..., 2, true>)  h6 with the ring written with
//            CUTLASS's pipeline classes (PipelineTmaAsync, PipelineState,
//            make_producer_start_state, producer_tail) instead of barrier
//            arrays.
//   h8_pingpong  seed 002's ping-pong schedule: each consumer warpgroup
//            owns whole 128x128 tiles, taking turns (OrderedSequenceBarrier)
//            at the mainloop and the epilogue, so one's epilogue runs under
//            the other's mainloop; direct stores, as h3.
//   h8_pingpong_tma  h8 with h4's epilogue: each warpgroup stages its tile
//            in 64 x 32 f32 chunks through two buffers of its own and one
//            of its threads issues the TMA stores; needs N % 4 == 0 (also
//            in 64x256 tiles, with a 4-stage ring).

#include <cstdint>

#include <tessera/arch/sm90/named_barrier.cuh>
#include <tessera/tessera.hpp>

namespace hopper_cute {

using namespace tessera;

constexpr int kBlockK = 64;
using SmemAtom = GMMA::Layout_K_SW128_Atom<bfloat16_t>;

template <int kRows>
using Box = decltype(tile_to_shape(SmemAtom{}, Shape<Int<kRows>, Int<kBlockK>>{}));  // one TMA box
template <int kRows, int kStages>
using Ring = decltype(tile_to_shape(SmemAtom{}, Shape<Int<kRows>, Int<kBlockK>, Int<kStages>>{}));

// kMulticast > 1: a copy whose box the kMulticast CTAs of a cluster load in
// slices, each multicasting its slice to all (h6's B).
template <int kRows, int kMulticast = 1>
auto make_operand_copy(bfloat16_t const* p, int rows, int k) {
  auto const g = make_tensor(make_gmem_ptr(p), make_layout(make_shape(rows, k), make_stride(k, _1{})));
  if constexpr (kMulticast > 1)
    return make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, g, Box<kRows>{}, make_shape(Int<kRows>{}, Int<kBlockK>{}),
                         Int<kMulticast>{});
  else
    return make_tma_copy(SM90_TMA_LOAD{}, g, Box<kRows>{}, make_shape(Int<kRows>{}, Int<kBlockK>{}));
}

// 1024-byte aligned start of dynamic shared memory (the 128B swizzle's period).
__device__ inline unsigned char* aligned_smem(unsigned char* raw) {
  return raw + ((1024u - (cast_smem_ptr_to_uint(raw) & 1023u)) & 1023u);
}

// tCrC -> C(m0.., n0..), stores predicated on (M, N).
template <class ThrMma, class Frag, int kBM, int kBN>
__device__ void store_tile(ThrMma const& thr, Frag const& tCrC, float* C, int M, int N, int m0, int n0) {
  Tensor gC = make_tensor(make_gmem_ptr(C), make_layout(make_shape(M, N), make_stride(N, _1{})));
  Tensor cC = make_identity_tensor(make_shape(M, N));
  auto const tile = make_shape(Int<kBM>{}, Int<kBN>{});
  auto const blk = make_coord(m0 / kBM, n0 / kBN);
  Tensor tCgC = thr.partition_C(local_tile(gC, tile, blk));
  Tensor tCcC = thr.partition_C(local_tile(cC, tile, blk));
#pragma unroll
  for (int i = 0; i < int(size(tCrC)); ++i) {
    auto const c = tCcC(i);
    if (int(get<0>(c)) < M && int(get<1>(c)) < N) tCgC(i) = tCrC(i);
  }
}

// ---------------------------------------------------------------- h1 ----
struct H1 {
  static constexpr int kBM = 128, kBN = 128, kStages = 4, kThreads = 128;
  static constexpr int kSmem = 1024 + 2 * (kBM + kBN) * kBlockK * kStages;
  using SmemA = Ring<kBM, kStages>;
  using SmemB = Ring<kBN, kStages>;
  __host__ __device__ static auto tiled_mma() {
    return make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>{}, Layout<Shape<_1, _1, _1>>{},
                          Tile<Int<kBM>, Int<kBN>, _16>{});
  }
};

template <class TmaA, class TmaB>
__global__ void __launch_bounds__(H1::kThreads, 1)
    h1_seed(__grid_constant__ const TmaA tma_a, __grid_constant__ const TmaB tma_b, float* C, int M, int N, int K) {
#if TESSERA_SM90A_ENABLED
  extern __shared__ unsigned char smem_raw[];
  auto* base = reinterpret_cast<bfloat16_t*>(aligned_smem(smem_raw));
  Tensor sA = make_tensor(make_smem_ptr(base), H1::SmemA{});
  Tensor sB = make_tensor(make_smem_ptr(base + cosize(H1::SmemA{})), H1::SmemB{});
  __shared__ __align__(8) std::uint64_t full[H1::kStages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < H1::kStages; ++s) mbarrier_init(&full[s], 1);
    arch::fence_mbarrier_init();
  }
  __syncthreads();

  auto mma = H1::tiled_mma();
  auto thr = mma.get_slice(threadIdx.x);
  Tensor tCrA = thr.partition_fragment_A(sA);  // (_1,MMA_M,MMA_K,STAGE) descriptors
  Tensor tCrB = thr.partition_fragment_B(sB);
  Tensor tCrC = thr.partition_fragment_C(make_shape(Int<H1::kBM>{}, Int<H1::kBN>{}));
  clear(tCrC);
  int const m0 = blockIdx.x * H1::kBM, n0 = blockIdx.y * H1::kBN;
  int const num_k = (K + kBlockK - 1) / kBlockK;
  std::uint32_t const bytes = tma_a.box_bytes() + tma_b.box_bytes();
  auto load = [&](int k) {
    int const s = k % H1::kStages;
    mbarrier_arrive_expect_tx(&full[s], bytes);
    copy(tma_a.with(full[s]), make_coord(m0, k * kBlockK), sA(_, _, s));
    copy(tma_b.with(full[s]), make_coord(n0, k * kBlockK), sB(_, _, s));
  };
  if (threadIdx.x == 0)
    for (int k = 0; k < H1::kStages && k < num_k; ++k) load(k);
  for (int k = 0; k < num_k; ++k) {
    int const s = k % H1::kStages;
    mbarrier_wait(&full[s], (k / H1::kStages) & 1);
    warpgroup_fence_operand(tCrC);
    warpgroup_arrive();
#pragma unroll
    for (int kb = 0; kb < int(size<2>(tCrA)); ++kb) gemm(mma, tCrA(_, _, kb, s), tCrB(_, _, kb, s), tCrC);
    warpgroup_commit_batch();
    // The seed keeps one batch in flight (warpgroup_wait<1>) and issues the
    // next TMA from thread 0 meanwhile; ptxas then serialises every wgmma
    // (C7518: a divergent path while a batch is in flight). Retiring the
    // batch first keeps the wgmmas of a batch pipelined; stage s is then free.
    warpgroup_wait<0>();
    warpgroup_fence_operand(tCrC);
    if (threadIdx.x == 0 && k + H1::kStages < num_k) load(k + H1::kStages);
  }
  store_tile<decltype(thr), decltype(tCrC), H1::kBM, H1::kBN>(thr, tCrC, C, M, N, m0, n0);
#else
  (void)tma_a, (void)tma_b, (void)C, (void)M, (void)N, (void)K;
#endif
}

// ---------------------------------------------------------------- h2 ----
struct H2 {
  static constexpr int kBM = 128, kBN = 256, kStages = 4, kThreads = 384;
  static constexpr int kSmem = 1024 + 2 * (kBM + kBN) * kBlockK * kStages;
  using SmemA = Ring<kBM, kStages>;
  using SmemB = Ring<kBN, kStages>;
  __host__ __device__ static auto tiled_mma() {
    return make_tiled_mma(SM90_64x256x16_F32BF16BF16_SS<GMMA::Major::K>{}, Layout<Shape<_2, _1, _1>>{});
  }
};

// h2 and h3 are one kernel (h3_persistent, below), launched with one CTA per
// tile (h2: the body's tile loop runs once, the hardware hands out the tiles)
// or one per SM (h3).

// ---------------------------------------------------------------- h3 ----
// Tile t's (M-tile, N-tile) index. group_m M-tiles form a group walked
// N-first within it (t = group * group_m * tiles_n + n * rows + m_in_group),
// so the tiles in flight at once share fewer A and B panels in L2; group_m
// >= tiles_m is the plain M-fastest order.
__device__ inline void tile_index(int t, int tiles_m, int tiles_n, int group_m, int& tm, int& tn) {
  int const g = min(group_m, tiles_m);
  int const per_group = g * tiles_n;
  int const first_m = (t / per_group) * g;
  int const rows = min(g, tiles_m - first_m);
  int const r = t % per_group;
  tm = first_m + r % rows;
  tn = r / rows;
}

// Which tiles a CTA of a persistent kernel walks: units u = first, first +
// step, ... (a unit: kCluster vertically adjacent tiles sharing B; CTA rank
// r of the cluster takes the unit's r-th tile). A pair's second tile past M
// still runs (its A reads zeros, its stores are clipped): its half of B
// feeds the first.
template <int kCluster, int kBM = H2::kBM, int kBN = H2::kBN>
struct TileWalk {
  int rank, tiles_n, units_m, units, first, step, num_k, group_m;
  __device__ TileWalk(int M, int N, int K, int group_m_) : group_m(group_m_) {
    rank = kCluster > 1 ? int(block_rank_in_cluster()) : 0;
    int const tiles_m = (M + kBM - 1) / kBM;
    tiles_n = (N + kBN - 1) / kBN;
    units_m = (tiles_m + kCluster - 1) / kCluster;
    units = units_m * tiles_n;
    first = int(blockIdx.x) / kCluster;
    step = int(gridDim.x) / kCluster;
    num_k = (K + kBlockK - 1) / kBlockK;
  }
  __device__ void origin(int u, int& m0, int& n0) const {
    int tm, tn;
    tile_index(u, units_m, tiles_n, group_m, tm, tn);
    m0 = (tm * kCluster + rank) * kBM;
    n0 = tn * kBN;
  }
};

// One K-block of a consumer warpgroup: the wgmma batch over stage s, then
// warpgroup_wait<1>, which retires the previous K-block's batch (the caller
// releases that block's stage).
template <class Mma, class FragA, class FragB, class FragC>
__device__ __forceinline__ void mma_k_block(Mma const& mma, FragA const& tCrA, FragB const& tCrB, FragC& tCrC, int s) {
  warpgroup_fence_operand(tCrC);
  warpgroup_arrive();
#pragma unroll
  for (int kb = 0; kb < int(size<2>(tCrA)); ++kb) gemm(mma, tCrA(_, _, kb, s), tCrB(_, _, kb, s), tCrC);
  warpgroup_commit_batch();
  warpgroup_wait<1>();
  warpgroup_fence_operand(tCrC);
}

// The body h2-h6 share. Each CTA walks the tiles t = blockIdx.x,
// blockIdx.x + gridDim.x, ... (kCluster 2: each cluster walks pairs of
// vertically adjacent tiles, CTA rank r taking the pair's r-th). The ring's
// stage and phase run on across tiles, so the producer fills the next
// tile's stages while the consumers still run the epilogue of the last one;
// the consumers release a tile's final stage after warpgroup_wait<0>.
// `smem` holds the ring (then h4's epilogue buffers); `epilogue(thr, tCrC,
// m0, n0)` runs in the consumer threads once a tile's accumulators are
// final.
// Clusters of 2: B's box is shared, each CTA loading its half and
// multicasting it to both (tma_b made with SM90_TMA_LOAD_MULTICAST and
// Int<2>). A stage of either CTA is then written by both producers, so it
// is free only when the consumers of both CTAs have released it: empty[s]
// counts 4 arrivals, each releasing thread arriving on its own barrier and
// on the peer's.
template <int kCluster = 1, class TmaA, class TmaB, class Epilogue>
__device__ void persistent_body(TmaA const& tma_a, TmaB const& tma_b, bfloat16_t* base, int M, int N, int K,
                                int group_m, Epilogue&& epilogue) {
  static_assert(kCluster == 1 || kCluster == 2, "persistent_body: clusters of 1 or 2 CTAs");
  Tensor sA = make_tensor(make_smem_ptr(base), H2::SmemA{});
  Tensor sB = make_tensor(make_smem_ptr(base + cosize(H2::SmemA{})), H2::SmemB{});
  __shared__ __align__(8) std::uint64_t full[H2::kStages];
  __shared__ __align__(8) std::uint64_t empty[H2::kStages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < H2::kStages; ++s) {
      mbarrier_init(&full[s], 1);
      mbarrier_init(&empty[s], 2 * kCluster);
    }
    arch::fence_mbarrier_init();
  }
  if constexpr (kCluster > 1) cluster_sync();  // every barrier of the cluster initialised before a multicast lands
  else __syncthreads();
  TileWalk<kCluster> const walk(M, N, K, group_m);

  if (threadIdx.x < 128) {  // producer
    arch::setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      prefetch_tma_descriptor(tma_a.get_tma_descriptor());
      prefetch_tma_descriptor(tma_b.get_tma_descriptor());
      std::uint32_t const bytes = tma_a.box_bytes() + tma_b.box_bytes();  // clusters: both halves of B land here
      Tensor mB = tma_b.get_tma_tensor(make_shape(N, K));                  // (N,K) -> (n,k)
      int it = 0;  // k-tiles issued so far, over all tiles
      for (int u = walk.first; u < walk.units; u += walk.step) {
        int m0, n0;
        walk.origin(u, m0, n0);
        // This CTA's half of each B box: ((TMA/2),k) and ((TMA/2),PIPE).
        Tensor gB = local_tile(mB, make_shape(Int<H2::kBN>{}, Int<kBlockK>{}), make_coord(n0 / H2::kBN, _));
        auto [tBgB, tBsB] = tma_partition(tma_b, walk.rank, Layout<Int<kCluster>>{}, group_modes<0, 2>(sB),
                                          group_modes<0, 2>(gB));
        for (int k = 0; k < walk.num_k; ++k, ++it) {
          int const s = it % H2::kStages;
          if (it >= H2::kStages) mbarrier_wait(&empty[s], ((it / H2::kStages) - 1) & 1);
          mbarrier_arrive_expect_tx(&full[s], bytes);
          copy(tma_a.with(full[s]), make_coord(m0, k * kBlockK), sA(_, _, s));
          if constexpr (kCluster > 1) copy(tma_b.with(full[s], std::uint16_t(0b11)), tBgB(_, k), tBsB(_, s));
          else copy(tma_b.with(full[s]), make_coord(n0, k * kBlockK), sB(_, _, s));
        }
      }
    }
  } else {  // consumers
    arch::setmaxnreg_inc<232>();
    auto mma = H2::tiled_mma();
    auto thr = mma.get_slice(int(threadIdx.x) - 128);
    Tensor tCrA = thr.partition_fragment_A(sA);
    Tensor tCrB = thr.partition_fragment_B(sB);
    Tensor tCrC = thr.partition_fragment_C(make_shape(Int<H2::kBM>{}, Int<H2::kBN>{}));
    bool const releaser = threadIdx.x % 128 == 0;
    auto release = [&](int s) {
      mbarrier_arrive(&empty[s]);
      if constexpr (kCluster > 1) arch::mbarrier_arrive_cluster(&empty[s], std::uint32_t(walk.rank ^ 1));
    };
    int it = 0;
    for (int u = walk.first; u < walk.units; u += walk.step) {
      int m0, n0;
      walk.origin(u, m0, n0);
      clear(tCrC);
      for (int k = 0; k < walk.num_k; ++k, ++it) {
        int const s = it % H2::kStages;
        mbarrier_wait(&full[s], (it / H2::kStages) & 1);
        mma_k_block(mma, tCrA, tCrB, tCrC, s);
        if (releaser && k > 0) release((it - 1) % H2::kStages);
      }
      warpgroup_wait<0>();
      warpgroup_fence_operand(tCrC);
      if (releaser && walk.num_k > 0) release((it - 1) % H2::kStages);
      epilogue(thr, tCrC, m0, n0);
    }
  }
  // No CTA leaves while its peer may still multicast into it or arrive on its barriers.
  if constexpr (kCluster > 1) cluster_sync();
}

// h7: persistent_body written with CUTLASS's pipeline classes instead of
// barrier arrays: PipelineTmaAsync<4> owns the full and empty barriers, the
// producer walks a PipelineState from make_producer_start_state (its first
// lap does not wait), the consumers walk one from (0, 0, 0) and release the
// previous K-block's stage once warpgroup_wait<1> has retired it. Clusters of
// 2 (Shape<_2, _1, _1>): every consumer warp releases a stage in both CTAs
// (lanes 0 and 1, release_peers.hpp), so empty[s] counts 2 x 8 arrivals
// where h6 counts 4; the producer's tail (producer_tail) replaces h6's final
// cluster_sync: a CTA leaves only once its peer can no longer arrive on its
// barriers or multicast into it.
template <int kCluster, class TmaA, class TmaB, class Epilogue>
__device__ void persistent_body_pipeline(TmaA const& tma_a, TmaB const& tma_b, bfloat16_t* base, int M, int N, int K,
                                         int group_m, Epilogue&& epilogue) {
  using Pipeline = PipelineTmaAsync<H2::kStages>;
  Tensor sA = make_tensor(make_smem_ptr(base), H2::SmemA{});
  Tensor sB = make_tensor(make_smem_ptr(base + cosize(H2::SmemA{})), H2::SmemB{});
  __shared__ typename Pipeline::SharedStorage storage;
  typename Pipeline::Params params;
  params.transaction_bytes = tma_a.box_bytes() + tma_b.box_bytes();  // clusters: both halves of B land here
  params.num_consumers = H2::kThreads - 128;
  params.role = threadIdx.x < 128 ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
  params.is_leader = threadIdx.x == 0;
  Pipeline pipeline(storage, params, Shape<Int<kCluster>, _1, _1>{});
  if constexpr (kCluster > 1) cluster_sync();  // every barrier of the cluster initialised before a multicast lands
  else __syncthreads();
  TileWalk<kCluster> const walk(M, N, K, group_m);

  if (threadIdx.x < 128) {  // producer
    arch::setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      prefetch_tma_descriptor(tma_a.get_tma_descriptor());
      prefetch_tma_descriptor(tma_b.get_tma_descriptor());
      Tensor mB = tma_b.get_tma_tensor(make_shape(N, K));
      auto write = make_producer_start_state<Pipeline>();
      for (int u = walk.first; u < walk.units; u += walk.step) {
        int m0, n0;
        walk.origin(u, m0, n0);
        Tensor gB = local_tile(mB, make_shape(Int<H2::kBN>{}, Int<kBlockK>{}), make_coord(n0 / H2::kBN, _));
        auto [tBgB, tBsB] = tma_partition(tma_b, walk.rank, Layout<Int<kCluster>>{}, group_modes<0, 2>(sB),
                                          group_modes<0, 2>(gB));
        for (int k = 0; k < walk.num_k; ++k, ++write) {
          pipeline.producer_acquire(write);  // the stage is free; its full barrier armed with the bytes
          auto* bar = pipeline.producer_get_barrier(write);
          int const s = int(write.index());
          copy(tma_a.with(*bar), make_coord(m0, k * kBlockK), sA(_, _, s));
          if constexpr (kCluster > 1) copy(tma_b.with(*bar, std::uint16_t(0b11)), tBgB(_, k), tBsB(_, s));
          else copy(tma_b.with(*bar), make_coord(n0, k * kBlockK), sB(_, _, s));
          pipeline.producer_commit(write);
        }
      }
      pipeline.producer_tail(write);
    }
  } else {  // consumers
    arch::setmaxnreg_inc<232>();
    auto mma = H2::tiled_mma();
    auto thr = mma.get_slice(int(threadIdx.x) - 128);
    Tensor tCrA = thr.partition_fragment_A(sA);
    Tensor tCrB = thr.partition_fragment_B(sB);
    Tensor tCrC = thr.partition_fragment_C(make_shape(Int<H2::kBM>{}, Int<H2::kBN>{}));
    typename Pipeline::PipelineState read, retired;  // the next stage to read; the next one to release
    for (int u = walk.first; u < walk.units; u += walk.step) {
      int m0, n0;
      walk.origin(u, m0, n0);
      clear(tCrC);
      for (int k = 0; k < walk.num_k; ++k, ++read) {
        pipeline.consumer_wait(read);
        mma_k_block(mma, tCrA, tCrB, tCrC, int(read.index()));
        if (k > 0) {
          pipeline.consumer_release(retired);
          ++retired;
        }
      }
      warpgroup_wait<0>();
      warpgroup_fence_operand(tCrC);
      if (walk.num_k > 0) {
        pipeline.consumer_release(retired);
        ++retired;
      }
      epilogue(thr, tCrC, m0, n0);
    }
  }
}

template <class TmaA, class TmaB>
__global__ void __launch_bounds__(H2::kThreads, 1)
    h3_persistent(__grid_constant__ const TmaA tma_a, __grid_constant__ const TmaB tma_b, float* C, int M, int N,
                  int K) {
#if TESSERA_SM90A_ENABLED
  extern __shared__ unsigned char smem_raw[];
  persistent_body(tma_a, tma_b, reinterpret_cast<bfloat16_t*>(aligned_smem(smem_raw)), M, N, K, M,
                  [&](auto const& thr, auto const& tCrC, int m0, int n0) {
                    store_tile<std::remove_cvref_t<decltype(thr)>, std::remove_cvref_t<decltype(tCrC)>, H2::kBM,
                               H2::kBN>(thr, tCrC, C, M, N, m0, n0);
                  });
#else
  (void)tma_a, (void)tma_b, (void)C, (void)M, (void)N, (void)K;
#endif
}

// ---------------------------------------------------------------- h4 ----
// h3 with the epilogue through shared memory and TMA stores, in CuTe's
// names: each consumer warpgroup writes its 64 x 256 block as eight 64 x 32
// f32 chunks into one of two 128B-swizzled buffers of its own (8 KiB each,
// after the ring), fences (tma_store_fence), synchronises its 128 threads
// (named barrier 1 + warpgroup), and its first thread stores the chunk
// (copy(tma_store, sE, coord); tma_store_arrive). Before a buffer is
// rewritten that thread waits until at most one of its stores still reads
// (tma_store_wait<1>), then the warpgroup synchronises again. The TMA unit
// writes C while the warpgroup goes on to the next chunk and the next tile.
// C's rows must be a multiple of 16 bytes apart (N % 4 == 0): what a TMA map
// can describe.
struct H4 {
  static constexpr int kChunkM = 64, kChunkN = 32;  // 32 f32 = one 128-byte swizzle row
  using EpiTile = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, Shape<Int<kChunkM>, Int<kChunkN>>{}));
  static constexpr int kEpiBytes = kChunkM * kChunkN * 4;                  // one buffer
  static constexpr int kSmem = H2::kSmem + 2 /*warpgroups*/ * 2 /*buffers*/ * kEpiBytes;
};

// One 64 x 32 chunk of a consumer warpgroup's tile out through a TMA store,
// in the warpgroup's 128 threads (h4-h7 and h8_pingpong_tma): values v0 ..
// v0 + 15 of tCrC (tCcC their tile coordinates) fill the chunk whose origin
// is (cm, cn) in the tile at (m0, n0). Warpgroup wg's buffers `epi` + 2 wg,
// 2 wg + 1 alternate with `chunks`, its count of chunks stored so far. Its
// first thread (`issuer`) waits until the buffer's last store has read it
// (tma_store_wait<1>: at most the other buffer's store still reads), named
// barrier 1 + wg, the values to shared memory, tma_store_fence (the generic
// writes visible to the TMA unit), the barrier again, and the issuer starts
// the store without waiting for it.
template <class TmaC, class CoordTensor, class AccTensor>
__device__ __forceinline__ void store_chunk(TmaC const& tma_c, float* epi, int wg, bool issuer, int& chunks,
                                            CoordTensor const& tCcC, AccTensor const& tCrC, int v0, int cm, int cn,
                                            int m0, int n0) {
  Tensor sE = make_tensor(make_smem_ptr(epi + (2 * wg + (chunks & 1)) * (H4::kEpiBytes / 4)), H4::EpiTile{});
  if (chunks >= 2 && issuer) tma_store_wait<1>();  // this buffer's last store has read it
  arch::named_barrier_sync(1 + wg, 128);
#pragma unroll
  for (int v = v0; v < v0 + 16; ++v) {
    auto const e = tCcC(v);
    sE(int(get<0>(e)) - cm, int(get<1>(e)) - cn) = tCrC(v);
  }
  tma_store_fence();
  arch::named_barrier_sync(1 + wg, 128);
  if (issuer) {
    copy(tma_c, sE, make_coord(m0 + cm, n0 + cn));
    tma_store_arrive();
  }
  ++chunks;
}

template <class TmaA, class TmaB, class TmaC, int kCluster = 1, bool kPipeline = false>
__global__ void __launch_bounds__(H2::kThreads, 1)
    h4_tma_store(__grid_constant__ const TmaA tma_a, __grid_constant__ const TmaB tma_b,
                 __grid_constant__ const TmaC tma_c, int M, int N, int K, int group_m) {
#if TESSERA_SM90A_ENABLED
  extern __shared__ unsigned char smem_raw[];
  auto* base = reinterpret_cast<bfloat16_t*>(aligned_smem(smem_raw));
  auto* epi = reinterpret_cast<float*>(base + cosize(H2::SmemA{}) + cosize(H2::SmemB{}));  // 1024-aligned
  int const wg = int(threadIdx.x) / 128 - 1;  // consumer warpgroup 0 or 1 (-1: producer)
  bool const issuer = threadIdx.x % 128 == 0;
  int chunks = 0;  // chunks this warpgroup has stored so far
  auto const epilogue = [&](auto const& thr, auto const& tCrC, int m0, int n0) {
    Tensor tCcC = thr.partition_C(make_identity_tensor(make_shape(Int<H2::kBM>{}, Int<H2::kBN>{})));
    // Value v of tCrC ((2,2,32),1,1) sits in column 8 (v / 4) + (0..7): chunk v / 16.
#pragma unroll
    for (int j = 0; j < H2::kBN / H4::kChunkN; ++j)
      store_chunk(tma_c, epi, wg, issuer, chunks, tCcC, tCrC, 16 * j, H4::kChunkM * wg, H4::kChunkN * j, m0, n0);
  };
  if constexpr (kPipeline) persistent_body_pipeline<kCluster>(tma_a, tma_b, base, M, N, K, group_m, epilogue);
  else persistent_body<kCluster>(tma_a, tma_b, base, M, N, K, group_m, epilogue);
  if (wg >= 0 && issuer) tma_store_wait<0>();  // the buffers are read before the CTA's memory goes
#else
  (void)tma_a, (void)tma_b, (void)tma_c, (void)M, (void)N, (void)K;
#endif
}

// ---------------------------------------------------------------- h8 ----
// Ping-pong, seed 002's other warp-specialised schedule: each consumer
// warpgroup owns whole 128x128 tiles (H1's TiledMMA: two m64n128 blocks),
// the CTA's tiles dealt alternately to warpgroups 0 and 1. The producer
// loads the tiles' K-blocks in the CTA's order into one 6-stage ring
// (PipelineTmaAsync; each stage read, and released, by one warpgroup:
// num_consumers = 128), so warpgroup w's PipelineState skips the other's
// num_k stages after each tile. An OrderedSequenceBarrier<2, 2> makes the
// two take turns at two points: stage 0 the mainloop (one warpgroup issues
// its wgmmas while the other waits), stage 1 the epilogue; a warpgroup
// passes the mainloop turn as soon as its last batch is issued, so its
// epilogue (direct predicated stores, as h3's) runs under the other's
// mainloop. Compare with h3, the cooperative kernel with the same epilogue.
// kTmaStore: h8_pingpong_tma's configuration, the ring followed by 2 x 2
// epilogue buffers of H4's (32 KiB).
template <int kBM_, int kBN_, int kStages_, bool kTmaStore_ = false>
struct H8T {
  static constexpr int kBM = kBM_, kBN = kBN_, kStages = kStages_, kThreads = 384;
  static constexpr bool kTmaStore = kTmaStore_;
  static constexpr int kSmem =
      1024 + 2 * (kBM + kBN) * kBlockK * kStages + (kTmaStore ? 2 /*warpgroups*/ * 2 /*buffers*/ * H4::kEpiBytes : 0);
  // 256: the static shared memory (the ring's and the turns' barriers, 128 bytes).
  static_assert(kSmem + 256 <= 227 * 1024,
                "H8T: ring and epilogue buffers exceed the 227 KiB a CTA may have [fewer stages]");
  using SmemA = Ring<kBM, kStages>;
  using SmemB = Ring<kBN, kStages>;
  // One warpgroup: m64nNk16 atoms, kBM / 64 of them along M.
  __host__ __device__ static auto tiled_mma() {
    using Atom = std::conditional_t<kBN == 256, SM90_64x256x16_F32BF16BF16_SS<GMMA::Major::K>,
                                    SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>>;
    return make_tiled_mma(Atom{}, Layout<Shape<_1, _1, _1>>{}, Tile<Int<kBM>, Int<kBN>, _16>{});
  }
};
using H8 = H8T<128, 128, 6>;  // h8_pingpong: 128x128 per warpgroup, 6 stages of 32 KiB
using H8w = H8T<64, 256, 5>;  // h8_pingpong_64x256: 5 stages of 40 KiB
// NOTE: with the TMA-store epilogue's 32 KiB of buffers the 128x128 ring
// keeps its 6 stages (1 + 192 + 32 KiB = 230,400 bytes of the 232,448); the
// 64x256 ring drops from 5 stages to 4 (5 x 40 + 32 KiB would be 233 KiB).
using H8t = H8T<128, 128, 6, true>;  // h8_pingpong_tma
using H8wt = H8T<64, 256, 4, true>;  // h8_pingpong_64x256_tma

// The ping-pong body h8_pingpong and h8_pingpong_tma share: the producer,
// the two consumer warpgroups' mainloops and their turns; `epilogue(thr,
// tCrC, m0, n0)` runs in the 128 threads of the tile's warpgroup, in its
// epilogue turn, once the tile's accumulators are final. `base`: the ring
// (Cfg::SmemA, then Cfg::SmemB).
template <class Cfg, class TmaA, class TmaB, class Epilogue>
__device__ void pingpong_body(TmaA const& tma_a, TmaB const& tma_b, bfloat16_t* base, int M, int N, int K,
                              int group_m, Epilogue&& epilogue) {
  using Pipeline = PipelineTmaAsync<Cfg::kStages>;
  using Order = OrderedSequenceBarrier<2, 2>;
  Tensor sA = make_tensor(make_smem_ptr(base), typename Cfg::SmemA{});
  Tensor sB = make_tensor(make_smem_ptr(base + cosize(typename Cfg::SmemA{})), typename Cfg::SmemB{});
  __shared__ typename Pipeline::SharedStorage ring_storage;
  __shared__ typename Order::SharedStorage order_storage;
  int const wg = int(threadIdx.x) / 128 - 1;  // consumer warpgroup 0 or 1 (-1: producer)
  typename Pipeline::Params params;
  params.transaction_bytes = tma_a.box_bytes() + tma_b.box_bytes();
  params.num_consumers = 128;  // one warpgroup reads (and releases) each stage
  params.role = wg < 0 ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
  params.is_leader = threadIdx.x == 0;
  Pipeline pipeline(ring_storage, params, Shape<_1, _1, _1>{});
  Order order(order_storage, {std::uint32_t(wg < 0 ? 0 : wg), 128u});
  __syncthreads();
  TileWalk<1, Cfg::kBM, Cfg::kBN> const walk(M, N, K, group_m);

  if (wg < 0) {  // producer
    arch::setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      prefetch_tma_descriptor(tma_a.get_tma_descriptor());
      prefetch_tma_descriptor(tma_b.get_tma_descriptor());
      auto write = make_producer_start_state<Pipeline>();
      for (int u = walk.first; u < walk.units; u += walk.step) {
        int m0, n0;
        walk.origin(u, m0, n0);
        // NOTE: `unroll 1` keeps this loop as it was when h8 had the body
        // to itself (moved into a shared body, nvcc unrolled it 2x), so
        // h8's PTX is what session 26 measured but for a few address
        // computations before the loops.
#pragma unroll 1
        for (int k = 0; k < walk.num_k; ++k, ++write) {
          pipeline.producer_acquire(write);
          auto* bar = pipeline.producer_get_barrier(write);
          int const s = int(write.index());
          copy(tma_a.with(*bar), make_coord(m0, k * kBlockK), sA(_, _, s));
          copy(tma_b.with(*bar), make_coord(n0, k * kBlockK), sB(_, _, s));
          pipeline.producer_commit(write);
        }
      }
      pipeline.producer_tail(write);
    }
  } else {  // consumers: warpgroup wg takes the CTA's tiles wg, wg + 2, ...
    arch::setmaxnreg_inc<232>();
    auto mma = Cfg::tiled_mma();
    auto thr = mma.get_slice(int(threadIdx.x) % 128);
    Tensor tCrA = thr.partition_fragment_A(sA);
    Tensor tCrB = thr.partition_fragment_B(sB);
    Tensor tCrC = thr.partition_fragment_C(make_shape(Int<Cfg::kBM>{}, Int<Cfg::kBN>{}));
    std::uint32_t const skip = std::uint32_t(walk.num_k);  // the other warpgroup's K-blocks of one tile
    typename Pipeline::PipelineState read, retired;
    read.advance(wg * skip);
    retired.advance(wg * skip);
    for (int u = walk.first + wg * walk.step; u < walk.units; u += 2 * walk.step) {
      int m0, n0;
      walk.origin(u, m0, n0);
      clear(tCrC);
      order.wait();  // stage 0: this warpgroup's turn to issue its mainloop
      for (int k = 0; k < walk.num_k; ++k, ++read) {
        pipeline.consumer_wait(read);
        mma_k_block(mma, tCrA, tCrB, tCrC, int(read.index()));
        if (k > 0) {
          pipeline.consumer_release(retired);
          ++retired;
        }
      }
      order.arrive();  // every batch issued: the other warpgroup's mainloop may start
      warpgroup_wait<0>();
      warpgroup_fence_operand(tCrC);
      if (walk.num_k > 0) {
        pipeline.consumer_release(retired);
        ++retired;
      }
      read.advance(skip);
      retired.advance(skip);
      order.wait();  // stage 1: epilogues in the tiles' order
      epilogue(thr, tCrC, m0, n0);
      order.arrive();
    }
  }
}

template <class Cfg, class TmaA, class TmaB>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    h8_pingpong(__grid_constant__ const TmaA tma_a, __grid_constant__ const TmaB tma_b, float* C, int M, int N, int K,
                int group_m) {
#if TESSERA_SM90A_ENABLED
  extern __shared__ unsigned char smem_raw[];
  pingpong_body<Cfg>(tma_a, tma_b, reinterpret_cast<bfloat16_t*>(aligned_smem(smem_raw)), M, N, K, group_m,
                     [&](auto const& thr, auto const& tCrC, int m0, int n0) {
                       store_tile<std::remove_cvref_t<decltype(thr)>, std::remove_cvref_t<decltype(tCrC)>, Cfg::kBM,
                                  Cfg::kBN>(thr, tCrC, C, M, N, m0, n0);
                     });
#else
  (void)tma_a, (void)tma_b, (void)C, (void)M, (void)N, (void)K, (void)group_m;
#endif
}

// h8_pingpong_tma: h8 with h4's epilogue. The owning warpgroup writes its
// tile as 64 x 32 f32 chunks (kBM / 64 x kBN / 32 = 8 of them) through its
// two 128B-swizzled buffers (after the ring), one store_chunk each. The
// TMA unit clips the parts of chunks past M and N, so edge tiles need no
// predication; C's rows must be a multiple of 16 bytes apart (N % 4 == 0).
// The epilogue keeps its turn (OrderedSequenceBarrier stage 1), though
// correctness does not need it here: the warpgroups' tiles, buffers, named
// barriers and bulk groups (one issuing thread each) are disjoint. Kept so
// that h8 -> h8_pingpong_tma changes the epilogue's stores and nothing of
// the schedule; the turn now spans only the staging and the issue, not the
// global writes.
template <class Cfg, class TmaA, class TmaB, class TmaC>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    h8_pingpong_tma(__grid_constant__ const TmaA tma_a, __grid_constant__ const TmaB tma_b,
                    __grid_constant__ const TmaC tma_c, int M, int N, int K, int group_m) {
#if TESSERA_SM90A_ENABLED
  static_assert(Cfg::kTmaStore, "h8_pingpong_tma: the configuration has no epilogue buffers [H8T<..., true>]");
  static_assert(Cfg::kBM % H4::kChunkM == 0 && Cfg::kBN % H4::kChunkN == 0,
                "h8_pingpong_tma: the tile must be whole 64 x 32 chunks");
  constexpr int kChunksN = Cfg::kBN / H4::kChunkN;              // chunks across a 64-row block
  constexpr int kChunks = (Cfg::kBM / H4::kChunkM) * kChunksN;  // chunks per tile
  extern __shared__ unsigned char smem_raw[];
  auto* base = reinterpret_cast<bfloat16_t*>(aligned_smem(smem_raw));
  auto* epi = reinterpret_cast<float*>(base + cosize(typename Cfg::SmemA{}) + cosize(typename Cfg::SmemB{}));
  int const wg = int(threadIdx.x) / 128 - 1;  // consumer warpgroup 0 or 1 (-1: producer)
  bool const issuer = threadIdx.x % 128 == 0;
  int chunks = 0;  // chunks this warpgroup has stored so far
  auto const epilogue = [&](auto const& thr, auto const& tCrC, int m0, int n0) {
    // tCrC is ((2,2,kBN/8),kBM/64,1): value v + (kBN / 2) r sits in row
    // 64 r + (0..63) and column 8 (v / 4) + (0..7), so chunk c (64-row block
    // c / kChunksN, columns 32 (c % kChunksN) + (0..31)) is values 16 c ..
    // 16 c + 15 (checked on the host for all 128 threads, both tile shapes).
    static_assert(decltype(size(tCrC))::value == 16 * kChunks, "h8_pingpong_tma: 16 values per thread per chunk");
    Tensor tCcC = thr.partition_C(make_identity_tensor(make_shape(Int<Cfg::kBM>{}, Int<Cfg::kBN>{})));
#pragma unroll
    for (int c = 0; c < kChunks; ++c)  // chunk c's origin: (64 (c / kChunksN), 32 (c % kChunksN))
      store_chunk(tma_c, epi, wg, issuer, chunks, tCcC, tCrC, 16 * c, H4::kChunkM * (c / kChunksN),
                  H4::kChunkN * (c % kChunksN), m0, n0);
  };
  pingpong_body<Cfg>(tma_a, tma_b, base, M, N, K, group_m, epilogue);
  if (wg >= 0 && issuer) tma_store_wait<0>();  // the buffers are read before the CTA's memory goes
#else
  (void)tma_a, (void)tma_b, (void)tma_c, (void)M, (void)N, (void)K, (void)group_m;
#endif
}

}  // namespace hopper_cute
