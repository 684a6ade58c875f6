// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// setmaxnreg: hand registers between the warpgroups of a CTA. Minimum
// architecture: sm_90a.
//
//   setmaxnreg.inc.sync.aligned.u32 N;   setmaxnreg.dec.sync.aligned.u32 N;
//
// N in [24, 256], a multiple of 8; all threads of a warpgroup execute it.
// Takes effect only when the kernel has a register cap at entry
// (__launch_bounds__(threads, 1) or -maxrregcount); ptxas warns (C7508) when
// it ignores the request.

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

template <int kRegs>
__device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(kRegs >= 24 && kRegs <= 256 && kRegs % 8 == 0,
                "setmaxnreg_inc: the register count must be a multiple of 8 in [24, 256]");
#if TESSERA_SM90A_ENABLED
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegs));
#else
  tessera_error_requires_sm90a();
#endif
}

template <int kRegs>
__device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(kRegs >= 24 && kRegs <= 256 && kRegs % 8 == 0,
                "setmaxnreg_dec: the register count must be a multiple of 8 in [24, 256]");
#if TESSERA_SM90A_ENABLED
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegs));
#else
  tessera_error_requires_sm90a();
#endif
}

}  // namespace tessera::arch
