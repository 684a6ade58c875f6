// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// CUTLASS's barrier and pipeline classes under Tessera's names
// (tessera/arch/sm90/cluster_barrier.cuh, tessera/pipeline/):
//   (a) PipelineTmaAsync<6>, warp-specialised, cluster of one: one producer
//       warp (its thread 0 the leader) loads 40 k-tiles of two random f32
//       matrices with TMA into a 6-stage ring (the ring wraps six times),
//       with copy(tma.with(*pipeline.producer_get_barrier(state)), ...);
//       two consumer warps, or two consumer warpgroups (8 warps), copy each
//       tile to a poisoned output. Some consumer warps wait with
//       consumer_wait, others with consumer_try_wait / consumer_test_wait
//       and consumer_wait(state, token); the producer alternates
//       producer_acquire with producer_try_acquire + producer_acquire(state,
//       token), and ends with producer_tail instead of a cluster barrier.
//       Consumers dawdle on some stages and re-read them: a stage refilled
//       before its release shows as a changed value.
//   (b) the same in clusters of 2x1, 1x2 and 2x2 CTAs, A's tile shared by
//       the CTAs of a cluster row (same x: each loads its slice and
//       multicasts it along y), B's by those of a column (along x), as a
//       GEMM shares them; every CTA's release reaches X + Y - 1 CTAs.
//   (c) ClusterBarrier / ClusterTransactionBarrier across a cluster of 2:
//       fresh-barrier parities (test_wait, try_wait, pred 0), 24 ping-pong
//       rounds of data written into the peer's shared memory and published
//       by remote arrives (arrive(cta_id), a predicated-off arrive that must
//       do nothing, the static forms), transaction counts completed by the
//       peer (complete_transaction, expect_transaction), a remote
//       arrive_and_expect_tx, and invalidate + init again.
//   (d) PipelineAsync<4> in one CTA: a producer warp stores 40 tiles with
//       ordinary stores, two consumer warps copy them out.
// Outputs are compared bit for bit with the fresh random inputs. Every
// wait that could hang on a bug is bounded (a trap after ~2 s), and each
// case runs in a child process (run_isolated), so a deadlock fails its own
// case rather than the run. Skips unless the device is sm_90.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::bounded_spin;
using tessera::test::run_isolated;

// ------------------------------------------------------------------ (a), (b) ----

constexpr int kRows = 64, kCols = 32;  // one tile: 64 x 32 f32, one 128B-swizzled TMA box
constexpr int kStages = 6;
constexpr int kTiles = 40;  // k-tiles per CTA: the ring wraps 6 times and 4 stages
constexpr int kK = kTiles * kCols;
using SmemAtom = GMMA::Layout_K_SW128_Atom<float>;
using Tile = decltype(tile_to_shape(SmemAtom{}, Shape<Int<kRows>, Int<kCols>>{}));
using Ring = decltype(tile_to_shape(SmemAtom{}, Shape<Int<kRows>, Int<kCols>, Int<kStages>>{}));
constexpr int kRingFloats = kRows * kCols * kStages;
constexpr int kCopySmem = 1024 + 2 * kRingFloats * 4;

__device__ inline unsigned char* aligned_1024(unsigned char* raw) {
  return raw + ((1024u - (cast_smem_ptr_to_uint(raw) & 1023u)) & 1023u);
}

// CTA (bx, by) of the grid, at (x, y) in its CX x CY cluster, copies A's
// rows [64 bx, 64 bx + 64) and B's rows [64 by, 64 by + 64) (all kK
// columns, kTiles tiles each) to out_a and out_b at slot bx + gridDim.x *
// by. A's tile is common to the cluster's CTAs of the same x, B's to those
// of the same y, so with CY > 1 each loads slice y of A's box and
// multicasts it along y, and with CX > 1 slice x of B's along x.
// `changed` counts values that changed under a consumer between two reads.
template <int CX, int CY, int kConsumerWarps, class TmaA, class TmaB>
__global__ void __launch_bounds__(32 * (1 + kConsumerWarps), 1)
    pipeline_copy_kernel(__grid_constant__ const TmaA tma_a, __grid_constant__ const TmaB tma_b, float* out_a,
                         float* out_b, unsigned* changed) {
#if TESSERA_SM90_ENABLED
  using Pipeline = PipelineTmaAsync<kStages>;
  extern __shared__ unsigned char smem_raw[];
  float* base = reinterpret_cast<float*>(aligned_1024(smem_raw));
  Tensor sA = make_tensor(make_smem_ptr(base), Ring{});                // (ROWS,COLS,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(base + kRingFloats), Ring{});  // (ROWS,COLS,PIPE)
  __shared__ typename Pipeline::SharedStorage storage;

  int const warp = int(threadIdx.x) / 32;
  typename Pipeline::Params params;
  params.transaction_bytes = tma_a.box_bytes() + tma_b.box_bytes();  // both whole tiles land in every CTA
  params.num_consumers = 32 * kConsumerWarps;
  params.role = warp == 0 ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
  params.is_leader = threadIdx.x == 0;
  Pipeline pipeline(storage, params, Shape<Int<CX>, Int<CY>, _1>{});
  if constexpr (CX * CY > 1) cluster_sync();
  else __syncthreads();

  int const slot = int(blockIdx.x + gridDim.x * blockIdx.y);
  if (warp == 0) {
    if (threadIdx.x == 0) {
      int const x = CX * CY > 1 ? int(block_id_in_cluster().x) : 0;
      int const y = CX * CY > 1 ? int(block_id_in_cluster().y) : 0;
      auto const cluster = Layout<Shape<Int<CX>, Int<CY>>>{};
      std::uint16_t const mask_a = create_tma_multicast_mask<1>(cluster, make_coord(x, y));  // same x
      std::uint16_t const mask_b = create_tma_multicast_mask<0>(cluster, make_coord(x, y));  // same y
      Tensor mA = tma_a.get_tma_tensor(make_shape(int(gridDim.x) * kRows, int(kK)));
      Tensor mB = tma_b.get_tma_tensor(make_shape(int(gridDim.y) * kRows, int(kK)));
      Tensor gA = local_tile(mA, Shape<Int<kRows>, Int<kCols>>{}, make_coord(int(blockIdx.x), _));  // (ROWS,COLS,k)
      Tensor gB = local_tile(mB, Shape<Int<kRows>, Int<kCols>>{}, make_coord(int(blockIdx.y), _));  // (ROWS,COLS,k)
      auto [tAgA, tAsA] = tma_partition(tma_a, y, Layout<Int<CY>>{}, group_modes<0, 2>(sA), group_modes<0, 2>(gA));
      auto [tBgB, tBsB] = tma_partition(tma_b, x, Layout<Int<CX>>{}, group_modes<0, 2>(sB), group_modes<0, 2>(gB));
      auto write = make_producer_start_state<Pipeline>();
      for (int k = 0; k < kTiles; ++k) {
        if (k % 2 == 0) {
          pipeline.producer_acquire(write);
        } else {
          ProducerToken const token = pipeline.producer_try_acquire(write);
          pipeline.producer_acquire(write, token);
        }
        std::uint64_t* bar = pipeline.producer_get_barrier(write);
        if constexpr (CY > 1) copy(tma_a.with(*bar, mask_a), tAgA(_, k), tAsA(_, write.index()));
        else copy(tma_a.with(*bar), tAgA(_, k), tAsA(_, write.index()));
        if constexpr (CX > 1) copy(tma_b.with(*bar, mask_b), tBgB(_, k), tBsB(_, write.index()));
        else copy(tma_b.with(*bar), tBgB(_, k), tBsB(_, write.index()));
        pipeline.producer_commit(write);
        ++write;
      }
      // No cluster barrier at the end: the tail is what keeps this CTA
      // alive until no peer will arrive on or multicast into it.
      pipeline.producer_tail(write);
      (void)mask_a, (void)mask_b;
    }
  } else {
    int const ct = int(threadIdx.x) - 32;  // consumer thread
    int const cw = ct / 32;                // consumer warp
    typename Pipeline::PipelineState read;
    for (int k = 0; k < kTiles; ++k, ++read) {
      if (cw % 2 == 0) {
        pipeline.consumer_wait(read);
      } else {
        // Probe until done (bounded), then consumer_wait(state, token) must not block.
        ConsumerToken token{BarrierStatus::WaitAgain};
        bounded_spin([&] {
          token = k % 3 == 0 ? pipeline.consumer_test_wait(read) : pipeline.consumer_try_wait(read);
          return token == BarrierStatus::WaitDone;
        });
        pipeline.consumer_wait(read, token);
      }
      int const s = read.index();
      for (int i = ct; i < kRows * kCols; i += 32 * kConsumerWarps) {
        int const r = i / kCols, c = i % kCols;
        std::size_t const o = (std::size_t(slot) * kRows + r) * kK + std::size_t(k) * kCols + c;
        out_a[o] = sA(r, c, s);
        out_b[o] = sB(r, c, s);
      }
      if ((k + cw) % 3 == 0) {  // dawdle, then check nothing refilled the stage meanwhile
        __nanosleep(2000);
        for (int i = ct; i < kRows * kCols; i += 32 * kConsumerWarps) {
          int const r = i / kCols, c = i % kCols;
          std::size_t const o = (std::size_t(slot) * kRows + r) * kK + std::size_t(k) * kCols + c;
          if (__float_as_uint(out_a[o]) != __float_as_uint(sA(r, c, s)) ||
              __float_as_uint(out_b[o]) != __float_as_uint(sB(r, c, s)))
            atomicAdd(changed, 1u);
        }
      }
      pipeline.consumer_release(read);
    }
  }
#else
  (void)tma_a, (void)tma_b, (void)out_a, (void)out_b, (void)changed;
#endif
}

// The TMA copy of one tile of a rows x kK row-major f32 matrix, loaded
// whole (kMulticast 1) or in kMulticast slices multicast to as many CTAs.
template <int kMulticast>
auto make_tile_copy(float const* p, int rows) {
  auto const g = make_tensor(make_gmem_ptr(p), make_layout(make_shape(rows, kK), make_stride(kK, _1{})));
  if constexpr (kMulticast > 1)
    return make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, g, Tile{}, Shape<Int<kRows>, Int<kCols>>{}, Int<kMulticast>{});
  else
    return make_tma_copy(SM90_TMA_LOAD{}, g, Tile{}, Shape<Int<kRows>, Int<kCols>>{});
}

// Counts the elements of out (slots x (kRows x kK)) that differ, bit for
// bit, from rows [64 b, 64 b + 64) of `in`, b = block(slot); reports the first.
template <class Block>
long long count_wrong(std::vector<float> const& out, std::vector<float> const& in, int slots, Block block,
                      char const* name, std::ostringstream& err) {
  long long wrong = 0;
  for (int slot = 0; slot < slots; ++slot)
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kK; ++c) {
        float const want = in[(std::size_t(block(slot)) * kRows + r) * kK + c];
        float const got = out[(std::size_t(slot) * kRows + r) * kK + c];
        if (std::memcmp(&want, &got, 4) != 0 && ++wrong <= 4)
          err << "\n  " << name << " slot " << slot << " row " << r << " col " << c << " (k-tile " << c / kCols
              << "): got " << got << ", want " << want;
      }
  if (wrong) err << "\n  " << name << ": " << wrong << " elements wrong";
  return wrong;
}

template <int CX, int CY, int kConsumerWarps>
std::string copy_case() {
  int const gx = 2 * CX, gy = 2 * CY;  // two clusters along each dimension
  int const slots = gx * gy;
  std::vector<float> const a = fresh_random<float>(std::size_t(gx) * kRows * kK);
  std::vector<float> const b = fresh_random<float>(std::size_t(gy) * kRows * kK);
  std::size_t const out_floats = std::size_t(slots) * kRows * kK;
  DevBuf da, db, oa, ob, changed;
  TESSERA_TRY_CUDA(cudaMalloc(&da.p, a.size() * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&db.p, b.size() * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&oa.p, out_floats * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&ob.p, out_floats * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&changed.p, 4));
  TESSERA_TRY_CUDA(cudaMemcpy(da.p, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  TESSERA_TRY_CUDA(cudaMemcpy(db.p, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  TESSERA_TRY_CUDA(cudaMemset(oa.p, 0xff, out_floats * 4));  // poison: NaN
  TESSERA_TRY_CUDA(cudaMemset(ob.p, 0xff, out_floats * 4));
  TESSERA_TRY_CUDA(cudaMemset(changed.p, 0, 4));
  auto const tma_a = make_tile_copy<CY>(da.as<float>(), gx * kRows);
  auto const tma_b = make_tile_copy<CX>(db.as<float>(), gy * kRows);
  if (!tma_a.ok() || !tma_a.slices_ok()) return std::string("tma_a: ") + tma_a.error() + tma_a.slice_error();
  if (!tma_b.ok() || !tma_b.slices_ok()) return std::string("tma_b: ") + tma_b.error() + tma_b.slice_error();
  auto kernel = pipeline_copy_kernel<CX, CY, kConsumerWarps, std::remove_cv_t<decltype(tma_a)>,
                                     std::remove_cv_t<decltype(tma_b)>>;
  TESSERA_TRY_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kCopySmem));
  dim3 const block(32 * (1 + kConsumerWarps));
  if constexpr (CX * CY == 1) {
    kernel<<<dim3(gx, gy), block, kCopySmem>>>(tma_a, tma_b, oa.as<float>(), ob.as<float>(), changed.as<unsigned>());
    TESSERA_TRY_CUDA(cudaGetLastError());
  } else {
    arch::ClusterLaunch l;
    l.grid = dim3(gx, gy);
    l.block = block;
    l.cluster = dim3(CX, CY, 1);
    l.smem = kCopySmem;
    TESSERA_TRY_CUDA(arch::launch_cluster(kernel, l, tma_a, tma_b, oa.as<float>(), ob.as<float>(),
                                          changed.as<unsigned>()));
  }
  TESSERA_TRY_CUDA(cudaDeviceSynchronize());  // a trap here: a bounded wait timed out (deadlock)
  std::vector<float> got_a(out_floats), got_b(out_floats);
  unsigned moved = 0;
  TESSERA_TRY_CUDA(cudaMemcpy(got_a.data(), oa.p, out_floats * 4, cudaMemcpyDeviceToHost));
  TESSERA_TRY_CUDA(cudaMemcpy(got_b.data(), ob.p, out_floats * 4, cudaMemcpyDeviceToHost));
  TESSERA_TRY_CUDA(cudaMemcpy(&moved, changed.p, 4, cudaMemcpyDeviceToHost));
  std::ostringstream err;
  count_wrong(got_a, a, slots, [&](int slot) { return slot % gx; }, "out_a", err);
  count_wrong(got_b, b, slots, [&](int slot) { return slot / gx; }, "out_b", err);
  if (moved != 0) err << "\n  " << moved << " values changed under a consumer before it released the stage";
  return err.str();
}

TEST(PipelineTmaAsync, OneCtaTwoConsumerWarps) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("cluster 1x1, 2 consumer warps", copy_case<1, 1, 2>);
}

TEST(PipelineTmaAsync, OneCtaTwoConsumerWarpgroups) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("cluster 1x1, 8 consumer warps", copy_case<1, 1, 8>);
}

TEST(PipelineTmaAsync, ClusterOf2MulticastAlongX) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("cluster 2x1 (B multicast), 2 consumer warps", copy_case<2, 1, 2>);
  run_isolated("cluster 2x1 (B multicast), 8 consumer warps", copy_case<2, 1, 8>);
}

TEST(PipelineTmaAsync, ClusterOf2MulticastAlongY) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("cluster 1x2 (A multicast), 2 consumer warps", copy_case<1, 2, 2>);
}

TEST(PipelineTmaAsync, Cluster2x2MulticastRowsAndColumns) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("cluster 2x2 (A and B multicast), 8 consumer warps", copy_case<2, 2, 8>);
  run_isolated("cluster 2x2 (A and B multicast), 2 consumer warps", copy_case<2, 2, 2>);
}

// ------------------------------------------------------------------------ (c) ----

constexpr int kRounds = 24;      // ping-pong rounds (the barriers' phases wrap many times)
constexpr int kRoundFloats = 256;  // per round, per CTA: 8 floats a lane
// Per CTA, what the barriers answered, in this order:
enum Probe : int {
  kFreshTestWait0,     // test_wait(0) on a fresh barrier: 0 (phase 0 in progress)
  kFreshTestWait1,     // test_wait(1): 1 (a fresh barrier counts parity 1 as completed)
  kFreshTestWaitPred,  // test_wait(1, pred 0): 0 (no test)
  kFreshTryWait1,      // try_wait(1): 1
  kAfterRoundsTestWait,   // test_wait(kRounds % 2 ^ 1) after every round: 1
  kAfterRoundsTestWaitCur,  // test_wait of the phase in progress: 0
  kTxPhase0Done,       // the transaction barrier's phase 0 completed: 1
  kTxPhase1Done,       // its phase 1 completed: 1
  kReinitTestWait,     // after invalidate, init(1), arrive: test_wait(0) == 1
  kProbes
};

// One warp per CTA, clusters of 2. Rounds: each CTA writes its round-i data
// into the peer's buffer (distributed shared memory), then each lane fences
// and arrives on the peer's `data` barrier (count 32); each CTA waits on its
// own, copies the buffer out, and each lane arrives on the peer's `ack`
// barrier (count 32), which the writer waits on (producer-style parity,
// starting at 1) before the next round's writes.
__global__ void __launch_bounds__(32) cluster_barrier_kernel(float const* in, float* out, unsigned* probes) {
#if TESSERA_SM90_ENABLED
  __shared__ arch::ClusterBarrier data, ack;
  __shared__ arch::ClusterTransactionBarrier tx;
  __shared__ float buf[kRoundFloats];
  std::uint32_t const rank = block_rank_in_cluster();
  std::uint32_t const peer = rank ^ 1u;
  unsigned* const my_probes = probes + kProbes * blockIdx.x;
  out += std::size_t(cluster_id_in_grid().x) * kRounds * 2 * kRoundFloats;  // this cluster's rounds
  unsigned const lane = threadIdx.x;
  if (lane == 0) {
    data.init(32);
    ack.init(32);
    tx.init(1);
    arch::fence_mbarrier_init();
    my_probes[kFreshTestWait0] = data.test_wait(0);
    my_probes[kFreshTestWait1] = data.test_wait(1);
    my_probes[kFreshTestWaitPred] = data.test_wait(1, 0u);
    my_probes[kFreshTryWait1] = data.try_wait(1);
  }
  cluster_sync();  // both CTAs' barriers initialised (and probed) before any remote arrive

  float* const peer_buf = cluster_local_smem_ptr(buf, peer);
  for (int i = 0; i < kRounds; ++i) {
    // The peer has copied out round i - 1 (round 0: parity 1 of a fresh barrier, at once).
    bounded_spin([&] { return ack.try_wait(std::uint32_t(i & 1) ^ 1u); });
    ack.wait(std::uint32_t(i & 1) ^ 1u);
    for (int j = 0; j < 8; ++j)
      peer_buf[lane + 32 * j] = in[(std::size_t(i) * 2 + rank) * kRoundFloats + lane + 32 * j];
    __threadfence();  // the writes before the arrive that publishes them, at cluster scope (and beyond)
    if (i % 3 == 0) arch::ClusterBarrier::arrive(&data.barrier_, peer, 1u);  // the static form
    else if (rank == 1) data.arrive(0);  // a literal 0 is CTA 0, not a null barrier
    else data.arrive(peer);
    data.arrive(peer, 0u);  // predicated off: must not count
    bounded_spin([&] { return data.try_wait(std::uint32_t(i & 1)); });
    data.wait(std::uint32_t(i & 1));  // already complete: returns at once
    __threadfence();
    for (int j = 0; j < 8; ++j)
      out[(std::size_t(i) * 2 + rank) * kRoundFloats + lane + 32 * j] = buf[lane + 32 * j];
    __syncwarp();  // every lane's reads of buf before any lane lets the peer overwrite it
    ack.arrive(peer);
  }
  if (lane == 0) {
    my_probes[kAfterRoundsTestWait] = data.test_wait(std::uint32_t((kRounds - 1) & 1));
    my_probes[kAfterRoundsTestWaitCur] = data.test_wait(std::uint32_t(kRounds & 1));
  }
  // The peer's last ack arrives on this CTA's barrier: wait for it before
  // the next cluster barrier, so that nothing is in flight afterwards.
  bounded_spin([&] { return ack.try_wait(std::uint32_t((kRounds - 1) & 1)); });

  // Transactions. Phase 0 of each CTA's `tx`: it expects 16 bytes, then
  // arrives expecting 80 more; the peer completes 64 + 32 of them (and a
  // predicated-off 1000, which must not count), in any order.
  if (lane == 0) {
    tx.expect_transaction(16);
    tx.arrive_and_expect_tx(80);
    tx.complete_transaction(peer, 64);
    tx.complete_transaction(peer, 1000, 0u);
    arch::ClusterTransactionBarrier::complete_transaction(&tx.barrier_, peer, 32, 1u);
    bounded_spin([&] { return tx.try_wait(0); });
    my_probes[kTxPhase0Done] = tx.test_wait(0);
  }
  cluster_sync();  // both phase 0s complete before any phase-1 arrival
  // Phase 1: the peer arrives remotely expecting 48 bytes (and once more
  // predicated off), this CTA completes them on its own barrier.
  if (lane == 0) {
    tx.arrive_and_expect_tx(48, peer);
    tx.arrive_and_expect_tx(4096, peer, 0u);
    tx.complete_transaction(rank, 48);
    bounded_spin([&] { return tx.try_wait(1); });
    my_probes[kTxPhase1Done] = tx.test_wait(1);
  }
  cluster_sync();  // no remote operation in flight past here
  if (lane == 0) {
    data.invalidate();
    data.init(1);
    data.arrive();
    my_probes[kReinitTestWait] = arch::ClusterBarrier::test_wait(&data.barrier_, 0u, 1u);
    data.invalidate();
    ack.invalidate();
    tx.invalidate();
  }
#else
  (void)in, (void)out, (void)probes;
#endif
}

std::string cluster_barrier_case() {
  constexpr int kClusters = 3;
  constexpr int kCtas = 2 * kClusters;
  std::size_t const floats = std::size_t(kRounds) * 2 * kRoundFloats;
  // Every cluster reads the same input and writes its own copy of the rounds.
  std::vector<float> const in = fresh_random<float>(floats);
  DevBuf din, dout, dprobes;
  TESSERA_TRY_CUDA(cudaMalloc(&din.p, floats * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&dout.p, floats * 4 * kClusters));
  TESSERA_TRY_CUDA(cudaMalloc(&dprobes.p, kCtas * kProbes * 4));
  TESSERA_TRY_CUDA(cudaMemcpy(din.p, in.data(), floats * 4, cudaMemcpyHostToDevice));
  TESSERA_TRY_CUDA(cudaMemset(dout.p, 0xff, floats * 4 * kClusters));
  TESSERA_TRY_CUDA(cudaMemset(dprobes.p, 0xee, kCtas * kProbes * 4));
  arch::ClusterLaunch l;
  l.grid = dim3(kCtas);
  l.block = dim3(32);
  l.cluster = dim3(2, 1, 1);
  TESSERA_TRY_CUDA(
      arch::launch_cluster(cluster_barrier_kernel, l, din.as<float>(), dout.as<float>(), dprobes.as<unsigned>()));
  TESSERA_TRY_CUDA(cudaDeviceSynchronize());  // a trap here: a bounded wait timed out (deadlock)
  std::vector<float> out(floats * kClusters);
  std::vector<unsigned> probes(kCtas * kProbes);
  TESSERA_TRY_CUDA(cudaMemcpy(out.data(), dout.p, out.size() * 4, cudaMemcpyDeviceToHost));
  TESSERA_TRY_CUDA(cudaMemcpy(probes.data(), dprobes.p, probes.size() * 4, cudaMemcpyDeviceToHost));
  std::ostringstream err;
  long long wrong = 0;
  for (int c = 0; c < kClusters; ++c)
    for (int i = 0; i < kRounds; ++i)
      for (int rank = 0; rank < 2; ++rank)
        for (int e = 0; e < kRoundFloats; ++e) {
          // CTA `rank` received what its peer wrote in round i.
          float const want = in[(std::size_t(i) * 2 + (rank ^ 1)) * kRoundFloats + e];
          float const got = out[std::size_t(c) * floats + (std::size_t(i) * 2 + rank) * kRoundFloats + e];
          if (std::memcmp(&want, &got, 4) != 0 && ++wrong <= 4)
            err << "\n  cluster " << c << " round " << i << " CTA " << rank << " element " << e << ": got " << got
                << ", want " << want;
        }
  if (wrong) err << "\n  " << wrong << " received values wrong";
  unsigned const want_probes[kProbes] = {0, 1, 0, 1, 1, 0, 1, 1, 1};
  char const* names[kProbes] = {"fresh test_wait(0)", "fresh test_wait(1)", "fresh test_wait(1, pred 0)",
                                "fresh try_wait(1)", "test_wait(last completed)", "test_wait(in progress)",
                                "transaction phase 0", "transaction phase 1", "re-initialised test_wait(0)"};
  for (int cta = 0; cta < kCtas; ++cta)
    for (int p = 0; p < kProbes; ++p)
      if (probes[std::size_t(cta) * kProbes + p] != want_probes[p])
        err << "\n  CTA " << cta << " " << names[p] << ": " << probes[std::size_t(cta) * kProbes + p] << ", want "
            << want_probes[p];
  return err.str();
}

TEST(ClusterBarrier, RemoteArrivesAndTransactionsAcrossAClusterOf2) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("ClusterBarrier, cluster of 2", cluster_barrier_case);
}

// ------------------------------------------------------------------------ (d) ----

constexpr int kAsyncStages = 4;
constexpr int kAsyncTile = 1024;  // floats a stage
constexpr int kAsyncTiles = 40;

// Warp 0 produces (every lane stores 32 floats of a tile, then commits),
// warps 1 and 2 consume (every thread copies 16 floats out, then releases).
__global__ void __launch_bounds__(96) pipeline_async_kernel(float const* in, float* out, unsigned* changed) {
#if TESSERA_SM90_ENABLED
  using Pipeline = PipelineAsync<kAsyncStages>;
  __shared__ typename Pipeline::SharedStorage storage;
  __shared__ float ring[kAsyncStages][kAsyncTile];
  int const warp = int(threadIdx.x) / 32;
  typename Pipeline::Params params;
  params.role = warp == 0 ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
  params.producer_arv_count = 32;
  params.consumer_arv_count = 64;
  Pipeline pipeline(storage, params);
  __syncthreads();
  float const* src = in + std::size_t(blockIdx.x) * kAsyncTiles * kAsyncTile;
  float* dst = out + std::size_t(blockIdx.x) * kAsyncTiles * kAsyncTile;
  if (warp == 0) {
    auto write = make_producer_start_state<Pipeline>();
    for (int k = 0; k < kAsyncTiles; ++k, ++write) {
      ProducerToken const token = pipeline.producer_try_acquire(write);
      pipeline.producer_acquire(write, token);
      for (int j = int(threadIdx.x); j < kAsyncTile; j += 32) ring[write.index()][j] = src[std::size_t(k) * kAsyncTile + j];
      pipeline.producer_commit(write);
    }
    pipeline.producer_tail(write);
  } else {
    int const ct = int(threadIdx.x) - 32;
    typename Pipeline::PipelineState read;
    for (int k = 0; k < kAsyncTiles; ++k, ++read) {
      bounded_spin([&] { return pipeline.consumer_try_wait(read) == BarrierStatus::WaitDone; });
      pipeline.consumer_wait(read);
      for (int j = ct; j < kAsyncTile; j += 64) dst[std::size_t(k) * kAsyncTile + j] = ring[read.index()][j];
      if ((k + warp) % 3 == 0) {
        __nanosleep(2000);
        for (int j = ct; j < kAsyncTile; j += 64)
          if (__float_as_uint(dst[std::size_t(k) * kAsyncTile + j]) != __float_as_uint(ring[read.index()][j]))
            atomicAdd(changed, 1u);
      }
      pipeline.consumer_release(read);
    }
  }
#else
  (void)in, (void)out, (void)changed;
#endif
}

std::string pipeline_async_case() {
  constexpr int kCtas = 4;
  std::size_t const floats = std::size_t(kCtas) * kAsyncTiles * kAsyncTile;
  std::vector<float> const in = fresh_random<float>(floats);
  DevBuf din, dout, changed;
  TESSERA_TRY_CUDA(cudaMalloc(&din.p, floats * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&dout.p, floats * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&changed.p, 4));
  TESSERA_TRY_CUDA(cudaMemcpy(din.p, in.data(), floats * 4, cudaMemcpyHostToDevice));
  TESSERA_TRY_CUDA(cudaMemset(dout.p, 0xff, floats * 4));
  TESSERA_TRY_CUDA(cudaMemset(changed.p, 0, 4));
  pipeline_async_kernel<<<kCtas, 96>>>(din.as<float>(), dout.as<float>(), changed.as<unsigned>());
  TESSERA_TRY_CUDA(cudaGetLastError());
  TESSERA_TRY_CUDA(cudaDeviceSynchronize());
  std::vector<float> out(floats);
  unsigned moved = 0;
  TESSERA_TRY_CUDA(cudaMemcpy(out.data(), dout.p, floats * 4, cudaMemcpyDeviceToHost));
  TESSERA_TRY_CUDA(cudaMemcpy(&moved, changed.p, 4, cudaMemcpyDeviceToHost));
  std::ostringstream err;
  long long wrong = 0;
  for (std::size_t i = 0; i < floats; ++i)
    if (std::memcmp(&in[i], &out[i], 4) != 0 && ++wrong <= 4)
      err << "\n  element " << i << " (CTA " << i / (kAsyncTiles * kAsyncTile) << ", tile "
          << (i / kAsyncTile) % kAsyncTiles << "): got " << out[i] << ", want " << in[i];
  if (wrong) err << "\n  " << wrong << " elements wrong";
  if (moved != 0) err << "\n  " << moved << " values changed under a consumer before it released the stage";
  return err.str();
}

TEST(PipelineAsync, ProducerWarpStoresTwoConsumerWarpsCopy) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("PipelineAsync<4>, 40 tiles", pipeline_async_case);
}

}  // namespace
