// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// ptxas report check (cmake/tessera_ptxas_report.cmake): the f32 FFMA GEMM
// that tessera::gemm runs for large f32 problems (simt_tiled_sgemm with
// SgemmDefault, both operands M/N-major in 16-byte units: the form the
// repack copies K-contiguous operands into) must not spill in its sm_90a
// build; its 8x8 outputs per thread and double-buffered fragments sit close
// to the register budget that two CTAs of 256 threads per SM leave (128;
// ptxas gives it 119 with nvcc 13).
#include <tessera/gemm/simt_tiled.cuh>

namespace simt = tessera::kernels::simt;

// Taking the kernel's address instantiates it.
const void* const kKernels[] = {
    reinterpret_cast<const void*>(
        &simt::simt_tiled_sgemm_kernel<simt::SgemmDefault, simt::OperandMode::vec16, simt::OperandMode::vec16, true>),
};

const void* tessera_ptxas_check_simt_kernel(int i) { return kKernels[i]; }
