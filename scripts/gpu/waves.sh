#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Same-run comparison of the Hopper GEMM's default launch (one persistent CTA
# per SM) against the same variant with `balance_waves` (ceil(units / waves)
# CTAs, every wave full), with cuBLAS beside both. bf16 TN, D row-major (as
# `tessera bench`), 16-byte aligned; the three are timed interleaved (one run
# of each per repetition, L2 flushed before every run), median of REPS (30).
# Prints one line per shape: TFLOP/s, ratio to cuBLAS, the CTA counts and the
# relative difference of each result to cuBLAS's.
# Logs under $OUT (default /tmp/tessera-waves).
# SHAPE=MxNxK keeps one shape; ONCE=1 runs each kernel once (for ncu: the
# correctness launches only, no timing).
# Usage: [REPS=30] [SHAPE=MxNxK] [ONCE=1] scripts/gpu/waves.sh
set -u
OUT=${OUT:-/tmp/tessera-waves}
start=$(date +%s)
. "$(dirname "$0")/runtime_build.sh"  # cd to the repository; CMake-builds the runtime into $BUILD

cat > "$OUT/waves.cu" <<'CU'
// Interleaved timing: cuBLAS, sm90_ws_gemm default, default + balance_waves.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <tessera/gemm/sm90_ws_gemm.cuh>

#include "driver_util.cuh"

int main() {
  int const reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 30;
  cudaDeviceProp prop{}; CHECK(cudaGetDeviceProperties(&prop, 0));
  int const sms = prop.multiProcessorCount;
  std::printf("device: %s, %d SMs; bf16 TN, D row-major, interleaved, median of %d, L2 flushed\n", prop.name, sms, reps);
  cublasHandle_t h; cublasCreate(&h);
  size_t const flush_bytes = size_t(256) << 20; void* flush; CHECK(cudaMalloc(&flush, flush_bytes));
  struct Case { int m, n, k; } const cases[] = {
      {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}, {16384, 16384, 16384}, {4096, 6144, 4096},
      {4096, 28672, 4096}, {4096, 4096, 14336}, {16384, 8192, 1024}, {5120, 5120, 4096}};
  std::printf("%-18s %9s %16s %16s %5s %5s %9s\n", "shape", "cuBLAS", "default", "balanced", "ctas", "bal", "rel.diff");
  for (const Case& c : cases) {
    char name[40]; std::snprintf(name, sizeof name, "%dx%dx%d", c.m, c.n, c.k);
    if (std::getenv("SHAPE") && std::strcmp(std::getenv("SHAPE"), name) != 0) continue;
    long long const na = (long long)c.m * c.k, nb = (long long)c.n * c.k, nd = (long long)c.m * c.n;
    __nv_bfloat16 *A, *B, *D, *Dc; double* acc;
    CHECK(cudaMalloc(&A, na * 2)); CHECK(cudaMalloc(&B, nb * 2));
    CHECK(cudaMalloc(&D, nd * 2)); CHECK(cudaMalloc(&Dc, nd * 2)); CHECK(cudaMalloc(&acc, 16));
    fill<<<1024, 256>>>(A, na, 1u); fill<<<1024, 256>>>(B, nb, 2u);
    tessera::GemmArgs args;
    args.m = c.m; args.n = c.n; args.k = c.k;
    args.input = tessera::DataType::bf16; args.output = tessera::DataType::bf16; args.accumulate = tessera::DataType::f32;
    args.a = {A, tessera::MatrixOrder::row_major, c.k, 0};
    args.b = {B, tessera::MatrixOrder::col_major, c.k, 0};
    args.d = tessera::MutableMatrixDesc{D, tessera::MatrixOrder::row_major, c.n, 0};
    tessera::detail::Sm90WsVariant const def = tessera::detail::select_sm90_ws_variant(c.m, c.n, c.k, sms);
    tessera::detail::Sm90WsVariant bal = def;
    bal.balance_waves = true;
    float one = 1.0f, zero = 0.0f;
    auto run = [&](int which) {
      if (which == 0) {
        if (cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, c.n, c.m, c.k, &one, B, CUDA_R_16BF, c.k, A, CUDA_R_16BF, c.k,
                         &zero, Dc, CUDA_R_16BF, c.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
          std::printf("cublas error\n");
        return;
      }
      tessera::Status s = tessera::detail::launch_sm90_ws_gemm(args, nullptr, which == 1 ? def : bal);
      if (!s.ok()) { std::printf("launch failed: %s\n", s.message.c_str()); std::exit(1); }
    };
    double rel[3] = {0, 0, 0};
    run(0);
    for (int which = 1; which <= 2; ++which) {
      CHECK(cudaMemset(D, 0xff, nd * 2));
      run(which);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemset(acc, 0, 16));
      diff<<<512, 256>>>(D, Dc, nd, acc);
      double hacc[2]; CHECK(cudaMemcpy(hacc, acc, 16, cudaMemcpyDeviceToHost));
      rel[which] = std::sqrt(hacc[0] / hacc[1]);
    }
    if (std::getenv("ONCE")) {
      std::printf("%-18s rel.diff %.1e / %.1e (one launch each)\n", name, rel[1], rel[2]);
      cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(Dc); cudaFree(acc);
      continue;
    }
    // The shortest warm-up (32 runs in turn), then `reps` interleaved rounds.
    std::vector<double> const tf = interleaved_tflops(run, 3, reps, 0.0f, flush, flush_bytes, 2.0 * c.m * double(c.n) * c.k);
    CHECK(cudaGetLastError());
    // CTA counts, as the launcher computes them for an unsplit launch.
    long long const bm = def.pingpong ? def.tile_m : 128, bn = def.tile_n;
    long long const units = ((c.m + bm - 1) / bm) * ((c.n + bn - 1) / bn);
    long long const grid = std::min<long long>(units, sms);
    long long const waves = (units + sms - 1) / sms;
    long long const bgrid = def.splits > 1 || units <= sms ? grid : (units + waves - 1) / waves;
    std::printf("%-18s %9.1f %8.1f (%.3f) %8.1f (%.3f) %5lld %5lld %.1e/%.1e %s%s\n", name, tf[0], tf[1], tf[1] / tf[0],
                tf[2], tf[2] / tf[0], grid, bgrid, rel[1], rel[2], def.pingpong ? "pp" : "coop",
                def.splits > 1 ? " split-tail" : "");
    std::fflush(stdout);
    cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(Dc); cudaFree(acc);
  }
  cublasDestroy(h);
  return 0;
}
CU
build_driver "$OUT/waves.cu" "$OUT/waves"
echo "build took $(( $(date +%s) - start ))s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv,noheader
timeout "${WAVES_LIMIT:-240}" "$OUT/waves" | tee "$OUT/waves.txt"
echo "total $(( $(date +%s) - start ))s"
