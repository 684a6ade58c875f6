// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// L2CachePolicy: an L2 cache eviction policy as the copies that take one see
// it (CuTe passes TMA::CacheHintSm90 there). Made on the device by
//
//   L2CachePolicy const keep = make_l2_cache_policy<L2Priority::evict_last>();         // fraction 1.0
//   L2CachePolicy const once = make_l2_cache_policy<L2Priority::evict_first>();
//   L2CachePolicy const half = make_l2_cache_policy<L2Priority::evict_last, L2Priority::evict_first>(0.5f);
//
// (createpolicy.fractional, arch/sm80/cache_policy.cuh, which states the
// rules: fraction in (0, 1], secondary evict_first or evict_unchanged; sm_80+)
// and taken by the TMA loads and prefetches of tma/tma_copy.hpp:
//
//   copy(tma_load.with(mbar, keep), coord, sA);
//   copy(tma_load_mc.with(mbar, cta_mask, keep), tAgA(_, k), tAsA(_, pipe));
//   prefetch(tma_load, tAgA(_, k + 1), keep);
//
// A hint: the data is the same under any policy. A distinct type rather than
// a bare std::uint64_t, so that a policy can never be taken for a multicast
// mask (or the other way round) by an integer conversion; its constructor
// from the raw value is explicit, for a value that createpolicy made
// elsewhere (arch::createpolicy_fractional). There is no default policy:
// the PTX ISA does not define the encoding, so no constant stands for one.

#include <cstdint>

#include "tessera/config.hpp"

#if defined(__CUDACC__)
#include <tessera/arch/sm80/cache_policy.cuh>
#endif

namespace tessera {

struct L2CachePolicy {
  std::uint64_t value;  // createpolicy's opaque 64-bit result
  TESSERA_HOST_DEVICE constexpr explicit L2CachePolicy(std::uint64_t v) : value(v) {}
};

#if defined(__CUDACC__)

using arch::L2Priority;

// The policy createpolicy.fractional.L2::<kPrimary>{.L2::<kSecondary>}.b64
// makes: kPrimary for a `fraction` of the accesses under it, kSecondary for
// the rest. sm_80+ (a build for an older target fails by name).
template <L2Priority kPrimary, L2Priority kSecondary = L2Priority::evict_unchanged>
__device__ __forceinline__ L2CachePolicy make_l2_cache_policy(float fraction = 1.0f) {
  return L2CachePolicy{arch::createpolicy_fractional<kPrimary, kSecondary>(fraction)};
}

#endif

}  // namespace tessera
