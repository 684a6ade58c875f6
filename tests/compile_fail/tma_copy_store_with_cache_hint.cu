// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: takes no cache hint here
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// A cache hint rides on a load's with(mbar, hint); a store completes in the
// issuing thread's bulk group and takes neither a barrier nor (here) a
// hint, so with(mbar, hint) on a store copy fails the build and names the
// store's sequence.
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, Shape<_64, _32>{}));
using Tma = TmaCopy<SM90_TMA_STORE, float, Box>;

__global__ void kernel(__grid_constant__ const Tma tma) {
  __shared__ __align__(1024) float buf[64 * 32];
  __shared__ std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), Box{});
  copy(tma.with(bar, make_l2_cache_policy<L2Priority::evict_first>()), make_coord(0, 0), s);
}

int main() { return 0; }
