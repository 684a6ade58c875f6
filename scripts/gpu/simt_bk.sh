#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# The SIMT SGEMM's k-tile depth: simt_tiled_sgemm's nt-form kernel (A
# M-major, B N-major: the form `tessera::gemm` runs large f32 problems in,
# after copying K-contiguous operands) with the default configuration
# (128x128x16, 4 stages) beside 128x128x32 with 3 and with 2 stages, all
# interleaved with cublasSgemm on the same data; then the tn layout through
# `tessera::gemm` (two copies and the default kernel) beside cublasSgemm on
# tn data. D row-major; every run after a cuBLAS run of its own layout
# (scripts/gpu/driver_gate.cuh: L2 flushed, each round behind the queue
# gate), median of REPS (25). Each Tessera result's relative difference to
# cuBLAS's is printed last.
# Usage: [REPS=25] scripts/gpu/simt_bk.sh
set -u
OUT=${OUT:-/tmp/tessera-simt-bk}
. "$(dirname "$0")/runtime_build.sh"  # cd to the repository; CMake-builds the runtime into $BUILD

# One configuration per translation unit, compiled in parallel.
for cfg in 0 1 2; do
  cat > "$OUT/cfg$cfg.cu" <<CU
#include <tessera/gemm/simt_tiled.cuh>
namespace s = tessera::kernels::simt;
#if $cfg == 0
using Cfg = s::SgemmDefault;
#elif $cfg == 1
using Cfg = s::SgemmConfig<128, 128, 32, 3, 2, 4, 2, 2, 8, 2, true, 4, false, 5>;
#else
using Cfg = s::SgemmConfig<128, 128, 32, 2, 2, 4, 2, 2, 8, 2, true, 4, false, 5>;
#endif
tessera::Status simt_cfg_$cfg(const tessera::GemmArgs& a) { return s::tiled_sgemm_launch<Cfg, true>(a, nullptr); }
CU
  nvcc -std=c++20 -O3 --expt-relaxed-constexpr -I"$ROOT/include" -I"$ROOT/src" -arch=sm_90a -Xptxas -v \
    -c "$OUT/cfg$cfg.cu" -o "$OUT/cfg$cfg.o" > "$OUT/cfg$cfg.ptxas.log" 2>&1 &
done
wait
for cfg in 0 1 2; do
  [ -f "$OUT/cfg$cfg.o" ] || { echo "cfg$cfg build failed"; tail "$OUT/cfg$cfg.ptxas.log"; exit 1; }
  # The nt-form kernel (both operands vec16, mode 0) is the last one listed.
  echo "cfg$cfg nt kernel: $(grep -A3 'Compiling entry.*OperandModeE0ELS5_0E' "$OUT/cfg$cfg.ptxas.log" | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' | paste -sd ' ')"
done

cat > "$OUT/simt_bk.cu" <<'CU'
// Interleaved timing of simt_tiled_sgemm configurations against cublasSgemm.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <tessera/gemm/api.hpp>

#include "driver_gate.cuh"
#include "driver_util.cuh"

tessera::Status simt_cfg_0(const tessera::GemmArgs&);
tessera::Status simt_cfg_1(const tessera::GemmArgs&);
tessera::Status simt_cfg_2(const tessera::GemmArgs&);

int main() {
  int const reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 25;
  cudaDeviceProp prop{}; CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs; f32, D row-major, interleaved, median of %d, L2 flushed\n", prop.name,
              prop.multiProcessorCount, reps);
  cublasHandle_t h; cublasCreate(&h);
  size_t const flush_bytes = size_t(256) << 20; void* flush; CHECK(cudaMalloc(&flush, flush_bytes));
  std::printf("%-16s %8s %16s %16s %16s | %8s %16s  %s\n", "shape", "cuB nt", "nt 128x128x16s4", "nt 128x128x32s3",
              "nt 128x128x32s2", "cuB tn", "tn gemm()", "rel.diff to cuBLAS");
  for (int size : {4096, 8192}) {
    long long const m = size, n = size, k = size, na = m * k, nb = n * k, nd = m * n;
    float *A, *B, *At, *Bt, *D, *Dc, *Dct; double* acc;
    CHECK(cudaMalloc(&A, na * 4)); CHECK(cudaMalloc(&B, nb * 4));
    CHECK(cudaMalloc(&At, na * 4)); CHECK(cudaMalloc(&Bt, nb * 4));
    CHECK(cudaMalloc(&D, nd * 4)); CHECK(cudaMalloc(&Dc, nd * 4)); CHECK(cudaMalloc(&Dct, nd * 4));
    CHECK(cudaMalloc(&acc, 16));
    fill<<<1024, 256>>>(A, na, 1u); fill<<<1024, 256>>>(B, nb, 2u);
    fill<<<1024, 256>>>(At, na, 3u); fill<<<1024, 256>>>(Bt, nb, 4u);
    tessera::GemmArgs nt;
    nt.m = m; nt.n = n; nt.k = k;
    nt.input = tessera::DataType::f32; nt.output = tessera::DataType::f32;
    nt.a = {A, tessera::MatrixOrder::col_major, m, 0};  // M-major
    nt.b = {B, tessera::MatrixOrder::row_major, n, 0};  // N-major
    nt.d = tessera::MutableMatrixDesc{D, tessera::MatrixOrder::row_major, n, 0};
    tessera::GemmArgs tn = nt;
    tn.a = {At, tessera::MatrixOrder::row_major, k, 0};  // K-contiguous
    tn.b = {Bt, tessera::MatrixOrder::col_major, k, 0};
    float const one = 1.0f, zero = 0.0f;
    // D row-major is D^T column-major: D^T = B^T A^T.
    auto run = [&](int which) {
      tessera::Status s;
      switch (which) {
        case 0:  // nt: B^T is B as stored (N x K, ld n), A^T is A (M x K, ld m) transposed
          if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, m, k, &one, B, n, A, m, &zero, Dc, n) != CUBLAS_STATUS_SUCCESS)
            std::printf("cublas error\n");
          return;
        case 1: s = simt_cfg_0(nt); break;
        case 2: s = simt_cfg_1(nt); break;
        case 3: s = simt_cfg_2(nt); break;
        case 4:  // tn: B^T is B (K x N col-major, ld k) transposed, A^T is A (row-major, ld k) as stored
          if (cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, Bt, k, At, k, &zero, Dct, n) != CUBLAS_STATUS_SUCCESS)
            std::printf("cublas error\n");
          return;
        default: s = tessera::gemm(tn); break;
      }
      if (!s.ok()) { std::printf("launch failed: %s\n", s.message.c_str()); std::exit(1); }
    };
    int const runs = 6;
    run(0); run(4);
    CHECK(cudaDeviceSynchronize());
    double rel[6] = {};
    for (int which : {1, 2, 3, 5}) {
      CHECK(cudaMemset(D, 0xff, nd * 4));
      run(which);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemset(acc, 0, 16));
      diff<<<512, 256>>>(D, which == 5 ? Dct : Dc, nd, acc);
      double hacc[2]; CHECK(cudaMemcpy(hacc, acc, 16, cudaMemcpyDeviceToHost));
      rel[which] = std::sqrt(hacc[0] / hacc[1]);
    }
    // Runs 1-3 each after cuBLAS nt, run 5 after cuBLAS tn.
    std::vector<double> tf(runs);
    std::vector<double> const a =
        gated_interleaved_tflops(run, 4, reps, 1500.0f, flush, flush_bytes, 2.0 * m * double(n) * k, 0);
    auto run_tn = [&](int i) { run(i == 0 ? 4 : 5); };
    std::vector<double> const b =
        gated_interleaved_tflops(run_tn, 2, reps, 500.0f, flush, flush_bytes, 2.0 * m * double(n) * k, 0);
    CHECK(cudaGetLastError());
    std::printf("%-16s %8.2f", (std::to_string(size) + "^3").c_str(), a[0]);
    for (int i = 1; i <= 3; ++i) std::printf(" %8.2f (%.3f)", a[size_t(i)], a[size_t(i)] / a[0]);
    std::printf(" | %8.2f %8.2f (%.3f)  %.1e %.1e %.1e %.1e\n", b[0], b[1], b[1] / b[0], rel[1], rel[2], rel[3],
                rel[5]);
    std::fflush(stdout);
    cudaFree(A); cudaFree(B); cudaFree(At); cudaFree(Bt); cudaFree(D); cudaFree(Dc); cudaFree(Dct); cudaFree(acc);
  }
  cublasDestroy(h);
  return 0;
}
CU
nvcc -std=c++20 -O3 --expt-relaxed-constexpr -I"$ROOT/include" -I"$ROOT/src" -I"$ROOT/scripts/gpu" -I"$ROOT/bench" \
  -arch=sm_90a "$OUT/simt_bk.cu" "$OUT"/cfg0.o "$OUT"/cfg1.o "$OUT"/cfg2.o "$BUILD/src/libtessera_runtime.a" -lcublas \
  -o "$OUT/simt_bk" || { echo "driver build failed"; exit 1; }
echo "built in $(( $(date +%s) - RUNTIME_BUILD_START ))s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv,noheader
timeout "${SIMT_BK_LIMIT:-300}" "$OUT/simt_bk" | tee "$OUT/simt_bk.txt"
