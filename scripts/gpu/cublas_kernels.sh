#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Which kernel cuBLAS runs for each benchmark shape: its name (which encodes
# the tile, the cluster and the K decomposition), grid, block, registers and
# shared memory, as ncu reports them, with its time. The same call as the
# benchmark's reference (CublasReference: cublasGemmStridedBatchedEx, D
# row-major computed as D^T), bf16 TN with f32 accumulation over the default
# and midsize suites, then f16 with f16 accumulation on the seed problem and
# f32 at 4096³. One launch each after a warm-up of 5; no timing taken here
# beyond ncu's. Logs under $OUT (default /tmp/tessera-cublas-kernels).
# Usage: scripts/gpu/cublas_kernels.sh
set -u
OUT=${OUT:-/tmp/tessera-cublas-kernels}
. "$(dirname "$0")/runtime_build.sh"  # cd to the repository; CMake-builds the runtime into $BUILD

cat > "$OUT/cublas_kernels.cu" <<'CU'
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gemm_bench.hpp"
#include "reference/cublas_reference.hpp"

#include "driver_util.cuh"

using namespace tessera;

int main() {
  struct Case { std::int64_t m, n, k; DataType in, out, acc; };
  std::vector<Case> cases;
  for (const bench::Shape& s : bench::suite_shapes("all", false))  // the default and midsize suites
    cases.push_back({s.m, s.n, s.k, DataType::bf16, DataType::bf16, DataType::f32});
  cases.push_back({5120, 5120, 4096, DataType::f16, DataType::f16, DataType::f16});
  cases.push_back({4096, 4096, 4096, DataType::f32, DataType::f32, DataType::f32});
  CublasReference ref;
  if (!ref.status().ok()) { std::printf("cuBLAS: %s\n", ref.status().message.c_str()); return 1; }
  for (Case const& c : cases) {
    size_t const e = c.in == DataType::f32 ? 4 : 2, eo = c.out == DataType::f32 ? 4 : 2;
    void *A, *B, *D;
    CHECK(cudaMalloc(&A, size_t(c.m) * c.k * e));
    CHECK(cudaMalloc(&B, size_t(c.n) * c.k * e));
    CHECK(cudaMalloc(&D, size_t(c.m) * c.n * eo));
    CHECK(cudaMemset(A, 0x11, size_t(c.m) * c.k * e));
    CHECK(cudaMemset(B, 0x11, size_t(c.n) * c.k * e));
    GemmArgs args;
    args.m = c.m; args.n = c.n; args.k = c.k;
    args.input = c.in; args.output = c.out; args.accumulate = c.acc;
    args.a = MatrixDesc{A, MatrixOrder::row_major, c.k, 0};
    args.b = MatrixDesc{B, MatrixOrder::col_major, c.k, 0};
    args.d = MutableMatrixDesc{D, MatrixOrder::row_major, c.n, 0};
    for (int w = 0; w < 5; ++w) {
      Status const s = ref.run(args);
      if (!s.ok()) { std::printf("cuBLAS: %s\n", s.message.c_str()); return 1; }
    }
    CHECK(cudaDeviceSynchronize());
    std::printf("=== %lldx%lldx%lld %s\n", (long long)c.m, (long long)c.n, (long long)c.k,
                std::string(to_string(c.in)).c_str());
    std::fflush(stdout);
    CHECK(cudaProfilerStart());
    Status const s = ref.run(args);
    if (!s.ok()) { std::printf("cuBLAS: %s\n", s.message.c_str()); return 1; }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaProfilerStop());
    for (void* p : {A, B, D}) cudaFree(p);
  }
  return 0;
}
CU
build_driver "$OUT/cublas_kernels.cu" "$OUT/cublas_kernels"
# Only the launches between cudaProfilerStart/Stop; every metric below has
# one pass.
ncu --profile-from-start off --clock-control none \
  --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__cluster_dim_x,launch__cluster_dim_y \
  "$OUT/cublas_kernels" > "$OUT/cublas_kernels.log" 2>&1
grep -vE '^==PROF==|^\s*(Section|-----)|^\s*$|Metric Name' "$OUT/cublas_kernels.log"
