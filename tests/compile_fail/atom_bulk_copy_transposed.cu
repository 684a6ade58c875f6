// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: bulk_copy: the two layouts place elements differently in their runs
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// Misuse: a row-major global tile into a column-major shared one; a bulk copy moves bytes in order.
#include <tessera/tessera.hpp>

using namespace tessera;

__global__ void misuse(float const* g, std::uint64_t* mbar) {
  __shared__ alignas(128) float s[8 * 16];
  auto gt = make_tensor(make_gmem_ptr(g), Layout<Shape<_8, _16>, Stride<_16, _1>>{});
  auto st = make_tensor(make_smem_ptr(s), Layout<Shape<_8, _16>>{});
  bulk_copy(gt, st, *mbar);
}
