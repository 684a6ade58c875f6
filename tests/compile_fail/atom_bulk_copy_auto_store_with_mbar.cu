// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: copy(bulk.with(mbar), src, dst): copies global memory into shared memory
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// Misuse: a shared -> global bulk copy given an mbarrier (it completes in the bulk group).
#include <tessera/tessera.hpp>

using namespace tessera;

__global__ void misuse(float* g, std::uint64_t* mbar) {
  __shared__ alignas(128) float s[64];
  auto gt = make_tensor(make_gmem_ptr(g), Layout<Shape<_64>>{});
  auto st = make_tensor(make_smem_ptr(s), Layout<Shape<_64>>{});
  copy(Copy_Atom<SM90_BULK_COPY_AUTO, float>{}.with(*mbar), st, gt);
}
