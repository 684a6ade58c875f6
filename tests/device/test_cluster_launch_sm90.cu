// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// launch_cluster and max_active_clusters (arch/sm90/cluster_launch.hpp): a
// kernel without __cluster_dims__ launched in clusters of a run-time shape
// records, per CTA, what the cluster special registers say, after a
// cluster-wide barrier; the host compares with the shape asked for. A grid
// that is not whole clusters is refused before launch and writes nothing.
// The whole_clusters rule is checked on the host (no GPU needed). Skips the
// device cases unless the device is sm_90.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <tessera/arch/sm90/cluster.cuh>
#include <tessera/arch/sm90/cluster_launch.hpp>

#include "device_test.cuh"

namespace {

using tessera::arch::ClusterLaunch;

constexpr int kFields = 6;

// Per CTA (linear index x + gridDim.x * y): rank, cluster size, position in
// the cluster (x, y) and cluster shape (x, y).
__global__ void cluster_info_kernel(std::uint32_t* info) {
  tessera::arch::cluster_sync();  // every CTA of the cluster is resident
  if (threadIdx.x == 0) {
    std::uint32_t* p = info + kFields * (blockIdx.x + gridDim.x * blockIdx.y);
    p[0] = tessera::arch::cluster_ctarank();
    p[1] = tessera::arch::cluster_nctarank();
    p[2] = tessera::arch::cluster_ctaid_x();
    p[3] = tessera::arch::cluster_ctaid_y();
    p[4] = tessera::arch::cluster_nctaid_x();
    p[5] = tessera::arch::cluster_nctaid_y();
  }
  __syncwarp();
  tessera::arch::cluster_sync();
}

std::vector<std::uint32_t> run_info(ClusterLaunch const& l, cudaError_t* launch_result) {
  int const ctas = int(l.grid.x * l.grid.y);
  tessera::test::DevBuf info;
  std::vector<std::uint32_t> host(std::size_t(kFields) * ctas, 0u);
  EXPECT_EQ(cudaMalloc(&info.p, host.size() * 4), cudaSuccess);
  EXPECT_EQ(cudaMemset(info.p, 0xff, host.size() * 4), cudaSuccess);
  *launch_result = tessera::arch::launch_cluster(&cluster_info_kernel, l, info.as<std::uint32_t>());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "launch_cluster left a sticky error";
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(host.data(), info.p, host.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  return host;
}

TEST(ClusterLaunch, WholeClustersRule) {
  struct Case {
    dim3 grid, cluster;
    bool whole;
  } const cases[] = {
      {dim3(4, 2, 1), dim3(2, 1, 1), true},
      {dim3(4, 2, 1), dim3(2, 2, 1), true},
      {dim3(4, 2, 1), dim3(4, 2, 1), true},
      {dim3(4, 2, 1), dim3(3, 1, 1), false},  // 4 % 3
      {dim3(4, 2, 1), dim3(2, 4, 1), false},  // 2 % 4
      {dim3(4, 2, 1), dim3(0, 1, 1), false},
      {dim3(3, 1, 1), dim3(2, 1, 1), false},
      // At most kMaxClusterCtas (16) CTAs per cluster, over all three extents.
      {dim3(64, 4, 2), dim3(16, 1, 1), true},
      {dim3(64, 4, 2), dim3(4, 2, 2), true},
      {dim3(64, 4, 2), dim3(32, 1, 1), false},
      {dim3(64, 4, 2), dim3(8, 2, 2), false},
  };
  for (Case const& c : cases) {
    ClusterLaunch l;
    l.grid = c.grid;
    l.cluster = c.cluster;
    EXPECT_EQ(tessera::arch::whole_clusters(l), c.whole)
        << "grid " << c.grid.x << "x" << c.grid.y << "x" << c.grid.z << ", cluster " << c.cluster.x << "x"
        << c.cluster.y << "x" << c.cluster.z;
  }
}

TEST(ClusterLaunch, RunTimeShapesReachTheKernel) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (dim3 const cluster : {dim3(2, 1, 1), dim3(2, 2, 1), dim3(1, 2, 1), dim3(4, 1, 1)}) {
    ClusterLaunch l;
    l.grid = dim3(8, 4, 1);
    l.block = dim3(64, 1, 1);
    l.cluster = cluster;
    SCOPED_TRACE(testing::Message() << "cluster " << cluster.x << "x" << cluster.y);
    cudaError_t launched = cudaErrorUnknown;
    std::vector<std::uint32_t> const info = run_info(l, &launched);
    ASSERT_EQ(launched, cudaSuccess) << cudaGetErrorString(launched);
    int bad = 0;
    for (unsigned y = 0; y < l.grid.y; ++y)
      for (unsigned x = 0; x < l.grid.x; ++x) {
        const std::uint32_t* p = &info[std::size_t(kFields) * (x + l.grid.x * y)];
        std::uint32_t const cx = x % cluster.x, cy = y % cluster.y;
        std::uint32_t const want[kFields] = {cx + cluster.x * cy, cluster.x * cluster.y, cx, cy, cluster.x, cluster.y};
        for (int f = 0; f < kFields; ++f)
          if (p[f] != want[f] && bad++ < 6)
            ADD_FAILURE() << "CTA (" << x << ", " << y << ") field " << f << ": " << p[f] << ", want " << want[f];
      }
    EXPECT_EQ(bad, 0);
  }
}

TEST(ClusterLaunch, PartialClustersAreRefusedAndWriteNothing) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  ClusterLaunch l;
  l.grid = dim3(3, 1, 1);
  l.block = dim3(32, 1, 1);
  l.cluster = dim3(2, 1, 1);
  cudaError_t launched = cudaSuccess;
  std::vector<std::uint32_t> const info = run_info(l, &launched);
  EXPECT_EQ(launched, cudaErrorInvalidValue);
  for (std::uint32_t v : info) EXPECT_EQ(v, 0xffffffffu) << "a refused launch wrote its output";
  l.grid = dim3(32, 1, 1);
  l.cluster = dim3(32, 1, 1);  // more CTAs than any cluster can have
  std::vector<std::uint32_t> const big = run_info(l, &launched);
  EXPECT_EQ(launched, cudaErrorInvalidValue);
  for (std::uint32_t v : big) EXPECT_EQ(v, 0xffffffffu) << "a refused launch wrote its output";
}

TEST(ClusterLaunch, MaxActiveClusters) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  int sms = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  ClusterLaunch l;
  l.block = dim3(128, 1, 1);
  l.cluster = dim3(2, 1, 1);
  l.grid = dim3(2 * unsigned(sms), 1, 1);
  int const pairs = tessera::arch::max_active_clusters(reinterpret_cast<const void*>(&cluster_info_kernel), l);
  // At least one pair per two SMs' worth of GPC, at most every SM's CTA
  // slots (32 per SM) in pairs.
  EXPECT_GE(pairs, 1);
  EXPECT_LE(pairs, 16 * sms);
  std::printf("  [cluster_launch] %d SMs: max_active_clusters(pairs of 128 threads) = %d\n", sms, pairs);
  l.cluster = dim3(64, 1, 1);  // past kMaxClusterCtas: refused before the runtime is asked
  l.grid = dim3(64, 1, 1);
  EXPECT_EQ(tessera::arch::max_active_clusters(reinterpret_cast<const void*>(&cluster_info_kernel), l), 0);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "max_active_clusters left a sticky error";
}

}  // namespace
