// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Distributed shared memory (arch::map_shared_rank; seed 002's
// cluster_local_smem_ptr and cluster_size, tessera/atom/sync_sm90.cuh).
// First seed 002's cluster_programming.cu snippet, completed: a kernel with
// __cluster_dims__(2, 1, 1) stages its own tile through a swizzled layout,
// synchronises the cluster, views the other CTA's tile as
// make_tensor(make_smem_ptr(cluster_local_smem_ptr(smem, 1 - block_rank)),
// layout) and copies it out; the host checks every logical element against
// the peer's input. Then remote stores and atomics in clusters of 4 launched
// with a run-time shape: each CTA writes the next CTA's buffer and counts on
// CTA 0's counter. Fresh random inputs, poisoned outputs. Skips unless the
// device is sm_90.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::upload;

constexpr int kRows = 64, kCols = 64, kTile = kRows * kCols;
// Swizzled, so the remote view has to apply the same layout function to
// land on the right elements.
using SmemLayoutB = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<Int<kRows>, Int<kCols>>{}));

// in/out: one kRows x kCols tile per CTA, element (r, c) at r * kCols + c.
// info: per CTA, block_rank_in_cluster() and cluster_size().
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
    dsm_exchange_kernel(half_t const* in, half_t* out, std::uint32_t* info) {
  __shared__ __align__(1024) half_t smem_ptr[kTile];
  Tensor sB = make_tensor(make_smem_ptr(smem_ptr), SmemLayoutB{});
  int const block_rank = int(block_rank_in_cluster());
  int const cluster_sz = int(cluster_size());
  half_t const* src = in + std::size_t(blockIdx.x) * kTile;
  for (int i = int(threadIdx.x); i < kTile; i += int(blockDim.x)) sB(i / kCols, i % kCols) = src[i];

  cluster_arrive();  // this tile written ...
  cluster_wait();    // ... and the peer's

  half_t* remote_smem = cluster_local_smem_ptr(smem_ptr, 1 - block_rank);  // the other CTA's smem
  auto remote_tensor = make_tensor(make_smem_ptr(remote_smem), SmemLayoutB{});
  half_t* dst = out + std::size_t(blockIdx.x) * kTile;
  for (int i = int(threadIdx.x); i < kTile; i += int(blockDim.x)) dst[i] = remote_tensor(i / kCols, i % kCols);
  if (threadIdx.x == 0) {
    info[2 * blockIdx.x] = std::uint32_t(block_rank);
    info[2 * blockIdx.x + 1] = std::uint32_t(cluster_sz);
  }
  cluster_arrive();  // the peer may still be reading this CTA's tile:
  cluster_wait();    // nobody exits before everyone is done
}

constexpr int kRing = 256;

// Clusters of cluster_size() CTAs: CTA r writes its input into the buffer
// of CTA (r + 1) % n and adds 1 per thread to CTA 0's counter; after a
// cluster barrier each CTA writes out its own buffer (what CTA r - 1 sent)
// and its counter.
__global__ void __launch_bounds__(128) dsm_ring_kernel(float const* in, float* out, std::uint32_t* counts,
                                                      std::uint32_t* ranks) {
  __shared__ float buf[kRing];
  __shared__ std::uint32_t counter;
  std::uint32_t const rank = block_rank_in_cluster(), n = cluster_size();
  if (threadIdx.x == 0) counter = 0;
  cluster_sync();  // every counter zeroed before any remote atomic
  float* next = cluster_local_smem_ptr(buf, (rank + 1) % n);
  std::uint32_t* first = cluster_local_smem_ptr(&counter, 0u);
  for (int i = int(threadIdx.x); i < kRing; i += int(blockDim.x)) next[i] = in[std::size_t(blockIdx.x) * kRing + i];
  atomicAdd(first, 1u);
  cluster_sync();  // every remote store and atomic done
  for (int i = int(threadIdx.x); i < kRing; i += int(blockDim.x)) out[std::size_t(blockIdx.x) * kRing + i] = buf[i];
  if (threadIdx.x == 0) {
    counts[blockIdx.x] = counter;
    ranks[blockIdx.x] = rank;
  }
}

TEST(ClusterDsm, SeedClusterSnippetReadsThePeersTile) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  int const ctas = 8;  // 4 clusters of 2
  std::vector<half_t> const in = fresh_random<half_t>(std::size_t(ctas) * kTile);
  DevBuf din, dout, dinfo;
  ASSERT_NO_FATAL_FAILURE(upload(din, in));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, in.size() * sizeof(half_t)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, in.size() * sizeof(half_t)));  // poison: NaN
  TESSERA_TEST_CUDA(cudaMalloc(&dinfo.p, 2 * ctas * sizeof(std::uint32_t)));
  TESSERA_TEST_CUDA(cudaMemset(dinfo.p, 0xFF, 2 * ctas * sizeof(std::uint32_t)));
  dsm_exchange_kernel<<<ctas, 128>>>(din.as<half_t>(), dout.as<half_t>(), dinfo.as<std::uint32_t>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<half_t> out(in.size());
  std::vector<std::uint32_t> info(2 * ctas);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), dout.p, out.size() * sizeof(half_t), cudaMemcpyDeviceToHost));
  TESSERA_TEST_CUDA(cudaMemcpy(info.data(), dinfo.p, info.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  for (int b = 0; b < ctas; ++b) {
    EXPECT_EQ(info[2 * b], std::uint32_t(b % 2)) << "CTA " << b << ": block_rank_in_cluster";
    EXPECT_EQ(info[2 * b + 1], 2u) << "CTA " << b << ": cluster_size";
    int const peer = b ^ 1;
    long long wrong = 0;
    for (int i = 0; i < kTile; ++i)
      if (std::memcmp(&out[std::size_t(b) * kTile + i], &in[std::size_t(peer) * kTile + i], sizeof(half_t)) != 0 &&
          ++wrong <= 3)
        ADD_FAILURE() << "CTA " << b << " element (" << i / kCols << "," << i % kCols << ") is not the peer's";
    EXPECT_EQ(wrong, 0) << "CTA " << b;
  }
}

TEST(ClusterDsm, RemoteStoresAndAtomicsInClustersOfFour) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  int const n = 4, ctas = 12, threads = 128;
  std::vector<float> const in = fresh_random<float>(std::size_t(ctas) * kRing);
  DevBuf din, dout, dcounts, dranks;
  ASSERT_NO_FATAL_FAILURE(upload(din, in));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, in.size() * sizeof(float)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, in.size() * sizeof(float)));
  TESSERA_TEST_CUDA(cudaMalloc(&dcounts.p, ctas * sizeof(std::uint32_t)));
  TESSERA_TEST_CUDA(cudaMemset(dcounts.p, 0xFF, ctas * sizeof(std::uint32_t)));
  TESSERA_TEST_CUDA(cudaMalloc(&dranks.p, ctas * sizeof(std::uint32_t)));
  TESSERA_TEST_CUDA(cudaMemset(dranks.p, 0xFF, ctas * sizeof(std::uint32_t)));
  arch::ClusterLaunch l;
  l.grid = dim3(ctas);
  l.block = dim3(threads);
  l.cluster = dim3(n, 1, 1);
  TESSERA_TEST_CUDA(arch::launch_cluster(dsm_ring_kernel, l, din.as<float const>(), dout.as<float>(),
                                         dcounts.as<std::uint32_t>(), dranks.as<std::uint32_t>()));
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<float> out(in.size());
  std::vector<std::uint32_t> counts(ctas), ranks(ctas);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), dout.p, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  TESSERA_TEST_CUDA(cudaMemcpy(counts.data(), dcounts.p, ctas * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  TESSERA_TEST_CUDA(cudaMemcpy(ranks.data(), dranks.p, ctas * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  for (int b = 0; b < ctas; ++b) {
    std::uint32_t const r = ranks[b];
    ASSERT_LT(r, std::uint32_t(n)) << "CTA " << b;
    int const base = b - int(r);
    int const prev = base + int((r + n - 1) % n);
    EXPECT_EQ(counts[b], r == 0 ? std::uint32_t(n * threads) : 0u) << "CTA " << b << " (rank " << r << ")";
    EXPECT_EQ(std::memcmp(&out[std::size_t(b) * kRing], &in[std::size_t(prev) * kRing], kRing * sizeof(float)), 0)
        << "CTA " << b << " does not hold what CTA " << prev << " sent";
  }
}

}  // namespace
