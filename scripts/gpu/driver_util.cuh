// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Helpers shared by the timing drivers that scripts/gpu/*.sh build with nvcc
// (hopper.sh, waves.sh, seed_f16acc.sh, tiled.sh, layouts.sh): a CUDA error
// check that exits, a deterministic pseudo-random fill in [-1, 1), the
// squared error / norm sums behind a relative difference ||a - b|| / ||b||,
// and interleaved timing.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

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

// Times run(0) .. run(n - 1) interleaved: about warm_ms of warm-up (all of
// them in turn), then `rounds` rounds, each running every one once in a
// rotating order (round r starts at r mod n), with the L2 flushed (flush
// bytes overwritten) before each timed run. Returns flop / median time of
// each, in TFLOP/s.
// The warm-up of the timing helpers: run(0) .. run(n - 1) in turn, in
// batches of 32 runs, until more than warm_ms have passed (one batch at
// least). Creates and leaves `e0`, `e1` for the caller.
template <class Run>
void warm_up(Run&& run, int n, float warm_ms, cudaEvent_t* e0, cudaEvent_t* e1) {
  CHECK(cudaEventCreate(e0));
  CHECK(cudaEventCreate(e1));
  CHECK(cudaEventRecord(*e0));
  for (int w = 0;; ++w) {
    run(w % n);
    if (w % 32 == 31) {
      CHECK(cudaEventRecord(*e1));
      CHECK(cudaEventSynchronize(*e1));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, *e0, *e1));
      if (ms > warm_ms) break;
    }
  }
}

// The same rounds back to back: no flush and no host wait between runs (one
// event pair per run, read after the last), so the GPU stays at its
// sustained power, as in `tessera bench`'s timed runs.
template <class Run>
std::vector<double> sustained_tflops(Run&& run, int n, int rounds, float warm_ms, double flop) {
  cudaEvent_t w0, w1;
  warm_up(run, n, warm_ms, &w0, &w1);
  CHECK(cudaEventDestroy(w0));
  CHECK(cudaEventDestroy(w1));
  std::vector<cudaEvent_t> ev(size_t(2) * n * rounds);
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  for (int r = 0; r < rounds; ++r)
    for (int j = 0; j < n; ++j) {
      size_t const k = size_t(2) * (size_t(r) * n + j);
      CHECK(cudaEventRecord(ev[k]));
      run((j + r) % n);
      CHECK(cudaEventRecord(ev[k + 1]));
    }
  CHECK(cudaDeviceSynchronize());
  std::vector<std::vector<float>> t(n);
  for (int r = 0; r < rounds; ++r)
    for (int j = 0; j < n; ++j) {
      size_t const k = size_t(2) * (size_t(r) * n + j);
      float ms;
      CHECK(cudaEventElapsedTime(&ms, ev[k], ev[k + 1]));
      t[(j + r) % n].push_back(ms);
    }
  for (auto& e : ev) CHECK(cudaEventDestroy(e));
  std::vector<double> tf(n);
  for (int i = 0; i < n; ++i) {
    std::sort(t[i].begin(), t[i].end());
    tf[i] = flop / (t[i][t[i].size() / 2] * 1e-3) / 1e12;
  }
  return tf;
}

template <class Run>
std::vector<double> interleaved_tflops(Run&& run, int n, int rounds, float warm_ms, void* flush, size_t flush_bytes,
                                       double flop) {
  cudaEvent_t e0, e1;
  warm_up(run, n, warm_ms, &e0, &e1);
  std::vector<std::vector<float>> t(n);
  for (int r = 0; r < rounds; ++r)
    for (int j = 0; j < n; ++j) {
      int const i = (j + r) % n;
      CHECK(cudaMemsetAsync(flush, r & 0xff, flush_bytes));
      CHECK(cudaEventRecord(e0));
      run(i);
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      t[i].push_back(ms);
    }
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  std::vector<double> tf(n);
  for (int i = 0; i < n; ++i) {
    std::sort(t[i].begin(), t[i].end());
    tf[i] = flop / (t[i][t[i].size() / 2] * 1e-3) / 1e12;
  }
  return tf;
}
