// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Internal access to the kernel list (defined in kernel_list.cpp) and the
// selection heuristic (heuristic.cpp).
#pragma once

#include <vector>

#include "tessera/gemm/api.hpp"

namespace tessera::detail {

const std::vector<GemmKernel>& registered_gemm_kernels();

// Rank of `kernel` for `args` on `sm` when the caller did not name one:
// higher runs first; negative means "never choose automatically".
int heuristic_rank(const GemmKernel& kernel, const GemmArgs& args, int sm);

// sm90_ws_gemm's orientation rule (kernels/sm90_ws_gemm.cu), for the repack
// choice: whether its launch computes D^T to read a lone M/N-major tf32
// operand as A' (wgmma takes only A from registers), writing D through the
// direct epilogue. False for other inputs.
bool sm90_ws_transposes_for_tf32(const GemmArgs& args);

}  // namespace tessera::detail
