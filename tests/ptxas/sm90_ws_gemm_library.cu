// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// ptxas report check (cmake/tessera_ptxas_report.cmake) of every Hopper GEMM
// kernel the library ships: the library's own translation unit, compiled
// for sm_90a with -Xptxas -v at test time (no GPU needed). All 78 entry
// points (bf16, f16 and tf32 inputs; f32 and f16 accumulation; cooperative,
// clusters of 2, ping-pong 64x256, 128x128 and 64x128, the narrow tiles;
// TMA store and direct epilogues) must keep their wgmma pipelined (no "wgmma.mma_async instructions are serialized", C7510-C7515)
// and must not spill, but one.
//
// Ping-pong 128x128 with the TMA store and f16 accumulation widens both of a
// consumer's 64x128 blocks to f32 when the K loop ends and keeps 8 bytes in
// local memory (stored once, reloaded at tile boundaries, outside the K
// loop; SASS of run 138). Its spill-free forms were slower or no faster
// (runs 143-144, ws_gemm_kernel's comment on acc_view). The cooperative f16
// kernels, which spilled 4 bytes the same way, read their one block in place
// (F16AccView, acc_view.cuh) and may not spill:
// allow-spill: ws_gemm_kernelI6__halfS3_NS1_13WsGemmConfigTILb1ELi128ELi128ELi6ELi1ELb1ELb0EEELb1EE
#include "gemm/kernels/sm90_ws_gemm.cu"
