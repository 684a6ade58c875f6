// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// CuTe's TMA names (tessera/tma/tma_copy.hpp) with the GMMA atoms: seed
// 002's complete Hopper GEMM (hopper_gemm_complete.cu) written against
// `using namespace tessera;` — make_tma_copy(SM90_TMA_LOAD{}, ...) on the
// host, copy(tma.with(mbar), coord, sA(_,_,s)) from one thread, a 3-stage
// mbarrier pipeline, one warpgroup running a TiledMMA of
// SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K> over 128x128x64 tiles, and
// copy(tCrC, tCgC). One change from the seed: the next tile's TMA is issued
// after warpgroup_wait<1>, once the wgmma batch that read that stage has
// finished (the seed issues it first, racing the previous batch). The same
// GEMM with its loads in CuTe's tutorial form (tma_partition) and its older
// form (get_slice(0).partition_S/D). Then the multicast forms on a 2-CTA
// cluster (CTA 0 multicasts the shared A tile, or each CTA multicasts its
// slice of it as CUTLASS does, through tma_partition or get_slice),
// multicast slices of K- and M-major boxes in clusters of 2 and 4, TMA
// stores and reduce-adds (copy(tma_store, sD, coord) and the partitioned
// form, tma_store_arrive, tma_store_wait), make_tma_copy's refusals, and
// copy()'s device-side checks (traps, each in a child process). The
// several-box tiles are prefetched into L2 (prefetch(tma, ...)) before
// their loads, in both forms. Random
// inputs, poisoned C, fp64 reference. Skips unless the device is sm_90.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::upload;

constexpr int BLK_M = 128, BLK_N = 128, BLK_K = 64, Stages = 3;
using SmemLayoutAtom = GMMA::Layout_K_SW128_Atom<bfloat16_t>;
using SmemTile = decltype(tile_to_shape(SmemLayoutAtom{}, Shape<Int<BLK_M>, Int<BLK_K>>{}));          // one box
using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtom{}, Shape<Int<BLK_M>, Int<BLK_K>, Int<Stages>>{}));
using SmemLayoutB = decltype(tile_to_shape(SmemLayoutAtom{}, Shape<Int<BLK_N>, Int<BLK_K>, Int<Stages>>{}));
constexpr int kSmemBytes = 1024 + int(sizeof(bfloat16_t)) * (BLK_M + BLK_N) * BLK_K * Stages;

// The first 1024-byte boundary in dynamic shared memory (the 128B
// swizzle's period; dynamic shared memory is only 16-byte aligned by contract).
__device__ inline unsigned char* aligned_1024(unsigned char* raw) {
  return raw + ((1024u - (cast_smem_ptr_to_uint(raw) & 1023u)) & 1023u);
}

// Poisons a (B0,B1) shared tile (a load that writes nothing must not pass),
// makes the writes visible to the TMA unit, and has thread 0 initialise the
// tile's mbarrier for one arrival. The caller synchronises (CTA or cluster).
template <class STensor>
__device__ void poison_tile_and_init(STensor& sX, std::uint64_t& mbar) {
  using T = typename STensor::value_type;
  constexpr int B0 = int(decltype(size<0>(sX))::value), B1 = int(decltype(size<1>(sX))::value);
  for (int i = int(threadIdx.x); i < B0 * B1; i += int(blockDim.x)) sX(i % B0, i / B0) = T(-7.0f);
  arch::fence_proxy_async_shared_cta();
  if (threadIdx.x == 0) {
    mbarrier_init(&mbar, 1);
    arch::fence_mbarrier_init();
  }
}

__host__ __device__ auto seed_tiled_mma() {
  // One warpgroup; the atom repeats twice along M through the permutation.
  return make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>{}, Layout<Shape<_1, _1, _1>>{},
                        Tile<Int<BLK_M>, Int<BLK_N>, _16>{});
}

// How a test kernel names its TMA loads.
enum class Form : int {
  coordinate,  // the seed's: copy(tma.with(mbar), make_coord(m0, k0), sA(_, _, s))
  partition,   // CuTe's Hopper tutorial: tma_partition, copy(tma.with(mbar), tAgA(_, k), tAsA(_, s))
  get_slice,   // CuTe's older form: tma.get_slice(t).partition_S(gA) / partition_D(sA)
};

// C (M,N) row-major f32 = A (M,K) row-major * B (N,K) row-major ^T, the
// loads in form kForm.
template <class TmaA, class TmaB, Form kForm = Form::coordinate>
__global__ void __launch_bounds__(128, 1)
    hopper_gemm_kernel(__grid_constant__ const TmaA tma_load_A, __grid_constant__ const TmaB tma_load_B, float* C_ptr,
                       int M, int N, int K) {
  extern __shared__ unsigned char smem_raw[];
  auto* base = aligned_1024(smem_raw);
  auto* smem_A = reinterpret_cast<bfloat16_t*>(base);
  auto* smem_B = smem_A + BLK_M * BLK_K * Stages;
  Tensor sA = make_tensor(make_smem_ptr(smem_A), SmemLayoutA{});  // (BLK_M,BLK_K,Stages)
  Tensor sB = make_tensor(make_smem_ptr(smem_B), SmemLayoutB{});  // (BLK_N,BLK_K,Stages)

  __shared__ __align__(8) std::uint64_t mbar[Stages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) mbarrier_init(&mbar[s], 1);
    arch::fence_mbarrier_init();
  }
  __syncthreads();

  auto tiled_mma = seed_tiled_mma();
  auto thr_mma = tiled_mma.get_slice(threadIdx.x);
  Tensor tCrA = thr_mma.partition_fragment_A(sA);  // (_1,MMA_M,MMA_K,Stages) descriptors
  Tensor tCrB = thr_mma.partition_fragment_B(sB);  // (_1,MMA_N,MMA_K,Stages)
  Tensor tCrC = thr_mma.partition_fragment_C(make_layout(Shape<Int<BLK_M>, Int<BLK_N>>{}));
  clear(tCrC);

  int const m0 = blockIdx.x * BLK_M;
  int const n0 = blockIdx.y * BLK_N;
  int const num_k = (K + BLK_K - 1) / BLK_K;  // the last box reads zeros past K
  std::uint32_t const stage_bytes = tma_load_A.box_bytes() + tma_load_B.box_bytes();

  // CuTe's form: coordinate tensors tiled like the data, one box per mode-0 slice.
  Tensor mA = tma_load_A.get_tma_tensor(make_shape(M, K));  // (M,K) -> (m,k)
  Tensor mB = tma_load_B.get_tma_tensor(make_shape(N, K));  // (N,K) -> (n,k)
  auto cta_tiler = make_shape(Int<BLK_M>{}, Int<BLK_N>{}, Int<BLK_K>{});
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
  auto [tAgA, tAsA] = tma_partition(tma_load_A, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sA), group_modes<0, 2>(gA));
  auto [tBgB, tBsB] = tma_partition(tma_load_B, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sB), group_modes<0, 2>(gB));
  // The older form: ((TMA),_1,_1,k) and ((TMA),_1,_1,PIPE).
  auto cta_tma_A = tma_load_A.get_slice(Int<0>{});
  auto cta_tma_B = tma_load_B.get_slice(Int<0>{});
  Tensor sAgA = cta_tma_A.partition_S(gA);
  Tensor sAsA = cta_tma_A.partition_D(sA);
  Tensor sBgB = cta_tma_B.partition_S(gB);
  Tensor sBsB = cta_tma_B.partition_D(sB);
  static_assert(decltype(rank(sAgA))::value == 4 && decltype(size<1>(sAgA))::value == 1 &&
                    decltype(size<0>(sAsA))::value == BLK_M * BLK_K,
                "get_slice(0).partition_S/D: ((TMA),_1,_1,rest)");
  // K-block k into stage s, from thread 0.
  auto load = [&](int k, int s, bool prologue) {
    mbarrier_arrive_expect_tx(&mbar[s], stage_bytes);
    if constexpr (kForm == Form::partition) {
      copy(tma_load_A.with(mbar[s]), tAgA(_, k), tAsA(_, s));
      copy(tma_load_B.with(mbar[s]), tBgB(_, k), tBsB(_, s));
    } else if constexpr (kForm == Form::get_slice) {
      copy(tma_load_A.with(mbar[s]), sAgA(_, _, _, k), sAsA(_, _, _, s));
      copy(tma_load_B.with(mbar[s]), sBgB(_, _, _, k), sBsB(_, _, _, s));
    } else {
      // The prologue's A boxes in the seed's four-argument form (barrier
      // last), everything else with .with(mbar): the same copy.
      if (prologue) copy(tma_load_A, make_coord(m0, k * BLK_K), sA(_, _, s), &mbar[s]);
      else copy(tma_load_A.with(mbar[s]), make_coord(m0, k * BLK_K), sA(_, _, s));
      copy(tma_load_B.with(mbar[s]), make_coord(n0, k * BLK_K), sB(_, _, s));
    }
  };

  for (int s = 0; s < Stages - 1 && s < num_k; ++s) {
    if (threadIdx.x == 0) load(s, s, true);
  }
  for (int k = 0; k < num_k; ++k) {
    int const cur = k % Stages;
    mbarrier_wait(&mbar[cur], (k / Stages) & 1);
    warpgroup_fence_operand(tCrC);
    warpgroup_arrive();
    for (int kb = 0; kb < int(size<2>(tCrA)); ++kb) gemm(tiled_mma, tCrA(_, _, kb, cur), tCrB(_, _, kb, cur), tCrC);
    warpgroup_commit_batch();
    warpgroup_wait<1>();  // batch k-1 is done: its stage, (k + Stages - 1) % Stages, may be refilled
    warpgroup_fence_operand(tCrC);
    int const prefetch = k + Stages - 1;
    if (prefetch < num_k && threadIdx.x == 0) load(prefetch, prefetch % Stages, false);
  }
  warpgroup_wait<0>();
  warpgroup_fence_operand(tCrC);

  Tensor gC = make_tensor(make_gmem_ptr(C_ptr + std::size_t(m0) * N + n0),
                          make_layout(Shape<Int<BLK_M>, Int<BLK_N>>{}, make_stride(N, _1{})));
  Tensor tCgC = thr_mma.partition_C(gC);
  copy(tCrC, tCgC);
  (void)M;
}

// A 2-CTA cluster computes C tiles (m, n0) and (m, n0 + 128). The shared A
// box reaches both CTAs either from CTA 0, which multicasts the whole box
// (seed 002, kForm coordinate), or as CUTLASS's mainloops load it: each CTA
// multicasts its half (tma_partition with Layout<_2>, or get_slice(rank)).
// Each CTA loads its own B box. One stage, the cluster synchronised around
// each k-tile (the receivers' A buffer is free once every CTA has finished
// reading it).
template <class TmaA, class TmaB, Form kForm>
__global__ void __launch_bounds__(128, 1)
    multicast_gemm_kernel(__grid_constant__ const TmaA tma_load_A, __grid_constant__ const TmaB tma_load_B,
                          float* C_ptr, int N, int K) {
  extern __shared__ unsigned char smem_raw[];
  auto* base = aligned_1024(smem_raw);
  Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<bfloat16_t*>(base)), SmemTile{});
  Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<bfloat16_t*>(base) + BLK_M * BLK_K), SmemTile{});
  __shared__ __align__(8) std::uint64_t mbar;
  std::uint32_t const rank = block_rank_in_cluster();
  if (threadIdx.x == 0) {
    mbarrier_init(&mbar, 1);
    arch::fence_mbarrier_init();
  }
  if (threadIdx.x == 0) {  // the issuing thread warms the TMA unit's map cache (a hint)
    if (rank == 0) prefetch_tma_descriptor(tma_load_A.get_tma_descriptor());
    prefetch_tma_descriptor(tma_load_B.get_tma_descriptor());
  }
  cluster_sync();  // every barrier initialised before any multicast lands

  auto tiled_mma = seed_tiled_mma();
  auto thr_mma = tiled_mma.get_slice(threadIdx.x);
  Tensor tCrA = thr_mma.partition_fragment_A(sA);
  Tensor tCrB = thr_mma.partition_fragment_B(sB);
  Tensor tCrC = thr_mma.partition_fragment_C(make_shape(Int<BLK_M>{}, Int<BLK_N>{}));
  clear(tCrC);
  int const m0 = (blockIdx.x / 2) * BLK_M;
  int const n0 = blockIdx.y * 2 * BLK_N + int(rank) * BLK_N;
  int const num_k = (K + BLK_K - 1) / BLK_K;
  // This CTA's half of every A box: ((TMA/2),k) and ((TMA/2)).
  Tensor gA = local_tile(tma_load_A.get_tma_tensor(make_shape(int(gridDim.x / 2) * BLK_M, K)),
                         make_shape(Int<BLK_M>{}, Int<BLK_K>{}), make_coord(int(blockIdx.x / 2), _));  // (BLK_M,BLK_K,k)
  auto [tAgA, tAsA] = tma_partition(tma_load_A, rank, Layout<_2>{}, group_modes<0, 2>(sA), group_modes<0, 2>(gA));
  auto cta_tma_A = tma_load_A.get_slice(int(rank));
  Tensor sAgA = cta_tma_A.partition_S(gA);  // ((TMA/2),_1,_1,k)
  Tensor sAsA = cta_tma_A.partition_D(sA);  // ((TMA/2),_1,_1)
  for (int k = 0; k < num_k; ++k) {
    if (threadIdx.x == 0) {
      mbarrier_arrive_expect_tx(&mbar, tma_load_A.box_bytes() + tma_load_B.box_bytes());  // both halves of A arrive
      if constexpr (kForm == Form::coordinate) {
        if (rank == 0) copy(tma_load_A.with(mbar, std::uint16_t(0b11)), make_coord(m0, k * BLK_K), sA);
      } else if constexpr (kForm == Form::partition) {
        copy(tma_load_A.with(mbar, std::uint16_t(0b11)), tAgA(_, k), tAsA);
      } else {
        copy(tma_load_A.with(mbar, std::uint16_t(0b11)), sAgA(_, _, _, k), sAsA);
      }
      copy(tma_load_B.with(mbar), make_coord(n0, k * BLK_K), sB);
    }
    mbarrier_wait(&mbar, k & 1);
    warpgroup_fence_operand(tCrC);
    warpgroup_arrive();
    gemm(tiled_mma, tCrA, tCrB, tCrC);
    warpgroup_commit_batch();
    warpgroup_wait<0>();
    warpgroup_fence_operand(tCrC);
    cluster_sync();  // both CTAs are done with sA before the next multicast
  }
  Tensor gC = make_tensor(make_gmem_ptr(C_ptr + std::size_t(m0) * N + n0),
                          make_layout(Shape<Int<BLK_M>, Int<BLK_N>>{}, make_stride(N, _1{})));
  copy(tCrC, thr_mma.partition_C(gC));
}

struct Problem {
  int M, N, K;
  std::vector<bfloat16_t> a, b;
};

Problem make_problem(int M, int N, int K) {
  return {M, N, K, fresh_random<bfloat16_t>(std::size_t(M) * K), fresh_random<bfloat16_t>(std::size_t(N) * K)};
}

double rel_error(Problem const& p, std::vector<float> const& c) {
  double err2 = 0, ref2 = 0;
  for (int m = 0; m < p.M; ++m)
    for (int n = 0; n < p.N; ++n) {
      double ref = 0;
      for (int k = 0; k < p.K; ++k)
        ref += double(float(p.a[std::size_t(m) * p.K + k])) * double(float(p.b[std::size_t(n) * p.K + k]));
      double const got = c[std::size_t(m) * p.N + n];
      err2 += (got - ref) * (got - ref);
      ref2 += ref * ref;
    }
  return std::sqrt(err2 / ref2);
}

// C from the device (poisoned before the launch) against the fp64 reference.
void expect_matches_reference(Problem const& p, DevBuf const& dc) {
  std::vector<float> c(std::size_t(p.M) * p.N);
  TESSERA_TEST_CUDA(cudaMemcpy(c.data(), dc.p, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double const rel = rel_error(p, c);
  EXPECT_TRUE(std::isfinite(rel)) << "poison left in C";
  EXPECT_LE(rel, 1e-5);
}

template <class Op>
auto make_operand_copy(Op op, bfloat16_t const* p, int rows, int K) {
  return make_tma_copy(op, make_tensor(make_gmem_ptr(p), make_layout(make_shape(rows, K), make_stride(K, _1{}))),
                       SmemTile{}, make_shape(Int<BLK_M>{}, Int<BLK_K>{}),
                       Int<std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST> ? 2 : 1>{});
}
// The same through CuTe's make_tma_atom; its map must be make_tma_copy's.
template <class Op>
auto make_operand_atom(Op op, bfloat16_t const* p, int rows, int K) {
  auto atom = make_tma_atom(op, make_tensor(make_gmem_ptr(p), make_layout(make_shape(rows, K), make_stride(K, _1{}))),
                            SmemTile{}, make_shape(Int<BLK_M>{}, Int<BLK_K>{}), Int<1>{});
  auto copy = make_operand_copy(op, p, rows, K);
  EXPECT_TRUE(atom.ok() && copy.ok());
  EXPECT_EQ(0, std::memcmp(atom.get_tma_descriptor(), copy.get_tma_descriptor(), sizeof(CUtensorMap)))
      << "make_tma_atom and make_tma_copy encode different tensor maps";
  return atom;
}

// Seed 002's GEMM on an M x N x K problem (M, N multiples of the tile),
// the loads in form kForm (made by make_tma_atom when kAtom).
template <Form kForm, bool kAtom = false>
void run_seed_gemm(int M, int N, int K) {
  Problem const p = make_problem(M, N, K);
  DevBuf da, db, dc;
  ASSERT_NO_FATAL_FAILURE(upload(da, p.a));
  ASSERT_NO_FATAL_FAILURE(upload(db, p.b));
  std::size_t const c_bytes = std::size_t(p.M) * p.N * sizeof(float);
  TESSERA_TEST_CUDA(cudaMalloc(&dc.p, c_bytes));
  TESSERA_TEST_CUDA(cudaMemset(dc.p, 0xFF, c_bytes));  // poison: NaN
  auto make = [&](bfloat16_t const* ptr, int rows) {
    if constexpr (kAtom) return make_operand_atom(SM90_TMA_LOAD{}, ptr, rows, p.K);
    else return make_operand_copy(SM90_TMA_LOAD{}, ptr, rows, p.K);
  };
  auto tma_load_A = make(da.as<bfloat16_t>(), p.M);
  auto tma_load_B = make(db.as<bfloat16_t>(), p.N);
  ASSERT_TRUE(tma_load_A.ok()) << tma_load_A.error();
  ASSERT_TRUE(tma_load_B.ok()) << tma_load_B.error();
  EXPECT_EQ(tma_load_A.box_bytes(), std::uint32_t(BLK_M * BLK_K * 2));
  auto kernel = hopper_gemm_kernel<decltype(tma_load_A), decltype(tma_load_B), kForm>;
  TESSERA_TEST_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  kernel<<<dim3(p.M / BLK_M, p.N / BLK_N), 128, kSmemBytes>>>(tma_load_A, tma_load_B, dc.as<float>(), p.M, p.N, p.K);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  expect_matches_reference(p, dc);
}

TEST(TmaCopy, SeedHopperGemm) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_seed_gemm<Form::coordinate>(256, 384, 1000);  // K: 15 full boxes and a partial one
}

// The same GEMM with the loads in CuTe's partitioned form (get_tma_tensor,
// local_tile, tma_partition, copy(tma.with(mbar), tAgA(_, k), tAsA(_, s))).
TEST(TmaCopy, PartitionedFormAsCuteTutorial) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_seed_gemm<Form::partition>(384, 256, 1000);
}

// ... with the copies made by make_tma_atom, as CuTe's newer tutorial does.
TEST(TmaCopy, MakeTmaAtomPartitionedForm) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_seed_gemm<Form::partition, true>(256, 384, 808);
}

// ... and in CuTe's older form (tma.get_slice(0).partition_S(gA) /
// partition_D(sA), copy(tma.with(mbar), tAgA(_, _, _, k), tAsA(_, _, _, s))).
TEST(TmaCopy, GetSliceFormAsOlderCute) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_seed_gemm<Form::get_slice>(256, 256, 712);  // 11 full boxes of K and a partial one
}

// Launches `kernel` (128 threads a CTA, `smem` bytes of dynamic shared
// memory) on `grid` CTAs in clusters of `cluster` along x.
template <class... Params, class... Args>
cudaError_t launch_in_clusters(void (*kernel)(Params...), dim3 grid, unsigned cluster, int smem, Args&&... args) {
  if (cudaError_t const e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      e != cudaSuccess)
    return e;
  arch::ClusterLaunch l;
  l.grid = grid;
  l.block = dim3(128);
  l.cluster = dim3(cluster, 1, 1);
  l.smem = std::size_t(smem);
  return arch::launch_cluster(kernel, l, std::forward<Args>(args)...);
}

// Checks the (B0,B1) boxes a kernel copied out of shared memory: entry k of
// `out` (B0 * B1 elements, column by column) holds box k / copies of the
// rows x cols tensor `g_layout` over `x` (boxes numbered M-fastest), zeros
// past the tensor's edges. Reports the first mismatches; returns their count.
template <class T, class GLayout>
long long count_wrong_boxes(std::vector<T> const& out, std::vector<T> const& x, GLayout const& g_layout, int B0,
                            int B1, int copies) {
  int const rows = int(size<0>(g_layout)), cols = int(size<1>(g_layout));
  int const boxes_m = (rows + B0 - 1) / B0;
  long long wrong = 0;
  for (std::size_t k = 0; k < out.size() / std::size_t(B0 * B1); ++k) {
    int const box = int(k) / copies, bm = box % boxes_m, bn = box / boxes_m;
    for (int i = 0; i < B0 * B1; ++i) {
      int const r = bm * B0 + i % B0, c = bn * B1 + i / B0;
      T const want = r < rows && c < cols ? x[std::size_t(g_layout(r, c))] : T(0.0f);
      T const got = out[k * std::size_t(B0 * B1) + std::size_t(i)];
      if (std::memcmp(&want, &got, sizeof(T)) != 0 && ++wrong <= 3)
        ADD_FAILURE() << "copy " << k << " (box " << box << ") element (" << i % B0 << "," << i / B0 << "): got "
                      << float(got) << ", expected " << float(want);
    }
  }
  return wrong;
}

template <Form kForm>
void run_multicast_gemm() {
  Problem const p = make_problem(256, 512, 320);
  DevBuf da, db, dc;
  ASSERT_NO_FATAL_FAILURE(upload(da, p.a));
  ASSERT_NO_FATAL_FAILURE(upload(db, p.b));
  std::size_t const c_bytes = std::size_t(p.M) * p.N * sizeof(float);
  TESSERA_TEST_CUDA(cudaMalloc(&dc.p, c_bytes));
  TESSERA_TEST_CUDA(cudaMemset(dc.p, 0xFF, c_bytes));
  auto tma_load_A = make_operand_copy(SM90_TMA_LOAD_MULTICAST{}, da.as<bfloat16_t>(), p.M, p.K);
  auto tma_load_B = make_operand_copy(SM90_TMA_LOAD{}, db.as<bfloat16_t>(), p.N, p.K);
  ASSERT_TRUE(tma_load_A.ok()) << tma_load_A.error();
  ASSERT_TRUE(tma_load_B.ok()) << tma_load_B.error();
  EXPECT_EQ(tma_load_A.multicast(), 2);
  static_assert(decltype(tma_load_A)::slices() == 2, "Int<2> multicast: the box also loads in 2 slices");
  ASSERT_TRUE(tma_load_A.slices_ok()) << tma_load_A.slice_error();
  auto kernel = multicast_gemm_kernel<decltype(tma_load_A), decltype(tma_load_B), kForm>;
  TESSERA_TEST_CUDA(launch_in_clusters(kernel, dim3(2 * (p.M / BLK_M), p.N / (2 * BLK_N)), 2,
                                       1024 + 2 * BLK_M * BLK_K * 2, tma_load_A, tma_load_B, dc.as<float>(), p.N, p.K));
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  expect_matches_reference(p, dc);
}

TEST(TmaCopy, MulticastAcrossTwoCtas) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_multicast_gemm<Form::coordinate>();
}

// Each CTA of the pair multicasts its half of the A box (CUTLASS's form):
// tma_partition with a cluster layout of 2, and get_slice(rank).
TEST(TmaCopy, MulticastSlicesAsCutlass) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  {
    SCOPED_TRACE("tma_partition(tma, rank, Layout<_2>{}, ...)");
    run_multicast_gemm<Form::partition>();
  }
  {
    SCOPED_TRACE("tma.get_slice(rank).partition_S / partition_D");
    run_multicast_gemm<Form::get_slice>();
  }
}

// Every CTA of a cluster of N loads its slice of one box and multicasts it
// to all N; each CTA then copies the whole box it received out through the
// box's layout. Cluster c loads box c of the tensor (edge boxes included,
// whose elements past the edge read 0).
template <class Tma, class Box, int N, Form kForm>
__global__ void __launch_bounds__(128, 1)
    slice_round_trip_kernel(__grid_constant__ const Tma tma, int rows, int cols, int boxes_m, bfloat16_t* out) {
  extern __shared__ unsigned char smem_raw[];
  auto* base = aligned_1024(smem_raw);
  Tensor sX = make_tensor(make_smem_ptr(reinterpret_cast<bfloat16_t*>(base)), Box{});
  constexpr int B0 = int(decltype(size<0>(Box{}))::value), B1 = int(decltype(size<1>(Box{}))::value);
  __shared__ __align__(8) std::uint64_t mbar;
  std::uint32_t const rank = block_rank_in_cluster();
  poison_tile_and_init(sX, mbar);
  cluster_sync();
  int const box = int(blockIdx.x) / N;
  Tensor gX = local_tile(tma.get_tma_tensor(make_shape(rows, cols)), make_shape(Int<B0>{}, Int<B1>{}),
                         make_coord(box % boxes_m, box / boxes_m));  // (B0,B1)
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(&mbar, tma.box_bytes());
    std::uint16_t const all = std::uint16_t((1u << N) - 1);
    if constexpr (kForm == Form::partition) {
      auto [tXgX, tXsX] = tma_partition(tma, rank, Layout<Int<N>>{}, group_modes<0, 2>(sX), group_modes<0, 2>(gX));
      copy(tma.with(mbar, all), tXgX, tXsX);
    } else {
      auto cta_tma = tma.get_slice(int(rank));
      copy(tma.with(mbar, all), cta_tma.partition_S(gX), cta_tma.partition_D(sX));
    }
  }
  mbarrier_wait(&mbar, 0);
  bfloat16_t* o = out + std::size_t(blockIdx.x) * B0 * B1;
  for (int i = int(threadIdx.x); i < B0 * B1; i += int(blockDim.x)) o[i] = sX(i % B0, i / B0);
  cluster_sync();  // no CTA leaves while a peer's multicast may still target it
}

// Runs slice_round_trip_kernel over a rows x cols bf16 tensor `g_layout`
// (row- or column-major) with boxes `Box`; "" when every CTA of every
// cluster holds its box exactly.
template <class Box, int N, Form kForm, class GLayout>
void slice_round_trip(GLayout const& g_layout, std::size_t span) {
  int const rows = int(size<0>(g_layout)), cols = int(size<1>(g_layout));
  constexpr int B0 = int(decltype(size<0>(Box{}))::value), B1 = int(decltype(size<1>(Box{}))::value);
  std::vector<bfloat16_t> const x = fresh_random<bfloat16_t>(span);
  DevBuf dx, dout;
  ASSERT_NO_FATAL_FAILURE(upload(dx, x));
  auto tma = make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, make_tensor(make_gmem_ptr(dx.as<bfloat16_t>()), g_layout), Box{},
                           make_shape(Int<B0>{}, Int<B1>{}), Int<N>{});
  ASSERT_TRUE(tma.ok()) << tma.error();
  static_assert(decltype(tma)::slices() == N);
  ASSERT_TRUE(tma.slices_ok()) << tma.slice_error();
  int const boxes_m = (rows + B0 - 1) / B0, boxes = boxes_m * ((cols + B1 - 1) / B1);
  std::size_t const out_elems = std::size_t(boxes) * N * B0 * B1;
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, out_elems * sizeof(bfloat16_t)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, out_elems * sizeof(bfloat16_t)));
  TESSERA_TEST_CUDA(launch_in_clusters(slice_round_trip_kernel<decltype(tma), Box, N, kForm>,
                                       dim3(unsigned(boxes * N)), N, 1024 + B0 * B1 * 2, tma, rows, cols, boxes_m,
                                       dout.as<bfloat16_t>()));
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<bfloat16_t> out(out_elems);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), dout.p, out_elems * sizeof(bfloat16_t), cudaMemcpyDeviceToHost));
  EXPECT_EQ(count_wrong_boxes(out, x, g_layout, B0, B1, N), 0);  // every CTA of a cluster: its cluster's box
}

// K-major boxes cut along M (rows), M-major ones along K, in clusters of 2
// and 4, through tma_partition and get_slice.
TEST(TmaCopy, MulticastSlicesRebuildTheBox) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  using KBox = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
  using MBox = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<bfloat16_t>{}, Shape<_64, _64>{}));  // 64 M = one 128-byte swizzle row
  using KBox64B = decltype(tile_to_shape(GMMA::Layout_K_SW64_Atom<bfloat16_t>{}, Shape<_64, _32>{}));
  static_assert(tma_slice_mode_v<KBox, 2> == 0 && tma_slice_mode_v<MBox, 4> == 1);
  auto row_major = make_layout(make_shape(300, 200), make_stride(208, _1{}));   // edge boxes in both modes
  auto col_major = make_layout(make_shape(300, 200), make_stride(_1{}, 304));
  std::size_t const span = 300 * 208 + 304 * 200;
  {
    SCOPED_TRACE("K-major, 2 slices, tma_partition");
    slice_round_trip<KBox, 2, Form::partition>(row_major, span);
  }
  {
    SCOPED_TRACE("K-major, 4 slices, get_slice");
    slice_round_trip<KBox, 4, Form::get_slice>(row_major, span);
  }
  {
    SCOPED_TRACE("M-major, 2 slices, get_slice");
    slice_round_trip<MBox, 2, Form::get_slice>(col_major, span);
  }
  {
    SCOPED_TRACE("M-major, 4 slices, tma_partition");
    slice_round_trip<MBox, 4, Form::partition>(col_major, span);
  }
  {
    SCOPED_TRACE("K-major 64B swizzle, 2 slices, tma_partition");
    slice_round_trip<KBox64B, 2, Form::partition>(row_major, span);
  }
  {
    // A tile of two boxes (rows of 256 bytes) in two slices of one box each.
    using KWide = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _128>{}));
    static_assert(tma_boxes_v<KWide, bfloat16_t> == 2);
    SCOPED_TRACE("K-major 128x128 (two boxes), 2 slices, get_slice");
    slice_round_trip<KWide, 2, Form::get_slice>(row_major, span);
  }
  {
    // An M-major tile with its atoms stacked along M first: a grid of 16
    // boxes of 64x8, cut along K into slices of 8 and of 4 boxes.
    using MFirst = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
    static_assert(tma_boxes_v<MFirst, bfloat16_t> == 16 && tma_slice_mode_v<MFirst, 2> == 1);
    static_assert(detail::tma_slices_of_whole_boxes<MFirst, bfloat16_t, 4>());
    SCOPED_TRACE("M-major, atoms along M first (16 boxes), 2 slices, tma_partition");
    slice_round_trip<MFirst, 2, Form::partition>(col_major, span);
    SCOPED_TRACE("M-major, atoms along M first (16 boxes), 4 slices, get_slice");
    slice_round_trip<MFirst, 4, Form::get_slice>(col_major, span);
  }
}

// Tiles of several TMA boxes (tma_boxes_v): a K-major 128x128 bf16 tile of
// 128-byte swizzle rows is 2 boxes of 128x64; CUTLASS's M-major 128x64 tile
// (atoms stacked along K first) is 2 boxes of 64x64; a K-major 128x64 f32
// tile is 2 boxes of 128x32. Each CTA loads tile blockIdx.x with one copy
// (kPartitioned: in CuTe's tma_partition form) and copies it out through
// the tile's layout; with `store`, it then stores the tile back with one
// TMA store to `dst` (a tensor of the same shape, another leading
// dimension).
template <class Tma, class StoreTma, class Tile, bool kPartitioned>
__global__ void __launch_bounds__(128, 1)
    multi_box_kernel(__grid_constant__ const Tma tma, __grid_constant__ const StoreTma store, int rows, int cols,
                     int tiles_m, typename Tma::value_type* out, int do_store) {
  using T = typename Tma::value_type;
  extern __shared__ unsigned char smem_raw[];
  auto* base = aligned_1024(smem_raw);
  Tensor sX = make_tensor(make_smem_ptr(reinterpret_cast<T*>(base)), Tile{});
  constexpr int B0 = int(decltype(size<0>(Tile{}))::value), B1 = int(decltype(size<1>(Tile{}))::value);
  __shared__ __align__(8) std::uint64_t mbar;
  poison_tile_and_init(sX, mbar);
  __syncthreads();
  int const bm = int(blockIdx.x) % tiles_m, bn = int(blockIdx.x) / tiles_m;
  Tensor gX = local_tile(tma.get_tma_tensor(make_shape(rows, cols)), make_shape(Int<B0>{}, Int<B1>{}),
                         make_coord(bm, bn));  // (B0,B1)
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(&mbar, tma.box_bytes());  // the whole tile
    if constexpr (kPartitioned) {
      auto [tXgX, tXsX] = tma_partition(tma, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sX), group_modes<0, 2>(gX));
      prefetch(tma, tXgX);  // the tile into L2 first: a hint, the loaded data must not change
      copy(tma.with(mbar), tXgX, tXsX);
    } else {
      prefetch(tma, make_coord(bm * B0, bn * B1));
      copy(tma.with(mbar), make_coord(bm * B0, bn * B1), sX);
    }
  }
  mbarrier_wait(&mbar, 0);
  T* o = out + std::size_t(blockIdx.x) * B0 * B1;
  for (int i = int(threadIdx.x); i < B0 * B1; i += int(blockDim.x)) o[i] = sX(i % B0, i / B0);
  if (do_store) {
    __syncthreads();
    if (threadIdx.x == 0) {
      copy(store, sX, make_coord(bm * B0, bn * B1));
      tma_store_arrive();
      tma_store_wait<0>();
    }
  }
}

// Loads every tile of a rows x cols tensor `g_layout` (and with `d_layout`
// stores it to a second tensor) through multi_box_kernel and checks every
// element: loaded tiles bit-exact with zeros past the edges; the stored
// tensor bit-exact, its padding untouched.
template <class T, class Tile, bool kPartitioned, class GLayout, class DLayout>
void multi_box_round_trip(GLayout const& g_layout, std::size_t span, DLayout const& d_layout, std::size_t dspan,
                          int expect_boxes) {
  static_assert(tma_boxes_v<Tile, T> > 1, "the case must be a tile of several boxes");
  EXPECT_EQ((tma_boxes_v<Tile, T>), expect_boxes);
  int const rows = int(size<0>(g_layout)), cols = int(size<1>(g_layout));
  constexpr int B0 = int(decltype(size<0>(Tile{}))::value), B1 = int(decltype(size<1>(Tile{}))::value);
  std::vector<T> const x = fresh_random<T>(span);
  std::vector<T> poison(dspan);
  std::memset(static_cast<void*>(poison.data()), 0xFF, dspan * sizeof(T));
  DevBuf dx, dd, dout;
  ASSERT_NO_FATAL_FAILURE(upload(dx, x));
  ASSERT_NO_FATAL_FAILURE(upload(dd, poison));
  auto tma = make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr(dx.as<T>()), g_layout), Tile{},
                           make_shape(Int<B0>{}, Int<B1>{}));
  ASSERT_TRUE(tma.ok()) << tma.error();
  EXPECT_EQ(tma.box_bytes(), std::uint32_t(B0 * B1 * sizeof(T)));
  // CuTe's short form: the CTA tile defaults to the tile's shape.
  auto store = make_tma_copy(SM90_TMA_STORE{}, make_tensor(make_gmem_ptr(dd.as<T>()), d_layout), Tile{});
  ASSERT_TRUE(store.ok()) << store.error();
  int const tiles_m = (rows + B0 - 1) / B0, tiles = tiles_m * ((cols + B1 - 1) / B1);
  std::size_t const out_elems = std::size_t(tiles) * B0 * B1;
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, out_elems * sizeof(T)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, out_elems * sizeof(T)));
  auto kernel = multi_box_kernel<decltype(tma), decltype(store), Tile, kPartitioned>;
  int const smem = 1024 + B0 * B1 * int(sizeof(T));
  TESSERA_TEST_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  kernel<<<tiles, 128, smem>>>(tma, store, rows, cols, tiles_m, dout.as<T>(), 1);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<T> out(out_elems), got(dspan);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), dout.p, out_elems * sizeof(T), cudaMemcpyDeviceToHost));
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dd.p, dspan * sizeof(T), cudaMemcpyDeviceToHost));
  long long wrong = count_wrong_boxes(out, x, g_layout, B0, B1, 1);
  std::vector<char> covered(dspan, 0);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) {
      std::size_t const di = std::size_t(d_layout(r, c));
      covered[di] = 1;
      if (std::memcmp(&got[di], &x[std::size_t(g_layout(r, c))], sizeof(T)) != 0 && ++wrong <= 6)
        ADD_FAILURE() << "stored (" << r << "," << c << ") differs";
    }
  for (std::size_t i = 0; i < dspan; ++i)
    if (!covered[i] && std::memcmp(&got[i], &poison[i], sizeof(T)) != 0 && ++wrong <= 9)
      ADD_FAILURE() << "stored padding element " << i << " was overwritten";
  EXPECT_EQ(wrong, 0);
}

TEST(TmaCopy, TilesOfSeveralBoxes) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  using KTile = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _128>{}));
  using MTile = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}, Step<_2, _1>{}));
  using FTile = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, Shape<_128, _64>{}));
  {
    SCOPED_TRACE("K-major 128x128 bf16 (2 boxes of 128x64), coordinate form");
    multi_box_round_trip<bfloat16_t, KTile, false>(make_layout(make_shape(300, 200), make_stride(208, _1{})),
                                                   300 * 208, make_layout(make_shape(300, 200), make_stride(216, _1{})),
                                                   300 * 216, 2);
  }
  {
    SCOPED_TRACE("M-major 128x64 bf16, atoms along K first (2 boxes of 64x64), tma_partition form");
    // 296 rows: whole 16-byte units per column, which a TMA store needs.
    multi_box_round_trip<bfloat16_t, MTile, true>(make_layout(make_shape(296, 200), make_stride(_1{}, 304)),
                                                  304 * 200, make_layout(make_shape(296, 200), make_stride(_1{}, 312)),
                                                  312 * 200, 2);
  }
  {
    SCOPED_TRACE("K-major 128x64 f32 (2 boxes of 128x32)");
    multi_box_round_trip<float, FTile, false>(make_layout(make_shape(150, 100), make_stride(104, _1{})), 150 * 104,
                                              make_layout(make_shape(150, 100), make_stride(108, _1{})), 150 * 108, 2);
  }
  // M-major tiles with their atoms stacked along M first (CuTe's default
  // tile_to_shape order): a grid of one box per swizzle atom, the M halves
  // (quarters for f32) of a K block adjacent in shared memory.
  using MFirst = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
  using MFirstF = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<float>{}, Shape<_128, _32>{}));
  {
    SCOPED_TRACE("M-major 128x64 bf16, atoms along M first (16 boxes of 64x8), coordinate form");
    multi_box_round_trip<bfloat16_t, MFirst, false>(make_layout(make_shape(296, 200), make_stride(_1{}, 304)),
                                                    304 * 200, make_layout(make_shape(296, 200), make_stride(_1{}, 312)),
                                                    312 * 200, 16);
  }
  {
    SCOPED_TRACE("M-major 128x64 bf16, atoms along M first (16 boxes of 64x8), tma_partition form");
    multi_box_round_trip<bfloat16_t, MFirst, true>(make_layout(make_shape(200, 75), make_stride(_1{}, 208)),
                                                   208 * 75, make_layout(make_shape(200, 75), make_stride(_1{}, 200)),
                                                   200 * 75, 16);
  }
  // K-major interleaved (unswizzled) atoms: 16-byte rows of 8 K, the K
  // blocks 2 KiB apart, so 8 boxes of 128x8.
  using KInter = decltype(tile_to_shape(GMMA::Layout_K_INTER_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
  {
    SCOPED_TRACE("K-major interleaved 128x64 bf16 (8 boxes of 128x8)");
    multi_box_round_trip<bfloat16_t, KInter, false>(make_layout(make_shape(300, 200), make_stride(208, _1{})),
                                                    300 * 208, make_layout(make_shape(300, 200), make_stride(216, _1{})),
                                                    300 * 216, 8);
  }
  {
    SCOPED_TRACE("M-major 128x32 f32, atoms along M first (16 boxes of 32x8)");
    multi_box_round_trip<float, MFirstF, false>(make_layout(make_shape(164, 50), make_stride(_1{}, 168)), 168 * 50,
                                                make_layout(make_shape(164, 50), make_stride(_1{}, 172)), 172 * 50, 16);
  }
}

// A box whose slices break a TMA rule the whole box keeps: a row of 16
// bf16 (32 bytes) cuts into 4 slices of 8 bytes, under the 16 bytes a TMA
// box's contiguous extent must span. The whole-box copy stays usable;
// slice_error() names the rule.
TEST(TmaCopy, SliceErrorNamesTheRule) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  alignas(256) static bfloat16_t host[64 * 64];
  using Row = Layout<Shape<_1, _16>, Stride<_16, _1>>;
  static_assert(tma_slice_mode_v<Row, 4> == 1);
  auto tma = make_tma_copy(SM90_TMA_LOAD_MULTICAST{},
                           make_tensor(make_gmem_ptr(static_cast<bfloat16_t const*>(host)),
                                       make_layout(make_shape(64, 64), make_stride(64, _1{}))),
                           Row{}, make_shape(_1{}, _16{}), Int<4>{});
  ASSERT_TRUE(tma.ok()) << tma.error();
  EXPECT_STREQ(tma.error(), "");
  static_assert(decltype(tma)::slices() == 4);
  EXPECT_FALSE(tma.slices_ok());
  EXPECT_NE(std::string(tma.slice_error()).find("no 4 multicast slices"), std::string::npos) << tma.slice_error();
  EXPECT_NE(std::string(tma.slice_error()).find("8 bytes, not a multiple of 16"), std::string::npos)
      << tma.slice_error();
}

// How checked_load_kernel breaks copy()'s device-side rules.
enum class Break : int { nothing, invalid_copy, misaligned_box, map_in_shared };

// Thread 0 loads box (0, 0) of A through `tma` into shared memory and every
// thread copies it out to `out`. `how` breaks one rule copy() checks on the
// device: the destination 16 bytes past a 1024-byte boundary (the 128B
// swizzle needs 1024), or the copy issued from a shared-memory copy of the
// map (neither a __grid_constant__ parameter nor global memory). An
// invalid copy is made so on the host.
template <class Tma>
__global__ void checked_load_kernel(__grid_constant__ const Tma tma, Break how, bfloat16_t* out) {
  extern __shared__ unsigned char smem_raw[];
  auto* base = aligned_1024(smem_raw);
  if (how == Break::misaligned_box) base += 16;
  Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<bfloat16_t*>(base)), SmemTile{});
  __shared__ __align__(8) std::uint64_t mbar;
  __shared__ __align__(64) unsigned char map_bytes[sizeof(Tma)];  // a TmaCopy is trivially copyable
  Tma const& shared_map = *reinterpret_cast<Tma const*>(map_bytes);
  if (threadIdx.x == 0) {
    mbarrier_init(&mbar, 1);
    arch::fence_mbarrier_init();
    std::memcpy(map_bytes, &tma, sizeof(Tma));
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(&mbar, tma.box_bytes());
    if (how == Break::map_in_shared) copy(shared_map.with(mbar), make_coord(0, 0), sA);
    else copy(tma.with(mbar), make_coord(0, 0), sA);
  }
  mbarrier_wait(&mbar, 0);
  for (int i = int(threadIdx.x); i < BLK_M * BLK_K; i += int(blockDim.x)) out[i] = sA(i / BLK_K, i % BLK_K);
}

// Runs checked_load_kernel; "" when the outcome is the expected one: the
// box copied out exactly for Break::nothing, the kernel ended by a device
// fault (the trap) for every broken rule.
std::string checked_load_case(Break how) {
  int const M = 256, K = 128;
  Problem const p = make_problem(M, 8, K);
  DevBuf da, dout;
  std::size_t const out_bytes = std::size_t(BLK_M) * BLK_K * sizeof(bfloat16_t);
  if (cudaMalloc(&da.p, p.a.size() * sizeof(bfloat16_t)) != cudaSuccess ||
      cudaMemcpy(da.p, p.a.data(), p.a.size() * sizeof(bfloat16_t), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMalloc(&dout.p, out_bytes) != cudaSuccess || cudaMemset(dout.p, 0xFF, out_bytes) != cudaSuccess)
    return "set-up failed";
  auto tma = make_operand_copy(SM90_TMA_LOAD{}, da.as<bfloat16_t>(), M, K);
  if (!tma.ok()) return std::string("make_tma_copy failed: ") + tma.error();
  auto bad = make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr(da.as<bfloat16_t>() + 1),
                                                        make_layout(make_shape(M, K), make_stride(K, _1{}))),
                           SmemTile{}, make_shape(Int<BLK_M>{}, Int<BLK_K>{}));
  if (bad.ok()) return "make_tma_copy accepted a misaligned base";  // the invalid copy: ok() is false
  auto kernel = checked_load_kernel<decltype(tma)>;
  int const smem = 2048 + BLK_M * BLK_K * 2;
  if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) != cudaSuccess)
    return "cudaFuncSetAttribute failed";
  kernel<<<1, 128, smem>>>(how == Break::invalid_copy ? bad : tma, how, dout.as<bfloat16_t>());
  cudaError_t const launch = cudaGetLastError();
  cudaError_t const done = cudaDeviceSynchronize();
  if (how != Break::nothing) {
    if (launch != cudaSuccess) return std::string("launch failed: ") + cudaGetErrorName(launch);
    if (done == cudaSuccess) return "the kernel completed: copy() did not refuse";
    std::fprintf(stderr, "device fault as expected: %s\n", cudaGetErrorName(done));
    return "";
  }
  if (launch != cudaSuccess || done != cudaSuccess)
    return std::string("valid copy failed: ") + cudaGetErrorName(launch != cudaSuccess ? launch : done);
  std::vector<bfloat16_t> out(std::size_t(BLK_M) * BLK_K);
  if (cudaMemcpy(out.data(), dout.p, out_bytes, cudaMemcpyDeviceToHost) != cudaSuccess) return "copy-out failed";
  for (int m = 0; m < BLK_M; ++m)
    for (int k = 0; k < BLK_K; ++k)
      if (std::memcmp(&out[std::size_t(m) * BLK_K + k], &p.a[std::size_t(m) * K + k], sizeof(bfloat16_t)) != 0)
        return "box element (" + std::to_string(m) + "," + std::to_string(k) + ") differs";
  return "";
}

// A slice copy through a copy whose slices' map could not be made (rows of
// 16 bf16 in 4 slices of 8 bytes) must trap; the same kernel through a copy
// whose slices are fine (rows of 256 in slices of 128 bytes) loads the box
// exactly. Every CTA of a cluster of 4 loads its slice (slice_round_trip_kernel).
std::string missing_slices_case(bool broken) {
  using Row16 = Layout<Shape<_1, _16>, Stride<_16, _1>>;
  using Row256 = Layout<Shape<_1, _256>, Stride<_256, _1>>;
  int const rows = 8, cols = 256;
  std::vector<bfloat16_t> const x = fresh_random<bfloat16_t>(std::size_t(rows) * cols);
  DevBuf dx, dout;
  std::size_t const out_bytes = std::size_t(rows) * cols * 4 * sizeof(bfloat16_t);
  if (cudaMalloc(&dx.p, x.size() * sizeof(bfloat16_t)) != cudaSuccess ||
      cudaMemcpy(dx.p, x.data(), x.size() * sizeof(bfloat16_t), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMalloc(&dout.p, out_bytes) != cudaSuccess || cudaMemset(dout.p, 0xFF, out_bytes) != cudaSuccess)
    return "set-up failed";
  auto g = make_tensor(make_gmem_ptr(dx.as<bfloat16_t>()), make_layout(make_shape(rows, cols), make_stride(cols, _1{})));
  auto launch = [&](auto const& tma, auto box, int boxes_m, int boxes) -> std::string {
    using Box = decltype(box);
    cudaError_t const e =
        launch_in_clusters(slice_round_trip_kernel<std::remove_cvref_t<decltype(tma)>, Box, 4, Form::partition>,
                           dim3(unsigned(boxes * 4)), 4, 1024 + int(size(Box{})) * 2, tma, rows, cols, boxes_m,
                           dout.as<bfloat16_t>());
    if (e != cudaSuccess) return std::string("launch failed: ") + cudaGetErrorName(e);
    return "";
  };
  if (broken) {
    auto tma = make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, g, Row16{}, make_shape(_1{}, _16{}), Int<4>{});
    if (!tma.ok() || tma.slices_ok()) return "expected a usable copy without slices";
    if (std::string why = launch(tma, Row16{}, rows, rows * (cols / 16)); !why.empty()) return why;
    cudaError_t const done = cudaDeviceSynchronize();
    if (done == cudaSuccess) return "the kernel completed: the slice copy did not refuse";
    std::fprintf(stderr, "device fault as expected: %s\n", cudaGetErrorName(done));
    return "";
  }
  auto tma = make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, g, Row256{}, make_shape(_1{}, _256{}), Int<4>{});
  if (!tma.ok() || !tma.slices_ok()) return std::string("the control's copy failed: ") + tma.error() + tma.slice_error();
  if (std::string why = launch(tma, Row256{}, rows, rows); !why.empty()) return why;
  if (cudaError_t const done = cudaDeviceSynchronize(); done != cudaSuccess)
    return std::string("valid slice copy failed: ") + cudaGetErrorName(done);
  std::vector<bfloat16_t> out(std::size_t(rows) * cols * 4);
  if (cudaMemcpy(out.data(), dout.p, out_bytes, cudaMemcpyDeviceToHost) != cudaSuccess) return "copy-out failed";
  for (int cta = 0; cta < rows * 4; ++cta)
    for (int c = 0; c < cols; ++c)
      if (std::memcmp(&out[std::size_t(cta) * cols + c], &x[std::size_t(cta / 4) * cols + c], sizeof(bfloat16_t)) != 0)
        return "CTA " + std::to_string(cta) + " element " + std::to_string(c) + " differs";
  return "";
}

// copy(tma.with(mbar), ...) refuses on the device: a copy whose
// make_tma_copy failed, a box address without the swizzle's alignment, a
// map outside parameter and global space each end the kernel in a trap
// rather than loading garbage. The same kernel with nothing broken loads
// the box exactly (the control that the trap is the rule, not the kernel).
// A trap poisons the context, so each case runs in a child process; skipped
// under TESSERA_TEST_IN_PROCESS.
TEST(TmaCopy, DeviceChecksTrap) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  if (tessera::test::in_process()) GTEST_SKIP() << "needs process isolation (TESSERA_TEST_IN_PROCESS is set)";
  tessera::test::run_isolated("nothing broken", [] { return checked_load_case(Break::nothing); });
  tessera::test::run_isolated("invalid copy", [] { return checked_load_case(Break::invalid_copy); });
  tessera::test::run_isolated("misaligned box", [] { return checked_load_case(Break::misaligned_box); });
  tessera::test::run_isolated("map in shared memory", [] { return checked_load_case(Break::map_in_shared); });
  tessera::test::run_isolated("slices whole (control)", [] { return missing_slices_case(false); });
  tessera::test::run_isolated("slices' map missing", [] { return missing_slices_case(true); });
}

// TMA stores under CuTe's names: every CTA writes one 128x32 f32 box into
// 128B-swizzled shared memory through the box's layout, fences, and thread 0
// stores it to D at its tile's coordinate (copy(tma_store, sD, coord),
// tma_store_arrive, tma_store_wait<0>), or in CuTe's partitioned form. The
// boxes cover three tiles of a 200x80 D, two of them clipped at the bottom
// or right edge.
constexpr int kStoreRows = 128, kStoreCols = 32;  // 32 f32 = one 128-byte swizzle row
using StoreTile = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, Shape<Int<kStoreRows>, Int<kStoreCols>>{}));

template <class Tma, Form kForm>
__global__ void tma_store_kernel(__grid_constant__ const Tma tma_store, float const* boxes, int const* tiles, int M,
                                 int N) {
  extern __shared__ unsigned char smem_raw[];
  auto* base = aligned_1024(smem_raw);
  Tensor sD = make_tensor(make_smem_ptr(reinterpret_cast<float*>(base)), StoreTile{});  // (128,32)
  float const* src = boxes + std::size_t(blockIdx.x) * kStoreRows * kStoreCols;
  for (int i = int(threadIdx.x); i < kStoreRows * kStoreCols; i += int(blockDim.x))
    sD(i / kStoreCols, i % kStoreCols) = src[i];
  tma_store_fence();  // this thread's writes, visible to the TMA unit
  __syncthreads();
  if (threadIdx.x == 0) {
    int const tm = tiles[2 * blockIdx.x], tn = tiles[2 * blockIdx.x + 1];
    if constexpr (kForm == Form::coordinate) {
      copy(tma_store, sD, make_coord(tm * kStoreRows, tn * kStoreCols));
    } else {  // CuTe's partitioned store: partition_S(sD), partition_D(gD) of the coordinate tensor
      Tensor gD = local_tile(tma_store.get_tma_tensor(make_shape(M, N)), make_shape(Int<kStoreRows>{}, Int<kStoreCols>{}),
                             make_coord(tm, tn));  // (128,32)
      auto cta_tma = tma_store.get_slice(Int<0>{});
      copy(tma_store, cta_tma.partition_S(sD), cta_tma.partition_D(gD));
    }
    tma_store_arrive();
    tma_store_wait<0>();  // sD is read; the kernel's exit completes the writes
  }
}

template <Form kForm, class Op>
void run_store(Op op, DevBuf& dd, int M, int N, DevBuf const& dboxes, DevBuf const& dtiles, int ctas) {
  auto tma = make_tma_copy(op, make_tensor(make_gmem_ptr(dd.as<float>()), make_layout(make_shape(M, N), make_stride(N, _1{}))),
                           StoreTile{}, make_shape(Int<kStoreRows>{}, Int<kStoreCols>{}));
  ASSERT_TRUE(tma.ok()) << tma.error();
  auto kernel = tma_store_kernel<decltype(tma), kForm>;
  int const smem = 1024 + kStoreRows * kStoreCols * 4;
  TESSERA_TEST_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  kernel<<<ctas, 128, smem>>>(tma, dboxes.as<float>(), dtiles.as<int>(), M, N);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
}

TEST(TmaCopy, StoreAndReduceAddBoxes) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  int const M = 200, N = 80;
  std::vector<int> const tiles = {0, 1, 1, 2, 1, 0};  // (tm, tn): interior, bottom-right corner, bottom edge
  int const ctas = int(tiles.size()) / 2;
  std::vector<float> const old = fresh_random<float>(std::size_t(M) * N);
  std::vector<float> const boxes = fresh_random<float>(std::size_t(ctas) * kStoreRows * kStoreCols);
  DevBuf dd, dboxes, dtiles;
  ASSERT_NO_FATAL_FAILURE(upload(dd, old));
  ASSERT_NO_FATAL_FAILURE(upload(dboxes, boxes));
  ASSERT_NO_FATAL_FAILURE(upload(dtiles, tiles));
  // Where each element of D should come from: -1 untouched, else the box value's index.
  std::vector<long long> from(old.size(), -1);
  for (int b = 0; b < ctas; ++b)
    for (int r = 0; r < kStoreRows; ++r)
      for (int c = 0; c < kStoreCols; ++c) {
        int const m = tiles[2 * b] * kStoreRows + r, n = tiles[2 * b + 1] * kStoreCols + c;
        if (m < M && n < N) from[std::size_t(m) * N + n] = (std::size_t(b) * kStoreRows + r) * kStoreCols + c;
      }
  auto check = [&](int times, char const* what) {
    std::vector<float> got(old.size());
    TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dd.p, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    long long wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      float const want = from[i] < 0 ? old[i] : float(times) * boxes[std::size_t(from[i])];  // 2x: exact doubling
      if (std::memcmp(&got[i], &want, sizeof(float)) != 0 && ++wrong <= 3)
        ADD_FAILURE() << what << ": D(" << i / N << "," << i % N << ") = " << got[i] << ", expected " << want
                      << (from[i] < 0 ? " (outside every box: untouched)" : "");
    }
    EXPECT_EQ(wrong, 0) << what;
  };
  ASSERT_NO_FATAL_FAILURE(run_store<Form::coordinate>(SM90_TMA_STORE{}, dd, M, N, dboxes, dtiles, ctas));
  check(1, "store");
  ASSERT_NO_FATAL_FAILURE(run_store<Form::coordinate>(SM90_TMA_REDUCE_ADD{}, dd, M, N, dboxes, dtiles, ctas));
  check(2, "reduce-add");
  // Again in CuTe's partitioned form (copy(tma, partition_S(sD), partition_D(gD))), from the old D.
  TESSERA_TEST_CUDA(cudaMemcpy(dd.p, old.data(), old.size() * sizeof(float), cudaMemcpyHostToDevice));
  ASSERT_NO_FATAL_FAILURE(run_store<Form::get_slice>(SM90_TMA_STORE{}, dd, M, N, dboxes, dtiles, ctas));
  check(1, "partitioned store");
  ASSERT_NO_FATAL_FAILURE(run_store<Form::get_slice>(SM90_TMA_REDUCE_ADD{}, dd, M, N, dboxes, dtiles, ctas));
  check(2, "partitioned reduce-add");
}

// Bad input comes back as an error naming the rule; nothing is encoded.
// (No GPU needed: every case fails before the driver is asked.)
TEST(TmaCopy, RefusalsNameTheRule) {
  alignas(256) static bfloat16_t host[256 * 256];
  auto ok = [](auto const& c) { return c.ok(); };
  auto g = [&](bfloat16_t const* p, int rows, int cols, int ld) {
    return make_tensor(make_gmem_ptr(p), make_layout(make_shape(rows, cols), make_stride(ld, _1{})));
  };
  auto const tile = make_shape(Int<BLK_M>{}, Int<BLK_K>{});
  auto misaligned = make_tma_copy(SM90_TMA_LOAD{}, g(host + 1, 256, 200, 256), SmemTile{}, tile);
  EXPECT_FALSE(ok(misaligned));
  EXPECT_NE(std::string(misaligned.error()).find("16-byte aligned"), std::string::npos) << misaligned.error();
  auto bad_ld = make_tma_copy(SM90_TMA_LOAD{}, g(host, 256, 200, 201), SmemTile{}, tile);
  EXPECT_FALSE(ok(bad_ld));
  EXPECT_NE(std::string(bad_ld.error()).find("multiple of 16"), std::string::npos) << bad_ld.error();
  auto mcast_on_load = make_tma_copy(SM90_TMA_LOAD{}, g(host, 256, 256, 256), SmemTile{}, tile, Int<2>{});
  EXPECT_FALSE(ok(mcast_on_load));
  EXPECT_NE(std::string(mcast_on_load.error()).find("SM90_TMA_LOAD_MULTICAST"), std::string::npos);
  // CuTe's short forms: (op, g, s) and (op, g, s, multicast), the CTA tile
  // being the tile's shape; the integer is the multicast, not a tile.
  auto short_misaligned = make_tma_copy(SM90_TMA_LOAD{}, g(host + 1, 256, 200, 256), SmemTile{});
  EXPECT_FALSE(ok(short_misaligned));
  EXPECT_STREQ(short_misaligned.error(), misaligned.error());
  auto short_mcast_on_load = make_tma_copy(SM90_TMA_LOAD{}, g(host, 256, 256, 256), SmemTile{}, 2);
  EXPECT_STREQ(short_mcast_on_load.error(), mcast_on_load.error());
  static_assert(decltype(make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, g(host, 256, 256, 256), SmemTile{}, Int<2>{}))::slices() == 2);
  auto too_many = make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, g(host, 256, 256, 256), SmemTile{}, tile, 17);
  EXPECT_FALSE(ok(too_many));
  EXPECT_NE(std::string(too_many.error()).find("[1, 16]"), std::string::npos) << too_many.error();
  // A tile no cut fixes: an M-major tile (atoms stacked along M first, a
  // grid of 16 boxes over an M-contiguous tensor) over a K-contiguous
  // tensor, whose boxes TMA packs K first.
  using MFirst = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
  static_assert(tma_boxes_v<MFirst, bfloat16_t> == 16);
  auto mfirst = make_tma_copy(SM90_TMA_LOAD{}, g(host, 256, 256, 256), MFirst{}, make_shape(_128{}, _64{}));
  EXPECT_FALSE(ok(mfirst));
  EXPECT_NE(std::string(mfirst.error()).find("the tile's 16 boxes"), std::string::npos) << mfirst.error();
  EXPECT_NE(std::string(mfirst.error()).find("swizzle"), std::string::npos) << mfirst.error();
  // Stores: from one CTA only; reduce-add of 16-bit elements is not offered.
  auto store_mcast = make_tma_copy(SM90_TMA_STORE{}, g(host, 256, 256, 256), SmemTile{}, tile, Int<2>{});
  EXPECT_FALSE(ok(store_mcast));
  EXPECT_NE(std::string(store_mcast.error()).find("writes from one CTA"), std::string::npos) << store_mcast.error();
  // A store whose contiguous extent (100 bf16 = 200 bytes) is not whole
  // 16-byte units: an edge box would overwrite the row's padding.
  auto store_ragged = make_tma_copy(SM90_TMA_STORE{}, g(host, 256, 100, 256), SmemTile{}, tile);
  EXPECT_FALSE(ok(store_ragged));
  EXPECT_NE(std::string(store_ragged.error()).find("whole 16-byte units"), std::string::npos) << store_ragged.error();
  auto add_bf16 = make_tma_copy(SM90_TMA_REDUCE_ADD{}, g(host, 256, 256, 256), SmemTile{}, tile);
  EXPECT_FALSE(ok(add_bf16));
  EXPECT_NE(std::string(add_bf16.error()).find("f32, s32 or u32"), std::string::npos) << add_bf16.error();
}

}  // namespace
