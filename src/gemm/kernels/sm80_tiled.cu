// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// sm80_tiled: the registry face of Sm80Variant::tiled, seed 000's TN HGEMM
// written with Tensors, TiledCopy and TiledMMA (include/tessera/gemm/
// sm80_tiled.cuh). The instantiations live with the other sm80_tensorop
// ones (sm80_tensorop_{f16,bf16,f16acc}.cu); this record lets `tessera
// bench` time it beside cuBLAS and `tessera gemm --kernel sm80_tiled` run it.
// Registered after sm80_tensorop with the same architecture, so the
// heuristic never prefers it (ties keep registration order).
#include <tessera/gemm/sm80_tensorop.hpp>

#include "gemm/kernel_entry.hpp"

namespace tessera::kernels {
namespace {

bool can_implement(const GemmArgs& args) { return sm80_tensorop_variant_covers(args, Sm80Variant::tiled); }

Status launch(const GemmArgs& args, gemm_stream_t stream) {
  return sm80_tensorop_launch_variant(args, Sm80Variant::tiled, stream);
}

GemmKernel::LaunchShape launch_shape(const GemmArgs& args) {
  return sm80_tensorop_variant_launch_shape(args, Sm80Variant::tiled);
}

}  // namespace

GemmKernel gemm_kernel_sm80_tiled() {
  GemmKernel k;
  k.info = {"sm80_tiled", 80, 0,
            "mma.sync m16n8k16, seed 000's tile written with Tensors, TiledCopy and TiledMMA: 128x128x64, 3-stage "
            "cp.async, ldmatrix, 4 warps of 64x64, smem epilogue; f16/bf16, both operands K-major, 16-byte aligned"};
  k.can_implement = &can_implement;
  k.launch = &launch;
  k.launch_shape = &launch_shape;
  return k;
}

}  // namespace tessera::kernels
