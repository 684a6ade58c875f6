// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// simt_sgemm: the registry face of the fp32 SIMT GEMM
// (include/tessera/gemm/simt_sgemm.cuh), run when named since
// simt_tiled_sgemm (the same kernel on Tensors/TiledMMA, registered before
// it) measured as fast (run 38); instantiated with SgemmDefault
// (128x128x16 tile, 4-stage cp.async ring, 8x8 outputs per thread, FFMAs in
// row bands of 4: run 18 on an H100, 0.915x cuBLAS geometric mean over
// 4096^3/8192^3 and three orders against 0.855 for the row-by-row order).
// Every order of A, B, C, D, any ld, element-aligned pointers, batches.
#include <tessera/gemm/simt_sgemm.cuh>

#include "gemm/kernel_entry.hpp"
#include "gemm/launch_cache.hpp"

namespace tessera::kernels {
namespace {

using Config = simt::SgemmDefault;

Status launch(const GemmArgs& args, gemm_stream_t stream) { return simt::sgemm_launch<Config>(args, stream); }

// Ready to launch: the 66 KiB of shared memory opted in (run 67: the
// benchmark's occupancy column read 0% on a problem's first row without).
GemmKernel::LaunchShape launch_shape(const GemmArgs& args) {
  return detail::ready_launch_shape(simt::sgemm_launch_shape<Config>(args));
}

}  // namespace

GemmKernel gemm_kernel_simt_sgemm() {
  GemmKernel k;
  k.info = {"simt_sgemm", 80, 0,
            "fp32 FFMA: 128x128x16 tile, 4-stage cp.async into M/N-major tiles (16 B along M/N, 4 B along "
            "K or when misaligned), 8x8 per thread in row bands of 4 (FFMA register-bank spread), 2 CTAs/SM; "
            "every order, ld and alignment"};
  k.can_implement = &simt::sgemm_can_implement;
  k.launch = &launch;
  k.launch_shape = &launch_shape;
  return k;
}

}  // namespace tessera::kernels
