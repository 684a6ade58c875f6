// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: the box does not cut into one contiguous slice per CTA of the cluster layout
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// A 128x64 K-major box has 16 blocks of 8 rows as its slowest sub-mode: 3
// CTAs cannot each take a contiguous third of it, so tma_partition with a
// cluster layout of 3 fails the build by name (with 2, 4, 8 or 16 it
// compiles).
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));

int main() {
  auto g = make_tensor(make_gmem_ptr(static_cast<bfloat16_t const*>(nullptr)),
                       make_layout(make_shape(1024, 1024), make_stride(1024, _1{})));
  auto tma = make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, g, Box{}, make_shape(_128{}, _64{}), Int<3>{});
  auto sA = make_tensor(make_smem_ptr(static_cast<bfloat16_t*>(nullptr)),
                        tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64, _2>{}));
  auto gA = local_tile(tma.get_tma_tensor(make_shape(1024, 1024)), make_shape(_128{}, _64{}), make_coord(0, _));
  auto parts = tma_partition(tma, Int<0>{}, Layout<_3>{}, group_modes<0, 2>(sA), group_modes<0, 2>(gA));
  return int(std::get<0>(parts).size());
}
