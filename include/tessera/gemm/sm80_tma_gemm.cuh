// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The seed tile's mma.sync kernel with its operands loaded by TMA instead of
// cp.async (Sm80Variant::t128x128_tma, a tuning candidate; sm_90 only).
//
// Why: at the seed problem the cp.async kernel runs at ~0.62x cuBLAS on
// Hopper, at the power cap, and cutting the instructions each warp issues
// per k-tile is what has moved it so far (docs/performance.md, Ampere v2 and
// v3: +3-6% each). Every warp still issues 16 LDGSTS (and their address
// arithmetic) per k-tile. Here thread 0 issues one TMA box per operand and
// k-tile, and the copies leave the warps' instruction streams.
//
// What stays the seed kernel's (sm80_gemm_kernel): the 128x128x64 tile of 4
// warps of 64x64, the 3-stage ring, the shared-memory map, the ldmatrix
// fragments and mma.sync order of Sm80Mainloop, one CTA barrier per k-tile,
// the epilogue and the tail split. The 128B swizzle of a TMA box of 64
// 16-bit elements x 128 rows is the ring's map (SwizzledSmemTile<128, 128>:
// 16-byte chunk c of row r at chunk c ^ (r % 8)) when every stage starts
// 1024-byte aligned, so the fragment loads are unchanged.
//
// Synchronisation: stage s has one mbarrier; thread 0 arms it with the
// stage's bytes (arrive.expect_tx) and issues the two boxes; every thread
// waits on it (try_wait.parity, the use's parity) where the cp.async kernel
// waited on its commit groups. A stage is refilled at k-step 0 of the
// k-tile after the one that read it last, behind the CTA barrier that ends
// that k-tile (as in the cp.async ring). Residues in M, N and K are TMA's
// zero fill; the box still counts its full bytes.
//
// Launch (src/gemm/kernels/sm80_tensorop.cu): both operands K-major in the
// kernel's orientation, 16-byte aligned, one matrix (no batch), K > 0, an
// sm_90 device; the tensor maps are (K, rows) with boxes of (64, 128).

#include <cuda.h>

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/arch/sm90/fence.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>
#include <tessera/arch/sm90/tma.cuh>
#include <tessera/gemm/sm80_tensorop.cuh>
#include <tessera/gemm/sm80_wait_probe.cuh>

namespace tessera::kernels::sm80 {

// Probe: where the warps wait (sm80_wait_probe.cuh); the library's
// NoWaitProbe adds nothing.
template <class Cfg, class Elem, class Acc, bool kTailSplit, class Probe = NoWaitProbe>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kThreads <= 128 ? 2 : 1)
    sm80_tma_gemm_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                         const Params p) {
  static_assert(Cfg::kAKMajor && Cfg::kBKMajor && Cfg::kElemBytes == 2,
                "sm80_tma_gemm_kernel: 16-bit operands, both K-major [one TMA box per operand and k-tile]");
  static_assert(Cfg::kBlockM <= 256 && Cfg::kBlockN <= 256, "sm80_tma_gemm_kernel: a TMA box has at most 256 rows");
  static_assert(Cfg::kEpiloguePasses == 1, "sm80_tma_gemm_kernel: the epilogue stages the whole tile at once");
  using Mainloop = Sm80Mainloop<Cfg, Elem, Acc>;
  static_assert(!Mainloop::kSplitN && !Mainloop::kSpread,
                "sm80_tma_gemm_kernel: the double-buffered k-step order of the multistage ring only");
#if TESSERA_SM90_ENABLED
  constexpr int kStages = Cfg::kStages;
  constexpr uint32_t kStageTx = uint32_t(Cfg::kStageBytesA + Cfg::kStageBytesB);
  extern __shared__ __align__(1024) char smem_raw[];
  // The 128B swizzle works on address bits 4-9: every stage 1024-byte aligned.
  uint32_t const raw_addr = arch::smem_u32(smem_raw);
  char* const smem = smem_raw + ((1024u - (raw_addr & 1023u)) & 1023u);
  char* const sA = smem;                                // (BLK_M,BLK_K,PIPE)
  char* const sB = smem + kStages * Cfg::kStageBytesA;  // (BLK_N,BLK_K,PIPE)
  uint64_t* const full = reinterpret_cast<uint64_t*>(smem + Cfg::kSmemBytes);  // past the ring and the staging tile

  int const all_k_tiles = (p.k + Cfg::kBlockK - 1) / Cfg::kBlockK;
  Sm80CtaPlace const place = sm80_cta_place<Cfg, kTailSplit>(p, all_k_tiles);
  int const m0 = place.m0, n0 = place.n0;
  int const k_tiles = place.unit.k_tiles;
  int const k0 = place.unit.kt0 * Cfg::kBlockK;

  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < kStages; ++s) arch::mbarrier_init(&full[s], 1);
    arch::fence_mbarrier_init();
  }
  __syncthreads();
  auto stage_a = [&](int s) { return sA + s * Cfg::kStageBytesA; };
  auto stage_b = [&](int s) { return sB + s * Cfg::kStageBytesB; };
  // Thread 0: k-tile kt of this unit into stage kt % kStages.
  auto issue = [&](int kt) {
    int const s = kt % kStages;
    arch::mbarrier_arrive_expect_tx(&full[s], kStageTx);
    arch::tma_load(stage_a(s), &map_a, &full[s], k0 + kt * Cfg::kBlockK, m0);
    arch::tma_load(stage_b(s), &map_b, &full[s], k0 + kt * Cfg::kBlockK, n0);
  };
  // Prologue: k-tiles 0 .. kStages-2 (the cp.async ring's commit groups).
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s)
      if (s < k_tiles) issue(s);
  }

  Probe probe{};
  typename Mainloop::Frags const frags(place.warp_m, place.warp_n);
  typename Mainloop::FragD acc[Cfg::kMmaM][Cfg::kMmaN];
  sm80_zero_accumulators(acc);

  // As in the cp.async ring: the next request after the first fragment
  // loads of the k-tile.
  sm80_signalled_ring_mma<Cfg, Mainloop>(
      frags, sA, sB, k_tiles, acc,
      [&](int kt) {
        probe(WaitSite::full, [&] { arch::mbarrier_wait(&full[kt % kStages], uint32_t(kt / kStages) & 1u); });
      },
      [&](int kt) {
        if (threadIdx.x == 0 && kt + kStages - 1 < k_tiles) issue(kt + kStages - 1);
      },
      // Every warp is done with the stage thread 0 refills next.
      [&](int) { probe(WaitSite::release, [] { __syncthreads(); }); });
  probe.done(WaitRole::mma);
  // Every box issued has been waited for: no TMA write is in flight when
  // the epilogue reuses the ring.

  __syncthreads();  // every warp has left the mainloop: its smem is free
  (void)sm80_finish_tile<Cfg>(smem, acc, p, p.epi, place);
#else
  // Not built below sm_90: the launcher refuses other devices.
  (void)map_a;
  (void)map_b;
  (void)p;
#endif
}

// Launch description of the TMA-fed form of configuration Cfg (its tail
// split instantiation too when Cfg has one).
template <class Cfg, class Elem, class Acc>
Launch describe_tma() {
  Launch l{reinterpret_cast<const void*>(&sm80_tma_gemm_kernel<Cfg, Elem, Acc, false>), Cfg::kThreads,
           tma_ring_smem_bytes<Cfg>(), Cfg::kBlockM, Cfg::kBlockN, Cfg::kAccessBytes};
  if constexpr (kHasTailSplit<Cfg>)
    l.split_function = reinterpret_cast<const void*>(&sm80_tma_gemm_kernel<Cfg, Elem, Acc, true>);
  l.tma_maps = true;
  return l;
}

}  // namespace tessera::kernels::sm80
