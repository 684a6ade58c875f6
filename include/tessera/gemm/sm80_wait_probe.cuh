// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Where the seed tile's signalled kernels wait: a measurement hook.
//
// Why: ncu on these machines has no PC sampling, so a barrier stall in its
// report cannot be attributed to a barrier (docs/performance.md, Ampere
// v11: the copy warps' expected waits on "empty" and the MMA warps' waits
// on "full" read as one number). The TMA-fed and copy-warp kernels
// (sm80_tma_gemm.cuh, sm80_ws_gemm.cuh) take a probe type and run every
// wait through it:
//   probe(WaitSite, wait)  runs wait() (the probe may time it);
//   probe.done(role)       once per warp, when the warp's waiting is over.
// The library instantiates NoWaitProbe, which runs the wait and nothing
// else: the kernels compile to what they were without the hook.
// scripts/gpu/tma_seed_check.cu (WAIT_PROBE=1) passes one that sums clock64
// around each site.
// NOTE: a hardware barrier's wait compiles to BAR.SYNC.DEFER_BLOCKING: the
// warp blocks at its next instruction that has to wait, and a clock read
// is not one. So a bar.sync's cycles can show up at the site that follows
// it (run 345: the MMA warps' "full" wait read as their bar.arrive on
// "empty"; the copy warps' "empty" wait as their first cp.async). Per-warp
// totals are exact; the split between neighbouring sites is not
// (docs/performance.md, Ampere v12).

namespace tessera::kernels::sm80 {

// The waits: the MMA warps' wait for a k-tile to land ("full") and their
// signal that a stage is free ("release": the TMA-fed kernel's CTA barrier,
// the copy-warp kernel's bar.arrive), the copy warps' wait for a stage to be
// free ("empty"), for their own copies to land (cp.async.wait_group,
// "landed"), and their issue of a k-tile's copies ("issue": not a wait, but
// where the rest of a copy warp's time goes).
enum class WaitSite : int { full = 0, release = 1, empty = 2, landed = 3, issue = 4 };
inline constexpr int kWaitSites = 5;

// Who is waiting: the warps that issue mma.sync, or the copy warps.
enum class WaitRole : int { mma = 0, copy = 1 };

struct NoWaitProbe {
  template <class Wait>
  __device__ __forceinline__ void operator()(WaitSite, Wait&& wait) {
    wait();
  }
  __device__ __forceinline__ void done(WaitRole) {}
};

}  // namespace tessera::kernels::sm80
