// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Host side of thread-block clusters (sm_90): launching a kernel in clusters
// of a shape chosen at run time (the cudaLaunchAttributeClusterDimension
// attribute, instead of a compile-time __cluster_dims__), and asking how many
// such clusters the device can hold at once. The device side (ranks, cluster
// barriers) is cluster.cuh.
//
// A kernel launched this way must not also carry __cluster_dims__; the
// runtime rejects the pair.

#include <cuda_runtime.h>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera::arch {

// One launch in clusters: `grid` and `block` as for <<<>>>, `cluster` CTAs
// per cluster in each dimension, `smem` bytes of dynamic shared memory.
struct ClusterLaunch {
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  dim3 cluster{1, 1, 1};
  std::size_t smem = 0;
  cudaStream_t stream = nullptr;
};

// The most CTAs one cluster can have on sm_90: 8 for any kernel (the
// portable limit), 16 for a kernel that has opted in with
// cudaFuncAttributeNonPortableClusterSizeAllowed.
inline constexpr unsigned kMaxClusterCtas = 16;

// Whether `l`'s grid is made of whole clusters of a possible size: every
// cluster extent is at least 1 and divides the grid's extent in that
// dimension (the runtime's rule; a launch that breaks it fails with
// cudaErrorInvalidValue and runs nothing), and a cluster has at most
// kMaxClusterCtas CTAs. launch_cluster and max_active_clusters check this
// before asking the runtime, so a shape that can never work costs no CUDA
// error.
[[nodiscard]] inline bool whole_clusters(ClusterLaunch const& l) {
  return l.cluster.x >= 1 && l.cluster.y >= 1 && l.cluster.z >= 1 && l.grid.x % l.cluster.x == 0 &&
         l.grid.y % l.cluster.y == 0 && l.grid.z % l.cluster.z == 0 &&
         std::size_t(l.cluster.x) * l.cluster.y * l.cluster.z <= kMaxClusterCtas;
}

namespace detail {

// cudaLaunchConfig_t for `l`, pointing at `attr` (filled here).
inline cudaLaunchConfig_t cluster_config(ClusterLaunch const& l, cudaLaunchAttribute* attr) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = l.grid;
  cfg.blockDim = l.block;
  cfg.dynamicSmemBytes = l.smem;
  cfg.stream = l.stream;
  attr[0] = {};
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = l.cluster.x;
  attr[0].val.clusterDim.y = l.cluster.y;
  attr[0].val.clusterDim.z = l.cluster.z;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cfg;
}

}  // namespace detail

// Enqueues `kernel` (a __global__ function's address) on l.stream in
// clusters of l.cluster. `args` points at each kernel argument, as for
// cudaLaunchKernel. Returns cudaErrorInvalidValue without launching when
// !whole_clusters(l); otherwise the runtime's result (e.g.
// cudaErrorInvalidDeviceFunction before sm_90, or 9 to 16 CTAs per cluster
// for a kernel that has not opted in).
[[nodiscard]] inline cudaError_t launch_cluster(const void* kernel, ClusterLaunch const& l, void** args) {
  if (!whole_clusters(l)) return cudaErrorInvalidValue;
  cudaLaunchAttribute attr[1];
  cudaLaunchConfig_t const cfg = detail::cluster_config(l, attr);
  return cudaLaunchKernelExC(&cfg, kernel, args);
}

// The same with the arguments given as values, converted to the kernel's
// parameter types: launch_cluster(&k, l, a, b).
template <class... Params, class... Actual>
[[nodiscard]] cudaError_t launch_cluster(void (*kernel)(Params...), ClusterLaunch const& l, Actual&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Actual),
                "launch_cluster: the kernel takes a different number of arguments");
  if constexpr (sizeof...(Params) != sizeof...(Actual)) {
    return cudaErrorInvalidValue;  // not reached: the assertion above stops the build, as its only error
  } else {
    std::tuple<std::decay_t<Params>...> values(std::forward<Actual>(args)...);
    return std::apply(
        [&](auto&... v) {
          void* ptrs[] = {static_cast<void*>(&v)..., nullptr};
          return launch_cluster(reinterpret_cast<const void*>(kernel), l, ptrs);
        },
        values);
  }
}

// How many clusters of l.cluster CTAs (l.block threads and l.smem bytes
// each) of `kernel` the device can hold at once
// (cudaOccupancyMaxActiveClusters; on sm_90 some SMs may stay idle when
// GPCs have an odd number of them). 0 without asking the runtime when
// !whole_clusters(l), and 0 when the runtime cannot say (before sm_90, too
// many CTAs per cluster for this kernel); the runtime's error is cleared, so
// it does not leak into the caller's next cudaGetLastError.
[[nodiscard]] inline int max_active_clusters(const void* kernel, ClusterLaunch const& l) {
  if (!whole_clusters(l)) return 0;
  cudaLaunchAttribute attr[1];
  cudaLaunchConfig_t const cfg = detail::cluster_config(l, attr);
  int active = 0;
  if (cudaOccupancyMaxActiveClusters(&active, kernel, &cfg) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return active;
}

}  // namespace tessera::arch
