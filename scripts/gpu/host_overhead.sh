#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# How much of a timed GEMM call is host work that the GPU waits for. The
# benchmark records an event, calls the GEMM, records an event, with the GPU
# idle before the call: the interval includes the host time until the
# kernel is launched. Here each call is timed twice per round, interleaved:
#   idle: sync; record e0; call; record e1        (the benchmark's method)
#   busy: sync; 2 ms spin kernel; record e0; call; record e1
#         (the host work overlaps the spin: e0 -> e1 is GPU time only)
# and the host duration of the call itself (steady_clock). idle - busy is
# the exposed host overhead. tessera::gemm and cuBLAS (cublasGemmEx) side
# by side, bf16 TN with f32 accumulation and f16 TN with f16 accumulation.
# Builds the runtime library with CMake (sm_90a), then the driver with nvcc.
# Usage: scripts/gpu/host_overhead.sh [ROUNDS]
set -u
OUT=${OUT:-/tmp/tessera-host-overhead}
. "$(dirname "$0")/runtime_build.sh"  # cd to the repository; CMake-builds the runtime into $BUILD
cat > "$OUT/host_overhead.cu" <<'CU'
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>
#include <tessera/gemm/api.hpp>
using namespace tessera;
#include "driver_util.cuh"

__global__ void spin(long long cycles) {
  long long const t0 = clock64();
  while (clock64() - t0 < cycles) {}
}

struct Sample { std::vector<float> idle, busy; std::vector<double> host; };

float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

void measure(const char* name, const std::function<void()>& call, Sample& s, cudaEvent_t e0, cudaEvent_t e1,
             long long spin_cycles) {
  (void)name;
  for (int mode = 0; mode < 2; ++mode) {
    CHECK(cudaDeviceSynchronize());
    if (mode == 1) spin<<<1, 32>>>(spin_cycles);
    CHECK(cudaEventRecord(e0));
    auto const h0 = std::chrono::steady_clock::now();
    call();
    auto const h1 = std::chrono::steady_clock::now();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0; cudaEventElapsedTime(&ms, e0, e1);
    (mode == 0 ? s.idle : s.busy).push_back(ms * 1000.0f);
    if (mode == 0) s.host.push_back(std::chrono::duration<double, std::micro>(h1 - h0).count());
  }
}

template <class T>
void run(const char* label, DataType in, DataType acc, int M, int N, int K, int rounds, cublasHandle_t h) {
  T *A, *B, *D;
  CHECK(cudaMalloc(&A, size_t(M) * K * sizeof(T))); CHECK(cudaMalloc(&B, size_t(N) * K * sizeof(T)));
  CHECK(cudaMalloc(&D, size_t(M) * N * sizeof(T)));
  fill<<<1024, 256>>>(A, (long long)M * K, 1u); fill<<<1024, 256>>>(B, (long long)N * K, 2u);
  GemmArgs args;
  args.m = M; args.n = N; args.k = K;
  args.input = in; args.output = in; args.accumulate = acc;
  args.a = {A, MatrixOrder::row_major, K, 0};
  args.b = {B, MatrixOrder::col_major, K, 0};
  args.d = MutableMatrixDesc{D, MatrixOrder::row_major, N, 0};
  bool const acc16 = acc == DataType::f16;
  __half one_h = __float2half(1.0f), zero_h = __float2half(0.0f);
  float one_f = 1.0f, zero_f = 0.0f;
  cudaDataType_t const ct = in == DataType::f32 ? CUDA_R_32F : in == DataType::f16 ? CUDA_R_16F : CUDA_R_16BF;
  auto tess = [&] { Status s = gemm(args); if (!s.ok()) { std::printf("gemm: %s\n", s.message.c_str()); std::exit(1); } };
  auto cubl = [&] {
    if (cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, acc16 ? (void*)&one_h : (void*)&one_f, B, ct, K, A, ct, K,
                     acc16 ? (void*)&zero_h : (void*)&zero_f, D, ct, N, acc16 ? CUBLAS_COMPUTE_16F : CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) { std::printf("cublas failed\n"); std::exit(1); }
  };
  cudaEvent_t e0, e1; CHECK(cudaEventCreate(&e0)); CHECK(cudaEventCreate(&e1));
  int clock_khz = 0; CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  long long const spin_cycles = (long long)clock_khz * 2;  // ~2 ms at the peak clock
  for (int w = 0; w < 20; ++w) { tess(); cubl(); }
  Sample st, sc;
  for (int r = 0; r < rounds; ++r) {
    measure("tessera", tess, st, e0, e1, spin_cycles);
    measure("cublas", cubl, sc, e0, e1, spin_cycles);
  }
  std::printf("%-28s %-8s host call %6.2f us | idle %8.2f us  busy %8.2f us  exposed %6.2f us (%.2f%%)\n", label,
              "tessera", median(st.host), median(st.idle), median(st.busy), median(st.idle) - median(st.busy),
              100.0 * (median(st.idle) - median(st.busy)) / median(st.busy));
  std::printf("%-28s %-8s host call %6.2f us | idle %8.2f us  busy %8.2f us  exposed %6.2f us (%.2f%%)\n", label,
              "cuBLAS", median(sc.host), median(sc.idle), median(sc.busy), median(sc.idle) - median(sc.busy),
              100.0 * (median(sc.idle) - median(sc.busy)) / median(sc.busy));
  cudaFree(A); cudaFree(B); cudaFree(D);
}

int main(int argc, char** argv) {
  int const rounds = argc > 1 ? std::atoi(argv[1]) : 50;
  cublasHandle_t h; cublasCreate(&h);
  {
    // What one shared-memory opt-in costs the host: the call the SIMT path
    // made on every launch until it went through set_smem_attributes_once.
    auto const t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i)
      CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(&fill<float>), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 64 * 1024));
    double const us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 1000;
    std::printf("cudaFuncSetAttribute (max dynamic shared memory): %.2f us per call\n", us);
  }
  run<__nv_bfloat16>("bf16 TN 4096^3", DataType::bf16, DataType::f32, 4096, 4096, 4096, rounds, h);
  run<__nv_bfloat16>("bf16 TN 1000^3", DataType::bf16, DataType::f32, 1000, 1000, 1000, rounds, h);
  run<__nv_bfloat16>("bf16 TN 1024^3", DataType::bf16, DataType::f32, 1024, 1024, 1024, rounds, h);
  run<__nv_bfloat16>("bf16 TN 128x8192x8192", DataType::bf16, DataType::f32, 128, 8192, 8192, rounds, h);
  run<__half>("f16 TN 5120^2x4096 f16acc", DataType::f16, DataType::f16, 5120, 5120, 4096, rounds, h);
  run<float>("f32 TN 256^3 (SIMT)", DataType::f32, DataType::f32, 256, 256, 256, rounds, h);
  run<float>("f32 TN 1024^3 (SIMT)", DataType::f32, DataType::f32, 1024, 1024, 1024, rounds, h);
  std::printf("cuda: %s\n", cudaGetErrorString(cudaGetLastError()));
}
CU
build_driver "$OUT/host_overhead.cu" "$OUT/host_overhead"
"$OUT/host_overhead" "${1:-50}"
