// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: only a SM90_TMA_LOAD_MULTICAST copy multicasts
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// with(mbar, cta_mask) names multicast receivers; a SM90_TMA_LOAD copy
// loads into its own CTA only, so binding a mask to it fails the build.
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
using Tma = TmaCopy<SM90_TMA_LOAD, bfloat16_t, Box>;

__global__ void kernel(__grid_constant__ const Tma tma) {
  __shared__ __align__(1024) bfloat16_t buf[128 * 64];
  __shared__ std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), Box{});
  copy(tma.with(bar, std::uint16_t(3)), make_coord(0, 0), s);
}

int main() { return 0; }
