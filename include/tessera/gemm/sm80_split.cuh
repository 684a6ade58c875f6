// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Tail split of the Ampere tensor-core kernels, the device half: the count
// that elects, among the CTAs of a split tile, the one that finishes it.
// (Which slice a CTA computes: sm80_split.hpp; the reduction into the
// tile's f32 buffer and the finishing read: Sm80Epilogue::reduce_split.)
//
// Ordering (the pattern of arch/gpu_atomic.cuh): every thread's red.global
// additions, a CTA barrier, then thread 0's acq_rel increment of the tile's
// counter. Release: the CTA's additions are performed before its count;
// acquire: the CTA that counts last sees every other CTA's additions, and
// its threads see them after the next barrier (they then read with ld.cg,
// L1 bypassed). No CTA waits for another, so any schedule terminates.

#include <tessera/arch/gpu_atomic.cuh>
#include <tessera/gemm/sm80_split.hpp>

namespace tessera::kernels::sm80 {

// Counts this CTA in on `counter`; true in every thread of the CTA that
// counted last of `splits`, which also resets the counter to 0 for the next
// launch. `flag`: an int of shared memory nobody else uses until this
// returns. Contains three CTA barriers (every thread must call it).
__device__ __forceinline__ bool sm80_split_count_in(int* counter, int splits, int* flag) {
  __syncthreads();  // every thread's additions precede the count
  if (threadIdx.x == 0) {
    int const before = arch::atomic_add_acq_rel_gpu(counter, 1);
    bool const last = before == splits - 1;
    if (last) arch::store_relaxed_gpu(counter, 0);
    *flag = last ? 1 : 0;
  }
  __syncthreads();
  bool const last = *flag != 0;
  __syncthreads();  // every thread has read the flag before its memory is reused
  return last;
}

}  // namespace tessera::kernels::sm80
