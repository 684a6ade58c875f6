// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Host emulation of the CUDA features the ladder kernels use: one std::thread
// per CUDA thread, blocks run one after another, __shared__ becomes static
// (shared by the threads of the running block), __syncthreads/__syncwarp are
// std::barrier. Only for checking index math without a GPU (see run.sh).
#pragma once
#include <barrier>
#include <cstdint>
#include <cmath>
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
struct uint3 { unsigned x, y, z; };
inline thread_local uint3 threadIdx;
inline uint3 blockIdx;
inline dim3 blockDim, gridDim;
struct alignas(16) float4 { float x, y, z, w; };
inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
inline std::barrier<>* g_bar;
inline void __syncthreads() { g_bar->arrive_and_wait(); }
inline std::barrier<>** g_warp_bars;
inline void __syncwarp() { g_warp_bars[(threadIdx.x + threadIdx.y * blockDim.x) / 32]->arrive_and_wait(); }
typedef void* cudaStream_t;
