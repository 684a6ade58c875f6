// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Helpers shared by the timing drivers that scripts/gpu/*.sh build with nvcc
// (hopper.sh, waves.sh, seed_f16acc.sh): a CUDA error check that exits, a
// deterministic pseudo-random fill in [-1, 1), and the squared error / norm
// sums behind a relative difference ||a - b|| / ||b||.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                           \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

// p[i] = hash(i, seed) mapped to [-1, 1) in steps of 2^-15, converted to T.
template <class T>
__global__ void fill(T* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ seed;
    x ^= x >> 15; x *= 2246822519u; x ^= x >> 13;
    p[i] = T(float(x & 0xFFFF) / 32768.0f - 1.0f);
  }
}

// out[0] += sum (a - b)^2, out[1] += sum b^2 (out zeroed by the caller).
template <class T>
__global__ void diff(const T* a, const T* b, long long n, double* out) {
  double e = 0, r = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    double x = float(a[i]), y = float(b[i]);
    e += (x - y) * (x - y); r += y * y;
  }
  atomicAdd(out, e); atomicAdd(out + 1, r);
}
