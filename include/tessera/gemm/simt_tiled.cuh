// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// simt_tiled_sgemm: simt_sgemm's kernel (simt_sgemm.cuh) written with
// Tessera tensors and atoms. Same problem orientation, SgemmConfig, plan
// (operand modes), rasterisation, FFMA walk, pipeline and epilogue; only the
// expression differs:
//   - global operands, CTA tiles and shared tiles are Tensors: mA (M,K),
//     gA = local_tile(mA, (BLK_M,BLK_K), (tile_m,_)), sA (BLK_M,BLK_K,PIPE)
//     over Cfg::smem_layout_a() with its modes reordered (M first);
//   - global -> shared through TiledCopys of the byte-count cp.async atoms
//     (SM80_CP_ASYNC_*_ZFILL_N) and copy_zfill: residues arrive zero-filled.
//     vec16: 16-byte atoms, threads along M/N; elem_mn: 4-byte atoms, a warp
//     on 32 consecutive M/N elements; elem_k: 4-byte atoms, a warp on 8 k x 4
//     rows (32-byte global segments, shared banks 4*k + row: the
//     "transposition" into the M/N-major tile is only the destination
//     layout). vec16_k (K-major tiles) is not supported here;
//   - the math is a TiledMMA of UniversalFMA (1x1x1) over the warps' and
//     lanes' (M,N) grid, whose permutation gives each thread kRepM x kRepN
//     blocks of 4x4 outputs exactly as in simt_sgemm; the fragments come
//     from shared memory through make_tiled_copy_A/B of a 128-bit
//     UniversalCopy<float4> (one LDS.128 per 4 values) and are multiplied by
//     gemm_walk in Cfg's FFMA walk (ffma_walk), double-buffered in registers.
//
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <string>

#include <tessera/atom.hpp>
#include <tessera/gemm/simt_sgemm.cuh>
#include <tessera/tensor.hpp>

namespace tessera::kernels::simt {

namespace detail {

// The TiledMMA of UniversalFMA whose thread (m,n) grid is
// ((kLanesM,kWarpsM),(kLanesN,kWarpsN)) -> thread index
//   lane_n + kLanesN*lane_m + 32*warp_n + 32*kWarpsN*warp_m
// and whose permutation M: (kLanesM,kWarpsM,4,kRepM) -> row
//   4*lane_m + kWarpTileM*warp_m + v + 4*kLanesM*rep
// (likewise N) gives each thread kRepM x kRepN blocks of 4x4 (simt_sgemm's
// M/N-major ownership): partition_C is (1,(4,kRepM),(4,kRepN)).
template <class Cfg>
TESSERA_HOST_DEVICE constexpr auto tiled_sgemm_mma() {
  auto thr = make_layout(
      make_shape(make_shape(Int<Cfg::kLanesM>{}, Int<Cfg::kWarpsM>{}), make_shape(Int<Cfg::kLanesN>{}, Int<Cfg::kWarpsN>{}),
                 _1{}),
      make_stride(make_stride(Int<Cfg::kLanesN>{}, Int<32 * Cfg::kWarpsN>{}), make_stride(_1{}, _32{}), _0{}));
  auto perm_m = make_layout(make_shape(Int<Cfg::kLanesM>{}, Int<Cfg::kWarpsM>{}, _4{}, Int<Cfg::kRepM>{}),
                            make_stride(_4{}, Int<Cfg::kWarpTileM>{}, _1{}, Int<4 * Cfg::kLanesM>{}));
  auto perm_n = make_layout(make_shape(Int<Cfg::kLanesN>{}, Int<Cfg::kWarpsN>{}, _4{}, Int<Cfg::kRepN>{}),
                            make_stride(_4{}, Int<Cfg::kWarpTileN>{}, _1{}, Int<4 * Cfg::kLanesN>{}));
  return make_tiled_mma(UniversalFMA<float, float, float, float>{}, thr, make_tile(perm_m, perm_n, _1{}));
}

// The global -> shared TiledCopy of one operand's (BLK_MN,BLK_K) tile
// (kExtent = BLK_M or BLK_N), the thread -> element map of simt_sgemm's
// TileCopy for the mode.
template <class Cfg, OperandMode kMode, int kExtent>
TESSERA_HOST_DEVICE constexpr auto tiled_sgemm_g2s() {
  constexpr int kThreads = Cfg::kThreads;
  constexpr int kWarps = kThreads / 32;
  static_assert(!kmajor(kMode), "simt_tiled_sgemm: vec16_k (K-major tiles) is not supported [plan with vec16_k = false]");
  if constexpr (kMode == OperandMode::vec16) {
    static_assert(kThreads % (kExtent / 4) == 0 && Cfg::kBlockK % (kThreads / (kExtent / 4)) == 0,
                  "simt_tiled_sgemm: the 16-byte chunks of a tile must split evenly over the threads");
    // (MN/4,T') -> thread, 4 consecutive M/N values each: passes along K.
    return make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL_N<uint128_t>, float>{},
                           make_layout(make_shape(Int<kExtent / 4>{}, Int<kThreads / (kExtent / 4)>{}),
                                       make_stride(_1{}, Int<kExtent / 4>{})),
                           Layout<Shape<_4, _1>>{});
  } else if constexpr (kMode == OperandMode::elem_mn) {
    static_assert(Cfg::kBlockK % kWarps == 0 && kExtent % 32 == 0,
                  "simt_tiled_sgemm: the element-wide M/N copy needs kBlockK to be a multiple of the warp count");
    // (32,W) -> thread: a warp on 32 consecutive M/N elements of one k.
    return make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N<uint32_t>, float>{},
                           make_layout(make_shape(_32{}, Int<kWarps>{}), make_stride(_1{}, _32{})),
                           Layout<Shape<_1, _1>>{});
  } else {
    constexpr int kGroupsK = Cfg::kBlockK / 8;
    static_assert(kWarps % kGroupsK == 0 && kExtent % (4 * kWarps / kGroupsK) == 0,
                  "simt_tiled_sgemm: the elem_k copy needs the warps to cover kBlockK in groups of 8");
    // ((4,W/GK),(8,GK)) -> thread: a warp on 8 consecutive k x 4 rows, the
    // warps along K first, then along the rows.
    return make_tiled_copy(
        Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL_N<uint32_t>, float>{},
        make_layout(make_shape(make_shape(_4{}, Int<kWarps / kGroupsK>{}), make_shape(_8{}, Int<kGroupsK>{})),
                    make_stride(make_stride(_8{}, Int<32 * kGroupsK>{}), make_stride(_1{}, _32{}))),
        Layout<Shape<_1, _1>>{});
  }
}

// The operand (M,K) or (N,K) in kernel orientation, its unit stride static.
template <OperandMode kMode>
__device__ __forceinline__ auto sgemm_operand(const float* base, int mn, int k, std::int64_t ld) {
  if constexpr (kMode == OperandMode::elem_k)
    return make_tensor(make_gmem_ptr(base), make_shape(mn, k), make_stride(ld, _1{}));
  else
    return make_tensor(make_gmem_ptr(base), make_shape(mn, k), make_stride(_1{}, ld));
}

// The M/N half of thread `tid`'s copy predicates for one operand: it does
// not change along K, so it is computed once per tile and lives across the
// k loop (as simt_sgemm's TileCopy::mn_bytes / mn_ok). vec16: the bytes of
// the thread's 16-byte chunk inside M/N (0..16) -- every copy of the thread
// has the same M/N coordinate, the copy's thread layout spanning kExtent;
// elem_mn / elem_k: bit r set iff copy r's element is inside M/N.
template <class Cfg, OperandMode kMode, int kExtent>
__device__ __forceinline__ std::uint32_t mn_guard(int mn_left, int tid) {
  auto thr = tiled_sgemm_g2s<Cfg, kMode, kExtent>().get_slice(tid);
  Tensor tXc3 = thr.partition_S(make_identity_tensor(make_shape(Int<kExtent>{}, Int<Cfg::kBlockK>{})));  // (CPY,CPY_MN,CPY_K)
  Tensor tXc = group_modes<1, 3>(tXc3);  // (CPY,REST)
  int const mn_room = mn_left - int(get<0>(tXc(0, 0)));
  if constexpr (kMode == OperandMode::vec16) {
    static_assert(decltype(size<1>(tXc3))::value == 1,
                  "simt_tiled_sgemm: the vec16 copy must repeat along K only [one M/N byte count per thread]");
    return mn_room >= 4 ? 16u : mn_room > 0 ? 4u * static_cast<std::uint32_t>(mn_room) : 0u;
  } else {
    static_assert(decltype(size<1>(tXc))::value <= 32, "simt_tiled_sgemm: more than 32 copies per thread [mn_guard is one 32-bit mask]");
    std::uint32_t mask = 0;
    TESSERA_UNROLL
    for (int r = 0; r < int(size<1>(tXc)); ++r) {
      int const dmn = int(get<0>(tXc(0, r))) - int(get<0>(tXc(0, 0)));  // folds to a constant
      if (dmn < mn_room) mask |= 1u << r;
    }
    return mask;
  }
}

// Issues thread `tid`'s copies of one k tile of one operand, `tXg` (CPY,
// CPY_MN,CPY_K) its partition of the tile, into `s_tile` (BLK_MN,BLK_K):
// elements outside M/N (mn_guard's `mn`) or past `k_left` zero-filled.
template <class Cfg, OperandMode kMode, int kExtent, class TXg, class STile>
__device__ __forceinline__ void issue_tile(TXg const& tXg, STile&& s_tile, std::uint32_t mn, int k_left, int tid) {
  auto g2s = tiled_sgemm_g2s<Cfg, kMode, kExtent>();
  auto thr = g2s.get_slice(tid);
  Tensor tXs = thr.partition_D(s_tile);  // (CPY,CPY_MN,CPY_K)
  Tensor tXc = group_modes<1, 3>(thr.partition_S(make_identity_tensor(make_shape(Int<kExtent>{}, Int<Cfg::kBlockK>{}))));  // (CPY,REST)
  // NOTE: the K predicates compare each copy's compile-time k offset from
  // the thread's first element with the room left after that element (one
  // ISETP per copy); the M/N half is mn_guard's, computed once.
  int const k_room = k_left - int(get<1>(tXc(0, 0)));
  copy_zfill(
      g2s,
      [&](int r) -> std::uint32_t {
        int const dk = int(get<1>(tXc(0, r))) - int(get<1>(tXc(0, 0)));  // folds to a constant
        if (dk >= k_room) return 0u;
        if constexpr (kMode == OperandMode::vec16)
          return mn;
        else
          return (mn >> r) & 1u ? 4u : 0u;
      },
      tXg, tXs);
}

}  // namespace detail

// kLiveSrc: see the NOTE at the copies' issue.
template <class Cfg, OperandMode kModeA, OperandMode kModeB, bool kLiveSrc = true>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks) simt_tiled_sgemm_kernel(SgemmParams p) {
  // Preconditions as simt_sgemm_kernel; vec16_k is not supported.
  static_assert(!kmajor(kModeA) && !kmajor(kModeB),
                "simt_tiled_sgemm_kernel: vec16_k operands (K-major tiles) are not supported [plan with vec16_k = false]");
  extern __shared__ __align__(16) float smem[];
  constexpr int kBM = Cfg::kBlockM, kBN = Cfg::kBlockN, kBK = Cfg::kBlockK;
  // (BLK_M,BLK_K,PIPE) and (BLK_N,BLK_K,PIPE): Cfg's padded M/N-major layouts, M/N first.
  Tensor sA = make_tensor(make_smem_ptr(smem), select<1, 0, 2>(Cfg::smem_layout_a()));
  Tensor sB = make_tensor(make_smem_ptr(smem + Cfg::kStages * Cfg::kStageA), select<1, 0, 2>(Cfg::smem_layout_b()));

  int tile_m = 0, tile_n = 0;
  detail::rasterize<Cfg::kGroupM>(static_cast<int>(blockIdx.x), p.tiles_m, p.tiles_n, tile_m, tile_n);
  int const m_left = p.m - tile_m * kBM;  // rows of this tile inside Dk (may exceed kBM)
  int const n_left = p.n - tile_n * kBN;

  auto mma = detail::tiled_sgemm_mma<Cfg>();
  // NOTE: 128-bit units of float4 (ld.shared.v4.f32), not uint128_t
  // (ld.shared.v2.u64): both are one LDS.128 per 4 values, but from the u64
  // halves ptxas assigned the fragment registers so that 42.7% of the FFMAs
  // read two register-file sources in one bank (register % 4); with float4
  // 4.8% (simt_sgemm: 6.7-7.0%). sm_90a cubin, SgemmDefault, all 9 modes.
  auto s2r_a = make_tiled_copy_A(Copy_Atom<UniversalCopy<float4>, float>{}, mma);
  auto s2r_b = make_tiled_copy_B(Copy_Atom<UniversalCopy<float4>, float>{}, mma);
  int const tid = static_cast<int>(threadIdx.x);
  auto thr_mma = mma.get_slice(tid);
  Tensor tXsA = s2r_a.get_slice(tid).partition_S(sA);  // (CPY,CPY_M,CPY_K,PIPE)
  Tensor tXsB = s2r_b.get_slice(tid).partition_S(sB);  // (CPY,CPY_N,CPY_K,PIPE)
  // Fragments of two k steps (the register double buffer).
  Tensor tCrA = thr_mma.partition_fragment_A(local_tile(sA(_, _, 0), make_shape(Int<kBM>{}, _2{}), make_coord(0, 0)));  // (MMA,MMA_M,2)
  Tensor tCrB = thr_mma.partition_fragment_B(local_tile(sB(_, _, 0), make_shape(Int<kBN>{}, _2{}), make_coord(0, 0)));  // (MMA,MMA_N,2)
  Tensor tXrA = s2r_a.get_slice(tid).retile_D(tCrA);  // (CPY,CPY_M,2)
  Tensor tXrB = s2r_b.get_slice(tid).retile_D(tCrB);  // (CPY,CPY_N,2)
  auto walk = [](int s, int& i, int& j) { ffma_walk<Cfg::kFfmaOrder, Cfg::kThrM, Cfg::kThrN>(s, i, j); };

  constexpr bool kKContigA = kModeA == OperandMode::elem_k;
  constexpr bool kKContigB = kModeB == OperandMode::elem_k;
  std::int64_t const ld_a = kKContigA ? p.a_m : p.a_k;
  std::int64_t const ld_b = kKContigB ? p.b_n : p.b_k;
  int const num_k_tiles = (p.k + kBK - 1) / kBK;

  for (int batch = static_cast<int>(blockIdx.y); batch < p.batch_count; batch += static_cast<int>(gridDim.y)) {
    Tensor mA = detail::sgemm_operand<kModeA>(p.a + batch * p.a_batch, p.m, p.k, ld_a);  // (M,K)
    Tensor mB = detail::sgemm_operand<kModeB>(p.b + batch * p.b_batch, p.n, p.k, ld_b);  // (N,K)
    Tensor gA = local_tile(mA, make_shape(Int<kBM>{}, Int<kBK>{}), make_coord(tile_m, _));  // (BLK_M,BLK_K,k)
    Tensor gB = local_tile(mB, make_shape(Int<kBN>{}, Int<kBK>{}), make_coord(tile_n, _));  // (BLK_N,BLK_K,k)
    // NOTE: the copies' thread coordinates come from %tid read through
    // volatile asm at every issue (detail::tid_x), not kept live across the
    // k loop: simt_sgemm's TileCopy needed the same to stay under 128
    // registers without spills.
    // NOTE: kLiveSrc keeps this thread's partition of the next k tile of
    // gA/gB live across the k loop and advances its data pointer by one k
    // tile (stride<2>(gA)) per issue, with the M/N predicates (mn_guard)
    // computed once, as simt_sgemm's TileCopy::src / next_tile / mn_bytes;
    // slicing a (CPY,CPY_M,CPY_K,k) partition by kt instead costs a 64-bit
    // kt * stride per operand and k tile (run 36: 1193 instructions per
    // nt k-tile loop against simt_sgemm's 1172). The other form
    // re-partitions gA(_,_,kt) from %tid at every issue (c13 of
    // scripts/gpu/simt.sh).
    int const t0 = detail::tid_x();
    Tensor tAgA = detail::tiled_sgemm_g2s<Cfg, kModeA, kBM>().get_slice(t0).partition_S(gA(_, _, 0));  // (CPY,CPY_M,CPY_K)
    Tensor tBgB = detail::tiled_sgemm_g2s<Cfg, kModeB, kBN>().get_slice(t0).partition_S(gB(_, _, 0));  // (CPY,CPY_N,CPY_K)
    std::uint32_t const mn_a = detail::mn_guard<Cfg, kModeA, kBM>(m_left, t0);
    std::uint32_t const mn_b = detail::mn_guard<Cfg, kModeB, kBN>(n_left, t0);
    // issue(kt, stage) is called for kt = 0, 1, 2, ... in this order (the
    // live sources hold tile kt when it is called).
    auto issue = [&](int kt, int stage) {
      int const t = detail::tid_x();
      if constexpr (kLiveSrc) {
        detail::issue_tile<Cfg, kModeA, kBM>(tAgA, sA(_, _, stage), mn_a, p.k - kt * kBK, t);
        detail::issue_tile<Cfg, kModeB, kBN>(tBgB, sB(_, _, stage), mn_b, p.k - kt * kBK, t);
        tAgA = make_tensor(tAgA.data() + stride<2>(gA), tAgA.layout());  // the next k tile
        tBgB = make_tensor(tBgB.data() + stride<2>(gB), tBgB.layout());
      } else {
        auto g2s_a = detail::tiled_sgemm_g2s<Cfg, kModeA, kBM>();
        auto g2s_b = detail::tiled_sgemm_g2s<Cfg, kModeB, kBN>();
        detail::issue_tile<Cfg, kModeA, kBM>(g2s_a.get_slice(t).partition_S(gA(_, _, kt)), sA(_, _, stage),
                                             detail::mn_guard<Cfg, kModeA, kBM>(m_left, t), p.k - kt * kBK, t);
        detail::issue_tile<Cfg, kModeB, kBN>(g2s_b.get_slice(t).partition_S(gB(_, _, kt)), sB(_, _, stage),
                                             detail::mn_guard<Cfg, kModeB, kBN>(n_left, t), p.k - kt * kBK, t);
      }
    };

    // Prologue: tiles 0 .. kStages-2 in flight, one cp.async group each.
    TESSERA_UNROLL
    for (int s = 0; s < Cfg::kStages - 1; ++s) {
      if (s < num_k_tiles) issue(s, s);
      arch::cp_async_fence();
    }

    Tensor tCrC = thr_mma.partition_fragment_C(make_identity_tensor(make_shape(Int<kBM>{}, Int<kBN>{})));  // (MMA,MMA_M,MMA_N)
    TESSERA_UNROLL
    for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = 0.0f;

    for (int t = 0; t < num_k_tiles; ++t) {
      // Tile t has landed, every thread is done with tile t-1 (refilled now).
      arch::cp_async_wait<Cfg::kStages - 2>();
      __syncthreads();
      // The ring slots of tile t and of the tile issued now, from t: no
      // loop-carried stage counters (one LOP3 each for a power-of-two
      // kStages; two counters cost 7 more instructions per k tile).
      int const read_stage = int(unsigned(t) % Cfg::kStages);
      int const write_stage = int(unsigned(t + Cfg::kStages - 1) % Cfg::kStages);
      if (t + Cfg::kStages - 1 < num_k_tiles) issue(t + Cfg::kStages - 1, write_stage);
      arch::cp_async_fence();

      Tensor tXsA_t = tXsA(_, _, _, read_stage);  // (CPY,CPY_M,BLK_K)
      Tensor tXsB_t = tXsB(_, _, _, read_stage);  // (CPY,CPY_N,BLK_K)
      if constexpr (Cfg::kFragPrefetch) {
        // NOTE: the fragments of step kk+1 are loaded before the FFMAs of
        // step kk (register double buffer), as in simt_sgemm.
        // NOTE: B's fragments before A's: the same instructions, but ptxas
        // then assigns the accumulators so that fewer FFMAs read two
        // register-file sources of one bank (sm_90a, SgemmDefault, the 9
        // mode pairs: 3.6-6.6% instead of 5.1-9.4%; nt 3.6% instead of 7.9%,
        // simt_sgemm 6.7-7.0%).
        copy(s2r_b, tXsB_t(_, _, 0), tXrB(_, _, 0));
        copy(s2r_a, tXsA_t(_, _, 0), tXrA(_, _, 0));
        TESSERA_UNROLL
        for (int kk = 0; kk < kBK; ++kk) {
          if (kk + 1 < kBK) {
            copy(s2r_b, tXsB_t(_, _, kk + 1), tXrB(_, _, (kk + 1) & 1));
            copy(s2r_a, tXsA_t(_, _, kk + 1), tXrA(_, _, (kk + 1) & 1));
          }
          gemm_walk(mma, walk, tCrA(_, _, kk & 1), tCrB(_, _, kk & 1), tCrC);
        }
      } else {
        TESSERA_UNROLL
        for (int kk = 0; kk < kBK; ++kk) {
          copy(s2r_a, tXsA_t(_, _, kk), tXrA(_, _, 0));
          copy(s2r_b, tXsB_t(_, _, kk), tXrB(_, _, 0));
          gemm_walk(mma, walk, tCrA(_, _, 0), tCrB(_, _, 0), tCrC);
        }
      }
    }
    // Drain (only empty groups can be pending); no thread may refill the
    // ring for a next batch before all have left the last stage.
    arch::cp_async_wait<0>();
    __syncthreads();

    // Epilogue straight from registers, 4 consecutive columns per access.
    // NOTE: the output partition is recomputed from %tid/%ctaid read through
    // volatile asm (nothing but the accumulators and the copy state live
    // across the k loop), as in simt_sgemm.
    int e_tile_m = 0, e_tile_n = 0;
    detail::rasterize<Cfg::kGroupM>(detail::ctaid_x(), p.tiles_m, p.tiles_n, e_tile_m, e_tile_n);
    auto e_thr = mma.get_slice(detail::tid_x());
    int const e_m_left = p.m - e_tile_m * kBM;
    int const e_n_left = p.n - e_tile_n * kBN;
    Tensor mD = make_tensor(make_gmem_ptr(p.d + batch * p.d_batch), make_shape(p.m, p.n), make_stride(p.d_m, _1{}));  // (M,N)
    Tensor tCgD = e_thr.partition_C(local_tile(mD, make_shape(Int<kBM>{}, Int<kBN>{}), make_coord(e_tile_m, e_tile_n)));  // (MMA,MMA_M,MMA_N)
    Tensor tCcD = e_thr.partition_C(make_identity_tensor(make_shape(Int<kBM>{}, Int<kBN>{})));  // (MMA,MMA_M,MMA_N) -> (m,n)
    // beta == 0: c is null and never read.
    const float* c = p.beta != 0.0f ? p.c + batch * p.c_batch : nullptr;
    Tensor mC = make_tensor(make_gmem_ptr(c), make_shape(p.m, p.n), make_stride(p.c_m, p.c_n));  // (M,N)
    Tensor tCgC = e_thr.partition_C(local_tile(mC, make_shape(Int<kBM>{}, Int<kBN>{}), make_coord(e_tile_m, e_tile_n)));
    auto const vec4 = Copy_Atom<UniversalCopy<float4>, float>{};
    TESSERA_UNROLL
    for (int i = 0; i < Cfg::kThrM; ++i) {
      if (int(get<0>(tCcD(0, i, 0))) >= e_m_left) continue;
      TESSERA_UNROLL
      for (int rn = 0; rn < Cfg::kRepN; ++rn) {
        int const j = int(get<1>(tCcD(0, i, make_coord(0, rn))));
        Tensor out = make_tensor<float>(Shape<_4>{});  // (4)
        TESSERA_UNROLL
        for (int e = 0; e < 4; ++e) out(e) = p.alpha * tCrC(0, i, make_coord(e, rn));
        Tensor gd = tCgD(0, i, make_coord(_, rn));  // (4) consecutive columns
        Tensor gc = tCgC(0, i, make_coord(_, rn));  // (4)
        if (j + 3 < e_n_left) {
          if (c != nullptr) {
            Tensor cin = make_tensor<float>(Shape<_4>{});
            if (p.c_vec) {
              copy(vec4, gc, cin);
            } else {
              TESSERA_UNROLL
              for (int e = 0; e < 4; ++e) cin(e) = gc(e);
            }
            TESSERA_UNROLL
            for (int e = 0; e < 4; ++e) out(e) += p.beta * cin(e);
          }
          if (p.d_vec) {
            copy(vec4, out, gd);
          } else {
            TESSERA_UNROLL
            for (int e = 0; e < 4; ++e) gd(e) = out(e);
          }
        } else {
          TESSERA_UNROLL
          for (int e = 0; e < 4; ++e) {
            if (j + e >= e_n_left) break;
            if (c != nullptr) out(e) += p.beta * gc(e);
            gd(e) = out(e);
          }
        }
      }
    }
  }
}

// ---- host side ---------------------------------------------------------------

namespace detail {

template <class Cfg, bool kLiveSrc, OperandMode kA>
const void* tiled_sgemm_function(OperandMode b) {
  switch (b) {
    case OperandMode::vec16:
      return reinterpret_cast<const void*>(&simt_tiled_sgemm_kernel<Cfg, kA, OperandMode::vec16, kLiveSrc>);
    case OperandMode::elem_mn:
      return reinterpret_cast<const void*>(&simt_tiled_sgemm_kernel<Cfg, kA, OperandMode::elem_mn, kLiveSrc>);
    case OperandMode::elem_k:
      return reinterpret_cast<const void*>(&simt_tiled_sgemm_kernel<Cfg, kA, OperandMode::elem_k, kLiveSrc>);
    case OperandMode::vec16_k: return nullptr;
  }
  return nullptr;
}

// The instantiation for the operand modes (vec16_k: none; plan with
// vec16_k = false, as tiled_sgemm_launch does).
template <class Cfg, bool kLiveSrc = true>
const void* tiled_sgemm_function(OperandMode a, OperandMode b) {
  switch (a) {
    case OperandMode::vec16: return tiled_sgemm_function<Cfg, kLiveSrc, OperandMode::vec16>(b);
    case OperandMode::elem_mn: return tiled_sgemm_function<Cfg, kLiveSrc, OperandMode::elem_mn>(b);
    case OperandMode::elem_k: return tiled_sgemm_function<Cfg, kLiveSrc, OperandMode::elem_k>(b);
    case OperandMode::vec16_k: return nullptr;
  }
  return nullptr;
}

}  // namespace detail

// The __global__ function, block size and dynamic shared memory for `args`.
template <class Cfg, bool kLiveSrc = true>
GemmKernel::LaunchShape tiled_sgemm_launch_shape(const GemmArgs& args) {
  if (!sgemm_can_implement(args)) return {};
  detail::SgemmPlan const r = detail::plan_sgemm(args, false);
  return {detail::tiled_sgemm_function<Cfg, kLiveSrc>(r.mode_a, r.mode_b), Cfg::kThreads, Cfg::kSmemBytes};
}

// Enqueue D = alpha*op(A)*op(B) + beta*C with the tiled kernel, configuration
// Cfg, on `stream`. `args` must have passed validate_arguments.
template <class Cfg, bool kLiveSrc = true>
Status tiled_sgemm_launch(const GemmArgs& args, gemm_stream_t stream) {
  return detail::launch_planned_sgemm<Cfg>(args, stream, "simt_tiled_sgemm", false, [](OperandMode a, OperandMode b) {
    return detail::tiled_sgemm_function<Cfg, kLiveSrc>(a, b);
  });
}

// ---- the library's configuration per operand form --------------------------

// The configuration `tessera::gemm` runs when both operands are copied 16
// bytes along M/N (aligned M/N-major operands: the form the repack copies
// K-contiguous f32 operands into for large problems) and K suits 32-deep
// tiles (deep_k_form); everything else runs SgemmDefault.
// NOTE: run 146 (H100, scripts/gpu/simt_bk.sh, interleaved with
// cublasSgemm, median of 25, nt, D row-major): 32-deep k tiles 0.976-0.977x
// cuBLAS at 4096^3 against the default's 0.961, 0.962 at 8192^3 against
// 0.942; 2 and 3 stages alike, so 2 (the default's shared memory: two CTAs
// per SM on sm_80 too).
using SgemmDeepK = Sgemm128x128x32S2WalkBands;

namespace detail {

// Whether `args` (valid, sgemm_can_implement) runs with SgemmDeepK: both
// operands in the 16-byte M/N form, and K such that 32-deep tiles add no
// k-tile work to the default's 16-deep ones (K rounded up to 32 equals K
// rounded up to 16) or at most 1% (K >= 1600: 16 more k of padding).
// NOTE: run 148 (deep / default, ratio to cuBLAS): 4096x4096x40 (48 -> 64
// padded k) 0.923 / 1.095; 1000^3 (1008 -> 1024) 0.616 / 0.616; K = 256
// 0.987 / 0.986; 1024^3 0.590 / 0.583; 2048^3 0.941 / 0.935. The 1%
// line for long K is reasoned from the ~1.5-2% the deep tile gains at 4096
// and 8192, not measured at a K past it.
inline bool deep_k_form(const GemmArgs& args) {
  std::int64_t const k = args.k;
  if (k <= 0) return false;  // D = beta C: no k tile to size
  if ((k + 31) / 32 * 32 != (k + 15) / 16 * 16 && k < 1600) return false;
  SgemmPlan const r = plan_sgemm(args, false);
  return r.mode_a == OperandMode::vec16 && r.mode_b == OperandMode::vec16;
}

// SgemmDeepK's one instantiation (nullptr for any other mode pair).
// NOTE: this and the two library launchers below are templates (Deep and
// Default are never given) so that only a translation unit that calls them
// instantiates their kernels. As inline functions, their bodies compiled
// the default's kernels for every operand mode (50 kernels, ~40 s per
// architecture) into every translation unit that included
// <tessera/tessera.hpp>: a third of the CI build (session 28).
// tests/ptx/umbrella_no_kernels.cu keeps it so.
template <class Deep = SgemmDeepK>
const void* deep_k_function(OperandMode a, OperandMode b) {
  if (a != OperandMode::vec16 || b != OperandMode::vec16) return nullptr;
  return reinterpret_cast<const void*>(&simt_tiled_sgemm_kernel<Deep, OperandMode::vec16, OperandMode::vec16, true>);
}

}  // namespace detail

// tiled_sgemm_launch_shape with the configuration for the problem's form.
template <class Default = SgemmDefault, class Deep = SgemmDeepK>
GemmKernel::LaunchShape tiled_sgemm_library_launch_shape(const GemmArgs& args) {
  if (!sgemm_can_implement(args)) return {};
  if (!detail::deep_k_form(args)) return tiled_sgemm_launch_shape<Default>(args);
  return {detail::deep_k_function<Deep>(OperandMode::vec16, OperandMode::vec16), Deep::kThreads, Deep::kSmemBytes};
}

// tiled_sgemm_launch with the configuration for the problem's form.
template <class Default = SgemmDefault, class Deep = SgemmDeepK>
Status tiled_sgemm_library_launch(const GemmArgs& args, gemm_stream_t stream) {
  if (!sgemm_can_implement(args) || !detail::deep_k_form(args)) return tiled_sgemm_launch<Default>(args, stream);
  return detail::launch_planned_sgemm<Deep>(args, stream, "simt_tiled_sgemm", false, &detail::deep_k_function<Deep>);
}

}  // namespace tessera::kernels::simt
