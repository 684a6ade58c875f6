#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# The issue-4 target problem at steady state: f16 TN 5120x5120x4096 with f16
# accumulation, the sm80_tensorop tile variants and cuBLAS (CUBLAS_COMPUTE_16F)
# timed interleaved in one process after ~3 s of warm-up (the H100/H200 reach
# their power cap within it), L2 flushed before every run, median of 200;
# each variant's result compared with cuBLAS's. Builds the runtime library
# with CMake (sm_90a), then the driver with nvcc. Logs under $OUT.
# Usage: scripts/gpu/seed_f16acc.sh [ROUNDS]  (rounds of the whole timing, default 2)
# SHAPES="M N K;M N K" overrides the problem (default the seed's 5120 5120 4096;
# 4224 4096 4096 fills whole waves of both 128x128 and 128x256 tiles).
# Each variant is timed interleaved with cuBLAS alone; TOGETHER=1 times all
# of them in one interleaved set instead (before session 24 the only way),
# where the slower variants' runs lower the GPU's average power and raise
# everyone's clock. VARIANTS=name,name keeps only the named variants.
# SUSTAINED=1 times the rounds back to back (no flush, no host wait between
# runs), the way `tessera bench` does; the GPU's SM clock and power are
# sampled every 100 ms meanwhile and averaged per shape.
set -u
OUT=${OUT:-/tmp/tessera-seed}
. "$(dirname "$0")/runtime_build.sh"  # cd to the repository; CMake-builds the runtime into $BUILD
cat > "$OUT/seed_f16acc.cu" <<'CU'
// f16 TN 5120x5120x4096 with f16 accumulation: sm80_tensorop variants and
// cuBLAS timed interleaved at steady state (~3 s warm-up), L2 flushed.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
#include <tessera/gemm/sm80_tensorop.hpp>
using namespace tessera;
#include "driver_util.cuh"
#include <cstdlib>
#include <string>
int main(int argc, char** argv) {
  const int M = argc > 3 ? std::atoi(argv[1]) : 5120, N = argc > 3 ? std::atoi(argv[2]) : 5120,
            K = argc > 3 ? std::atoi(argv[3]) : 4096;
  __half *A, *B, *D, *Dc; double* acc;
  cudaMalloc(&A, size_t(M) * K * 2); cudaMalloc(&B, size_t(N) * K * 2); cudaMalloc(&D, size_t(M) * N * 2);
  cudaMalloc(&Dc, size_t(M) * N * 2); cudaMalloc(&acc, 16);
  size_t const flush_bytes = size_t(256) << 20; void* flush; cudaMalloc(&flush, flush_bytes);
  fill<<<1024, 256>>>(A, (long long)M * K, 1u); fill<<<1024, 256>>>(B, (long long)N * K, 2u);
  cublasHandle_t h; cublasCreate(&h);
  __half one = __float2half(1.0f), zero = __float2half(0.0f);
  GemmArgs args;
  args.m = M; args.n = N; args.k = K;
  args.input = DataType::f16; args.output = DataType::f16; args.accumulate = DataType::f16;
  args.a = {A, MatrixOrder::row_major, K, 0};
  args.b = {B, MatrixOrder::col_major, K, 0};
  args.d = MutableMatrixDesc{D, MatrixOrder::row_major, N, 0};
  using V = kernels::Sm80Variant;
  std::vector<V> vs = {V::tile128x128, V::tile128x256, V::t128x256_s3, V::t256x128_s4, V::t128x256_w4, V::t128x256_w4s2,
                       V::t128x128_tma, V::t128x128_ws};
  if (const char* only = std::getenv("VARIANTS")) {  // comma-separated names: time only these beside cuBLAS
    std::vector<V> keep;
    std::string const list = std::string(",") + only + ",";
    for (V v : vs)
      if (list.find(std::string(",") + kernels::to_string(v) + ",") != std::string::npos) keep.push_back(v);
    vs = keep;
  }
  auto run = [&](int i) {
    if (i == 0) {  // cuBLAS: D^T = B^T A^T column-major = D row-major
      if (cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, B, CUDA_R_16F, K, A, CUDA_R_16F, K, &zero, Dc,
                       CUDA_R_16F, N, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
        std::printf("cublasGemmEx failed\n");
      return;
    }
    Status s = kernels::sm80_tensorop_launch_variant(args, vs[i - 1], nullptr);
    if (!s.ok()) std::printf("%s: %s\n", kernels::to_string(vs[i - 1]), s.message.c_str());
  };
  int const nv = int(vs.size()) + 1;
  run(0); cudaDeviceSynchronize();
  for (int i = 1; i < nv; ++i) {
    cudaMemset(D, 0xff, size_t(M) * N * 2); run(i); cudaDeviceSynchronize();
    cudaMemset(acc, 0, 16); diff<<<512, 256>>>(D, Dc, (long long)M * N, acc);
    double hh[2]; cudaMemcpy(hh, acc, 16, cudaMemcpyDeviceToHost);
    std::printf("%-16s rel.diff vs cuBLAS %.2e\n", kernels::to_string(vs[i - 1]), std::sqrt(hh[0] / hh[1]));
  }
  // ~3 s of warm-up, then 200 interleaved rounds: each variant beside
  // cuBLAS alone (the default), or all together with TOGETHER=1.
  // NOTE: timed together, the slower variants lower the GPU's average power
  // and raise the clock for the others: run 228 read the seed tile at 0.640x
  // among them and 0.616x beside cuBLAS alone (docs/performance.md, v6).
  auto env_on = [](const char* name) { return std::getenv(name) != nullptr && std::atoi(std::getenv(name)) != 0; };
  bool const sustained = env_on("SUSTAINED"), together = env_on("TOGETHER");
  double const flop = 2.0 * M * N * double(K);
  auto timed = [&](auto&& f, int n) {
    return sustained ? sustained_tflops(f, n, 200, 3000.0f, flop)
                     : interleaved_tflops(f, n, 200, 3000.0f, flush, flush_bytes, flop);
  };
  std::printf("f16 TN %dx%dx%d, f16 acc, %s, %s, median of 200\n", M, N, K,
              together ? "all variants interleaved together (TOGETHER=1)" : "each variant interleaved with cuBLAS alone",
              sustained ? "back to back (SUSTAINED=1)" : "L2 flushed");
  if (together) {
    std::vector<double> const tf = timed(run, nv);
    std::printf("  cuBLAS %.1f\n", tf[0]);
    for (int i = 1; i < nv; ++i)
      std::printf("  %-16s %.1f TFLOP/s  %.3fx\n", kernels::to_string(vs[i - 1]), tf[i], tf[i] / tf[0]);
  } else {
    for (int i = 1; i < nv; ++i) {
      std::vector<double> const tf = timed([&](int j) { run(j == 0 ? 0 : i); }, 2);
      std::printf("  %-16s %.1f TFLOP/s  %.3fx  (cuBLAS %.1f)\n", kernels::to_string(vs[i - 1]), tf[1], tf[1] / tf[0],
                  tf[0]);
    }
  }
  std::printf("cuda: %s\n", cudaGetErrorString(cudaGetLastError()));
}
CU
build_driver "$OUT/seed_f16acc.cu" "$OUT/seed_f16acc"
IFS=';' read -r -a shapes <<< "${SHAPES:-5120 5120 4096}"
for r in $(seq 1 "${1:-2}"); do
  for shape in "${shapes[@]}"; do
    echo "== round $r: $shape"
    nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader,nounits -lms 100 > "$OUT/smi.txt" 2>/dev/null &
    smi=$!
    # shellcheck disable=SC2086
    "$OUT/seed_f16acc" $shape
    kill "$smi" 2>/dev/null; wait "$smi" 2>/dev/null
    awk -F', ' '$2 > 300 {c += $1; p += $2; n++} END {if (n) printf "  under load (%d samples > 300 W): SM %.0f MHz, %.0f W\n", n, c / n, p / n}' "$OUT/smi.txt"
  done
done
