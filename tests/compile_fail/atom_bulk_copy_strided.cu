// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: bulk_copy: each tensor must be one contiguous run
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// Misuse: every other element of a global row; a bulk copy moves one contiguous run.
#include <tessera/tessera.hpp>

using namespace tessera;

__global__ void misuse(float const* g, std::uint64_t* mbar) {
  __shared__ alignas(128) float s[64];
  auto gt = make_tensor(make_gmem_ptr(g), Layout<Shape<_64>, Stride<_2>>{});
  auto st = make_tensor(make_smem_ptr(s), Layout<Shape<_64>>{});
  bulk_copy(gt, st, *mbar);
}
