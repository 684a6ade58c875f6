// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Kernel selection when GemmOptions::kernel is empty. The rule (also in
// docs/gemm.md):
//  1. only kernels whose architecture range contains the device's SM and whose
//     can_implement() accepts the problem are candidates;
//  2. K == 0 (D = beta * C) always runs simt_generic: the tensor-core
//     mainloops assume at least one K tile;
//  3. otherwise the kernel built for the newest architecture the device has
//     wins (sm90 WGMMA before sm80 mma.sync before SIMT), so an H100 gets a
//     Hopper kernel when one can implement the problem and an A100 never sees
//     one;
//  4. ties keep registration order (kernel_list.cpp).
#include <algorithm>
#include <string_view>

#include "gemm/registry.hpp"

namespace tessera::detail {

int heuristic_rank(const GemmKernel& kernel, const GemmArgs& args, int sm) {
  bool const generic = kernel.info.name == std::string_view("simt_generic");
  if (args.k == 0) return generic ? 0 : -1;
  if (generic) return 0;
  // Kernels for a newer architecture than the device were filtered out by
  // the caller; among the rest, prefer the most specialised.
  return std::min(kernel.info.min_sm, sm);
}

}  // namespace tessera::detail
