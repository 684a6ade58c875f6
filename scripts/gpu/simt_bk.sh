#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# The SIMT SGEMM's k-tile depth: simt_tiled_sgemm's nt-form kernel (A
# M-major, B N-major: the form `tessera::gemm` runs large f32 problems in,
# after copying K-contiguous operands) with SgemmDefault (128x128x16, 4
# stages) beside the library's choice for that form (SgemmDeepK, 128x128x32
# with 2 stages, where deep_k_form takes it; marked * where it runs the
# default), both interleaved with cublasSgemm on the same
# data; then the tn layout through `tessera::gemm` beside cublasSgemm on tn
# data. D row-major; every run after a cuBLAS run of its own layout
# (scripts/gpu/driver_gate.cuh: L2 flushed, each round behind the queue
# gate), median of REPS (25). Each Tessera result's relative difference to
# cuBLAS's is printed last. SHAPES: MxNxK list (default below).
# Usage: [REPS=25] [SHAPES="4096x4096x4096 ..."] scripts/gpu/simt_bk.sh
set -u
OUT=${OUT:-/tmp/tessera-simt-bk}
. "$(dirname "$0")/runtime_build.sh"  # cd to the repository; CMake-builds the runtime into $BUILD

cat > "$OUT/simt_bk.cu" <<'CU'
// Interleaved timing of simt_tiled_sgemm's configurations against cublasSgemm.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <tessera/gemm/api.hpp>
#include <tessera/gemm/simt_tiled.cuh>

#include "driver_gate.cuh"
#include "driver_util.cuh"

namespace simt = tessera::kernels::simt;

int main() {
  int const reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 25;
  cudaDeviceProp prop{}; CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs; f32, D row-major, interleaved, median of %d, L2 flushed\n", prop.name,
              prop.multiProcessorCount, reps);
  cublasHandle_t h; cublasCreate(&h);
  size_t const flush_bytes = size_t(256) << 20; void* flush; CHECK(cudaMalloc(&flush, flush_bytes));
  std::string const shapes = std::getenv("SHAPES") ? std::getenv("SHAPES")
      : "4096x4096x4096 8192x8192x8192 2048x2048x2048 1024x1024x1024 1000x1000x1000 4096x4096x256 4096x4096x40 "
        "8192x1024x8192 4096x4096x1610 4096x4096x4100";  // the last two: deep_k_form's K >= 1600 clause
                                                          // (32-deep pads 16 more k than 16-deep)
  std::printf("%-16s %8s %16s %16s | %8s %16s  %s\n", "shape", "cuB nt", "nt default", "nt library", "cuB tn",
              "tn gemm()", "rel.diff to cuBLAS (default, library, gemm); * library = default (deep_k_form)");
  std::istringstream in(shapes);
  for (std::string shape; in >> shape;) {
    long long m = 0, n = 0, k = 0;
    if (std::sscanf(shape.c_str(), "%lldx%lldx%lld", &m, &n, &k) != 3) { std::printf("bad shape %s\n", shape.c_str()); return 1; }
    long long const na = m * k, nb = n * k, nd = m * n;
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
    bool const deep = simt::detail::deep_k_form(nt);  // else the library runs the default (column 2 twice)
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
        case 1: s = simt::tiled_sgemm_launch<simt::SgemmDefault>(nt, nullptr); break;
        case 2: s = simt::tiled_sgemm_library_launch(nt, nullptr); break;
        case 3:  // tn: B^T is B (K x N col-major, ld k) transposed, A^T is A (row-major, ld k) as stored
          if (cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, Bt, k, At, k, &zero, Dct, n) != CUBLAS_STATUS_SUCCESS)
            std::printf("cublas error\n");
          return;
        default: s = tessera::gemm(tn); break;
      }
      if (!s.ok()) { std::printf("launch failed: %s\n", s.message.c_str()); std::exit(1); }
    };
    run(0); run(3);
    CHECK(cudaDeviceSynchronize());
    double rel[5] = {};
    for (int which : {1, 2, 4}) {
      CHECK(cudaMemset(D, 0xff, nd * 4));
      run(which);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemset(acc, 0, 16));
      diff<<<512, 256>>>(D, which == 4 ? Dct : Dc, nd, acc);
      double hacc[2]; CHECK(cudaMemcpy(hacc, acc, 16, cudaMemcpyDeviceToHost));
      rel[which] = std::sqrt(hacc[0] / hacc[1]);
    }
    double const flop = 2.0 * m * double(n) * k;
    // Runs 1-2 each after cuBLAS nt, the gemm() run after cuBLAS tn.
    std::vector<double> const a = gated_interleaved_tflops(run, 3, reps, 1000.0f, flush, flush_bytes, flop, 0);
    auto run_tn = [&](int i) { run(i == 0 ? 3 : 4); };
    std::vector<double> const b = gated_interleaved_tflops(run_tn, 2, reps, 300.0f, flush, flush_bytes, flop, 0);
    CHECK(cudaGetLastError());
    std::printf("%-16s %8.2f %8.2f (%.3f) %8.2f (%.3f)%s | %8.2f %8.2f (%.3f)  %.1e %.1e %.1e\n", shape.c_str(),
                a[0], a[1], a[1] / a[0], a[2], a[2] / a[0], deep ? "" : "*", b[0], b[1], b[1] / b[0], rel[1], rel[2],
                rel[4]);
    std::fflush(stdout);
    cudaFree(A); cudaFree(B); cudaFree(At); cudaFree(Bt); cudaFree(D); cudaFree(Dc); cudaFree(Dct); cudaFree(acc);
  }
  cublasDestroy(h);
  return 0;
}
CU
build_driver "$OUT/simt_bk.cu" "$OUT/simt_bk"
timeout "${SIMT_BK_LIMIT:-400}" "$OUT/simt_bk" | tee "$OUT/simt_bk.txt"
