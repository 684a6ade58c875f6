// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: is a 64-bit integer, neither a multicast mask (16 bits) nor a cache hint
// nvcc-flags: -gencode=arch=compute_90a,code=sm_90a
//
// A raw 64-bit createpolicy value passed where the hint goes would convert
// to with(mbar, cta_mask)'s 16-bit mask without a word; the hint is an
// L2CachePolicy, and a 64-bit integer after the barrier fails the build.
#include <tessera/tessera.hpp>

using namespace tessera;

using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
using Tma = TmaCopy<SM90_TMA_LOAD_MULTICAST, bfloat16_t, Box>;

__global__ void kernel(__grid_constant__ const Tma tma) {
  __shared__ __align__(1024) bfloat16_t buf[128 * 64];
  __shared__ std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), Box{});
  std::uint64_t const raw = arch::createpolicy_fractional<L2Priority::evict_last>();
  copy(tma.with(bar, raw), make_coord(0, 0), s);
}

int main() { return 0; }
