// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: launch_cluster: the kernel takes a different number of arguments
//
// launch_cluster's typed form converts each value to the kernel's parameter
// type, so it needs one value per parameter; a missing one fails the build
// (cudaLaunchKernelExC would read past the argument array at run time).
#include <tessera/arch/sm90/cluster_launch.hpp>

__global__ void kernel(int* out, int value) { out[blockIdx.x] = value; }

int main() {
  tessera::arch::ClusterLaunch l;
  l.grid = dim3(2);
  l.cluster = dim3(2);
  int* out = nullptr;
  return tessera::arch::launch_cluster(&kernel, l, out) == cudaSuccess ? 0 : 1;
}
