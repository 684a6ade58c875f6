// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: a SM90_TMA_LOAD_MULTICAST copy names its receivers: with(mbar, cta_mask, cache_hint)
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// A multicast load names the CTAs it writes into; with a cache hint that is
// with(mbar, cta_mask, hint) (CuTe's order). with(mbar, hint) on a multicast
// copy fails the build and shows the form.
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
using Tma = TmaCopy<SM90_TMA_LOAD_MULTICAST, bfloat16_t, Box>;

__global__ void kernel(__grid_constant__ const Tma tma) {
  __shared__ __align__(1024) bfloat16_t buf[128 * 64];
  __shared__ std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), Box{});
  copy(tma.with(bar, make_l2_cache_policy<L2Priority::evict_last>()), make_coord(0, 0), s);
}

int main() { return 0; }
