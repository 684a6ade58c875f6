#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Same-run comparison of the Hopper GEMM's default launch against alterations
# of it, with cuBLAS beside them. bf16 TN, D row-major (as `tessera bench`),
# 16-byte aligned; all are timed interleaved (one run of each per repetition,
# L2 flushed before every run, each round behind the benchmark's queue gate,
# every timed run after itself and a cuBLAS run: scripts/gpu/driver_gate.cuh),
# median of REPS (30).
#   ALT=balance (the default): the default variant with one CTA per SM and
#     with `balance_waves` (ceil(units / waves) CTAs, every wave full; the
#     default takes it for 2-4 unsplit waves); prints the CTA counts.
#   ALT=cluster2: cooperative 128x256 with the TMA-store epilogue unsplit,
#     and the same in clusters of 2 CTAs (B multicast).
#   ALT=splits: the default variant split along K into 2, 3 and 4 units per
#     tile (every tile; the last unit of a tile runs the epilogue).
# Prints one line per shape: TFLOP/s, ratio to cuBLAS, and the relative
# difference of each result to cuBLAS's.
# Logs under $OUT (default /tmp/tessera-waves).
# SHAPE=MxNxK keeps one shape; ONCE=1 runs each kernel once (for ncu: the
# correctness launches only, no timing); WARM_MS: warm-up before the timed
# rounds (default 0: 32 runs).
# Usage: [ALT=balance|cluster2|splits] [REPS=30] [SHAPE=MxNxK] [ONCE=1] scripts/gpu/waves.sh
set -u
OUT=${OUT:-/tmp/tessera-waves}
start=$(date +%s)
. "$(dirname "$0")/runtime_build.sh"  # cd to the repository; CMake-builds the runtime into $BUILD

cat > "$OUT/waves.cu" <<'CU'
// Interleaved timing: cuBLAS, sm90_ws_gemm default, and the alterations ALT picks.
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

#include "driver_gate.cuh"
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
      {4096, 28672, 4096}, {4096, 4096, 14336}, {16384, 8192, 1024}, {5120, 5120, 4096}, {1024, 1024, 1024},
      {1000, 1000, 1000}};
  bool const cluster = std::getenv("ALT") && std::strcmp(std::getenv("ALT"), "cluster2") == 0;
  bool const splits = std::getenv("ALT") && std::strcmp(std::getenv("ALT"), "splits") == 0;
  float const warm_ms = std::getenv("WARM_MS") ? float(std::atof(std::getenv("WARM_MS"))) : 0.0f;
  if (cluster) std::printf("%-18s %9s %16s %16s %16s %s\n", "shape", "cuBLAS", "default", "coop", "cluster2", "rel.diff");
  else if (splits)
    std::printf("%-18s %9s %16s %16s %16s %16s %s\n", "shape", "cuBLAS", "default", "split 2", "split 3", "split 4",
                "rel.diff");
  else std::printf("%-18s %9s %16s %16s %5s %5s %s\n", "shape", "cuBLAS", "one CTA/SM", "balanced", "ctas", "bal", "rel.diff");
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
    // Kernel columns after cuBLAS: the default, then the alterations.
    // As tessera::gemm picks it for these operands.
    std::vector<tessera::detail::Sm90WsVariant> kv(1, tessera::detail::default_sm90_ws_variant(args));
    tessera::detail::Sm90WsVariant const def = kv[0];
    if (cluster) {
      tessera::detail::Sm90WsVariant coop;  // cooperative 128x256, default raster group, unsplit
      coop.tma_store = true;
      kv.push_back(coop);
      coop.cluster = 2;
      kv.push_back(coop);
    } else if (splits) {
      for (int sp = 2; sp <= 4; ++sp) {
        tessera::detail::Sm90WsVariant v = def;
        v.splits = sp;
        v.split_tail = false;
        kv.push_back(v);
      }
    } else {
      // One CTA per SM against every wave full, whichever the default takes.
      kv[0].balance_waves = false;
      tessera::detail::Sm90WsVariant bal = def;
      bal.balance_waves = true;
      kv.push_back(bal);
    }
    int const nk = int(kv.size());
    float one = 1.0f, zero = 0.0f;
    auto run = [&](int which) {
      if (which == 0) {
        if (cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, c.n, c.m, c.k, &one, B, CUDA_R_16BF, c.k, A, CUDA_R_16BF, c.k,
                         &zero, Dc, CUDA_R_16BF, c.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
          std::printf("cublas error\n");
        return;
      }
      tessera::Status s = tessera::detail::launch_sm90_ws_gemm(args, nullptr, kv[size_t(which - 1)]);
      if (!s.ok()) { std::printf("launch failed: %s\n", s.message.c_str()); std::exit(1); }
    };
    std::vector<double> rel(size_t(nk + 1), 0.0);
    run(0);
    for (int which = 1; which <= nk; ++which) {
      CHECK(cudaMemset(D, 0xff, nd * 2));
      run(which);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemset(acc, 0, 16));
      diff<<<512, 256>>>(D, Dc, nd, acc);
      double hacc[2]; CHECK(cudaMemcpy(hacc, acc, 16, cudaMemcpyDeviceToHost));
      rel[size_t(which)] = std::sqrt(hacc[0] / hacc[1]);
    }
    char rels[96] = "";
    for (int which = 1; which <= nk; ++which)
      std::snprintf(rels + std::strlen(rels), sizeof rels - std::strlen(rels), "%s%.1e", which > 1 ? "/" : "",
                    rel[size_t(which)]);
    if (std::getenv("ONCE")) {
      std::printf("%-18s rel.diff %s (one launch each)\n", name, rels);
      cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(Dc); cudaFree(acc);
      continue;
    }
    std::vector<double> const tf =
        gated_interleaved_tflops(run, nk + 1, reps, warm_ms, flush, flush_bytes, 2.0 * c.m * double(c.n) * c.k, 0);
    CHECK(cudaGetLastError());
    std::printf("%-18s %9.1f", name, tf[0]);
    for (int which = 1; which <= nk; ++which)
      std::printf(" %8.1f (%.3f)", tf[size_t(which)], tf[size_t(which)] / tf[0]);
    if (!cluster && !splits) {
      // CTA counts, as the launcher computes them for an unsplit launch.
      long long const bm = def.pingpong ? def.tile_m : 128, bn = def.tile_n;
      long long const units = ((c.m + bm - 1) / bm) * ((c.n + bn - 1) / bn);
      long long const grid = std::min<long long>(units, sms);
      long long const waves = (units + sms - 1) / sms;
      long long const bgrid = def.splits > 1 || units <= sms ? grid : (units + waves - 1) / waves;
      std::printf(" %5lld %5lld", grid, bgrid);
    }
    std::printf(" %s %s%s\n", rels, def.pingpong ? "pp" : "coop", def.splits > 1 ? " split-tail" : "");
    std::fflush(stdout);
    cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(Dc); cudaFree(acc);
  }
  cublasDestroy(h);
  return 0;
}
CU
build_driver "$OUT/waves.cu" "$OUT/waves"
timeout "${WAVES_LIMIT:-240}" "$OUT/waves" | tee "$OUT/waves.txt"
echo "total $(( $(date +%s) - start ))s"
