// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// %globaltimer: the GPU's nanosecond clock, one clock for every SM (unlike
// clock64, which counts each SM's cycles). Its readings can be compared
// across CTAs and kernels; how often it advances is the hardware's choice.
// Used by the benchmark's queue gate (bench/queue_hold.cu) for its timeout
// and by the Hopper GEMM's measurement hook (gemm/sm90_ws_timeline.cuh).

#include <cstdint>

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

// mov.u64 %globaltimer: nanoseconds. Laws: two readings by one thread never
// decrease; readings by different threads share one time base.
__device__ __forceinline__ std::uint64_t global_timer_ns() {
#if TESSERA_SM80_ENABLED
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  tessera_error_requires_sm80_or_newer();
  return 0;
#endif
}

}  // namespace tessera::arch
