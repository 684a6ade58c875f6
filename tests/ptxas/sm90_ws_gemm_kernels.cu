// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// ptxas report check (cmake/tessera_ptxas_report.cmake): the Hopper GEMM's
// default kernels must keep their wgmma pipelined (no C7515) and must not
// spill. Compiled for sm_90a with -Xptxas -v at test time; no GPU needed.
// Instantiated: the two bf16 defaults (cooperative 128x256 with the held
// TMA-store stage for large problems, ping-pong 128x128 with the TMA store
// for small ones), the f32-output form, clusters of 2 with the TMA store,
// and the same with f16 accumulation.
//
// One spill is allowed. Ping-pong 128x128 with f16 accumulation widens both
// of a consumer's 64x128 blocks to f32 when the K loop ends and keeps 8 bytes
// in local memory (stored once, reloaded at tile boundaries, outside the K
// loop; SASS of run 138). Its spill-free forms were slower or no faster
// (runs 143-144, ws_gemm_kernel's comment on acc_view). The cooperative f16
// kernels, which spilled 4 bytes the same way, read their one block in place
// (F16AccView, acc_view.cuh) and may not spill:
// allow-spill: ws_gemm_kernelI6__halfS3_NS1_13WsGemmConfigTILb1ELi128ELi128ELi6ELi1ELb1ELb0EEELb1EE
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tessera/gemm/sm90_ws_gemm.cuh>

namespace sm90 = tessera::kernels::sm90;

// Taking each kernel's address instantiates it.
const void* const kKernels[] = {
    reinterpret_cast<const void*>(&sm90::ws_gemm_kernel<__nv_bfloat16, __nv_bfloat16, sm90::WsGemmTmaStoreConfig>),
    reinterpret_cast<const void*>(
        &sm90::ws_gemm_kernel<__nv_bfloat16, __nv_bfloat16, sm90::WsGemmPingPong128TmaStoreConfig>),
    reinterpret_cast<const void*>(&sm90::ws_gemm_kernel<__nv_bfloat16, float, sm90::WsGemmConfig>),
    reinterpret_cast<const void*>(
        &sm90::ws_gemm_kernel<__nv_bfloat16, __nv_bfloat16, sm90::WsGemmCluster2TmaStoreConfig>),
    reinterpret_cast<const void*>(&sm90::ws_gemm_kernel<__half, __half, sm90::WsGemmTmaStoreConfig, true>),
    reinterpret_cast<const void*>(&sm90::ws_gemm_kernel<__half, __half, sm90::WsGemmPingPong128TmaStoreConfig, true>),
    reinterpret_cast<const void*>(&sm90::ws_gemm_kernel<__half, __half, sm90::WsGemmConfig, true>),
    reinterpret_cast<const void*>(&sm90::ws_gemm_kernel<__half, __half, sm90::WsGemmCluster2TmaStoreConfig, true>),
};

const void* tessera_ptxas_check_kernel(int i) { return kKernels[i]; }
