// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: bulk_copy: the run is not a positive multiple of 16 bytes
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// Misuse: a run of 6 floats (24 bytes); cp.async.bulk moves 16-byte units.
#include <tessera/tessera.hpp>

using namespace tessera;

__global__ void misuse(float* g) {
  __shared__ alignas(128) float s[6];
  auto st = make_tensor(make_smem_ptr(s), Layout<Shape<_6>>{});
  auto gt = make_tensor(make_gmem_ptr(g), Layout<Shape<_6>>{});
  bulk_copy(st, gt);
}
