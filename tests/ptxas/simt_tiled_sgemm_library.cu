// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// ptxas report check (cmake/tessera_ptxas_report.cmake) of every f32 FFMA
// GEMM kernel the registered simt_tiled_sgemm ships: the library's own
// translation unit, compiled for sm_90a with -Xptxas -v at test time (no GPU
// needed). SgemmDefault's nine operand-mode pairs and SgemmDeepK's one
// (both operands copied 16 bytes along M/N: what tessera::gemm runs large
// f32 problems in) must not spill. Their 8x8 outputs per thread and
// double-buffered fragments sit close to the 128 registers that two CTAs of
// 256 threads per SM leave (ptxas 13 gives them 119-128).
#include "gemm/kernels/simt_tiled_sgemm.cu"
