// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// A consumer's accumulator block seen as its f32 fragment values v[0..kValues),
// whatever the registers hold: f32 (one value each) or packed f16 (two values
// each, f16_accumulator.cuh). The Hopper kernel's epilogues and its split-K
// hand-off read through a view, so the kernel chooses per tile shape whether
// an f16 block is read in place (F16AccView: each value widened where it is
// used) or widened into an f32 copy first (F32AccView over the copy); see
// ws_gemm_kernel for which and why.
//
// Laws: view[i] is fragment value i; after set4(i, v), view[4i + j] is v's
// component j — exactly for F32AccView, rounded to the nearest f16 for
// F16AccView (its storage is the f16 accumulator itself).

#include <cuda_fp16.h>

#include <cstdint>

#include <tessera/gemm/f16_accumulator.cuh>

namespace tessera::kernels {

template <int kValues>
struct F32AccView {
  float (&r)[kValues];
  __host__ __device__ __forceinline__ float operator[](int i) const { return r[i]; }
  __host__ __device__ __forceinline__ void set4(int i, float4 v) const {
    r[4 * i] = v.x;
    r[4 * i + 1] = v.y;
    r[4 * i + 2] = v.z;
    r[4 * i + 3] = v.w;
  }
};

template <int kValues>
struct F16AccView {
  static_assert(kValues % 2 == 0, "F16AccView: a packed f16 block holds an even number of values");
  uint32_t (&r)[kValues / 2];
  __host__ __device__ __forceinline__ float operator[](int i) const {
    float2 const f = widen_f16_pair(r[i / 2]);
    return i % 2 == 0 ? f.x : f.y;
  }
  __host__ __device__ __forceinline__ void set4(int i, float4 v) const {
    r[2 * i] = narrow_f16_pair(v.x, v.y);
    r[2 * i + 1] = narrow_f16_pair(v.z, v.w);
  }
};

}  // namespace tessera::kernels
