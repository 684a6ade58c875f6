// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// ptxas report check (cmake/tessera_ptxas_report.cmake): the mma.sync GEMM's
// seed tile (128x128x64, 4 warps of 64x64, 3 stages; TN, 16-byte loads),
// which runs on Hopper as the fallback and as issue 4's Ampere path, must not
// spill in its sm_90a build: f16 with f16 accumulation (the seed's HGEMM),
// whole tiles and the tail split's K-slices, and bf16 with f32 accumulation.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tessera/gemm/sm80_tensorop.cuh>

namespace sm80 = tessera::kernels::sm80;
template <int kE>
using SeedTile = sm80::ConfigTile128x128<kE, true, true>;

// Taking each kernel's address instantiates it.
const void* const kKernels[] = {
    reinterpret_cast<const void*>(&sm80::sm80_gemm_kernel<SeedTile<2>, __half, __half, false>),
    reinterpret_cast<const void*>(&sm80::sm80_gemm_kernel<SeedTile<2>, __half, __half, true>),
    reinterpret_cast<const void*>(&sm80::sm80_gemm_kernel<SeedTile<2>, __nv_bfloat16, float, false>),
};

const void* tessera_ptxas_check_sm80_kernel(int i) { return kKernels[i]; }
