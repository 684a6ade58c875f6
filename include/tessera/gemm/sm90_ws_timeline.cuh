// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// When each CTA of the warp-specialised Hopper GEMM starts, gets its first
// and last stage of data, and finishes: a measurement hook, off by default.
//
// Why: session 43 found the skinny GEMM (128x8192x8192) reading 78-80% of
// the copy bandwidth where its own TMA loads, run without MMAs, read 84-87%
// and a plain read of the same bytes 93-95% (docs/performance.md). The 3-4
// us between the GEMM and its load skeleton lie before the first stage,
// between the first and last, or after the last; this hook says which.
// (Session 44, runs 368-370: between the first and last stage the skinny
// rows stream at the copy's rate; the loss is 2.5 us before the first stage
// and 2.4 us after the median last one. docs/performance.md.)
//
// Off (the library's build): every TESSERA_WS_* macro expands to nothing,
// so the kernels are the same code as without the hook. On (the translation
// units define TESSERA_WS_TIMELINE, e.g. through CMAKE_CUDA_FLAGS, as
// scripts/gpu/ws_timeline.sh builds the runtime): each CTA's thread 0 and
// each role's first thread write %globaltimer (ns) into ws_timeline[CTA]
// slots:
//   0 entry; 1 the producer's first TMA issue; 2 its last;
//   3 + 3c / 4 + 3c / 5 + 3c consumer c's first full[] wait passed, its last
//   one passed, and its end (after its TMA stores have written);
//   9 thread 0 past the barrier-init __syncthreads; 10 the producer thread
//   at its loop (after setmaxnreg and the descriptor prefetches); 11 the
//   producer's first unit's coordinates known (before its first empty[]
//   wait); 12 / 13 consumer 0 (thread 128) past the wgmma wait of its last
//   unit / at the end of its epilogues (before the deferred flush).
// Slots left 0 were not reached (a consumer without a unit).
// The launch to be measured must follow ws_timeline_clear(); the times are
// then read with ws_timeline_copy().
// On, the kernels are not quite the library's: the cooperative 128x256
// deferred kernel (bf16) spilled 100 / 124 bytes instead of 68 / 88 in a
// session-43 compile; ping-pong 64x128 and the narrow tiles stayed
// spill-free. Off, the SASS of those three was byte-identical to the tree
// without the hook.

#ifdef TESSERA_WS_TIMELINE

#include <cstdint>

#include <tessera/arch/global_timer.cuh>
#include <tessera/gemm/api.hpp>

namespace tessera::kernels::sm90 {

inline constexpr int kWsTimelineSlots = 16;
inline constexpr int kWsTimelineCtas = 2048;

// Internal linkage: the copy that counts is the one of the translation unit
// that launches the kernels (src/gemm/kernels/sm90_ws_gemm.cu).
static __device__ unsigned long long ws_timeline[kWsTimelineCtas * kWsTimelineSlots];

__device__ __forceinline__ void ws_timeline_put(int slot, unsigned long long t) {
  if (blockIdx.x < unsigned(kWsTimelineCtas)) ws_timeline[blockIdx.x * kWsTimelineSlots + slot] = t;
}

// A consumer warpgroup's first and last full[] waits and its end, written
// by its first thread.
struct WsTimelineConsumer {
  bool seen = false;
  unsigned long long last = 0;
  __device__ __forceinline__ void data(int cw) {
    if (threadIdx.x % 128 != 0) return;
    unsigned long long const t = arch::global_timer_ns();
    if (!seen) ws_timeline_put(3 + 3 * cw, t);
    seen = true;
    last = t;
  }
  __device__ __forceinline__ void done(int cw) {
    if (threadIdx.x % 128 != 0 || !seen) return;
    ws_timeline_put(4 + 3 * cw, last);
    ws_timeline_put(5 + 3 * cw, arch::global_timer_ns());
  }
};

}  // namespace tessera::kernels::sm90

namespace tessera::detail {
// Zeroes every slot / copies the slots of the first `ctas` CTAs (ctas x
// kWsTimelineSlots values) to host memory `out`. Defined in
// src/gemm/kernels/sm90_ws_gemm.cu (built with TESSERA_WS_TIMELINE).
Status ws_timeline_clear();
Status ws_timeline_copy(std::uint64_t* out, int ctas);
}  // namespace tessera::detail

#define TESSERA_WS_MARK_IF(cond, slot) \
  do {                                 \
    if (cond) ::tessera::kernels::sm90::ws_timeline_put(slot, ::tessera::arch::global_timer_ns()); \
  } while (0)
#define TESSERA_WS_CONSUMER_STATE ::tessera::kernels::sm90::WsTimelineConsumer ws_timeline_consumer_
#define TESSERA_WS_CONSUMER_DATA(cw) ws_timeline_consumer_.data(cw)
#define TESSERA_WS_CONSUMER_DONE(cw) ws_timeline_consumer_.done(cw)

#else

#define TESSERA_WS_MARK_IF(cond, slot)
#define TESSERA_WS_CONSUMER_STATE
#define TESSERA_WS_CONSUMER_DATA(cw)
#define TESSERA_WS_CONSUMER_DONE(cw)

#endif
