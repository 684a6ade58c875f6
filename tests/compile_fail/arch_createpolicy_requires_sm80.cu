// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: tessera_error_requires_sm80_or_newer
// nvcc-flags: -gencode=arch=compute_75,code=sm_75
//
// createpolicy exists from sm_80 on (PTX ISA 7.4): built for sm_75 the build
// must fail and name the requirement (tests/ptx/createpolicy_sm80.cu builds
// the same call for sm_80).
#include <tessera/arch/sm80/cache_policy.cuh>

__global__ void kernel(std::uint64_t* out) {
  out[0] = tessera::arch::createpolicy_fractional<tessera::arch::L2Priority::evict_last>();
}

int main() { return 0; }
