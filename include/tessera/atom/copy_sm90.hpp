// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// stmatrix copy atoms (registers -> shared, 8x8 matrices of b16), sm_90+:
// the inverses of the ldmatrix atoms (same bit images with source and
// destination exchanged).
//
//   SM90_U32x{1,2,4}_STSM_N
//   SM90_U16x{2,4,8}_STSM_T

#include <cstdint>

#include <tessera/atom/copy_sm75.hpp>

#if defined(__CUDACC__)
#include <tessera/arch/sm90/stmatrix.cuh>
#endif

namespace tessera {

namespace detail {

template <int kNum, bool kTrans>
struct sm90_stsm {
  static_assert(kNum == 1 || kNum == 2 || kNum == 4, "STSM: the matrix count must be 1, 2 or 4");
  using SRegisters = std::uint32_t[kNum];
  using DRegisters = uint128_t[1];
  static constexpr int kNumMatrices = kNum;
  static constexpr bool kTransposed = kTrans;

#if defined(__CUDACC__)
  // PTX: stmatrix.sync.aligned.m8n8.x{kNum}{.trans}.shared.b16; sm_90+.
  __device__ static void copy(std::uint32_t const (&s)[kNum], void* smem_row) {
    arch::stmatrix<kNum, kTrans>(smem_row, s);
  }
#endif
};

}  // namespace detail

struct SM90_U32x1_STSM_N : detail::sm90_stsm<1, false> {};
struct SM90_U32x2_STSM_N : detail::sm90_stsm<2, false> {};
struct SM90_U32x4_STSM_N : detail::sm90_stsm<4, false> {};
struct SM90_U16x2_STSM_T : detail::sm90_stsm<1, true> {};
struct SM90_U16x4_STSM_T : detail::sm90_stsm<2, true> {};
struct SM90_U16x8_STSM_T : detail::sm90_stsm<4, true> {};

template <class Op>
  requires std::is_base_of_v<detail::sm90_stsm<Op::kNumMatrices, Op::kTransposed>, Op>
struct Copy_Traits<Op> {
  using ThrID = Layout<_32>;
  using SrcLayout = std::conditional_t<Op::kTransposed, detail::ldsm_reg_layout_t<Op::kNumMatrices>,
                                       detail::ldsm_reg_layout_n<Op::kNumMatrices>>;  // (T32,32N bits) -> bit
  using DstLayout = detail::ldsm_addr_layout<Op::kNumMatrices>;                      // (T32,128 bits) -> bit
  using RefLayout = SrcLayout;

  template <class STensor, class DTensor>
  TESSERA_HOST_DEVICE static void copy_unpack(Copy_Traits const&, STensor const& src, DTensor&& dst) {
#if defined(__CUDA_ARCH__)
    std::uint32_t regs[Op::kNumMatrices];
    detail::gather_bits(regs, src);
    Op::copy(regs, &dst(0));
#else
    (void)src;
    (void)dst;
#endif
  }
};

}  // namespace tessera
