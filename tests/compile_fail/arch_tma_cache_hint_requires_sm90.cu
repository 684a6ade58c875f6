// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm90_or_newer
// nvcc-flags: -gencode=arch=compute_80,code=sm_80
//
// The .L2::cache_hint TMA forms are sm_90 like the plain ones; createpolicy
// alone is sm_80. Built for sm_80, a kernel that makes a policy (fine there)
// and hands it to a hinted TMA load must fail the build by the TMA's name.
#include <tessera/arch/sm80/cache_policy.cuh>
#include <tessera/arch/sm90/tma.cuh>

using tessera::arch::L2Priority;

__global__ void kernel(const __grid_constant__ std::uint64_t tmap, int k0) {
  __shared__ __align__(128) char buf[4096];
  __shared__ std::uint64_t bar;
  std::uint64_t const policy = tessera::arch::createpolicy_fractional<L2Priority::evict_first>();
  tessera::arch::tma_load_cache_hint(buf, &tmap, &bar, policy, k0, 0);
}

int main() { return 0; }
