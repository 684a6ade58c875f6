// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// CuTe's cluster geometry names (tessera/atom/sync_sm90.cuh):
// block_id_in_cluster, cluster_shape, cluster_id_in_grid, cluster_grid_dims,
// block_rank_in_cluster, cluster_size, elect_one_leader_sync, and
// create_tma_multicast_mask (tessera/tma/multicast_mask.hpp) evaluated on
// the device. Every thread of every CTA records what it reads; the host
// checks each record against values computed from the CTA's position in the
// grid and the cluster shape the launch asked for (blockIdx.d % cluster.d,
// blockIdx.d / cluster.d, ...), every warp's election, and each mask against
// both the host's create_tma_multicast_mask and a brute force over the
// cluster. Clusters launched at run time through the cluster-dimension
// attribute (arch::launch_cluster), 1- to 3-D, 2 to 8 CTAs; and a plain
// launch, which runs as clusters of one CTA. Output poisoned first. Skips
// unless the device is sm_90 (the binary is built for sm_90a only).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <tessera/arch/sm90/cluster.cuh>
#include <tessera/arch/sm90/cluster_launch.hpp>
#include <tessera/atom/sync_sm90.cuh>
#include <tessera/layout.hpp>
#include <tessera/tma/multicast_mask.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;

enum Field : int {
  kIdX, kIdY, kIdZ,                // block_id_in_cluster()
  kShapeX, kShapeY, kShapeZ,       // cluster_shape()
  kClusterX, kClusterY, kClusterZ, // cluster_id_in_grid()
  kGridX, kGridY, kGridZ,          // cluster_grid_dims()
  kRank, kSize, kExplicit,         // block_rank_in_cluster(), cluster_size(), arch::is_explicit_cluster()
  kIsLeader, kLeaderLane,          // elect_one_leader_sync()
  kElectOne,                       // elect_one_sync()
  // create_tma_multicast_mask over the (x,y,z) cluster layout, column-major
  // like %cluster_ctarank: built at run time from cluster_shape() ...
  kMask0, kMask1, kMask2, kMask01, kMask012,
  // ... and from the kernel's static shape.
  kStatic0, kStatic1, kStatic2, kStatic01, kStatic012,
  kFields
};
constexpr int kMaskFields = 5;
constexpr int kThreads = 96;  // three full warps

template <int CX, int CY, int CZ>
__global__ void __launch_bounds__(kThreads) geometry_kernel(std::uint32_t* out) {
  std::uint32_t const cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  std::uint32_t* r = out + std::size_t(kFields) * (cta * blockDim.x + threadIdx.x);
  dim3 const id = block_id_in_cluster();
  dim3 const shape = cluster_shape();
  dim3 const cluster = cluster_id_in_grid();
  dim3 const grid = cluster_grid_dims();
  r[kIdX] = id.x, r[kIdY] = id.y, r[kIdZ] = id.z;
  r[kShapeX] = shape.x, r[kShapeY] = shape.y, r[kShapeZ] = shape.z;
  r[kClusterX] = cluster.x, r[kClusterY] = cluster.y, r[kClusterZ] = cluster.z;
  r[kGridX] = grid.x, r[kGridY] = grid.y, r[kGridZ] = grid.z;
  r[kRank] = block_rank_in_cluster();
  r[kSize] = cluster_size();
  r[kExplicit] = arch::is_explicit_cluster() ? 1u : 0u;
  ElectOneLaneIdReturnType const e = elect_one_leader_sync();
  r[kIsLeader] = e.is_leader;
  r[kLeaderLane] = e.leader_lane_id;
  r[kElectOne] = elect_one_sync() ? 1u : 0u;

  auto const coord = make_coord(int(id.x), int(id.y), int(id.z));
  auto const dyn = make_layout(make_shape(int(shape.x), int(shape.y), int(shape.z)));
  r[kMask0] = create_tma_multicast_mask<0>(dyn, coord);
  r[kMask1] = create_tma_multicast_mask<1>(dyn, coord);
  r[kMask2] = create_tma_multicast_mask<2>(dyn, coord);
  r[kMask01] = create_tma_multicast_mask<0, 1>(dyn, coord);
  r[kMask012] = create_tma_multicast_mask<0, 1, 2>(dyn, coord);
  auto const fixed = make_layout(Shape<Int<CX>, Int<CY>, Int<CZ>>{});
  r[kStatic0] = create_tma_multicast_mask<0>(fixed, coord);
  r[kStatic1] = create_tma_multicast_mask<1>(fixed, coord);
  r[kStatic2] = create_tma_multicast_mask<2>(fixed, coord);
  r[kStatic01] = create_tma_multicast_mask<0, 1>(fixed, coord);
  r[kStatic012] = create_tma_multicast_mask<0, 1, 2>(fixed, coord);
}

struct Case {
  dim3 grid, cluster;
  bool explicit_cluster;  // launched in clusters (else <<<>>>: clusters of one)
};

// One record per thread, CTA-major (CTA x + gx * (y + gy * z)).
template <int CX, int CY, int CZ>
void run(Case const& c, std::vector<std::uint32_t>* records) {
  std::size_t const ctas = std::size_t(c.grid.x) * c.grid.y * c.grid.z;
  records->assign(ctas * kThreads * kFields, 0u);
  test::DevBuf out;
  TESSERA_TEST_CUDA(cudaMalloc(&out.p, records->size() * 4));
  TESSERA_TEST_CUDA(cudaMemset(out.p, 0xff, records->size() * 4));  // poison: no field reads all ones
  if (c.explicit_cluster) {
    arch::ClusterLaunch l;
    l.grid = c.grid;
    l.block = dim3(kThreads, 1, 1);
    l.cluster = c.cluster;
    TESSERA_TEST_CUDA(arch::launch_cluster(&geometry_kernel<CX, CY, CZ>, l, out.as<std::uint32_t>()));
  } else {
    geometry_kernel<CX, CY, CZ><<<c.grid, kThreads>>>(out.as<std::uint32_t>());
    TESSERA_TEST_CUDA(cudaGetLastError());
  }
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  TESSERA_TEST_CUDA(cudaMemcpy(records->data(), out.p, records->size() * 4, cudaMemcpyDeviceToHost));
}

// The runs: every case's records, in the order of cases().
std::vector<Case> cases() {
  return {
      {dim3(4, 6, 1), dim3(2, 1, 1), true}, {dim3(4, 6, 1), dim3(2, 2, 1), true},
      {dim3(4, 6, 1), dim3(1, 2, 1), true}, {dim3(4, 6, 1), dim3(2, 3, 1), true},
      {dim3(4, 6, 2), dim3(2, 1, 2), true}, {dim3(4, 6, 2), dim3(2, 2, 2), true},
      {dim3(4, 6, 2), dim3(1, 1, 1), false},
  };
}

void run_all(std::vector<std::vector<std::uint32_t>>* all) {
  std::vector<Case> const cs = cases();
  all->assign(cs.size(), {});
  // The kernel's static shape is the case's cluster shape.
  ASSERT_NO_FATAL_FAILURE((run<2, 1, 1>(cs[0], &(*all)[0])));
  ASSERT_NO_FATAL_FAILURE((run<2, 2, 1>(cs[1], &(*all)[1])));
  ASSERT_NO_FATAL_FAILURE((run<1, 2, 1>(cs[2], &(*all)[2])));
  ASSERT_NO_FATAL_FAILURE((run<2, 3, 1>(cs[3], &(*all)[3])));
  ASSERT_NO_FATAL_FAILURE((run<2, 1, 2>(cs[4], &(*all)[4])));
  ASSERT_NO_FATAL_FAILURE((run<2, 2, 2>(cs[5], &(*all)[5])));
  ASSERT_NO_FATAL_FAILURE((run<1, 1, 1>(cs[6], &(*all)[6])));
}

// Calls f(c, cta (x,y,z), thread, record) for every record of case c.
template <class F>
void for_each_record(Case const& c, std::vector<std::uint32_t> const& rec, F&& f) {
  for (unsigned z = 0; z < c.grid.z; ++z)
    for (unsigned y = 0; y < c.grid.y; ++y)
      for (unsigned x = 0; x < c.grid.x; ++x) {
        std::size_t const cta = x + std::size_t(c.grid.x) * (y + std::size_t(c.grid.y) * z);
        for (int t = 0; t < kThreads; ++t) f(dim3(x, y, z), t, &rec[(cta * kThreads + std::size_t(t)) * kFields]);
      }
}

testing::Message describe(Case const& c) {
  return testing::Message() << "grid " << c.grid.x << "x" << c.grid.y << "x" << c.grid.z << ", cluster "
                            << c.cluster.x << "x" << c.cluster.y << "x" << c.cluster.z
                            << (c.explicit_cluster ? " (cluster launch)" : " (plain launch)");
}

// Launches every case once, then calls check(c, records) for each, under
// the case's description.
template <class Check>
void check_every_case(Check&& check) {
  std::vector<std::vector<std::uint32_t>> all;
  ASSERT_NO_FATAL_FAILURE(run_all(&all));
  std::vector<Case> const cs = cases();
  for (std::size_t k = 0; k < cs.size(); ++k) {
    SCOPED_TRACE(describe(cs[k]));
    check(cs[k], all[k]);
  }
}

TEST(ClusterGeometry, RegistersMatchTheLaunch) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  check_every_case([&](Case const& c, std::vector<std::uint32_t> const& rec) {
    dim3 const n = c.cluster;
    int bad = 0;
    for_each_record(c, rec, [&](dim3 b, int t, std::uint32_t const* r) {
      dim3 const id(b.x % n.x, b.y % n.y, b.z % n.z);
      std::uint32_t const want[kRank + 3] = {
          id.x,          id.y,          id.z,          n.x,           n.y,           n.z,
          b.x / n.x,     b.y / n.y,     b.z / n.z,     c.grid.x / n.x, c.grid.y / n.y, c.grid.z / n.z,
          id.x + n.x * (id.y + n.y * id.z),            n.x * n.y * n.z, c.explicit_cluster ? 1u : 0u};
      static char const* const names[] = {
          "block_id_in_cluster().x", "block_id_in_cluster().y", "block_id_in_cluster().z", "cluster_shape().x",
          "cluster_shape().y",       "cluster_shape().z",       "cluster_id_in_grid().x",  "cluster_id_in_grid().y",
          "cluster_id_in_grid().z",  "cluster_grid_dims().x",   "cluster_grid_dims().y",   "cluster_grid_dims().z",
          "block_rank_in_cluster()", "cluster_size()",          "is_explicit_cluster()"};
      for (int f = 0; f < kRank + 3; ++f)
        if (r[f] != want[f] && bad++ < 8)
          ADD_FAILURE() << "CTA (" << b.x << "," << b.y << "," << b.z << ") thread " << t << ": " << names[f] << " = "
                        << r[f] << ", want " << want[f];
    });
    EXPECT_EQ(bad, 0);
  });
}

TEST(ClusterGeometry, ElectOneLeaderSyncElectsOneLanePerWarp) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  check_every_case([&](Case const& c, std::vector<std::uint32_t> const& rec) {
    int bad = 0;
    std::vector<std::uint32_t const*> warp;
    for_each_record(c, rec, [&](dim3 b, int t, std::uint32_t const* r) {
      warp.push_back(r);
      if (t % 32 != 31) return;
      int leaders = 0, elected = 0, leader_at = -1;
      bool same_lane = true;
      for (int lane = 0; lane < 32; ++lane) {
        std::uint32_t const* w = warp[std::size_t(lane)];
        leaders += w[kIsLeader] == 1u;
        elected += w[kElectOne] == 1u;
        if (w[kIsLeader] == 1u) leader_at = lane;
        same_lane = same_lane && w[kLeaderLane] == warp[0][kLeaderLane] && w[kIsLeader] <= 1u && w[kElectOne] <= 1u;
      }
      bool const ok = leaders == 1 && elected == 1 && same_lane && leader_at == int(warp[0][kLeaderLane]);
      if (!ok && bad++ < 8)
        ADD_FAILURE() << "CTA (" << b.x << "," << b.y << "," << b.z << ") warp " << t / 32 << ": " << leaders
                      << " elect_one_leader_sync leaders (at lane " << leader_at << "), leader_lane_id "
                      << warp[0][kLeaderLane] << (same_lane ? " in every lane" : " not the same in every lane")
                      << ", " << elected << " elect_one_sync winners; want one leader, named in every lane";
      warp.clear();
    });
    EXPECT_EQ(bad, 0);
  });
}

TEST(ClusterGeometry, MulticastMaskOnDeviceMatchesHost) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  check_every_case([&](Case const& c, std::vector<std::uint32_t> const& rec) {
    dim3 const n = c.cluster;
    auto const host_layout = make_layout(make_shape(int(n.x), int(n.y), int(n.z)));
    int bad = 0;
    for_each_record(c, rec, [&](dim3 b, int t, std::uint32_t const* r) {
      int const id[3] = {int(b.x % n.x), int(b.y % n.y), int(b.z % n.z)};
      auto const coord = make_coord(id[0], id[1], id[2]);
      std::uint32_t const host[kMaskFields] = {
          create_tma_multicast_mask<0>(host_layout, coord), create_tma_multicast_mask<1>(host_layout, coord),
          create_tma_multicast_mask<2>(host_layout, coord), create_tma_multicast_mask<0, 1>(host_layout, coord),
          create_tma_multicast_mask<0, 1, 2>(host_layout, coord)};
      // Brute force: the ranks (x + X * (y + Y * z), as %cluster_ctarank) of
      // the CTAs that agree with this one outside the listed modes.
      int const listed[kMaskFields] = {0b001, 0b010, 0b100, 0b011, 0b111};
      std::uint32_t brute[kMaskFields] = {};
      for (int f = 0; f < kMaskFields; ++f)
        for (unsigned z = 0; z < n.z; ++z)
          for (unsigned y = 0; y < n.y; ++y)
            for (unsigned x = 0; x < n.x; ++x) {
              int const other[3] = {int(x), int(y), int(z)};
              bool agree = true;
              for (int m = 0; m < 3; ++m) agree = agree && (((listed[f] >> m) & 1) || other[m] == id[m]);
              if (agree) brute[f] |= 1u << (x + n.x * (y + n.y * z));
            }
      for (int f = 0; f < kMaskFields; ++f) {
        bool const ok = r[kMask0 + f] == host[f] && r[kStatic0 + f] == host[f] && host[f] == brute[f];
        if (!ok && bad++ < 8)
          ADD_FAILURE() << "CTA (" << b.x << "," << b.y << "," << b.z << ") thread " << t << ", listed-mode bits "
                        << listed[f] << ": device 0x" << std::hex << r[kMask0 + f] << " (run-time layout), 0x"
                        << r[kStatic0 + f] << " (static layout); host 0x" << host[f] << "; brute force 0x" << brute[f]
                        << std::dec;
      }
    });
    EXPECT_EQ(bad, 0);
  });
}

}  // namespace
