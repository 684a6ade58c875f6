// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The cache-hinted TMA forms reach the PTX: make_l2_cache_policy emits
// createpolicy.fractional with each primary priority (and the evict_first
// secondary), and copy(tma.with(mbar[, mask], hint), ...) and
// prefetch(tma, coord, hint) the .L2::cache_hint instructions with the
// policy as their last operand -- beside the plain forms, unchanged, in
// the same translation unit. (The device test, test_tma_cache_hint_sm90.cu,
// checks what the hinted loads copy.)
//
// expect-ptx: createpolicy.fractional.L2::evict_first.b64
// expect-ptx: createpolicy.fractional.L2::evict_normal.b64
// expect-ptx: createpolicy.fractional.L2::evict_last.b64
// expect-ptx: createpolicy.fractional.L2::evict_unchanged.b64
// expect-ptx: createpolicy.fractional.L2::evict_last.L2::evict_first.b64
// expect-ptx: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [
// expect-ptx: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [
// expect-ptx: cp.async.bulk.prefetch.tensor.2d.L2.global.tile.L2::cache_hint [
// expect-ptx: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// expect-ptx: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [
// expect-ptx: cp.async.bulk.prefetch.tensor.2d.L2.global.tile [
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_64, _64>{}));
using Load = TmaCopy<SM90_TMA_LOAD, bfloat16_t, Box>;
using LoadMulticast = TmaCopy<SM90_TMA_LOAD_MULTICAST, bfloat16_t, Box>;

// One hinted load and prefetch of the box at (m0, k0) under policy P.
template <L2Priority kPrimary, L2Priority kSecondary>
__device__ void hinted(Load const& tma, int m0, int k0, float fraction) {
  __shared__ __align__(1024) bfloat16_t buf[64 * 64];
  __shared__ std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), Box{});
  L2CachePolicy const hint = make_l2_cache_policy<kPrimary, kSecondary>(fraction);
  prefetch(tma, make_coord(m0, k0), hint);
  copy(tma.with(bar, hint), make_coord(m0, k0), s);
}

__global__ void load_evict_first(__grid_constant__ const Load tma, int m0, int k0) {
  hinted<L2Priority::evict_first, L2Priority::evict_unchanged>(tma, m0, k0, 1.0f);
}
__global__ void load_evict_normal(__grid_constant__ const Load tma, int m0, int k0) {
  hinted<L2Priority::evict_normal, L2Priority::evict_unchanged>(tma, m0, k0, 1.0f);
}
__global__ void load_evict_last(__grid_constant__ const Load tma, int m0, int k0) {
  hinted<L2Priority::evict_last, L2Priority::evict_unchanged>(tma, m0, k0, 1.0f);
}
__global__ void load_evict_unchanged(__grid_constant__ const Load tma, int m0, int k0) {
  hinted<L2Priority::evict_unchanged, L2Priority::evict_unchanged>(tma, m0, k0, 1.0f);
}
__global__ void load_evict_last_then_first(__grid_constant__ const Load tma, int m0, int k0, float fraction) {
  hinted<L2Priority::evict_last, L2Priority::evict_first>(tma, m0, k0, fraction);
}

__global__ void multicast_evict_last(__grid_constant__ const LoadMulticast tma, int m0, int k0) {
  __shared__ __align__(1024) bfloat16_t buf[64 * 64];
  __shared__ std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), Box{});
  copy(tma.with(bar, std::uint16_t(0b11), make_l2_cache_policy<L2Priority::evict_last>()), make_coord(m0, k0), s);
}

// The plain forms, in the same translation unit as the hinted ones.
__global__ void plain(__grid_constant__ const Load tma, __grid_constant__ const LoadMulticast mc, int m0, int k0) {
  __shared__ __align__(1024) bfloat16_t buf[64 * 64];
  __shared__ std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), Box{});
  prefetch(tma, make_coord(m0, k0));
  copy(tma.with(bar), make_coord(m0, k0), s);
  copy(mc.with(bar, std::uint16_t(0b11)), make_coord(m0, k0), s);
}
