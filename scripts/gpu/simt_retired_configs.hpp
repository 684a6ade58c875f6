// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The simt_sgemm configurations measured and retired from
// include/tessera/gemm/simt_sgemm.cuh (their numbers: docs/performance.md,
// SGEMM runs 2-9). scripts/gpu/simt.sh still times them on request
// (SIMT_CFG_IDS 2 and 4-7) and its emulation runs the tiled kernel with two of
// them (ids 14 and 16); include after <tessera/gemm/simt_sgemm.cuh>.
#pragma once

namespace retired {
namespace simt = tessera::kernels::simt;
// 2 stages (40 KB).
using Sgemm128x128x16S2 = simt::SgemmConfig<128, 128, 16, 2, 2, 4, 2, 2, 8, 2>;
// The run-2 default: 128x128x8, 4 stages.
using Sgemm128x128x8 = simt::SgemmConfig<128, 128, 8, 4, 2, 4, 2, 2, 8, 2>;
// 4x8 lanes: warps of 32x64 (4x2 warps).
using Sgemm128x128x16W = simt::SgemmConfig<128, 128, 16, 3, 4, 2, 2, 2, 4, 2>;
// 128x256x16, 8x16 per thread (FFMA:LDS 128:6), 1 CTA/SM, up to 255 registers.
using Sgemm128x256x16 = simt::SgemmConfig<128, 256, 16, 3, 2, 4, 2, 4, 8, 1>;
// The default tile without the register double buffer of fragments.
using Sgemm128x128x16NoPf = simt::SgemmConfig<128, 128, 16, 3, 2, 4, 2, 2, 8, 2, false>;
}  // namespace retired
