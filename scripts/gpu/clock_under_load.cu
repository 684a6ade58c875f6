// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The Tessera half of clock_under_load.py: the default sm90_ws_gemm launch
// of an N^3 bf16 TN problem (f32 accumulation, bf16 D), back to back for
// SECONDS, timed in batches of 10 with events. scripts/gpu/clock_under_load.sh
// samples the SM clock and power around it. Session 44 (run 371).
// Usage: clock_under_load SECONDS [N]

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <tessera/gemm/sm90_ws_gemm.cuh>

#include "driver_util.cuh"
#include "ws_launch.cuh"

using namespace tessera;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::printf("usage: %s SECONDS [N]\n", argv[0]);
    return 2;
  }
  double const seconds = std::atof(argv[1]);
  int const n = argc > 2 ? std::atoi(argv[2]) : 8192;
  using T = __nv_bfloat16;
  T *a = nullptr, *b = nullptr, *d = nullptr;
  CHECK(cudaMalloc(&a, sizeof(T) * size_t(n) * n));
  CHECK(cudaMalloc(&b, sizeof(T) * size_t(n) * n));
  CHECK(cudaMalloc(&d, sizeof(T) * size_t(n) * n));
  fill<<<1024, 256>>>(a, (long long)n * n, 1u);
  fill<<<1024, 256>>>(b, (long long)n * n, 2u);
  GemmArgs const args = bf16_tn_args(n, n, n, a, b, d);
  auto launch = [&] { launch_default_or_exit(args); };
  for (int i = 0; i < 20; ++i) launch();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<double> ms;
  auto const end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    CHECK(cudaEventRecord(e0));
    for (int i = 0; i < 10; ++i) launch();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t / 10.0);
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  double const flop = 2.0 * n * double(n) * n;
  std::printf("%d^3 bf16 tessera (sm90_ws_gemm default) median %.3f ms = %.1f TFLOP/s (%zu x 10 calls; min %.3f ms = "
              "%.1f; first batch %.1f)\n",
              n, sorted[sorted.size() / 2], flop / sorted[sorted.size() / 2] / 1e9, ms.size(), sorted[0],
              flop / sorted[0] / 1e9, flop / ms[0] / 1e9);
  return 0;
}
