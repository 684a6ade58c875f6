#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# The Ampere seed tile's variants against cuBLAS, all TN, D row-major: the
# hand-indexed tile (tile128x128) and the Tensor/TiledCopy/TiledMMA kernel
# (tiled), each without a tail split (/s1) and with the automatic one
# (/auto) or a forced slice count (/sN); the default 16-bit tile for big
# f32-accumulating problems (tile128x256). Problems:
#   f16 5120x5120x4096 with f16 accumulation (the issue-4 target problem),
#   f16 5120x5120x4096 and bf16 4096^3 with f32 accumulation.
# Per problem: every kernel's result compared with cuBLAS's, ~3 s of warm-up
# (the GPU reaches its power cap within it), then all of them timed
# interleaved, L2 flushed before every run, median of ROUNDS (default 200).
# Builds the runtime library with CMake (sm_90a), then the driver with nvcc.
# Usage: scripts/gpu/tiled.sh [ROUNDS]
set -u
OUT=${OUT:-/tmp/tessera-tiled}
. "$(dirname "$0")/runtime_build.sh"  # cd to the repository; CMake-builds the runtime into $BUILD
cat > "$OUT/tiled.cu" <<'CU'
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <tessera/gemm/sm80_tensorop.hpp>
using namespace tessera;
#include "driver_util.cuh"
using V = kernels::Sm80Variant;

// One timed kernel: a variant and its tail_splits argument.
struct Entry { V v; int splits; };
std::string entry_name(const Entry& e) {
  std::string n = kernels::to_string(e.v);
  return n + (e.splits == kernels::kSm80TailSplitAuto ? "/auto" : "/s" + std::to_string(e.splits));
}
struct Problem { const char* name; DataType in, acc; int m, n, k; std::vector<Entry> variants; };

template <class T>
void time_problem(const Problem& pb, int rounds, cublasHandle_t h, void* flush, size_t flush_bytes) {
  int const M = pb.m, N = pb.n, K = pb.k;
  T *A, *B, *D, *Dc; double* acc;
  CHECK(cudaMalloc(&A, size_t(M) * K * sizeof(T))); CHECK(cudaMalloc(&B, size_t(N) * K * sizeof(T)));
  CHECK(cudaMalloc(&D, size_t(M) * N * sizeof(T))); CHECK(cudaMalloc(&Dc, size_t(M) * N * sizeof(T)));
  CHECK(cudaMalloc(&acc, 16));
  fill<<<1024, 256>>>(A, (long long)M * K, 1u); fill<<<1024, 256>>>(B, (long long)N * K, 2u);
  bool const acc16 = pb.acc == DataType::f16;
  __half one_h = __float2half(1.0f), zero_h = __float2half(0.0f);
  float one_f = 1.0f, zero_f = 0.0f;
  cudaDataType_t const ct = pb.in == DataType::f16 ? CUDA_R_16F : CUDA_R_16BF;
  GemmArgs args;
  args.m = M; args.n = N; args.k = K;
  args.input = pb.in; args.output = pb.in; args.accumulate = pb.acc;
  args.a = {A, MatrixOrder::row_major, K, 0};
  args.b = {B, MatrixOrder::col_major, K, 0};
  args.d = MutableMatrixDesc{D, MatrixOrder::row_major, N, 0};
  auto run = [&](int i) {
    if (i == 0) {  // cuBLAS: D^T = B^T A^T column-major = D row-major
      cublasStatus_t s = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, acc16 ? (void*)&one_h : (void*)&one_f, B, ct, K, A,
                                      ct, K, acc16 ? (void*)&zero_h : (void*)&zero_f, Dc, ct, N,
                                      acc16 ? CUBLAS_COMPUTE_16F : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      if (s != CUBLAS_STATUS_SUCCESS) { std::printf("cublasGemmEx failed\n"); std::exit(1); }
      return;
    }
    Entry const& e = pb.variants[i - 1];
    Status s = kernels::sm80_tensorop_launch_variant(args, e.v, nullptr, 0, e.splits);
    if (!s.ok()) { std::printf("%s: %s\n", entry_name(e).c_str(), s.message.c_str()); std::exit(1); }
  };
  int const nv = int(pb.variants.size()) + 1;
  run(0); CHECK(cudaDeviceSynchronize());
  std::printf("%s\n", pb.name);
  for (int i = 1; i < nv; ++i) {
    CHECK(cudaMemset(D, 0xff, size_t(M) * N * sizeof(T))); run(i); CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemset(acc, 0, 16)); diff<<<512, 256>>>(D, Dc, (long long)M * N, acc);
    double hh[2]; CHECK(cudaMemcpy(hh, acc, 16, cudaMemcpyDeviceToHost));
    std::printf("  %-18s rel.diff vs cuBLAS %.2e\n", entry_name(pb.variants[i - 1]).c_str(), std::sqrt(hh[0] / hh[1]));
  }
  // ~3 s of warm-up (the GPU reaches its power cap within it), then the timed rounds.
  std::vector<double> const tf = interleaved_tflops(run, nv, rounds, 3000.0f, flush, flush_bytes, 2.0 * M * N * double(K));
  std::printf("  %-18s %.1f TFLOP/s (median of %d, interleaved)\n", "cuBLAS", tf[0], rounds);
  for (int i = 1; i < nv; ++i)
    std::printf("  %-18s %.1f TFLOP/s  %.3fx cuBLAS  %.3fx %s\n", entry_name(pb.variants[i - 1]).c_str(), tf[i],
                tf[i] / tf[0], tf[i] / tf[1], entry_name(pb.variants[0]).c_str());
  cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(Dc); cudaFree(acc);
}

int main(int argc, char** argv) {
  int const rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  size_t const flush_bytes = size_t(256) << 20; void* flush; CHECK(cudaMalloc(&flush, flush_bytes));
  cublasHandle_t h; cublasCreate(&h);
  int const auto_ = kernels::kSm80TailSplitAuto;
  std::vector<Problem> ps = {
      {"f16 TN 5120x5120x4096, f16 acc", DataType::f16, DataType::f16, 5120, 5120, 4096,
       {{V::tile128x128, 1}, {V::tile128x128, auto_}, {V::tile128x128, 8}, {V::tiled, 1}, {V::tiled, auto_}}},
      {"f16 TN 5120x5120x4096, f32 acc", DataType::f16, DataType::f32, 5120, 5120, 4096,
       {{V::tile128x128, 1}, {V::tile128x128, auto_}, {V::tiled, 1}, {V::tiled, auto_}, {V::tile128x256, 1}}},
      {"bf16 TN 4096^3, f32 acc (no tail to split)", DataType::bf16, DataType::f32, 4096, 4096, 4096,
       {{V::tile128x128, 1}, {V::tile128x128, auto_}, {V::tiled, auto_}}},
  };
  for (const Problem& p : ps) {
    if (p.in == DataType::f16) time_problem<__half>(p, rounds, h, flush, flush_bytes);
    else time_problem<__nv_bfloat16>(p, rounds, h, flush, flush_bytes);
  }
  std::printf("cuda: %s\n", cudaGetErrorString(cudaGetLastError()));
}
CU
build_driver "$OUT/tiled.cu" "$OUT/tiled"
"$OUT/tiled" "${1:-200}"
