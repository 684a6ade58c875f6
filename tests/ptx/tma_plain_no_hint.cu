// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// A translation unit without cache hints keeps the plain TMA forms: no
// createpolicy and no .L2::cache_hint appear when no copy asks for one
// (copy(tma.with(mbar[, mask]), ...), prefetch(tma, coord), the seed's
// copy(tma, coord, smem, &mbar), a store).
//
// expect-ptx: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// expect-ptx: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [
// expect-ptx: cp.async.bulk.prefetch.tensor.2d.L2.global.tile [
// expect-ptx: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [
// expect-no-ptx: cache_hint
// expect-no-ptx: createpolicy
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_64, _64>{}));

__global__ void plain(__grid_constant__ const TmaCopy<SM90_TMA_LOAD, bfloat16_t, Box> tma,
                      __grid_constant__ const TmaCopy<SM90_TMA_LOAD_MULTICAST, bfloat16_t, Box> mc,
                      __grid_constant__ const TmaCopy<SM90_TMA_STORE, bfloat16_t, Box> st, int m0, int k0) {
  __shared__ __align__(1024) bfloat16_t buf[64 * 64];
  __shared__ std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), Box{});
  prefetch(tma, make_coord(m0, k0));
  copy(tma.with(bar), make_coord(m0, k0), s);
  copy(tma, make_coord(m0, k0), s, &bar);
  copy(mc.with(bar, std::uint16_t(0b11)), make_coord(m0, k0), s);
  copy(st, s, make_coord(m0, k0));
  tma_store_arrive();
}
