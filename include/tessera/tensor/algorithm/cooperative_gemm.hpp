// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// cooperative_gemm(tid, tiled_mma, alpha, sA, sB, beta, sC[, load/store ops]):
// C = alpha * A * B + beta * C over shared-memory (or any addressable)
// tensors A (M,K), B (N,K), C (M,N), computed by all size(tiled_mma) threads
// of the block together, each its own part of C -- CuTe's "small GEMM inside
// a kernel" with no partitioning set up by the caller:
//
//   auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{});
//   cooperative_gemm(threadIdx.x, mma, 1.0f, sA, sB, 0.0f, sC);   // 128 threads
//   __syncthreads();
//
// Thread tid partitions A, B and C with tiled_mma.get_slice(tid), copies its
// A and B values into register fragments through a_load / b_load (identity
// by default), runs gemm over them, then writes
//   C(i) = c_store(alpha * acc(i) + beta * c_load(C(i)))
// for its elements of C; beta == 0 never reads C.
//
// @pre static shapes (strides may be run-time), M, N and K multiples of the
//      TiledMMA's tile (tile_size<0/1/2>); both checked at compile time
// @pre the MMA takes its operands from registers (mma.sync, UniversalFMA);
//      GMMA atoms need warpgroup sequencing and are refused
// @pre every tid in [0, size(tiled_mma)) calls it; synchronise before
//      reading C (and before the call, after writing A and B)
// @law afterwards C(m,n) == alpha * sum_k A(m,k) B(n,k) + beta * C0(m,n),
//      up to the MMA's rounding

#include <cstdint>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/tensor/algorithm/copy.hpp"
#include "tessera/tensor/algorithm/elementwise.hpp"
#include "tessera/tensor/algorithm/functional.hpp"
#include "tessera/tensor/algorithm/gemm.hpp"

namespace tessera {

namespace detail {
template <int I, class TiledMma, class Extent>
TESSERA_HOST_DEVICE constexpr void check_cooperative_extent(TiledMma const& mma, Extent const&) {
  using Tile = decltype(mma.template tile_size_mnk<I>());
  static_assert(Extent::value % Tile::value == 0,
                "cooperative_gemm: an extent (M, N or K) is not a multiple of the TiledMMA's tile along it "
                "[tile_size<0/1/2>(mma); pad the shared-memory tiles]");
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

template <class TiledMma, class Alpha, class AE, class AL, class BE, class BL, class Beta, class CE, class CL,
          class ALoad = identity, class BLoad = identity, class CLoad = identity, class CStore = identity>
TESSERA_HOST_DEVICE void cooperative_gemm(std::uint32_t tid, TiledMma const& tiled_mma, Alpha const& alpha,
                                          Tensor<AE, AL> const& sA, Tensor<BE, BL> const& sB, Beta const& beta,
                                          Tensor<CE, CL> sC, ALoad const& a_load = {}, BLoad const& b_load = {},
                                          CLoad const& c_load = {}, CStore const& c_store = {}) {
  static_assert(decltype(rank(sA.layout()))::value == 2 && decltype(rank(sB.layout()))::value == 2 &&
                    decltype(rank(sC.layout()))::value == 2,
                "cooperative_gemm: A, B and C must be rank 2: (M,K), (N,K) and (M,N)");
  static_assert(is_static_v<decltype(shape(sA.layout()))> && is_static_v<decltype(shape(sB.layout()))> &&
                    is_static_v<decltype(shape(sC.layout()))>,
                "cooperative_gemm: A, B and C need static shapes (each thread's register fragments are sized at "
                "compile time) [Int<N>{} extents; strides may be run-time]");
  detail::check_cooperative_extent<0>(tiled_mma, size<0>(sA.layout()));
  detail::check_cooperative_extent<1>(tiled_mma, size<0>(sB.layout()));
  detail::check_cooperative_extent<2>(tiled_mma, size<1>(sA.layout()));
  static_assert(decltype(size<1>(sA.layout()))::value == decltype(size<1>(sB.layout()))::value &&
                    decltype(size<0>(sA.layout()))::value == decltype(size<0>(sC.layout()))::value &&
                    decltype(size<0>(sB.layout()))::value == decltype(size<1>(sC.layout()))::value,
                "cooperative_gemm: the shapes do not agree: A (M,K), B (N,K), C (M,N)");

  auto thr = tiled_mma.get_slice(tid);
  auto tCsA = thr.partition_A(sA);  // (MMA, MMA_M, MMA_K)
  auto tCsB = thr.partition_B(sB);  // (MMA, MMA_N, MMA_K)
  auto tCsC = thr.partition_C(sC);  // (MMA, MMA_M, MMA_N)
  auto tCrA = thr.partition_fragment_A(sA);
  auto tCrB = thr.partition_fragment_B(sB);
  static_assert(std::is_same_v<typename decltype(tCrA)::value_type, typename TiledMma::ValTypeA> &&
                    std::is_same_v<typename decltype(tCrB)::value_type, typename TiledMma::ValTypeB>,
                "cooperative_gemm: the MMA must take A and B from registers (mma.sync, UniversalFMA); a GMMA atom "
                "reads shared memory through descriptors and needs warpgroup_arrive / commit / wait around it");
  detail::load_operand_fragment(tCsA, tCrA, a_load);
  detail::load_operand_fragment(tCsB, tCrB, b_load);
  auto tCrC = thr.make_fragment_C(tCsC);
  clear(tCrC);
  gemm(tiled_mma, tCrA, tCrB, tCrC);
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

}  // namespace tessera
