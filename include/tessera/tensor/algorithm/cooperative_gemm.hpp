// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// cooperative_gemm: CuTe's "small GEMM inside a kernel" over shared-memory
// (or any addressable) tensors A (M,K) and B (N,K), computed by all
// size(tiled_mma) threads of the block together, each its own part of C,
// with no partitioning set up by the caller. Two forms:
//
//   cooperative_gemm(tid, tiled_mma, alpha, sA, sB, beta, sC[, a_load, b_load, c_load, c_store])
//     C (M,N) in shared memory: C = alpha * A * B + beta * C
//   cooperative_gemm(tid, tiled_mma, sA, sB, rC[, a_load, b_load])
//     rC is this thread's accumulator fragment, owned by the caller:
//     rC += A * B (nothing is cleared, so successive calls accumulate)
//
//   auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{});
//   cooperative_gemm(threadIdx.x, mma, 1.0f, sA, sB, 0.0f, sC);   // 128 threads
//   __syncthreads();
//
//   auto thr = mma.get_slice(threadIdx.x);
//   auto rC = thr.partition_fragment_C(sC);   // or partition_fragment_C(mma, Shape<_64, _64>{})
//   clear(rC);
//   for (int k = 0; k < k_tiles; ++k) { /* fill sA, sB */ __syncthreads();
//     cooperative_gemm(threadIdx.x, mma, sA, sB, rC); __syncthreads(); }
//
// Thread tid partitions A and B with tiled_mma.get_slice(tid), copies its A
// and B values into register fragments through a_load / b_load (identity by
// default) and runs gemm over them into the accumulator. The shared-memory
// form accumulates into a cleared fragment shaped like its part of C, then
// writes
//   C(i) = c_store(alpha * acc(i) + beta * c_load(C(i)))
// for its elements of C; beta == 0 never reads C.
//
// @pre static shapes (strides may be run-time), M, N and K multiples of the
//      TiledMMA's tile (tile_size<0/1/2>); both checked at compile time
// @pre rC has the shape tiled_mma.get_slice(tid).partition_fragment_C gives
//      an (M,N) tile, and lives in registers; checked at compile time
// @pre the MMA takes its operands from registers (mma.sync, UniversalFMA);
//      GMMA atoms need warpgroup sequencing and are refused
// @pre every tid in [0, size(tiled_mma)) calls it; synchronise before
//      reading C (and before the call, after writing A and B)
// @law afterwards C(m,n) == alpha * sum_k A(m,k) B(n,k) + beta * C0(m,n),
//      and rC(i) == rC0(i) + sum_k A(m,k) B(n,k) where (m,n) is the
//      coordinate thr.partition_C gives element i, up to the MMA's rounding

#include <cstdint>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/tensor/algorithm/copy.hpp"
#include "tessera/tensor/algorithm/elementwise.hpp"
#include "tessera/tensor/algorithm/functional.hpp"
#include "tessera/tensor/algorithm/gemm.hpp"
#include "tessera/tensor/identity.hpp"

namespace tessera {

namespace detail {
template <int I, class TiledMma, class Extent>
TESSERA_HOST_DEVICE constexpr void check_cooperative_extent(TiledMma const& mma, Extent const&) {
  using Tile = decltype(mma.template tile_size_mnk<I>());
  static_assert(Extent::value % Tile::value == 0,
                "cooperative_gemm: an extent (M, N or K) is not a multiple of the TiledMMA's tile along it "
                "[tile_size<0/1/2>(mma); pad the shared-memory tiles]");
}

// Whether every layout has a static shape: the forms stop after their
// static_asserts otherwise, so that a run-time extent reports by name alone.
template <class... L>
constexpr bool static_shapes() {
  return (is_static_v<decltype(shape(std::declval<L const&>()))> && ...);
}

// The rules on A (M,K) and B (N,K) that both forms share.
template <class TiledMma, class ATensor, class BTensor>
TESSERA_HOST_DEVICE constexpr void check_cooperative_operands(TiledMma const& mma, ATensor const& sA,
                                                              BTensor const& sB) {
  static_assert(decltype(rank(sA.layout()))::value == 2 && decltype(rank(sB.layout()))::value == 2,
                "cooperative_gemm: A and B must be rank 2: (M,K) and (N,K)");
  static_assert(is_static_v<decltype(shape(sA.layout()))> && is_static_v<decltype(shape(sB.layout()))>,
                "cooperative_gemm: A and B need static shapes (each thread's register fragments are sized at "
                "compile time) [Int<N>{} extents; strides may be run-time]");
  if constexpr (static_shapes<typename ATensor::layout_type, typename BTensor::layout_type>()) {
    check_cooperative_extent<0>(mma, size<0>(sA.layout()));
    check_cooperative_extent<1>(mma, size<0>(sB.layout()));
    check_cooperative_extent<2>(mma, size<1>(sA.layout()));
    static_assert(decltype(size<1>(sA.layout()))::value == decltype(size<1>(sB.layout()))::value,
                  "cooperative_gemm: A (M,K) and B (N,K) disagree on K");
  }
}

// Whether an accumulator shape is the (V, REST_M, REST_N) partition shape
// `want`, mode by mode in size (the nesting inside a mode may differ).
template <class Have, class Want>
constexpr bool same_partition_sizes() {
  if constexpr (rank_v<Have> != 3) {
    return false;
  } else {
    return decltype(size<0>(Have{}))::value == decltype(size<0>(Want{}))::value &&
           decltype(size<1>(Have{}))::value == decltype(size<1>(Want{}))::value &&
           decltype(size<2>(Have{}))::value == decltype(size<2>(Want{}))::value;
  }
}

// An operand partition into its register fragment through `load`: the
// identity of the fragment's own type is copy(), which vectorises; any
// other load converts element by element.
template <class STensor, class RTensor, class Load>
TESSERA_HOST_DEVICE void load_operand_fragment(STensor const& part, RTensor& frag, Load const& load) {
  using V = typename RTensor::value_type;
  if constexpr (std::is_same_v<Load, identity> && std::is_same_v<typename STensor::value_type, V>)
    copy(part, frag);
  else
    transform(part, frag, [&](auto const& x) { return V(load(x)); });
}
}  // namespace detail

// rC += A * B into this thread's accumulator fragment.
template <class TiledMma, class AE, class AL, class BE, class BL, class RTensor, class ALoad = identity,
          class BLoad = identity>
  requires is_tensor_v<RTensor>
TESSERA_HOST_DEVICE void cooperative_gemm(std::uint32_t tid, TiledMma const& tiled_mma, Tensor<AE, AL> const& sA,
                                          Tensor<BE, BL> const& sB, RTensor&& rC, ALoad const& a_load = {},
                                          BLoad const& b_load = {}) {
  detail::check_cooperative_operands(tiled_mma, sA, sB);
  if constexpr (detail::static_shapes<AL, BL>()) {
    auto thr = tiled_mma.get_slice(tid);
    using RC = std::remove_cvref_t<RTensor>;
    static_assert(is_rmem_v<typename RC::iterator>,
                  "cooperative_gemm: the accumulator must be a register fragment [thr_mma.partition_fragment_C(sC); "
                  "for C in shared memory use cooperative_gemm(tid, mma, alpha, sA, sB, beta, sC)]");
    auto const cC = make_identity_tensor(make_shape(size<0>(sA.layout()), size<0>(sB.layout())));  // (M,N)
    using Want = decltype(shape(thr.partition_C(cC)));
    static_assert(detail::same_partition_sizes<std::remove_cvref_t<decltype(shape(rC.layout()))>, Want>(),
                  "cooperative_gemm: the accumulator's shape is not the (MMA, MMA_M, MMA_N) the TiledMMA gives "
                  "this thread for an (M,N) tile [thr_mma.partition_fragment_C(sC) or "
                  "partition_fragment_C(tiled_mma, make_shape(M, N)) with A's M and B's N]");

    auto tCsA = thr.partition_A(sA);  // (MMA, MMA_M, MMA_K)
    auto tCsB = thr.partition_B(sB);  // (MMA, MMA_N, MMA_K)
    auto tCrA = thr.partition_fragment_A(sA);
    auto tCrB = thr.partition_fragment_B(sB);
    static_assert(std::is_same_v<typename decltype(tCrA)::value_type, typename TiledMma::ValTypeA> &&
                      std::is_same_v<typename decltype(tCrB)::value_type, typename TiledMma::ValTypeB>,
                  "cooperative_gemm: the MMA must take A and B from registers (mma.sync, UniversalFMA); a GMMA atom "
                  "reads shared memory through descriptors and needs warpgroup_arrive / commit / wait around it");
    detail::load_operand_fragment(tCsA, tCrA, a_load);
    detail::load_operand_fragment(tCsB, tCrB, b_load);
    gemm(tiled_mma, tCrA, tCrB, rC);
  }
}

// C = alpha * A * B + beta * C with C in shared memory.
template <class TiledMma, class Alpha, class AE, class AL, class BE, class BL, class Beta, class CE, class CL,
          class ALoad = identity, class BLoad = identity, class CLoad = identity, class CStore = identity>
  requires(!is_tensor_v<Alpha>)
TESSERA_HOST_DEVICE void cooperative_gemm(std::uint32_t tid, TiledMma const& tiled_mma, Alpha const& alpha,
                                          Tensor<AE, AL> const& sA, Tensor<BE, BL> const& sB, Beta const& beta,
                                          Tensor<CE, CL> sC, ALoad const& a_load = {}, BLoad const& b_load = {},
                                          CLoad const& c_load = {}, CStore const& c_store = {}) {
  detail::check_cooperative_operands(tiled_mma, sA, sB);
  static_assert(decltype(rank(sC.layout()))::value == 2, "cooperative_gemm: C must be rank 2: (M,N)");
  static_assert(is_static_v<decltype(shape(sC.layout()))>,
                "cooperative_gemm: C needs a static shape (each thread's accumulator is sized at compile time) "
                "[Int<N>{} extents; strides may be run-time]");
  if constexpr (detail::static_shapes<AL, BL, CL>()) {
    static_assert(decltype(size<0>(sA.layout()))::value == decltype(size<0>(sC.layout()))::value &&
                      decltype(size<0>(sB.layout()))::value == decltype(size<1>(sC.layout()))::value,
                  "cooperative_gemm: the shapes do not agree: A (M,K), B (N,K), C (M,N)");

    auto thr = tiled_mma.get_slice(tid);
    auto tCsC = thr.partition_C(sC);  // (MMA, MMA_M, MMA_N)
    auto tCrC = thr.make_fragment_C(tCsC);
    clear(tCrC);
    cooperative_gemm(tid, tiled_mma, sA, sB, tCrC, a_load, b_load);
    using TC = typename Tensor<CE, CL>::value_type;
    using Acc = typename decltype(tCrC)::value_type;
    int const n = int(size(tCrC.layout()));
    bool const read_c = !(beta == Beta(0));
    for (int i = 0; i < n; ++i) {
      Acc v = Acc(alpha) * tCrC(i);
      if (read_c) v = v + Acc(beta) * Acc(c_load(TC(tCsC(i))));
      tCsC(i) = TC(c_store(v));
    }
  }
}

}  // namespace tessera
