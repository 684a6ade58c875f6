// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The explicit list of GEMM kernels. Adding a kernel: write
// src/gemm/kernels/<name>.cu defining tessera::kernels::gemm_kernel_<name>()
// and add one X(<name>) line below. (An explicit list rather than static
// self-registration: a linker drops unreferenced objects of a static library.)
#include "gemm/kernel_entry.hpp"
#include "gemm/registry.hpp"

// Registration order matters only among kernels the heuristic ranks equally
// (docs/gemm.md); keep the portable fallback last.
#define TESSERA_GEMM_KERNEL_LIST(X) \
  X(sm90_ws_gemm)                   \
  X(sm80_tensorop)                  \
  X(sm80_tiled)                     \
  X(simt_tiled_sgemm)               \
  X(simt_sgemm)                     \
  X(simt_generic)

namespace tessera {
namespace kernels {
#define TESSERA_DECLARE_KERNEL(name) GemmKernel gemm_kernel_##name();
TESSERA_GEMM_KERNEL_LIST(TESSERA_DECLARE_KERNEL)
#undef TESSERA_DECLARE_KERNEL
}  // namespace kernels

namespace detail {
const std::vector<GemmKernel>& registered_gemm_kernels() {
  static const std::vector<GemmKernel> list = {
#define TESSERA_LIST_KERNEL(name) kernels::gemm_kernel_##name(),
      TESSERA_GEMM_KERNEL_LIST(TESSERA_LIST_KERNEL)
#undef TESSERA_LIST_KERNEL
  };
  return list;
}
}  // namespace detail
}  // namespace tessera
