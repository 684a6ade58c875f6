// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// ptxas report check (cmake/tessera_ptxas_report.cmake) of the GMMA atoms in
// a TiledMMA, the way seed 002's mainloop uses them: a 128x128 bf16 tile per
// warpgroup, two warpgroups, descriptor fragments over a 3-stage K-major
// 128B-swizzled buffer, each k-tile's four k-blocks issued between
// warpgroup_arrive and warpgroup_commit_batch with one batch left in flight.
// The accumulators reach wgmma through the fragment's own storage (no copies
// between the asynchronous instructions), so ptxas must not serialise them
// (any "wgmma ... serialized" report, C7510-C7515) and nothing may spill.
#include <tessera/atom.hpp>
#include <tessera/atom/sync_sm90.cuh>
#include <tessera/tensor.hpp>

using namespace tessera;

namespace {
constexpr int kStages = 3;
using SmemLayout = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64, Int<kStages>>{}));
}  // namespace

__global__ void __launch_bounds__(256) gmma_tiled_mma_mainloop(float* out, int k_tiles) {
  extern __shared__ __align__(1024) unsigned char smem[];
  Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<bfloat16_t*>(smem)), SmemLayout{});
  Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<bfloat16_t*>(smem) + cosize(SmemLayout{})), SmemLayout{});
  auto mma = make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>{}, Layout<Shape<_2, _1, _1>>{},
                            Tile<_128, _128, _16>{});
  auto thr = mma.get_slice(threadIdx.x);
  Tensor tCrA = thr.partition_fragment_A(sA);  // (_1,MMA_M,MMA_K,PIPE)
  Tensor tCrB = thr.partition_fragment_B(sB);  // (_1,MMA_N,MMA_K,PIPE)
  Tensor tCrC = thr.partition_fragment_C(make_shape(_128{}, _128{}));
  clear(tCrC);
  for (int t = 0; t < k_tiles; ++t) {
    int const stage = t % kStages;
    warpgroup_fence_operand(tCrC);
    warpgroup_arrive();
#pragma unroll
    for (int k = 0; k < int(size<2>(tCrA)); ++k) gemm(mma, tCrA(_, _, k, stage), tCrB(_, _, k, stage), tCrC);
    warpgroup_commit_batch();
    warpgroup_wait<1>();
    warpgroup_fence_operand(tCrC);
  }
  warpgroup_wait<0>();
  warpgroup_fence_operand(tCrC);
  Tensor gC = make_tensor(make_gmem_ptr(out), make_layout(make_shape(_128{}, _128{}), make_stride(_128{}, _1{})));
  copy(tCrC, thr.partition_C(gC));
}
