// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: a TMA store completes in a bulk group, not on an mbarrier
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// A load completes on an mbarrier (copy(tma.with(mbar), coord, smem)); a
// store completes in the issuing thread's bulk group (copy(tma_store, smem,
// coord), tma_store_arrive, tma_store_wait). Binding a barrier to a store
// copy fails the build and names the store's sequence.
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, Shape<_64, _32>{}));
using Tma = TmaCopy<SM90_TMA_STORE, float, Box>;

__global__ void kernel(__grid_constant__ const Tma tma) {
  __shared__ __align__(1024) float buf[64 * 32];
  __shared__ std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), Box{});
  copy(tma.with(bar), make_coord(0, 0), s);
}

int main() { return 0; }
