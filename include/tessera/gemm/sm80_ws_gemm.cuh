// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The seed tile's mma.sync kernel fed by a copy warp: cp.async only, sm_80
// instructions throughout (Sm80Variant::t128x128_ws, a tuning candidate).
//
// Why: the TMA-fed form (sm80_tma_gemm.cuh) ran the seed problem 7.5% faster
// than the cp.async kernel with the same mainloop (docs/performance.md,
// Ampere v7 and v8): the copies left the four MMA warps' instruction streams.
// TMA is a Hopper instruction. Here a fifth warp issues the cp.async copies
// instead, so the MMA warps' streams are the TMA-fed kernel's while every
// instruction is sm_80's.
//
// What stays the TMA-fed kernel's: the 128x128x64 tile of 4 MMA warps of
// 64x64, the 3-stage ring and its shared-memory map (cp.async writes the
// swizzled chunks itself, as in the seed kernel), the ldmatrix fragments and
// mma.sync order of Sm80Mainloop, one CTA barrier per k-tile, the epilogue
// and the tail split.
//
// Synchronisation: stage s has one mbarrier expecting 32 arrivals. Each lane
// of the copy warp issues its share of a k-tile (GmemTileLoader with 32
// threads: 32 units of 16 bytes per operand) and then
// cp.async.mbarrier.arrive.noinc, which arrives once its copies have landed.
// The MMA warps wait on the stage's phase (test_wait.parity, the use's
// parity) where the TMA-fed kernel waited on its transaction count. The copy
// warp takes part in the per-k-tile CTA barrier, so it refills a stage at
// the same point the TMA-fed kernel's thread 0 did: after the barrier that
// ends the k-tile which read it last. After its last k-tile it waits for its
// copies and exits; the epilogue's barriers then count the MMA warps alone
// (a CTA barrier waits for the threads that have not exited).
//
// Registers: 160 threads and two CTAs per SM leave 204 per thread.

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm80/cp_async.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>
#include <tessera/gemm/sm80_tensorop.cuh>

namespace tessera::kernels::sm80 {

// The copy warp's share of one operand tile (K-major, 16-byte units): the
// seed kernel's loader over 32 threads instead of kThreads, so each lane
// moves kThreads / 32 times the units into the same shared-memory image
// (tests/device/test_gemm_sm80_indexing.cu compares the two).
template <class Cfg, class Elem>
using WsCopyA = GmemTileLoader<Elem, true, Cfg::kBlockM, Cfg::kBlockK, 32, 16>;
template <class Cfg, class Elem>
using WsCopyB = GmemTileLoader<Elem, true, Cfg::kBlockN, Cfg::kBlockK, 32, 16>;

template <class Cfg, class Elem, class Acc, bool kTailSplit>
__global__ void __launch_bounds__(kWsThreads<Cfg>, 2) sm80_ws_gemm_kernel(const Params p) {
  static_assert(Cfg::kAKMajor && Cfg::kBKMajor && Cfg::kElemBytes == 2 && Cfg::kAccessBytes == 16,
                "sm80_ws_gemm_kernel: 16-bit operands, both K-major, 16-byte copies");
  static_assert(Cfg::kThreads == 128, "sm80_ws_gemm_kernel: four MMA warps (two CTAs of five warps per SM)");
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
  uint64_t* const full = reinterpret_cast<uint64_t*>(smem + Cfg::kSmemBytes);  // past the ring and the staging tile

  int const all_k_tiles = (p.k + Cfg::kBlockK - 1) / Cfg::kBlockK;
  Sm80CtaPlace const place = sm80_cta_place<Cfg, kTailSplit>(p, all_k_tiles);
  int const k_tiles = place.unit.k_tiles;
  auto stage_a = [&](int s) { return sA + s * Cfg::kStageBytesA; };
  auto stage_b = [&](int s) { return sB + s * Cfg::kStageBytesB; };

  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < kStages; ++s) arch::mbarrier_init(&full[s], 32);
  }
  __syncthreads();

  if (int(threadIdx.x) >= Cfg::kThreads) {
    // The copy warp. The slice's operands start at k0 and end k_len later.
    int const k0 = place.unit.kt0 * Cfg::kBlockK;
    int const k_len = p.k - k0 < k_tiles * Cfg::kBlockK ? p.k - k0 : k_tiles * Cfg::kBlockK;
    int const lane = int(threadIdx.x) - Cfg::kThreads;
    CopyA const la(static_cast<const char*>(p.a) + int64_t(k0) * int64_t(sizeof(Elem)), p.lda, place.m0, p.m, k_len,
                   lane);
    CopyB const lb(static_cast<const char*>(p.b) + int64_t(k0) * int64_t(sizeof(Elem)), p.ldb, place.n0, p.n, k_len,
                   lane);
    // k-tile kt of this unit into stage kt % kStages; the stage's mbarrier
    // hears from this lane once its copies have landed.
    auto issue = [&](int kt) {
      int const s = kt % kStages;
      la.copy_async(stage_a(s), kt);
      lb.copy_async(stage_b(s), kt);
      arch::cp_async_mbarrier_arrive_noinc(&full[s]);
    };
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s)
      if (s < k_tiles) issue(s);
    // One CTA barrier per k-tile, as the MMA warps: k-tile kt + kStages - 1
    // goes into the stage k-tile kt - 1 read, after the barrier that ended it.
    for (int kt = 0; kt < k_tiles; ++kt) {
      if (kt + kStages - 1 < k_tiles) issue(kt + kStages - 1);
      __syncthreads();
    }
    arch::cp_async_wait_all();
    return;
  }

  typename Mainloop::Frags const frags(place.warp_m, place.warp_n);
  typename Mainloop::FragD acc[Cfg::kMmaM][Cfg::kMmaN];
  sm80_zero_accumulators(acc);
  sm80_mbarrier_ring_mma<Cfg, Mainloop>(
      frags, sA, sB, k_tiles, acc,
      [&](int kt) {
        uint32_t const parity = uint32_t(kt / kStages) & 1u;
        while (!arch::mbarrier_test_wait_parity(&full[kt % kStages], parity)) {
        }
      },
      [](int) {});  // the copy warp refills the stages
  // Every k-tile issued has been waited for: no copy is in flight when the
  // epilogue reuses the ring.

  __syncthreads();  // every MMA warp has left the mainloop (the copy warp has exited): the smem is free
  (void)sm80_finish_tile<Cfg>(smem, acc, p, p.epi, place);
#else
  // Not built below sm_80 (no cp.async).
  (void)p;
#endif
}

// Launch description of the copy-warp form of configuration Cfg (its tail
// split instantiation too when Cfg has one).
template <class Cfg, class Elem, class Acc>
Launch describe_ws() {
  Launch l{reinterpret_cast<const void*>(&sm80_ws_gemm_kernel<Cfg, Elem, Acc, false>), kWsThreads<Cfg>,
           ws_ring_smem_bytes<Cfg>(), Cfg::kBlockM, Cfg::kBlockN, Cfg::kAccessBytes};
  if constexpr (kHasTailSplit<Cfg>)
    l.split_function = reinterpret_cast<const void*>(&sm80_ws_gemm_kernel<Cfg, Elem, Acc, true>);
  return l;
}

}  // namespace tessera::kernels::sm80
