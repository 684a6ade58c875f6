// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// One 32-bit register of an f16 accumulator (mma.sync ...f16.f16.f16.f16 and
// wgmma .f16.f16.f16) holds two neighbouring values of the f32 fragment map:
// the low half is the even column (fragment value 2i), the high half the odd
// one (2i + 1). Both the sm80 epilogue and the Hopper kernel widen through
// this one function.

#include <cuda_fp16.h>

#include <cstdint>

namespace tessera::kernels {

// The two f32 values of packed register `r`: .x the low half, .y the high half.
__host__ __device__ __forceinline__ float2 widen_f16_pair(uint32_t r) {
  __half2 h;
  static_assert(sizeof(h) == sizeof(r), "widen_f16_pair: __half2 must be one 32-bit register");
  __builtin_memcpy(&h, &r, sizeof(h));
  return __half22float2(h);
}

// A whole packed block: v[2i] and v[2i + 1] are register i's two values.
template <int kRegs>
__host__ __device__ __forceinline__ void widen_f16_block(const uint32_t (&r)[kRegs], float (&v)[2 * kRegs]) {
#pragma unroll
  for (int i = 0; i < kRegs; ++i) {
    float2 const f = widen_f16_pair(r[i]);
    v[2 * i] = f.x;
    v[2 * i + 1] = f.y;
  }
}

// The inverse of widen_f16_pair: x in the low half, y in the high half, each rounded to the
// nearest f16. widen_f16_pair(narrow_f16_pair(x, y)) == (x, y) whenever x
// and y are f16 values.
__host__ __device__ __forceinline__ uint32_t narrow_f16_pair(float x, float y) {
  __half2 const h = __floats2half2_rn(x, y);
  uint32_t r;
  __builtin_memcpy(&r, &h, sizeof(r));
  return r;
}

}  // namespace tessera::kernels
