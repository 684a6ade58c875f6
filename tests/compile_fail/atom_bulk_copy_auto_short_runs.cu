// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: no run of 16 bytes or more is contiguous in both
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// Misuse: rows of two floats (8 bytes) in a matrix with a run-time leading
// dimension; cp.async.bulk moves 16-byte units.
#include <tessera/tessera.hpp>

using namespace tessera;

__global__ void misuse(float const* g, int ld, std::uint64_t* mbar) {
  __shared__ alignas(128) float s[64];
  auto gt = make_tensor(make_gmem_ptr(g), make_layout(make_shape(_32{}, _2{}), make_stride(ld, _1{})));
  auto st = make_tensor(make_smem_ptr(s), Layout<Shape<_32, _2>, Stride<_2, _1>>{});
  copy(Copy_Atom<SM90_BULK_COPY_AUTO, float>{}.with(*mbar), gt, st);
}
