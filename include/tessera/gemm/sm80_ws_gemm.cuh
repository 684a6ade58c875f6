// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The seed tile's mma.sync kernel fed by copy warps: cp.async only, sm_80
// instructions throughout (Sm80Variant::t128x128_ws, a tuning candidate; the
// library instantiates kCopyWarps = 2).
//
// Why: the TMA-fed form (sm80_tma_gemm.cuh) ran the seed problem 7.5% faster
// than the cp.async kernel with the same mainloop (docs/performance.md,
// Ampere v7 and v8): the copies left the four MMA warps' instruction streams.
// TMA is a Hopper instruction. Here extra warps issue the cp.async copies
// instead, so the MMA warps' streams are close to the TMA-fed kernel's while
// every instruction is sm_80's.
//
// What stays the TMA-fed kernel's: the 128x128x64 tile of 4 MMA warps of
// 64x64, the 3-stage ring and its shared-memory map (cp.async writes the
// swizzled chunks itself, as in the seed kernel), the ldmatrix fragments and
// mma.sync order of Sm80Mainloop, the epilogue and the tail split; one
// matrix per launch (no batch loop: the launcher refuses batches). What
// differs: no CTA barrier per k-tile (below).
//
// History (H200, seed problem, against the cp.async kernel in the same
// run; docs/performance.md, Ampere v9 to v12): v1, one copy warp joining a
// CTA barrier per k-tile, 0.91x; without it, one copy warp spinning on
// "empty" mbarriers 0.84x, two 0.94-0.95x; "empty" as hardware barriers,
// one copy warp 0.94x, two 1.02-1.03x; "full" as hardware barriers too,
// two copy warps 1.04x; "full" per MMA warp (what is here), +1% more.
//
// Synchronisation, hardware barriers only:
//   "full"  (stage s, MMA warp w: id 1 + kStages + 4 s + w; that warp and
//     the copy warps): a copy warp issues its share of k-tile kt
//     (GmemTileLoader with 32 threads, interior loop unrolled whole) as one
//     cp.async group, then waits for its previous group (k-tile kt - 1) to
//     land and arrives (bar.arrive) on that k-tile's four "full" barriers;
//     each MMA warp waits on its own (bar.sync) before reading the stage.
//     One barrier per MMA warp rather than one for all four: the MMA warps
//     do not wait for each other at every k-tile (v12: 1741 cycles per
//     k-tile against 1762, clock64 on every wait).
//   "empty" (stage s: id 1 + s; every warp): when an MMA warp's last
//     fragment loads from a stage are done and a later k-tile will reuse
//     the stage, it arrives; the copy warps wait there before refilling it.
// A barrier's completion orders the arriving threads' earlier accesses
// (cp.async.wait_group has made the copies the copy warp's own writes;
// ldmatrix reads before the refill) before the waiting threads' later ones.
// Three stages use all fifteen ids (3 "empty" + 12 "full").
// Hardware barriers rather than mbarriers: sm_80 has no suspending
// try_wait, and warps polling test_wait took issue slots from the warps
// on their scheduler (v10).
// kCopyWarps 1: one warp copies both operands; 2: one per operand, which
// spreads the copies' issue over two of the SM's four schedulers.
// After its last k-tile a copy warp waits for its copies, arrives on that
// k-tile's "full" barriers and exits; the epilogue's barriers then count
// the MMA warps alone (a CTA barrier waits for the threads that have not
// exited).
//
// Registers: 160 (192) threads and two CTAs per SM leave 200 (168) per
// thread (allocated in units of 8).

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm80/cp_async.cuh>
#include <tessera/arch/sm90/named_barrier.cuh>
#include <tessera/gemm/sm80_tensorop.cuh>
#include <tessera/gemm/sm80_wait_probe.cuh>

namespace tessera::kernels::sm80 {

// A copy warp's share of one operand tile (K-major, 16-byte units): the
// seed kernel's loader over 32 threads instead of kThreads, so each lane
// moves kThreads / 32 times the units into the same shared-memory image
// (tests/device/test_gemm_sm80_indexing.cu compares the two). Its interior
// loop is unrolled whole: the copy warps have registers to spare, and every
// unit's shared-memory offset becomes an immediate.
template <class Cfg, class Elem>
using WsCopyA = GmemTileLoader<Elem, true, Cfg::kBlockM, Cfg::kBlockK, 32, 16, true>;
template <class Cfg, class Elem>
using WsCopyB = GmemTileLoader<Elem, true, Cfg::kBlockN, Cfg::kBlockK, 32, 16, true>;

// Probe: where the warps wait (sm80_wait_probe.cuh); the library's
// NoWaitProbe adds nothing.
template <class Cfg, class Elem, class Acc, bool kTailSplit, int kCopyWarps = 1, class Probe = NoWaitProbe>
__global__ void __launch_bounds__(kWsThreads<Cfg, kCopyWarps>, 2) sm80_ws_gemm_kernel(const Params p) {
  static_assert(Cfg::kAKMajor && Cfg::kBKMajor && Cfg::kElemBytes == 2 && Cfg::kAccessBytes == 16,
                "sm80_ws_gemm_kernel: 16-bit operands, both K-major, 16-byte copies");
  static_assert(Cfg::kThreads == 128, "sm80_ws_gemm_kernel: four MMA warps (two CTAs per SM)");
  static_assert(kCopyWarps == 1 || kCopyWarps == 2, "sm80_ws_gemm_kernel: one copy warp, or one per operand");
  static_assert(Cfg::kEpiloguePasses == 1, "sm80_ws_gemm_kernel: the epilogue stages the whole tile at once");
  using Mainloop = Sm80Mainloop<Cfg, Elem, Acc>;
  static_assert(!Mainloop::kSplitN && !Mainloop::kSpread,
                "sm80_ws_gemm_kernel: the double-buffered k-step order of the multistage ring only");
  using CopyA = WsCopyA<Cfg, Elem>;
  using CopyB = WsCopyB<Cfg, Elem>;
#if TESSERA_SM80_ENABLED
  constexpr int kStages = Cfg::kStages;
  extern __shared__ __align__(128) char smem[];
  char* const sA = smem;                                // (BLK_M,BLK_K,PIPE)
  char* const sB = smem + kStages * Cfg::kStageBytesA;  // (BLK_N,BLK_K,PIPE)
  // The hardware barriers (ids 1..15; 0 is __syncthreads'): "empty" of
  // stage s for every warp, "full" of stage s and MMA warp w for that warp
  // and the copy warps.
  constexpr int kMmaWarps = Cfg::kThreads / 32;
  constexpr uint32_t kEmptyThreads = uint32_t(Cfg::kThreads + 32 * kCopyWarps);
  constexpr uint32_t kFullThreads = uint32_t(32 + 32 * kCopyWarps);
  static_assert(kStages * (1 + kMmaWarps) <= 15,
                "sm80_ws_gemm_kernel: one \"empty\" barrier per stage and one \"full\" per stage and MMA "
                "warp, ids 1..15");
  auto empty_bar = [](int s) { return 1u + uint32_t(s); };
  auto full_bar = [](int s, int w) { return 1u + uint32_t(kStages + s * kMmaWarps + w); };
  auto arrive_full = [&](int s) {
#pragma unroll
    for (int w = 0; w < kMmaWarps; ++w) arch::named_barrier_arrive(full_bar(s, w), kFullThreads);
  };

  int const all_k_tiles = (p.k + Cfg::kBlockK - 1) / Cfg::kBlockK;
  Sm80CtaPlace const place = sm80_cta_place<Cfg, kTailSplit>(p, all_k_tiles);
  int const k_tiles = place.unit.k_tiles;
  auto stage_a = [&](int s) { return sA + s * Cfg::kStageBytesA; };
  auto stage_b = [&](int s) { return sB + s * Cfg::kStageBytesB; };
  Probe probe{};

  if (int(threadIdx.x) >= Cfg::kThreads) {
    // A copy warp. The slice's operands start at k0 and end k_len later.
    int const k0 = place.unit.kt0 * Cfg::kBlockK;
    int const k_len = p.k - k0 < k_tiles * Cfg::kBlockK ? p.k - k0 : k_tiles * Cfg::kBlockK;
    int const copy_warp = (int(threadIdx.x) - Cfg::kThreads) >> 5;  // warp-uniform
    int const lane = int(threadIdx.x) & 31;
    bool const copies_a = kCopyWarps == 1 || copy_warp == 0;
    bool const copies_b = kCopyWarps == 1 || copy_warp == 1;
    CopyA const la(static_cast<const char*>(p.a) + int64_t(k0) * int64_t(sizeof(Elem)), p.lda, place.m0, p.m, k_len,
                   lane);
    CopyB const lb(static_cast<const char*>(p.b) + int64_t(k0) * int64_t(sizeof(Elem)), p.ldb, place.n0, p.n, k_len,
                   lane);
    // k-tile kt of this unit into stage kt % kStages, once the MMA warps
    // are done with k-tile kt - kStages there; k-tile kt - 1's "full" once
    // its copies have landed.
    for (int kt = 0; kt < k_tiles; ++kt) {
      int const s = kt % kStages;
      if (kt >= kStages) probe(WaitSite::empty, [&] { arch::named_barrier_sync(empty_bar(s), kEmptyThreads); });
      probe(WaitSite::issue, [&] {
        if (copies_a) la.copy_async(stage_a(s), kt);
        if (copies_b) lb.copy_async(stage_b(s), kt);
        arch::cp_async_fence();
      });
      if (kt >= 1) {
        probe(WaitSite::landed, [] { arch::cp_async_wait<1>(); });
        arrive_full((kt - 1) % kStages);
      }
    }
    probe(WaitSite::landed, [] { arch::cp_async_wait_all(); });
    if (k_tiles >= 1) arrive_full((k_tiles - 1) % kStages);
    probe.done(WaitRole::copy);
    return;
  }

  int const mma_warp = int(threadIdx.x) >> 5;  // warp-uniform
  typename Mainloop::Frags const frags(place.warp_m, place.warp_n);
  typename Mainloop::FragD acc[Cfg::kMmaM][Cfg::kMmaN];
  sm80_zero_accumulators(acc);
  sm80_signalled_ring_mma<Cfg, Mainloop>(
      frags, sA, sB, k_tiles, acc,
      [&](int kt) {
        probe(WaitSite::full, [&] { arch::named_barrier_sync(full_bar(kt % kStages, mma_warp), kFullThreads); });
      },
      [](int) {},  // the copy warps refill the stages
      [&](int kt) {  // k-tile kt's stage is free; the copy warps wait for it only if a later k-tile reuses it
        if (kt + kStages < k_tiles)
          probe(WaitSite::release, [&] { arch::named_barrier_arrive(empty_bar(kt % kStages), kEmptyThreads); });
      });
  probe.done(WaitRole::mma);
  // Every k-tile issued has been waited for: no copy is in flight when the
  // epilogue reuses the ring.

  __syncthreads();  // every MMA warp has left the mainloop (the copy warps have exited or are exiting)
  (void)sm80_finish_tile<Cfg>(smem, acc, p, p.epi, place);
#else
  // Not built below sm_80 (no cp.async).
  (void)p;
#endif
}

// Launch description of the copy-warp form of configuration Cfg with
// kCopyWarps copy warps (its tail split instantiation too when Cfg has one).
template <class Cfg, class Elem, class Acc, int kCopyWarps = 1>
Launch describe_ws() {
  Launch l{reinterpret_cast<const void*>(&sm80_ws_gemm_kernel<Cfg, Elem, Acc, false, kCopyWarps>),
           kWsThreads<Cfg, kCopyWarps>, ws_ring_smem_bytes<Cfg>(), Cfg::kBlockM, Cfg::kBlockN, Cfg::kAccessBytes};
  if constexpr (kHasTailSplit<Cfg>)
    l.split_function = reinterpret_cast<const void*>(&sm80_ws_gemm_kernel<Cfg, Elem, Acc, true, kCopyWarps>);
  return l;
}

}  // namespace tessera::kernels::sm80
