// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The Ampere tensor-core GEMM kernel (seed 000's TN HGEMM, generalised):
// grid rasterisation (and the K-slice of a split tail tile, sm80_split.hpp)
// -> mainloop policy (sm80_mainloop.cuh) -> shared-memory epilogue
// (sm80_epilogue.cuh). One template for every element kind, operand
// majorness, tile configuration and mainloop policy; the instantiations live
// in src/gemm/kernels/sm80_tensorop_<kind>.cu.

#include <cuda_runtime.h>

#include <tessera/gemm/sm80_config.hpp>
#include <tessera/gemm/sm80_epilogue.cuh>
#include <tessera/gemm/sm80_mainloop.cuh>
#include <tessera/gemm/sm80_rasterize.cuh>
#include <tessera/gemm/sm80_split.hpp>
#include <tessera/gemm/sm80_tiled.cuh>
#include <tessera/gemm/sm80_tensorop.hpp>

namespace tessera::kernels::sm80 {

// Where a CTA's work lies: its unit (a whole tile, or with kTailSplit maybe
// a K-slice of a split tile), the tile's first row and column, and this
// warp's place in it. (sm80_gemm_kernel and sm80_tma_gemm_kernel.)
struct Sm80CtaPlace {
  Sm80Unit unit;
  int m0, n0;
  int warp_m, warp_n;
};
template <class Cfg, bool kTailSplit>
__device__ __forceinline__ Sm80CtaPlace sm80_cta_place(const Params& p, int all_k_tiles) {
  Sm80CtaPlace c;
  c.unit = kTailSplit ? sm80_unit(int(blockIdx.x), p, all_k_tiles) : Sm80Unit{int(blockIdx.x), 0, all_k_tiles, -1};
  int tm, tn;
  rasterize(c.unit.tile, p.tiles_m, p.tiles_n, p.raster_group, tm, tn);
  c.m0 = tm * Cfg::kBlockM;
  c.n0 = tn * Cfg::kBlockN;
  int const warp = int(threadIdx.x) >> 5;
  c.warp_m = warp % Cfg::kWarpsM;
  c.warp_n = warp / Cfg::kWarpsM;
  return c;
}

// acc = 0.
template <class FragD, int kM, int kN>
__device__ __forceinline__ void sm80_zero_accumulators(FragD (&acc)[kM][kN]) {
#pragma unroll
  for (int mi = 0; mi < kM; ++mi)
#pragma unroll
    for (int ni = 0; ni < kN; ++ni)
#pragma unroll
      for (int r = 0; r < int(sizeof(acc[0][0]) / 4); ++r) acc[mi][ni][r] = {};
}

// The MMA warps' mainloop over a ring whose stages others fill and signal
// (sm80_tma_gemm.cuh: TMA on mbarriers; sm80_ws_gemm.cuh: copy warps on
// hardware barriers): Sm80Mainloop's double-buffered fragment loads and
// mma.sync order over k_tiles k-tiles in stages of `sA` / `sB`.
// wait_full(kt) returns once k-tile kt has landed in stage kt % kStages;
// at_kstep0(kt) runs after the first fragment loads of k-tile kt (where the
// TMA-fed kernel requests the next k-tile). release(kt) runs once per
// k-tile, after this warp's last fragment loads from its stage and the wait
// for k-tile kt + 1: it frees the stage for a refill (the TMA-fed kernel: a
// CTA barrier; the copy-warp kernel: an arrive on the stage's "empty"
// hardware barrier).
template <class Cfg, class Mainloop, class WaitFull, class AtKStep0, class Release>
__device__ __forceinline__ void sm80_signalled_ring_mma(const typename Mainloop::Frags& frags, char* sA, char* sB,
                                                        int k_tiles,
                                                        typename Mainloop::FragD (&acc)[Cfg::kMmaM][Cfg::kMmaN],
                                                        WaitFull wait_full, AtKStep0 at_kstep0, Release release) {
  constexpr int kStages = Cfg::kStages;
  constexpr int kKSteps = Cfg::kKSteps;
  if (k_tiles <= 0) return;
  auto stage_a = [&](int s) { return sA + s * Cfg::kStageBytesA; };
  auto stage_b = [&](int s) { return sB + s * Cfg::kStageBytesB; };
  wait_full(0);
  int read = 0;  // stage holding k-tile kt
  typename Mainloop::KStepFrags f[2];
  Mainloop::load_kstep(frags, stage_a(0), stage_b(0), 0, f[0]);
  for (int kt = 0; kt < k_tiles; ++kt) {
#pragma unroll
    for (int ks = 0; ks < kKSteps; ++ks) {
      if (ks == kKSteps - 1) {
        // k-tile kt+1 has landed, and this warp is done reading k-tile kt's
        // stage (its last fragments were loaded at the k-step before this
        // one): release(kt) lets it be refilled once every warp has said so
        // (a CTA barrier, or the "empty" barrier's count).
        if (kt + 1 < k_tiles) wait_full(kt + 1);
        release(kt);
        read = read + 1 == kStages ? 0 : read + 1;
      }
      Mainloop::load_kstep(frags, stage_a(read), stage_b(read), (ks + 1) % kKSteps, f[(ks + 1) & 1]);
      if (ks == 0) at_kstep0(kt);
      Mainloop::mma_kstep(acc, f[ks & 1]);
    }
  }
}

// The single-pass epilogue of the tile at `c`, after the mainloop and a
// barrier: stage the accumulators, and either write D or, for a K-slice of
// a split tile, add the slice into the tile's buffer, where only the CTA
// that finishes the tile writes D. Returns whether this CTA wrote D.
template <class Cfg, class FragD, int kM, int kN>
__device__ __forceinline__ bool sm80_finish_tile(char* smem, FragD (&acc)[kM][kN], const Params& p,
                                                 const EpilogueParams& epi, const Sm80CtaPlace& c) {
  using Epilogue = Sm80Epilogue<Cfg>;
  Epilogue::stage(smem, acc, c.warp_m, c.warp_n);
  __syncthreads();
  if (c.unit.split_slot >= 0 &&
      !Epilogue::reduce_split(smem, p.partial + int64_t(c.unit.split_slot) * (Cfg::kBlockM * Cfg::kBlockN),
                              p.counters + c.unit.split_slot, p.splits))
    return false;
  Epilogue::write(smem, epi, c.m0, c.n0, p.m, p.n);
  return true;
}

// kTailSplit: the instantiation that runs a launch with a split tail
// (Params::splits > 1); the other one computes whole tiles only.
// NOTE: two instantiations rather than one that decodes every CTA's unit:
// with the decode and the slice's K offset, ptxas gave the unsplit kernels
// 6-25 more registers (seed f16-accumulating tile 210 -> 222; the 128x256
// f32 tile spilled 12-24 bytes) though they never split. With kTailSplit
// false the unit is a constant expression and the kernel is the one before
// the tail split.
template <class Cfg, class Elem, class Acc, bool kTailSplit>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kThreads <= 128 ? 2 : 1)
    sm80_gemm_kernel(const Params p) {
  // Preconditions are static (Sm80TileConfig); the operand types must match
  // the configuration's element size.
  static_assert(sizeof(Elem) == Cfg::kElemBytes, "sm80_gemm_kernel: element type and configuration disagree");
  using Mainloop = Sm80Mainloop<Cfg, Elem, Acc>;
  using Epilogue = Sm80Epilogue<Cfg>;
  extern __shared__ __align__(128) char smem[];

  // The tile and K range of this CTA: a whole tile, or a K-slice of a tile
  // of the split tail (sm80_split.hpp).
  int const all_k_tiles = (p.k + Cfg::kBlockK - 1) / Cfg::kBlockK;
  Sm80CtaPlace const place = sm80_cta_place<Cfg, kTailSplit>(p, all_k_tiles);
  Sm80Unit const& unit = place.unit;
  int const m0 = place.m0, n0 = place.n0;
  int const warp_m = place.warp_m, warp_n = place.warp_n;
  int const k_tiles = unit.k_tiles;
  // The slice's operands start at k0 and end k_len elements later.
  int const k0 = unit.kt0 * Cfg::kBlockK;
  int const k_len = p.k - k0 < k_tiles * Cfg::kBlockK ? p.k - k0 : k_tiles * Cfg::kBlockK;
  int64_t const a_k0 = Cfg::kAKMajor ? int64_t(k0) : int64_t(k0) * p.lda;
  int64_t const b_k0 = Cfg::kBKMajor ? int64_t(k0) : int64_t(k0) * p.ldb;

  for (int batch = int(blockIdx.y); batch < p.batch_count; batch += int(gridDim.y)) {
    typename Mainloop::LoaderA la(
        static_cast<const char*>(p.a) + (int64_t(batch) * p.batch_a + a_k0) * int64_t(sizeof(Elem)), p.lda, m0, p.m,
        k_len);
    typename Mainloop::LoaderB lb(
        static_cast<const char*>(p.b) + (int64_t(batch) * p.batch_b + b_k0) * int64_t(sizeof(Elem)), p.ldb, n0, p.n,
        k_len);
    typename Mainloop::Frags frags(warp_m, warp_n);

    typename Mainloop::FragD acc[Cfg::kMmaM][Cfg::kMmaN];
    sm80_zero_accumulators(acc);

    Mainloop::run(smem, la, lb, frags, k_tiles, acc);

    EpilogueParams epi = p.epi;
    int const out_bytes = epi.out == OutputType::f32 ? 4 : 2;
    epi.d = static_cast<char*>(epi.d) + int64_t(batch) * p.batch_d * out_bytes;
    if (epi.c != nullptr) epi.c = static_cast<const char*>(epi.c) + int64_t(batch) * p.batch_c * out_bytes;
    __syncthreads();  // every warp has left the mainloop: its smem is free
    if constexpr (Cfg::kEpiloguePasses > 1) {
      // Band by band of warp rows through the smaller staging tile (no
      // tail split: kHasTailSplit excludes these configurations).
#pragma unroll 1
      for (int band = 0; band < Cfg::kEpiloguePasses; ++band) {
        if (warp_m / Epilogue::kBandWarpsM == band) Epilogue::stage(smem, acc, warp_m % Epilogue::kBandWarpsM, warp_n);
        __syncthreads();
        Epilogue::write(smem, epi, m0 + band * Epilogue::kBlockM, n0, p.m, p.n);
        __syncthreads();  // the next band (or batch) overwrites the staging tile
      }
      continue;
    }
    // (A K-slice of a split tile: the launcher splits only unbatched problems.)
    if (!sm80_finish_tile<Cfg>(smem, acc, p, epi, place)) return;
    __syncthreads();  // the next batch's mainloop overwrites the staging tile
  }
}

// Which configurations have a tail-split instantiation: the 128x128 tile
// with both operands K-major and 16-byte loads (the seed tile, and tf32's
// 8-warp tile), to bound the compile time (each instantiation is a kernel).
// NOTE: the 128x256 tile's split instantiation spilled 12 bytes at 255
// registers (f16 with f32 accumulation, sm_90a), unmeasured; left out.
template <class Cfg>
inline constexpr bool kHasTailSplit = Cfg::kAKMajor && Cfg::kBKMajor && Cfg::kAccessBytes == 16 &&
                                      Cfg::kBlockM == 128 && Cfg::kBlockN == 128 && Cfg::kEpiloguePasses == 1;

// Launch description of one configuration. (The launcher sets the
// kernels' shared-memory attributes, once per kernel and device.)
template <class Cfg, class Elem, class Acc>
Launch describe() {
  Launch l{reinterpret_cast<const void*>(&sm80_gemm_kernel<Cfg, Elem, Acc, false>), Cfg::kThreads, Cfg::kSmemBytes,
           Cfg::kBlockM, Cfg::kBlockN, Cfg::kAccessBytes};
  if constexpr (kHasTailSplit<Cfg>) l.split_function = reinterpret_cast<const void*>(&sm80_gemm_kernel<Cfg, Elem, Acc, true>);
  return l;
}

// The atom layer's name of a CUDA storage type (the tiled kernel's Elem/Acc).
template <class T>
using AtomElement = std::conditional_t<std::is_same_v<T, __half>, half_t,
                                       std::conditional_t<std::is_same_v<T, __nv_bfloat16>, bfloat16_t, T>>;

// kWide: instantiate the 128x256 tile; kPolicies: the SingleStage/Pipelined
// variants. (Each instantiation costs compile time: only what is dispatched.)
template <class Elem, class Acc, bool kWide, bool kPolicies, bool kA, bool kB>
Launch select_layout(Sm80Variant v) {
  constexpr int kE = int(sizeof(Elem));
  switch (v) {
    case Sm80Variant::tile128x256:
      if constexpr (kWide) return describe<ConfigTile128x256<kE, kA, kB>, Elem, Acc>();
      else return {};
    case Sm80Variant::tile128x128: return describe<ConfigTile128x128<kE, kA, kB>, Elem, Acc>();
    case Sm80Variant::scalar: return describe<ConfigScalar<kE, kA, kB>, Elem, Acc>();
    case Sm80Variant::pipelined:
      if constexpr (kPolicies) return describe<ConfigPipelined<kE, kA, kB>, Elem, Acc>();
      else return {};
    case Sm80Variant::single_stage:
      if constexpr (kPolicies) return describe<ConfigSingleStage<kE, kA, kB>, Elem, Acc>();
      else return {};
    case Sm80Variant::tiled:
      if constexpr (kE == 2 && kA && kB) return describe_tiled<AtomElement<Elem>, AtomElement<Acc>>();
      else return {};
    default: return {};  // automatic; tuning variants: select_tuning
  }
}

// The tuning candidates (sm80_config.hpp), TN only. kWarp128: also the
// 64x128 warp tile (f16 accumulation only).
template <class Elem, class Acc, bool kWarp128>
Launch select_tuning(Sm80Variant v) {
  constexpr int kE = int(sizeof(Elem));
  switch (v) {
    case Sm80Variant::t128x128_s4: return describe<ConfigT128x128S4<kE>, Elem, Acc>();
    case Sm80Variant::t128x128_w8: return describe<ConfigT128x128W8<kE>, Elem, Acc>();
    case Sm80Variant::t128x256_s3: return describe<ConfigT128x256S3<kE>, Elem, Acc>();
    case Sm80Variant::t256x128_s3: return describe<ConfigT256x128S3<kE>, Elem, Acc>();
    case Sm80Variant::t256x128_s4: return describe<ConfigT256x128S4<kE>, Elem, Acc>();
    case Sm80Variant::t128x256_w4:
      if constexpr (kWarp128) return describe<ConfigT128x256W4<kE>, Elem, Acc>();
      else return {};
    case Sm80Variant::t128x256_w4s2:
      if constexpr (kWarp128) return describe<ConfigT128x256W4S2<kE>, Elem, Acc>();
      else return {};
    case Sm80Variant::t128x128_spread: return describe<ConfigT128x128Spread<kE>, Elem, Acc>();
    case Sm80Variant::t128x256_spread: return describe<ConfigT128x256Spread<kE>, Elem, Acc>();
    default: return {};
  }
}

template <class Elem, class Acc, bool kWide, bool kPolicies>
Launch select(bool a_k_major, bool b_k_major, Sm80Variant v) {
  if (a_k_major && b_k_major) return select_layout<Elem, Acc, kWide, kPolicies, true, true>(v);
  if (a_k_major) return select_layout<Elem, Acc, kWide, kPolicies, true, false>(v);
  if (b_k_major) return select_layout<Elem, Acc, kWide, kPolicies, false, true>(v);
  return select_layout<Elem, Acc, kWide, kPolicies, false, false>(v);
}

}  // namespace tessera::kernels::sm80
