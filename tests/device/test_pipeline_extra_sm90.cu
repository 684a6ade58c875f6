// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The pipeline pieces beside PipelineTmaAsync / PipelineAsync
// (tessera/pipeline/, arch/sm90/mbarrier.cuh):
//   (a) OrderedSequenceBarrier<D, L>, L = 2 and 3 groups of two warps, D = 1,
//       2 and 3 ordered stages, 48 rounds: at each stage the group whose
//       turn it is appends one word per warp to that stage's shared-memory
//       log (position from a shared counter that only the turn's holder
//       bumps), after checking that the entry before it is the previous
//       group's (what the previous turn wrote is visible). A busy flag per
//       stage counts overlapping turns. Random sleeps (fresh each run)
//       shake the schedule. The logs are checked entry by entry on the host:
//       group 0, 1, ..., L-1, 0, ... with rounds in order.
//   (b) PipelineTmaStore<S>, S = 1..4: 128 threads write 37 tiles of fresh
//       random floats into an S-buffer shared ring, thread 0 stores each
//       tile to global memory with two bulk copies (cp.async.bulk
//       shared -> global, one bulk group a tile), reusing the buffers behind
//       producer_acquire; the poisoned output is compared bit for bit.
//   (c) PipelineTransactionAsync<4> in clusters of 2: each CTA's producer
//       warp fills the peer CTA's ring with st.async (16 bytes a store,
//       completing its bytes on the peer's full barrier), posting its bytes
//       with producer_expect_transaction per thread (or one lane for the
//       whole tile), two consumer warps in the peer copy each of 40 tiles
//       out and sum it; copies compared bit for bit, sums against an fp64
//       host reference by relative norm error.
//   (d) mbarrier_arrive_release_cluster in a cluster of 2: CTA 0 writes 64
//       rounds of data into CTA 1's shared memory with plain stores through
//       distributed shared memory and publishes each round with a
//       .release.cluster remote arrive, no __threadfence; CTA 1 waits with
//       an .acquire.cluster wait, checks and copies out, and hands the
//       buffer back the same way.
// Every wait that could hang on a bug is bounded (a trap after ~2 s) and
// each case runs in a child process (run_isolated). Skips unless the device
// is sm_90.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <tessera/arch/sm90/named_barrier.cuh>
#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::bounded_spin;
using tessera::test::run_isolated;

// Bit-for-bit comparison of two float arrays; reports the first few.
long long count_wrong(std::vector<float> const& got, std::vector<float> const& want, char const* what,
                      std::ostringstream& err) {
  long long wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], 4) != 0 && ++wrong <= 4)
      err << "\n  " << what << " element " << i << ": got " << got[i] << ", want " << want[i];
  if (wrong) err << "\n  " << what << ": " << wrong << " elements wrong";
  return wrong;
}

// ------------------------------------------------------------------------ (a) ----

constexpr int kGroupThreads = 64;  // two warps a group
constexpr int kWarpsPerGroup = kGroupThreads / 32;
constexpr int kOrderRounds = 48;
constexpr int kOrderCtas = 6;
constexpr int kJitter = 256;  // random sleep lengths, indexed by (round, stage, group)

__host__ __device__ constexpr unsigned log_word(unsigned group, unsigned round, unsigned warp) {
  return 0x80000000u | (group << 24) | (round << 8) | warp;
}

// One CTA of L groups. Per stage d, log[d] gets kWarpsPerGroup words per
// turn, at turn pos[d]; the group's thread 0 bumps pos[d] after every thread
// of the group has read it (a named barrier per group).
template <int D, int L>
__global__ void __launch_bounds__(kGroupThreads * L) ordered_sequence_kernel(unsigned const* jitter,
                                                                             unsigned* log_out,
                                                                             unsigned* errors) {
#if TESSERA_SM90_ENABLED
  using Order = OrderedSequenceBarrier<D, L>;
  constexpr int kEntries = kOrderRounds * L * kWarpsPerGroup;  // per stage
  __shared__ typename Order::SharedStorage storage;
  __shared__ unsigned log[D][kEntries];
  __shared__ int pos[D];
  __shared__ unsigned busy[D];
  unsigned const g = threadIdx.x / kGroupThreads;
  unsigned const t = threadIdx.x % kGroupThreads;
  unsigned const warp = t / 32, lane = t % 32;
  if (threadIdx.x < unsigned(D)) {
    pos[threadIdx.x] = 0;
    busy[threadIdx.x] = 0u;
  }
  typename Order::Params params;
  params.group_id = g;
  params.group_size = kGroupThreads;
  Order order(storage, params);
  __syncthreads();
  unsigned* my_errors = errors + blockIdx.x;
  for (int r = 0; r < kOrderRounds; ++r) {
    for (int d = 0; d < D; ++d) {
      if (order.state().index() != d) atomicAdd(my_errors, 1u);  // the state walks the stages in order
      order.wait();
      if (t == 0 && atomicExch(&busy[d], 1u) != 0u) atomicAdd(my_errors, 1u);  // another group inside
      int const p = pos[d];
      if (lane == 0) {
        if (p > 0) {
          // The previous turn's word from this warp's counterpart: written by
          // the previous group before its arrive, visible after this wait.
          unsigned const prev_group = (g + L - 1) % L;
          unsigned const prev_round = unsigned(p - 1) / L;
          if (log[d][(p - 1) * kWarpsPerGroup + warp] != log_word(prev_group, prev_round, warp))
            atomicAdd(my_errors, 1u);
        }
        if (p < kOrderRounds * L) log[d][p * kWarpsPerGroup + warp] = log_word(g, unsigned(r), warp);
        else atomicAdd(my_errors, 1u);
      }
      unsigned const sleep = jitter[((r * D + d) * L + g) % kJitter];
      if (sleep & 1u) __nanosleep(sleep % 1500u);
      arch::named_barrier_sync(1u + g, kGroupThreads);  // every thread has read pos[d]
      if (t == 0) {
        pos[d] = p + 1;
        atomicExch(&busy[d], 0u);
      }
      order.arrive();
    }
  }
  __syncthreads();
  for (int i = int(threadIdx.x); i < D * kEntries; i += kGroupThreads * L)
    log_out[std::size_t(blockIdx.x) * D * kEntries + i] = log[i / kEntries][i % kEntries];
  if (threadIdx.x < unsigned(D) && pos[threadIdx.x] != kOrderRounds * L) atomicAdd(my_errors, 1u);
#else
  (void)jitter, (void)log_out, (void)errors;
#endif
}

template <int D, int L>
std::string ordered_case() {
  constexpr int kEntries = kOrderRounds * L * kWarpsPerGroup;
  std::size_t const words = std::size_t(kOrderCtas) * D * kEntries;
  std::vector<unsigned> jitter(kJitter);
  std::mt19937 rng(std::random_device{}());
  for (auto& j : jitter) j = rng();
  DevBuf djitter, dlog, derrors;
  TESSERA_TRY_CUDA(cudaMalloc(&djitter.p, kJitter * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&dlog.p, words * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&derrors.p, kOrderCtas * 4));
  TESSERA_TRY_CUDA(cudaMemcpy(djitter.p, jitter.data(), kJitter * 4, cudaMemcpyHostToDevice));
  TESSERA_TRY_CUDA(cudaMemset(dlog.p, 0x5a, words * 4));  // poison: no valid log word has 0x5a in its top byte
  TESSERA_TRY_CUDA(cudaMemset(derrors.p, 0, kOrderCtas * 4));
  ordered_sequence_kernel<D, L>
      <<<kOrderCtas, kGroupThreads * L>>>(djitter.as<unsigned>(), dlog.as<unsigned>(), derrors.as<unsigned>());
  TESSERA_TRY_CUDA(cudaGetLastError());
  TESSERA_TRY_CUDA(cudaDeviceSynchronize());
  std::vector<unsigned> log(words), errors(kOrderCtas);
  TESSERA_TRY_CUDA(cudaMemcpy(log.data(), dlog.p, words * 4, cudaMemcpyDeviceToHost));
  TESSERA_TRY_CUDA(cudaMemcpy(errors.data(), derrors.p, kOrderCtas * 4, cudaMemcpyDeviceToHost));
  std::ostringstream err;
  long long wrong = 0;
  for (int cta = 0; cta < kOrderCtas; ++cta) {
    if (errors[std::size_t(cta)] != 0)
      err << "\n  CTA " << cta << ": " << errors[std::size_t(cta)]
          << " in-kernel failures (overlapping turns, a stale previous entry, or a miscounted turn)";
    for (int d = 0; d < D; ++d)
      for (int q = 0; q < kOrderRounds * L; ++q)  // turn q at stage d: group q % L, round q / L
        for (int w = 0; w < kWarpsPerGroup; ++w) {
          unsigned const want = log_word(unsigned(q % L), unsigned(q / L), unsigned(w));
          unsigned const got = log[(std::size_t(cta) * D + d) * kEntries + std::size_t(q) * kWarpsPerGroup + w];
          if (got != want && ++wrong <= 4)
            err << "\n  CTA " << cta << " stage " << d << " turn " << q << " warp " << w << ": got group "
                << ((got >> 24) & 0x7fu) << " round " << ((got >> 8) & 0xffffu) << ", want group " << q % L
                << " round " << q / L;
        }
  }
  if (wrong) err << "\n  " << wrong << " log words wrong";
  return err.str();
}

TEST(OrderedSequenceBarrier, TwoGroupsTakeTurns) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("OrderedSequenceBarrier<1, 2>", ordered_case<1, 2>);
  run_isolated("OrderedSequenceBarrier<2, 2>", ordered_case<2, 2>);
}

TEST(OrderedSequenceBarrier, ThreeGroupsTakeTurns) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("OrderedSequenceBarrier<2, 3>", ordered_case<2, 3>);
  run_isolated("OrderedSequenceBarrier<3, 3>", ordered_case<3, 3>);
}

// ------------------------------------------------------------------------ (b) ----

constexpr int kStoreTile = 2048;  // floats a tile: 8 KB, stored as two 4 KB bulk copies
constexpr int kStoreTiles = 37;
constexpr int kStoreCtas = 8;
constexpr int kStoreThreads = 128;

template <int S>
__global__ void __launch_bounds__(kStoreThreads) tma_store_kernel(float const* in, float* out) {
#if TESSERA_SM90_ENABLED
  using StorePipeline = PipelineTmaStore<S>;
  __shared__ alignas(128) float ring[S][kStoreTile];
  StorePipeline pipeline{typename StorePipeline::Params{}};
  typename StorePipeline::PipelineState write;
  float const* src = in + std::size_t(blockIdx.x) * kStoreTiles * kStoreTile;
  float* dst = out + std::size_t(blockIdx.x) * kStoreTiles * kStoreTile;
  bool const issuer = threadIdx.x == 0;
  for (int k = 0; k < kStoreTiles; ++k, ++write) {
    if (issuer) pipeline.producer_acquire(write);  // the store that last read this buffer is done reading
    __syncthreads();
    float* buf = ring[write.index()];
    for (int i = int(threadIdx.x); i < kStoreTile; i += kStoreThreads) buf[i] = src[std::size_t(k) * kStoreTile + i];
    arch::fence_proxy_async_shared_cta();  // the generic-proxy writes, before the bulk copy reads them
    __syncthreads();
    if (issuer) {
      constexpr std::uint32_t kHalf = kStoreTile / 2;
      arch::bulk_copy_s2g(dst + std::size_t(k) * kStoreTile, buf, kHalf * 4u);
      arch::bulk_copy_s2g(dst + std::size_t(k) * kStoreTile + kHalf, buf + kHalf, kHalf * 4u);
      pipeline.producer_commit(write);
    }
  }
  if (issuer) pipeline.producer_tail(write);
#else
  (void)in, (void)out;
#endif
}

template <int S>
std::string tma_store_case() {
  std::size_t const floats = std::size_t(kStoreCtas) * kStoreTiles * kStoreTile;
  std::vector<float> const in = fresh_random<float>(floats);
  DevBuf din, dout;
  TESSERA_TRY_CUDA(cudaMalloc(&din.p, floats * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&dout.p, floats * 4));
  TESSERA_TRY_CUDA(cudaMemcpy(din.p, in.data(), floats * 4, cudaMemcpyHostToDevice));
  TESSERA_TRY_CUDA(cudaMemset(dout.p, 0xff, floats * 4));  // poison: NaN
  tma_store_kernel<S><<<kStoreCtas, kStoreThreads>>>(din.as<float>(), dout.as<float>());
  TESSERA_TRY_CUDA(cudaGetLastError());
  TESSERA_TRY_CUDA(cudaDeviceSynchronize());
  std::vector<float> out(floats);
  TESSERA_TRY_CUDA(cudaMemcpy(out.data(), dout.p, floats * 4, cudaMemcpyDeviceToHost));
  std::ostringstream err;
  count_wrong(out, in, "out", err);
  return err.str();
}

TEST(PipelineTmaStore, BulkStoresReuseTheRing) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("PipelineTmaStore<1>", tma_store_case<1>);
  run_isolated("PipelineTmaStore<2>", tma_store_case<2>);
  run_isolated("PipelineTmaStore<3>", tma_store_case<3>);
  run_isolated("PipelineTmaStore<4>", tma_store_case<4>);
}

// ------------------------------------------------------------------------ (c) ----

constexpr int kTxStages = 4;
constexpr int kTxTile = 1024;  // floats a stage: 32 producer lanes x 8 st.async of 16 bytes
constexpr int kTxTiles = 40;   // the ring wraps 10 times
constexpr int kTxClusters = 3;
constexpr int kTxCtas = 2 * kTxClusters;

// Why st.async and not st.shared + complete_tx: mbarrier.complete_tx exists
// only as .relaxed, so it cannot publish the stores it stands for; st.async
// performs its complete_tx with release at cluster scope once its bytes have
// landed, so the consumers' cluster-scope acquire sees the data. st.async
// needs a cluster of more than one CTA and writes into a CTA of it, hence the
// cross-filling pair: CTA r's producers fill CTA r ^ 1's ring.
__global__ void __launch_bounds__(96) transaction_kernel(float const* in, float* out, float* sums,
                                                         unsigned* changed) {
#if TESSERA_SM90_ENABLED
  using Pipeline = PipelineTransactionAsync<kTxStages>;
  __shared__ typename Pipeline::SharedStorage storage;
  __shared__ alignas(16) float ring[kTxStages][kTxTile];
  std::uint32_t const rank = block_rank_in_cluster();
  std::uint32_t const peer = rank ^ 1u;
  int const warp = int(threadIdx.x) / 32;
  int const lane = int(threadIdx.x) % 32;
  typename Pipeline::Params params;
  params.role = warp == 0 ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
  params.producer_arv_count = 32;
  params.consumer_arv_count = 64;
  params.dst_blockid = peer;  // producers fill the peer; consumers are filled by it
  Pipeline pipeline(storage, params);
  cluster_sync();  // both CTAs' barriers initialised before any remote operation

  if (warp == 0) {
    float const* src = in + std::size_t(blockIdx.x) * kTxTiles * kTxTile;  // lands in the peer
    auto write = make_producer_start_state<Pipeline>();
    for (int k = 0; k < kTxTiles; ++k, ++write) {
      if (k % 2 == 0) {
        pipeline.producer_acquire(write);
      } else {
        ProducerToken const token = pipeline.producer_try_acquire(write);
        pipeline.producer_acquire(write, token);
      }
      if (k % 3 == 0) {
        if (lane == 0) pipeline.producer_expect_transaction(write, kTxTile * 4);  // one lane for the tile
      } else {
        pipeline.producer_expect_transaction(write, kTxTile * 4 / 32);  // each lane its own 128 bytes
      }
      std::uint64_t* bar = pipeline.producer_get_barrier(write);
      for (int j = 0; j < 8; ++j) {
        int const i = 4 * (lane + 32 * j);
        float4 const v = *reinterpret_cast<float4 const*>(src + std::size_t(k) * kTxTile + i);
        arch::st_async_v4_b32(&ring[write.index()][i], __float_as_uint(v.x), __float_as_uint(v.y),
                              __float_as_uint(v.z), __float_as_uint(v.w), bar, peer);
      }
      pipeline.producer_commit(write);
    }
    pipeline.producer_tail(write);  // the peer's consumers released every stage
  } else {
    int const ct = int(threadIdx.x) - 32;
    int const cw = ct / 32;
    typename Pipeline::PipelineState read;
    for (int k = 0; k < kTxTiles; ++k, ++read) {
      if (cw == 0) {
        pipeline.consumer_wait(read);
      } else {
        ConsumerToken token{BarrierStatus::WaitAgain};
        bounded_spin([&] {
          token = k % 3 == 0 ? pipeline.consumer_test_wait(read) : pipeline.consumer_try_wait(read);
          return token == BarrierStatus::WaitDone;
        });
        pipeline.consumer_wait(read, token);
      }
      float const* stage = ring[read.index()];
      std::size_t const o = (std::size_t(blockIdx.x) * kTxTiles + k) * kTxTile;
      float part = 0.f;
      for (int i = ct; i < kTxTile; i += 64) {
        float const v = stage[i];
        out[o + i] = v;
        part += v;
      }
      if ((k + cw) % 3 == 0) {  // dawdle, then check nothing refilled the stage meanwhile
        __nanosleep(2000);
        for (int i = ct; i < kTxTile; i += 64)
          if (__float_as_uint(out[o + i]) != __float_as_uint(stage[i])) atomicAdd(changed, 1u);
      }
      for (int off = 16; off > 0; off /= 2) part += __shfl_xor_sync(0xffffffffu, part, off);
      if (lane == 0) sums[(std::size_t(blockIdx.x) * kTxTiles + k) * 2 + cw] = part;
      pipeline.consumer_release(read);
    }
  }
  cluster_sync();  // no st.async or remote arrive in flight when either CTA exits
#else
  (void)in, (void)out, (void)sums, (void)changed;
#endif
}

std::string transaction_case() {
  std::size_t const floats = std::size_t(kTxCtas) * kTxTiles * kTxTile;
  std::size_t const partials = std::size_t(kTxCtas) * kTxTiles * 2;
  std::vector<float> const in = fresh_random<float>(floats);
  DevBuf din, dout, dsums, changed;
  TESSERA_TRY_CUDA(cudaMalloc(&din.p, floats * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&dout.p, floats * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&dsums.p, partials * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&changed.p, 4));
  TESSERA_TRY_CUDA(cudaMemcpy(din.p, in.data(), floats * 4, cudaMemcpyHostToDevice));
  TESSERA_TRY_CUDA(cudaMemset(dout.p, 0xff, floats * 4));  // poison: NaN
  TESSERA_TRY_CUDA(cudaMemset(dsums.p, 0xff, partials * 4));
  TESSERA_TRY_CUDA(cudaMemset(changed.p, 0, 4));
  arch::ClusterLaunch l;
  l.grid = dim3(kTxCtas);
  l.block = dim3(96);
  l.cluster = dim3(2, 1, 1);
  TESSERA_TRY_CUDA(arch::launch_cluster(transaction_kernel, l, din.as<float>(), dout.as<float>(),
                                        dsums.as<float>(), changed.as<unsigned>()));
  TESSERA_TRY_CUDA(cudaDeviceSynchronize());  // a trap here: a bounded wait timed out (deadlock)
  std::vector<float> out(floats), sums(partials);
  unsigned moved = 0;
  TESSERA_TRY_CUDA(cudaMemcpy(out.data(), dout.p, floats * 4, cudaMemcpyDeviceToHost));
  TESSERA_TRY_CUDA(cudaMemcpy(sums.data(), dsums.p, partials * 4, cudaMemcpyDeviceToHost));
  TESSERA_TRY_CUDA(cudaMemcpy(&moved, changed.p, 4, cudaMemcpyDeviceToHost));
  // CTA b received what CTA b ^ 1 (its cluster peer: rank = b % 2) produced.
  std::vector<float> want(floats);
  std::size_t const per_cta = std::size_t(kTxTiles) * kTxTile;
  for (int b = 0; b < kTxCtas; ++b)
    std::memcpy(&want[std::size_t(b) * per_cta], &in[std::size_t(b ^ 1) * per_cta], per_cta * 4);
  std::ostringstream err;
  count_wrong(out, want, "out", err);
  double num = 0, den = 0;
  for (int b = 0; b < kTxCtas; ++b)
    for (int k = 0; k < kTxTiles; ++k) {
      double ref = 0;
      for (int i = 0; i < kTxTile; ++i) ref += double(want[(std::size_t(b) * kTxTiles + k) * kTxTile + i]);
      std::size_t const s = (std::size_t(b) * kTxTiles + k) * 2;
      double const got = double(sums[s]) + double(sums[s + 1]);
      num += (got - ref) * (got - ref);
      den += ref * ref;
    }
  double const rel = std::sqrt(num / den);
  if (!(rel < 1e-5)) err << "\n  tile sums: relative norm error " << rel << " against the fp64 reference (want < 1e-5)";
  if (moved != 0) err << "\n  " << moved << " values changed under a consumer before it released the stage";
  return err.str();
}

TEST(PipelineTransactionAsync, StAsyncProducersFillThePeerInAClusterOf2) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("PipelineTransactionAsync<4>, st.async across a cluster of 2", transaction_case);
}

// ------------------------------------------------------------------------ (d) ----

constexpr int kDsmRounds = 64;
constexpr int kDsmFloats = 512;  // per round: 4 a thread
constexpr int kDsmThreads = 128;
constexpr int kDsmClusters = 4;

// CTA 0 -> CTA 1 through distributed shared memory. full (CTA 1's) counts
// CTA 0's 128 threads' arrivals per round; empty (CTA 0's) CTA 1's.
// Nothing but the arrives' .release.cluster and the waits' .acquire.cluster
// orders the data: no __threadfence, no fence.acq_rel.cluster.
__global__ void __launch_bounds__(kDsmThreads) release_cluster_kernel(float const* in, float* out,
                                                                      unsigned* wrong) {
#if TESSERA_SM90_ENABLED
  __shared__ arch::ClusterBarrier full, empty;
  __shared__ float buf[kDsmFloats];
  std::uint32_t const rank = block_rank_in_cluster();
  if (threadIdx.x == 0) {
    full.init(kDsmThreads);
    empty.init(kDsmThreads);
    arch::fence_mbarrier_init();
  }
  cluster_sync();
  out += std::size_t(cluster_id_in_grid().x) * kDsmRounds * kDsmFloats;
  if (rank == 0) {
    float* const peer_buf = cluster_local_smem_ptr(buf, 1u);
    for (int i = 0; i < kDsmRounds; ++i) {
      std::uint32_t const parity = std::uint32_t(i & 1) ^ 1u;  // CTA 1 has read round i - 1 (round 0: at once)
      bounded_spin([&] { return empty.try_wait_acquire_cluster(parity); });
      for (int j = 0; j < kDsmFloats / kDsmThreads; ++j) {
        int const e = int(threadIdx.x) + kDsmThreads * j;
        peer_buf[e] = in[std::size_t(i) * kDsmFloats + e];
      }
      full.arrive_release_cluster(1u);  // publishes this thread's stores into CTA 1
    }
    // CTA 1's last hand-back arrives on this CTA's barrier: wait for it, so
    // that nothing is in flight at the cluster barrier below.
    bounded_spin([&] { return empty.try_wait_acquire_cluster(std::uint32_t((kDsmRounds - 1) & 1)); });
  } else {
    for (int i = 0; i < kDsmRounds; ++i) {
      std::uint32_t const parity = std::uint32_t(i & 1);
      bounded_spin([&] { return full.test_wait_acquire_cluster(parity); });
      full.wait_acquire_cluster(parity);  // complete already: returns at once
      for (int j = 0; j < kDsmFloats / kDsmThreads; ++j) {
        int const e = int(threadIdx.x) + kDsmThreads * j;
        float const v = buf[e];
        if (__float_as_uint(v) != __float_as_uint(in[std::size_t(i) * kDsmFloats + e])) atomicAdd(wrong, 1u);
        out[std::size_t(i) * kDsmFloats + e] = v;
      }
      if (i % 2 == 0) empty.arrive_release_cluster(0u);
      else arch::ClusterBarrier::arrive_release_cluster(&empty.barrier_, 0u, 1u);  // the static form
      empty.arrive_release_cluster(0u, 0u);  // predicated off: must not count
    }
  }
  cluster_sync();  // no remote access in flight when either CTA exits
#else
  (void)in, (void)out, (void)wrong;
#endif
}

std::string release_cluster_case() {
  std::size_t const floats = std::size_t(kDsmRounds) * kDsmFloats;
  std::vector<float> const in = fresh_random<float>(floats);
  DevBuf din, dout, dwrong;
  TESSERA_TRY_CUDA(cudaMalloc(&din.p, floats * 4));
  TESSERA_TRY_CUDA(cudaMalloc(&dout.p, floats * 4 * kDsmClusters));
  TESSERA_TRY_CUDA(cudaMalloc(&dwrong.p, 4));
  TESSERA_TRY_CUDA(cudaMemcpy(din.p, in.data(), floats * 4, cudaMemcpyHostToDevice));
  TESSERA_TRY_CUDA(cudaMemset(dout.p, 0xff, floats * 4 * kDsmClusters));  // poison: NaN
  TESSERA_TRY_CUDA(cudaMemset(dwrong.p, 0, 4));
  arch::ClusterLaunch l;
  l.grid = dim3(2 * kDsmClusters);
  l.block = dim3(kDsmThreads);
  l.cluster = dim3(2, 1, 1);
  TESSERA_TRY_CUDA(
      arch::launch_cluster(release_cluster_kernel, l, din.as<float>(), dout.as<float>(), dwrong.as<unsigned>()));
  TESSERA_TRY_CUDA(cudaDeviceSynchronize());  // a trap here: a bounded wait timed out (deadlock)
  std::vector<float> out(floats * kDsmClusters);
  unsigned wrong = 0;
  TESSERA_TRY_CUDA(cudaMemcpy(out.data(), dout.p, out.size() * 4, cudaMemcpyDeviceToHost));
  TESSERA_TRY_CUDA(cudaMemcpy(&wrong, dwrong.p, 4, cudaMemcpyDeviceToHost));
  std::vector<float> want(out.size());
  for (int c = 0; c < kDsmClusters; ++c) std::memcpy(&want[std::size_t(c) * floats], in.data(), floats * 4);
  std::ostringstream err;
  count_wrong(out, want, "received", err);
  if (wrong != 0) err << "\n  CTA 1 saw " << wrong << " values differ from what CTA 0 wrote";
  return err.str();
}

TEST(MbarrierReleaseCluster, PeerPublishesDistributedSharedMemoryWithoutAFence) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_isolated("arrive_release_cluster, cluster of 2", release_cluster_case);
}

}  // namespace
