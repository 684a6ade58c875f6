// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Proxy and barrier-initialisation fences. Minimum architecture: sm_90.
//
// Shared memory written by ordinary stores (st.shared, stmatrix) that the
// async proxy (TMA, wgmma descriptors) reads next needs
// fence.proxy.async.shared::cta in each writing thread, then a barrier.
// mbarrier.init is an ordinary write; fence.mbarrier_init.release.cluster
// makes it visible to the async proxy and to other CTAs of the cluster.

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

// fence.proxy.async.shared::cta; sm_90.
__device__ __forceinline__ void fence_proxy_async_shared_cta() {
#if TESSERA_SM90_ENABLED
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#else
  tessera_error_requires_sm90_or_newer();
#endif
}

// fence.proxy.async; (all state spaces) sm_90.
__device__ __forceinline__ void fence_proxy_async() {
#if TESSERA_SM90_ENABLED
  asm volatile("fence.proxy.async;\n" ::: "memory");
#else
  tessera_error_requires_sm90_or_newer();
#endif
}

// fence.mbarrier_init.release.cluster; sm_90.
__device__ __forceinline__ void fence_mbarrier_init() {
#if TESSERA_SM90_ENABLED
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#else
  tessera_error_requires_sm90_or_newer();
#endif
}

}  // namespace tessera::arch
