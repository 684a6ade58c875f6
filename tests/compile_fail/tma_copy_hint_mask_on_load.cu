// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: TmaCopy::with(mbar, cta_mask, cache_hint): only a SM90_TMA_LOAD_MULTICAST copy multicasts
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// CuTe's plain TMA load accepts a multicast mask and ignores it; Tessera
// refuses a mask on a SM90_TMA_LOAD (with(mbar, mask) already does), also
// beside a cache hint: the hinted plain load is with(mbar, hint).
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
using Tma = TmaCopy<SM90_TMA_LOAD, bfloat16_t, Box>;

__global__ void kernel(__grid_constant__ const Tma tma) {
  __shared__ __align__(1024) bfloat16_t buf[128 * 64];
  __shared__ std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), Box{});
  copy(tma.with(bar, std::uint16_t(0), make_l2_cache_policy<L2Priority::evict_last>()), make_coord(0, 0), s);
}

int main() { return 0; }
