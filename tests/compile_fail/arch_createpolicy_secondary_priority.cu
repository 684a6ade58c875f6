// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: the secondary priority must be evict_first or evict_unchanged
//
// createpolicy's secondary priority (what the accesses outside the fraction
// get) is evict_first or evict_unchanged; evict_last there is no PTX form
// and fails the build by name.
#include <tessera/arch/sm80/cache_policy.cuh>

using tessera::arch::L2Priority;

__global__ void kernel(std::uint64_t* out) {
  out[0] = tessera::arch::createpolicy_fractional<L2Priority::evict_first, L2Priority::evict_last>(0.5f);
}

int main() { return 0; }
