// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// ldmatrix copy atoms (shared -> registers, 8x8 matrices of b16), sm_75+.
//
//   SM75_U32x{1,2,4}_LDSM_N   ldmatrix .x1/.x2/.x4: lane l receives row l/4,
//                              elements 2(l%4), 2(l%4)+1 of each matrix
//   SM75_U16x{2,4,8}_LDSM_T   the .trans forms: lane l receives column l/4,
//                              rows 2(l%4), 2(l%4)+1 of each matrix
//
// Bit image of the reference: matrix j, row r, bit b of the row at
// 1024*j + 128*r + b. Lanes 8j..8j+7 give the row addresses of matrix j;
// lanes beyond the matrix count repeat (stride 0 in SrcLayout).

#include <cstdint>

#include <tessera/atom/copy_traits.hpp>

#if defined(__CUDACC__)
#include <tessera/arch/sm80/ldmatrix.cuh>
#endif

namespace tessera {

namespace detail {

template <int kNum, bool kTrans>
struct sm75_ldsm {
  static_assert(kNum == 1 || kNum == 2 || kNum == 4, "LDSM: the matrix count must be 1, 2 or 4");
  using SRegisters = uint128_t[1];
  using DRegisters = std::uint32_t[kNum];
  static constexpr int kNumMatrices = kNum;
  static constexpr bool kTransposed = kTrans;

#if defined(__CUDACC__)
  // PTX: ldmatrix.sync.aligned.m8n8.x{kNum}{.trans}.shared.b16; sm_75+.
  __device__ static void copy(void const* smem_row, std::uint32_t (&d)[kNum]) {
    arch::ldmatrix<kNum, kTrans>(smem_row, d);
  }
#endif
};

// (T32, 128 bits) -> bit: lane t addresses row t%8 of matrix t/8 (lanes past
// 8*kNum repeat the first ones).
template <int kNum>
using ldsm_addr_layout = std::conditional_t<
    kNum == 4, Layout<Shape<_32, _128>, Stride<_128, _1>>,
    Layout<Shape<Shape<Int<8 * kNum>, Int<32 / (8 * kNum)>>, _128>, Stride<Stride<_128, _0>, _1>>>;

// (T32, 32*kNum bits) -> bit, non-transposed: lane t holds bits 32t..32t+31
// of each matrix (row t/4, column pair t%4).
template <int kNum>
using ldsm_reg_layout_n =
    std::conditional_t<kNum == 1, Layout<Shape<_32, _32>, Stride<_32, _1>>,
                       Layout<Shape<_32, Shape<_32, Int<kNum>>>, Stride<_32, Stride<_1, _1024>>>>;

// (T32, 32*kNum bits) -> bit, transposed: lane t = tig + 4*group holds the
// 16-bit elements at row 2*tig + e, column group of each matrix.
template <int kNum>
using ldsm_reg_layout_t =
    std::conditional_t<kNum == 1, Layout<Shape<Shape<_4, _8>, Shape<_16, _2>>, Stride<Stride<_256, _16>, Stride<_1, _128>>>,
                       Layout<Shape<Shape<_4, _8>, Shape<_16, _2, Int<kNum>>>,
                              Stride<Stride<_256, _16>, Stride<_1, _128, _1024>>>>;

}  // namespace detail

struct SM75_U32x1_LDSM_N : detail::sm75_ldsm<1, false> {};
struct SM75_U32x2_LDSM_N : detail::sm75_ldsm<2, false> {};
struct SM75_U32x4_LDSM_N : detail::sm75_ldsm<4, false> {};
struct SM75_U16x2_LDSM_T : detail::sm75_ldsm<1, true> {};
struct SM75_U16x4_LDSM_T : detail::sm75_ldsm<2, true> {};
struct SM75_U16x8_LDSM_T : detail::sm75_ldsm<4, true> {};

template <class Op>
  requires std::is_base_of_v<detail::sm75_ldsm<Op::kNumMatrices, Op::kTransposed>, Op>
struct Copy_Traits<Op> {
  using ThrID = Layout<_32>;
  using SrcLayout = detail::ldsm_addr_layout<Op::kNumMatrices>;  // (T32,128 bits) -> bit
  using DstLayout = std::conditional_t<Op::kTransposed, detail::ldsm_reg_layout_t<Op::kNumMatrices>,
                                       detail::ldsm_reg_layout_n<Op::kNumMatrices>>;  // (T32,32N bits) -> bit
  using RefLayout = DstLayout;

  template <class STensor, class DTensor>
  TESSERA_HOST_DEVICE static void copy_unpack(Copy_Traits const&, STensor const& src, DTensor&& dst) {
#if defined(__CUDA_ARCH__)
    std::uint32_t regs[Op::kNumMatrices];
    Op::copy(&src(0), regs);
    detail::scatter_bits(regs, dst);
#else
    (void)src;
    (void)dst;
#endif
  }
};

}  // namespace tessera
