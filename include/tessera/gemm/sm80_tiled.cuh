// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// sm80_tiled_gemm_kernel: seed 000's TN HGEMM written with Tessera tensors
// and atoms only -- Sm80Variant::tiled. Every index map is a partition of a
// Tensor by the objects of Sm80TiledTN (sm80_tiled.hpp):
//
//   gA = local_tile(mA, (BLK_M,BLK_K), (tm,_))        (BLK_M,BLK_K,k)
//   tAgA / tAsA = g2s.partition_S(gA) / _D(sA)         (CPY,CPY_M,CPY_K,k|PIPE)
//   tCrA = thr_mma.partition_fragment_A(sA(_,_,0))     (MMA,MMA_M,MMA_K)
//   tXsA / tXrA = s2r_a.partition_S(sA) / retile_D(tCrA)
//   tCsC = thr_mma.partition_C(sC)                     the epilogue's staging
//
// and the data moves through copy / copy_zfill / gemm_walk. Schedule: the
// multistage mainloop of seed 001 as in Sm80Mainloop (3 stages; k-tile
// kt+2 requested after the first ldmatrix of k-tile kt; ldmatrix of k-step
// ks+1 before the mma.sync of k-step ks), then the seed 004 epilogue through
// shared memory (Sm80Epilogue's store). Interior k-tiles take plain
// cp.async; edge tiles the byte-count form, whose zero fill covers the M, N
// and K residues.
//
// Preconditions (checked by the launcher): both operands K-major, 16-bit,
// pointers, leading dimensions and batch strides 16-byte aligned.

#include <cuda_runtime.h>

#include <cstdint>

#include <tessera/arch/sm80/cp_async.cuh>
#include <tessera/gemm/sm80_config.hpp>
#include <tessera/gemm/sm80_epilogue.cuh>
#include <tessera/gemm/sm80_rasterize.cuh>
#include <tessera/gemm/sm80_split.cuh>
#include <tessera/gemm/sm80_tensorop.hpp>
#include <tessera/gemm/sm80_tiled.hpp>
#include <tessera/tensor.hpp>

namespace tessera::kernels::sm80 {

namespace detail {

// Bit i set iff copy i of this thread's (CPY,CPY_MN,_1) partition starts on a
// row inside the first `mn_left` rows of the tile. Computed once per tile:
// the rows do not change along K.
template <class TXc>
__device__ __forceinline__ std::uint32_t tiled_row_mask(TXc const& tXc, int mn_left) {
  constexpr int kCopies = int(decltype(size<1>(tXc))::value);
  static_assert(kCopies <= 32, "sm80_tiled: more than 32 copies per thread [the row mask is 32 bits]");
  std::uint32_t mask = 0;
  TESSERA_UNROLL
  for (int i = 0; i < kCopies; ++i)
    if (int(get<0>(tXc(0, i, 0))) < mn_left) mask |= 1u << i;
  return mask;
}

// Issue thread's copies of k-tile `kt` of one operand into ring slot `stage`.
// `row_mask`: tiled_row_mask; `k_col`: the k offset of the thread's chunk in
// the tile (the same for all its copies: CPY_K == 1).
template <class T, class TXg, class TXs>
__device__ __forceinline__ void tiled_issue(TXg const& tXg, TXs&& tXs, std::uint32_t row_mask, int k_col, int k,
                                            int kt) {
  constexpr int kCopies = int(decltype(size<1>(tXg))::value);
  constexpr std::uint32_t kAllRows = kCopies == 32 ? ~0u : (1u << kCopies) - 1u;
  static_assert(decltype(size<2>(tXg))::value == 1, "sm80_tiled: one 16-byte chunk of K per copy row [CPY_K == 1]");
  if ((kt + 1) * T::kBlockK <= k && row_mask == kAllRows) {
    // NOTE: the source walks one copy row (stride<1>, 16 rows of ld) per
    // step, as the hand loader's `p += row_step`: in a partly unrolled loop
    // tXg(_, i, _) costs a 64-bit multiply per copy (PTX: 33 instructions
    // per pair of cp.async against the hand loader's 17).
    // NOTE: the f16-accumulating kernels unroll fully (immediate offsets);
    // the f32 ones by 2, as Sm80Mainloop's loader on sm_90 (254 registers,
    // no spill, sm_90a; 252 on sm_80).
    constexpr int kUnroll = sizeof(typename T::Acc) == 2 ? kCopies : 2;
    Tensor src = tXg(_, 0, _);  // (CPY,_1): copy 0, then one copy row further per step
#pragma unroll kUnroll
    for (int i = 0; i < kCopies; ++i) {
      copy(T::g2s(), src, tXs(_, i, _));
      src = make_tensor(src.data() + stride<1>(tXg), src.layout());
    }
  } else {
    int room = (k - kt * T::kBlockK - k_col) * 2;  // bytes of K left from the chunk (elements are 2 bytes)
    std::uint32_t const bytes = room <= 0 ? 0u : room >= 16 ? 16u : std::uint32_t(room);
    // NOTE: unrolled by 4, not fully: with all 8 copies' byte counts and
    // addresses at once the f32-accumulating kernel spilled 16 bytes at 255
    // registers (sm_90a); by 4 it fits as Sm80Mainloop's loader does.
    Tensor src = tXg(_, 0, _);
#pragma unroll 4
    for (int i = 0; i < kCopies; ++i) {
      copy(T::g2s_zfill().with((row_mask >> i) & 1u ? bytes : 0u), src, tXs(_, i, _));
      src = make_tensor(src.data() + stride<1>(tXg), src.layout());
    }
  }
}

}  // namespace detail

// Elem: half_t or bfloat16_t; Acc: float, or half_t for half_t inputs.
// kTailSplit: the instantiation for launches with a split tail (see
// sm80_gemm_kernel).
template <class Elem, class Acc, bool kTailSplit>
__global__ void __launch_bounds__(Sm80TiledTN<Elem, Acc>::kThreads, 2) sm80_tiled_gemm_kernel(const Params p) {
  using T = Sm80TiledTN<Elem, Acc>;
  // The epilogue's store walks the staged tile with the hand-indexed
  // kernel's configuration of the same tile and thread count.
  using EpilogueCfg = ConfigTile128x128<2, true, true>;
  static_assert(EpilogueCfg::kBlockM == T::kBlockM && EpilogueCfg::kBlockN == T::kBlockN &&
                    EpilogueCfg::kThreads == T::kThreads,
                "sm80_tiled_gemm_kernel: the epilogue's tile differs from the kernel's");
  static_assert(EpilogueCfg::kSmemBytes == T::kSmemBytes,
                "sm80_tiled_gemm_kernel: shared memory differs from the seed tile's [the launcher sizes it by "
                "ConfigTile128x128]");
  static_assert(T::kBlockM == T::kBlockN, "sm80_tiled_gemm_kernel: A and B share one copy partition (tXc)");
  extern __shared__ __align__(128) char smem[];
  Elem* const smem_elems = reinterpret_cast<Elem*>(smem);
  Tensor sA = make_tensor(make_smem_ptr(smem_elems), T::smem_layout());                   // (BLK_M,BLK_K,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(smem_elems + T::kRingElems), T::smem_layout());  // (BLK_N,BLK_K,PIPE)

  // A whole tile, or a K-slice of a tile of the split tail (sm80_split.hpp):
  // k-tiles kt0 .. kt0 + k_tiles - 1, K ending at k_end.
  int const all_k_tiles = (p.k + T::kBlockK - 1) / T::kBlockK;
  Sm80Unit const unit = kTailSplit ? sm80_unit(int(blockIdx.x), p, all_k_tiles) : Sm80Unit{int(blockIdx.x), 0, all_k_tiles, -1};
  int tm, tn;
  rasterize(unit.tile, p.tiles_m, p.tiles_n, p.raster_group, tm, tn);
  int const tid = int(threadIdx.x);
  int const kt0 = unit.kt0;
  int const k_tiles = unit.k_tiles;
  int const k_end = p.k < (kt0 + k_tiles) * T::kBlockK ? p.k : (kt0 + k_tiles) * T::kBlockK;

  auto thr_g2s = T::g2s().get_slice(tid);
  Tensor tAsA = thr_g2s.partition_D(sA);  // (CPY,CPY_M,CPY_K,PIPE)
  Tensor tBsB = thr_g2s.partition_D(sB);  // (CPY,CPY_N,CPY_K,PIPE)
  // (row, k) of each copy inside the CTA tile, for the residue predicates.
  Tensor tXc = thr_g2s.partition_S(make_identity_tensor(make_shape(Int<T::kBlockM>{}, Int<T::kBlockK>{})));  // (CPY,CPY_MN,CPY_K)
  int const k_col = int(get<1>(tXc(0, 0, 0)));
  std::uint32_t const rows_a = detail::tiled_row_mask(tXc, p.m - tm * T::kBlockM);
  std::uint32_t const rows_b = detail::tiled_row_mask(tXc, p.n - tn * T::kBlockN);

  auto mma = T::tiled_mma();
  auto thr_mma = mma.get_slice(tid);
  auto s2r_a = make_tiled_copy_A(T::s2r_atom(), mma);
  auto s2r_b = make_tiled_copy_B(T::s2r_atom(), mma);
  auto thr_s2r_a = s2r_a.get_slice(tid);
  auto thr_s2r_b = s2r_b.get_slice(tid);
  Tensor tXsA = thr_s2r_a.partition_S(sA);                 // (CPY,_1,MMA_K,PIPE)
  Tensor tXsB = thr_s2r_b.partition_S(sB);                 // (CPY,_1,MMA_K,PIPE)
  Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));  // (MMA,MMA_N,MMA_K)
  Tensor tXrA = thr_s2r_a.retile_D(tCrA);                  // (CPY,_1,MMA_K)
  Tensor tXrB = thr_s2r_b.retile_D(tCrB);                  // (CPY,_1,MMA_K)
  constexpr int kKSteps = int(decltype(size<2>(tCrA))::value);
  constexpr int kMmaN = int(decltype(size<1>(tCrB))::value);
  static_assert(decltype(size<2>(tXrA))::value == kKSteps && decltype(size<2>(tXsB))::value == kKSteps,
                "sm80_tiled_gemm_kernel: ldmatrix and mma.sync disagree on the k-steps of a tile");
  // NOTE: serpentine over n, so that consecutive mma.sync share the A or the
  // B registers of the one before (operand reuse), as Sm80Mainloop does.
  auto serpentine = [](int s, int& mi, int& ni) {
    mi = s / kMmaN;
    int const j = s % kMmaN;
    ni = (mi & 1) ? kMmaN - 1 - j : j;
  };

  for (int batch = int(blockIdx.y); batch < p.batch_count; batch += int(gridDim.y)) {
    Tensor mA = make_tensor(make_gmem_ptr(static_cast<const Elem*>(p.a) + std::int64_t(batch) * p.batch_a),
                            make_shape(p.m, p.k), make_stride(p.lda, _1{}));  // (M,K)
    Tensor mB = make_tensor(make_gmem_ptr(static_cast<const Elem*>(p.b) + std::int64_t(batch) * p.batch_b),
                            make_shape(p.n, p.k), make_stride(p.ldb, _1{}));  // (N,K)
    Tensor gA = local_tile(mA, make_shape(Int<T::kBlockM>{}, Int<T::kBlockK>{}), make_coord(tm, _));  // (BLK_M,BLK_K,k)
    Tensor gB = local_tile(mB, make_shape(Int<T::kBlockN>{}, Int<T::kBlockK>{}), make_coord(tn, _));  // (BLK_N,BLK_K,k)
    Tensor tAgA = thr_g2s.partition_S(gA);  // (CPY,CPY_M,CPY_K,k)
    Tensor tBgB = thr_g2s.partition_S(gB);  // (CPY,CPY_N,CPY_K,k)
    // j: the j-th k-tile of this CTA's K range.
    auto issue = [&](int j, int stage) {
      detail::tiled_issue<T>(tAgA(_, _, _, kt0 + j), tAsA(_, _, _, stage), rows_a, k_col, k_end, kt0 + j);
      detail::tiled_issue<T>(tBgB(_, _, _, kt0 + j), tBsB(_, _, _, stage), rows_b, k_col, k_end, kt0 + j);
    };

    Tensor tCrC = thr_mma.partition_fragment_C(make_identity_tensor(make_shape(Int<T::kBlockM>{}, Int<T::kBlockN>{})));  // (MMA,MMA_M,MMA_N)
    TESSERA_UNROLL
    for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = Acc(0.0f);

    // Prologue: k-tiles 0 .. kStages-2 requested, one commit group each.
    TESSERA_UNROLL
    for (int s = 0; s < T::kStages - 1; ++s) {
      if (s < k_tiles) issue(s, s);
      arch::cp_async_fence();
    }
    arch::cp_async_wait<T::kStages - 2>();
    __syncthreads();

    int read = 0;                 // ring slot of k-tile kt
    int write = T::kStages - 1;   // ring slot of the k-tile requested next
    int kt_load = T::kStages - 1;
    copy(s2r_a, tXsA(_, _, 0, 0), tXrA(_, _, 0));
    copy(s2r_b, tXsB(_, _, 0, 0), tXrB(_, _, 0));
    for (int kt = 0; kt < k_tiles; ++kt) {
      TESSERA_UNROLL
      for (int ks = 0; ks < kKSteps; ++ks) {
        if (ks == kKSteps - 1) {
          // The next k-tile has landed and every warp is done with the slot
          // that the request below refills.
          arch::cp_async_wait<T::kStages - 2>();
          __syncthreads();
          read = read + 1 == T::kStages ? 0 : read + 1;
        }
        int const next = (ks + 1) % kKSteps;
        copy(s2r_a, tXsA(_, _, next, read), tXrA(_, _, next));
        copy(s2r_b, tXsB(_, _, next, read), tXrB(_, _, next));
        if (ks == 0) {
          if (kt_load < k_tiles) issue(kt_load, write);
          arch::cp_async_fence();
          ++kt_load;
          write = write + 1 == T::kStages ? 0 : write + 1;
        }
        gemm_walk(mma, serpentine, tCrC, tCrA(_, _, ks), tCrB(_, _, ks), tCrC);
      }
    }
    arch::cp_async_wait<0>();
    __syncthreads();  // every warp has left the ring: the staging tile reuses it

    // Epilogue (seed 004): accumulators -> the swizzled f32 tile through the
    // TiledMMA's own C partition, then 16-byte rows out with alpha/beta.
    Tensor sC = make_tensor(make_smem_ptr(reinterpret_cast<float*>(smem)), T::staging_layout());  // (BLK_M,BLK_N)
    Tensor tCsC = thr_mma.partition_C(sC);  // (MMA,MMA_M,MMA_N)
    TESSERA_UNROLL
    for (int i = 0; i < int(size(tCrC)); ++i) tCsC(i) = static_cast<float>(tCrC(i));
    __syncthreads();

    EpilogueParams epi = p.epi;
    int const out_bytes = epi.out == OutputType::f32 ? 4 : 2;
    epi.d = static_cast<char*>(epi.d) + std::int64_t(batch) * p.batch_d * out_bytes;
    if (epi.c != nullptr) epi.c = static_cast<const char*>(epi.c) + std::int64_t(batch) * p.batch_c * out_bytes;
    // A K-slice of a split tile (the launcher splits only unbatched
    // problems): only the CTA that finishes the tile writes D.
    if (unit.split_slot >= 0 &&
        !Sm80Epilogue<EpilogueCfg>::reduce_split(smem, p.partial + std::int64_t(unit.split_slot) * (T::kBlockM * T::kBlockN),
                                                 p.counters + unit.split_slot, p.splits))
      return;
    Sm80Epilogue<EpilogueCfg>::write(smem, epi, tm * T::kBlockM, tn * T::kBlockN, p.m, p.n);
    __syncthreads();  // the next batch's prologue overwrites the staging tile
  }
}

// Launch description of one instantiation. (The launcher sets the kernels'
// shared-memory attributes, once per kernel and device.)
template <class Elem, class Acc>
Launch describe_tiled() {
  using T = Sm80TiledTN<Elem, Acc>;
  Launch l{reinterpret_cast<const void*>(&sm80_tiled_gemm_kernel<Elem, Acc, false>), T::kThreads, T::kSmemBytes,
           T::kBlockM, T::kBlockN, 16};
  l.split_function = reinterpret_cast<const void*>(&sm80_tiled_gemm_kernel<Elem, Acc, true>);
  return l;
}

}  // namespace tessera::kernels::sm80
