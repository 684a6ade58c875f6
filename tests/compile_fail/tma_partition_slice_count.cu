// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: the copy was not made for this many multicast slices
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// A multicast copy made for 2 slices (Int<2>) partitioned for a cluster
// layout of 4 CTAs: its slice map holds halves, not quarters, so the build
// fails by name. With Layout<_2> the same call compiles (the device test
// TmaCopy.MulticastSlicesAsCutlass).
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));

int main() {
  auto g = make_tensor(make_gmem_ptr(static_cast<bfloat16_t const*>(nullptr)),
                       make_layout(make_shape(1024, 1024), make_stride(1024, _1{})));
  auto tma = make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, g, Box{}, make_shape(_128{}, _64{}), Int<2>{});
  auto sA = make_tensor(make_smem_ptr(static_cast<bfloat16_t*>(nullptr)),
                        tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64, _2>{}));
  auto gA = local_tile(tma.get_tma_tensor(make_shape(1024, 1024)), make_shape(_128{}, _64{}), make_coord(0, _));
  auto parts = tma_partition(tma, Int<0>{}, Layout<_4>{}, group_modes<0, 2>(sA), group_modes<0, 2>(gA));
  return int(std::get<0>(parts).size());
}
