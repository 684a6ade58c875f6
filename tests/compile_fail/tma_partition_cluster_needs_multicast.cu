// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: a cluster layout of more than one CTA cuts the box into multicast slices, which needs a SM90_TMA_LOAD_MULTICAST copy
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// tma_partition with a cluster layout of two CTAs gives each CTA its slice
// of a multicast box; a plain SM90_TMA_LOAD copies into one CTA only, so
// the call fails the build by name. The same call on a copy made with
// make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, ..., Int<2>{}) compiles: the
// device test TmaCopy.MulticastSlicesAsCutlass.
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));

int main() {
  auto g = make_tensor(make_gmem_ptr(static_cast<bfloat16_t const*>(nullptr)),
                       make_layout(make_shape(1024, 1024), make_stride(1024, _1{})));
  auto tma = make_tma_copy(SM90_TMA_LOAD{}, g, Box{}, make_shape(_128{}, _64{}));
  auto sA = make_tensor(make_smem_ptr(static_cast<bfloat16_t*>(nullptr)),
                        tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64, _2>{}));
  auto gA = local_tile(tma.get_tma_tensor(make_shape(1024, 1024)), make_shape(_128{}, _64{}), make_coord(0, _));
  auto parts = tma_partition(tma, Int<0>{}, Layout<_2>{}, group_modes<0, 2>(sA), group_modes<0, 2>(gA));
  return int(std::get<0>(parts).size());
}
