#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Same-run comparison of the Hopper GEMM's variants with f16 accumulation
# (f16 in, f16 out, `wgmma .f16.f16.f16`) against cuBLAS CUBLAS_COMPUTE_16F,
# with the f32-accumulating default and cuBLAS CUBLAS_COMPUTE_32F on the same
# f16 data beside them. TN, D row-major, 16-byte aligned; every column timed
# interleaved (L2 flushed before every run, each round behind the benchmark's
# queue gate, every timed run after itself and a cuBLAS run:
# scripts/gpu/driver_gate.cuh), median of REPS (30).
# Columns: cuBLAS 16F, cuBLAS 32F, our f32-acc default (ratio to cuBLAS 32F),
# then the f16-acc kernels (ratios to cuBLAS 16F): the default launch,
# cooperative 128x256 with the TMA store, the same in clusters of 2,
# ping-pong 64x256 and ping-pong 128x128 with the TMA store.
# Last: the relative difference of each f16-acc result to cuBLAS 16F's.
# SKINNY=1: the skinny suite shapes in the nt layout (A M-major, B N-major,
# where the default picks ping-pong 64x256 for M or N <= 64); the f16-acc
# columns are then the default, the narrow cooperative tiles the heuristic
# picks for K-major operands (split-K included), cooperative 128x256 and
# ping-pong 64x256.
# SHAPE=MxNxK keeps one shape. Logs under $OUT (default /tmp/tessera-f16acc).
# Usage: [REPS=30] [SKINNY=1] [SHAPE=MxNxK] scripts/gpu/f16acc.sh
set -u
OUT=${OUT:-/tmp/tessera-f16acc}
start=$(date +%s)
. "$(dirname "$0")/runtime_build.sh"  # cd to the repository; CMake-builds the runtime into $BUILD

cat > "$OUT/f16acc.cu" <<'CU'
// Interleaved timing of sm90_ws_gemm with f16 accumulation against cuBLAS.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tessera/gemm/sm90_ws_gemm.cuh>

#include "driver_gate.cuh"
#include "driver_util.cuh"

int main() {
  int const reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 30;
  cudaDeviceProp prop{}; CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs; f16 TN, D row-major, interleaved, median of %d, L2 flushed\n", prop.name,
              prop.multiProcessorCount, reps);
  cublasHandle_t h; cublasCreate(&h);
  size_t const flush_bytes = size_t(256) << 20; void* flush; CHECK(cudaMalloc(&flush, flush_bytes));
  bool const skinny = std::getenv("SKINNY") != nullptr;
  struct Case { int m, n, k; };
  std::vector<Case> const cases =
      skinny ? std::vector<Case>{{64, 28672, 4096}, {128, 8192, 8192}, {16, 4096, 14336}, {28672, 64, 4096}}
             : std::vector<Case>{{4096, 4096, 4096}, {5120, 5120, 4096}, {8192, 8192, 8192}, {2048, 2048, 2048},
                                 {1000, 1000, 1000}};
  if (skinny)
    std::printf("%-16s %8s %8s %15s | %15s %15s %15s %15s  %s (nt: A M-major, B N-major)\n", "shape", "cuB16F",
                "cuB32F", "ours f32acc", "f16acc default", "narrow (TN)", "coop 128x256", "pp 64x256",
                "rel.diff to cuBLAS 16F");
  else
    std::printf("%-16s %8s %8s %15s | %15s %15s %15s %15s %15s  %s\n", "shape", "cuB16F", "cuB32F", "ours f32acc",
                "f16acc default", "coop tmastore", "cluster2", "pp 64x256", "pp 128x128", "rel.diff to cuBLAS 16F");
  for (const Case& c : cases) {
    char name[40]; std::snprintf(name, sizeof name, "%dx%dx%d", c.m, c.n, c.k);
    if (std::getenv("SHAPE") && std::strcmp(std::getenv("SHAPE"), name) != 0) continue;
    long long const na = (long long)c.m * c.k, nb = (long long)c.n * c.k, nd = (long long)c.m * c.n;
    __half *A, *B, *D, *D32, *Dc, *Dc32; double* acc;
    CHECK(cudaMalloc(&A, na * 2)); CHECK(cudaMalloc(&B, nb * 2));
    CHECK(cudaMalloc(&D, nd * 2)); CHECK(cudaMalloc(&D32, nd * 2));
    CHECK(cudaMalloc(&Dc, nd * 2)); CHECK(cudaMalloc(&Dc32, nd * 2)); CHECK(cudaMalloc(&acc, 16));
    fill<<<1024, 256>>>(A, na, 1u); fill<<<1024, 256>>>(B, nb, 2u);
    tessera::GemmArgs args;
    args.m = c.m; args.n = c.n; args.k = c.k;
    args.input = tessera::DataType::f16; args.output = tessera::DataType::f16;
    args.accumulate = tessera::DataType::f16;
    if (skinny) {
      args.a = {A, tessera::MatrixOrder::col_major, c.m, 0};
      args.b = {B, tessera::MatrixOrder::row_major, c.n, 0};
    } else {
      args.a = {A, tessera::MatrixOrder::row_major, c.k, 0};
      args.b = {B, tessera::MatrixOrder::col_major, c.k, 0};
    }
    args.d = tessera::MutableMatrixDesc{D, tessera::MatrixOrder::row_major, c.n, 0};
    tessera::GemmArgs args32 = args;
    args32.accumulate = tessera::DataType::f32;
    args32.d.data = D32;
    std::vector<tessera::detail::Sm90WsVariant> kv(1, tessera::detail::default_sm90_ws_variant(args));
    tessera::detail::Sm90WsVariant v;
    if (skinny) {
      // What the heuristic picks for the same problem with K-major operands
      // (the narrow 128xN tiles, small dimension on N), read MN-major here.
      kv.push_back(tessera::detail::select_sm90_ws_variant(c.m, c.n, c.k, prop.multiProcessorCount, 2, 128));
      kv.push_back(v);  // cooperative 128x256, direct epilogue
      v.pingpong = true;
      v.transpose = c.m > c.n;
      v.group_m = 8;
      kv.push_back(v);  // ping-pong 64x256, the small dimension on M
    } else {
      v.tma_store = true;
      kv.push_back(v);  // cooperative 128x256, TMA store
      v.cluster = 2;
      kv.push_back(v);  // the same in clusters of 2
      v = {};
      v.pingpong = true;
      kv.push_back(v);  // ping-pong 64x256
      v.tile_n = 128;
      v.tma_store = true;
      kv.push_back(v);  // ping-pong 128x128, TMA store
    }
    int const nk = int(kv.size());
    tessera::detail::Sm90WsVariant const def32 = tessera::detail::default_sm90_ws_variant(args32);
    __half const one_h = __float2half(1.0f), zero_h = __float2half(0.0f);
    float const one = 1.0f, zero = 0.0f;
    auto run = [&](int which) {
      if (which <= 1) {
        bool const f16 = which == 0;
        // D row-major is D^T column-major: D^T = B^T A^T. TN: B^T is B (N x K,
        // ld k) transposed, A^T likewise; nt: B is (N x K, ld n) as stored and
        // A (M x K, ld m) transposed.
        if (cublasGemmEx(h, skinny ? CUBLAS_OP_N : CUBLAS_OP_T, skinny ? CUBLAS_OP_T : CUBLAS_OP_N, c.n, c.m, c.k,
                         f16 ? (const void*)&one_h : (const void*)&one, B, CUDA_R_16F, skinny ? c.n : c.k, A,
                         CUDA_R_16F, skinny ? c.m : c.k, f16 ? (const void*)&zero_h : (const void*)&zero,
                         f16 ? Dc : Dc32, CUDA_R_16F, c.n, f16 ? CUBLAS_COMPUTE_16F : CUBLAS_COMPUTE_32F,
                         CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
          std::printf("cublas error\n");
        return;
      }
      tessera::Status s = which == 2 ? tessera::detail::launch_sm90_ws_gemm(args32, nullptr, def32)
                                     : tessera::detail::launch_sm90_ws_gemm(args, nullptr, kv[size_t(which - 3)]);
      if (!s.ok()) { std::printf("launch failed: %s\n", s.message.c_str()); std::exit(1); }
    };
    int const runs = nk + 3;
    std::vector<double> rel(size_t(runs), 0.0);
    run(0);
    run(1);
    for (int which = 2; which < runs; ++which) {
      __half* out = which == 2 ? D32 : D;
      CHECK(cudaMemset(out, 0xff, nd * 2));
      run(which);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemset(acc, 0, 16));
      diff<<<512, 256>>>(out, which == 2 ? Dc32 : Dc, nd, acc);
      double hacc[2]; CHECK(cudaMemcpy(hacc, acc, 16, cudaMemcpyDeviceToHost));
      rel[size_t(which)] = std::sqrt(hacc[0] / hacc[1]);
    }
    std::vector<double> const tf =
        gated_interleaved_tflops(run, runs, reps, 0.0f, flush, flush_bytes, 2.0 * c.m * double(c.n) * c.k, 0);
    CHECK(cudaGetLastError());
    std::printf("%-16s %8.1f %8.1f %7.1f (%.3f) |", name, tf[0], tf[1], tf[2], tf[2] / tf[1]);
    for (int which = 3; which < runs; ++which) std::printf(" %7.1f (%.3f)", tf[size_t(which)], tf[size_t(which)] / tf[0]);
    std::printf("  f32acc %.1e, f16acc", rel[2]);
    for (int which = 3; which < runs; ++which) std::printf(" %.1e", rel[size_t(which)]);
    tessera::detail::Sm90WsVariant const& d = kv[0];
    auto describe = [](const tessera::detail::Sm90WsVariant& x) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s %dx%d%s%s%s", x.pingpong ? "pp" : "coop",
                    x.pingpong && x.tile_n == 128 ? x.tile_m : (x.pingpong ? 64 : 128), x.tile_n,
                    x.tma_store ? " tmastore" : "", x.transpose ? " transposed" : "", x.splits > 1 ? " split" : "");
      return std::string(buf);
    };
    std::printf("  default: %s", describe(d).c_str());
    if (skinny) std::printf("; narrow: %s (splits %d)", describe(kv[1]).c_str(), kv[1].splits);
    std::printf("\n");
    std::fflush(stdout);
    cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(D32); cudaFree(Dc); cudaFree(Dc32); cudaFree(acc);
  }
  cublasDestroy(h);
  return 0;
}
CU
build_driver "$OUT/f16acc.cu" "$OUT/f16acc"
timeout "${F16ACC_LIMIT:-300}" "$OUT/f16acc" | tee "$OUT/f16acc.txt"
echo "total $(( $(date +%s) - start ))s"
