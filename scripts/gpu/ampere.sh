#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# GPU check of the Ampere tensor-core GEMM (sm80_tensorop), run on a machine
# with an sm_80+ GPU (built for sm_90a: the H100 of the device machine).
#   1. builds the kernel translation units, tests/device/test_gemm_sm80.cu and
#      a timing driver with nvcc directly; -Xptxas -v reports saved, spills listed
#   2. runs the correctness test (fp64 reference)
#   3. compute-sanitizer memcheck on a small filter
#   4. times the seed problems against cuBLAS (cublasGemmEx, same data, same
#      run, median of 30 after warm-up, L2 flushed before each run)
# Logs under $OUT (default /tmp/tessera-ampere). Usage: scripts/gpu/ampere.sh
set -u
OUT=${OUT:-/tmp/tessera-ampere}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${AMPERE_BUILD:-/tmp/tessera-ampere-build}
mkdir -p "$BUILD"
NVCC=${NVCC:-nvcc}
ARCH=${AMPERE_ARCH:--gencode=arch=compute_90a,code=sm_90a}
FLAGS="-std=c++20 -O3 -I$ROOT/include $ARCH"
start=$(date +%s)

echo "== device"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw --format=csv 2>&1 | tee "$OUT/device.txt"
$NVCC --version | tail -1

echo "== build (ptxas reports in $OUT/ptxas_*.txt)"
pids=()
for kind in f16 bf16 f16acc tf32; do
  ( $NVCC $FLAGS -Xptxas -v -c src/gemm/kernels/sm80_tensorop_$kind.cu -o "$BUILD/k_$kind.o" \
      > "$OUT/ptxas_$kind.txt" 2>&1 || echo "BUILD FAILED: $kind" >> "$OUT/ptxas_$kind.txt" ) &
  pids+=($!)
done
( $NVCC $FLAGS -c src/gemm/kernels/sm80_tensorop.cu -o "$BUILD/entry.o" > "$OUT/build_entry.txt" 2>&1 ) &
pids+=($!)
( $NVCC $FLAGS -c tests/device/test_gemm_sm80.cu -o "$BUILD/test.o" > "$OUT/build_test.txt" 2>&1 ) &
pids+=($!)
( $NVCC $FLAGS tests/device/test_gemm_sm80_indexing.cu -o "$BUILD/test_gemm_sm80_indexing" -lgtest_main -lgtest -lpthread \
    > "$OUT/build_indexing.txt" 2>&1 ) &
pids+=($!)

# The timing driver (kept here: it is only a script-side tool).
cat > "$BUILD/bench_sm80.cu" <<'EOF'
// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Times sm80_tensorop against cublasGemmEx on TN problems (A row-major,
// B column-major, D column-major: cuBLAS's op(A)=T, op(B)=N).
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include <tessera/gemm/sm80_tensorop.hpp>

using tessera::DataType;
using tessera::MatrixOrder;
using tessera::kernels::Sm80Variant;

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

template <class T>
__global__ void fill(T* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ seed;
    x ^= x >> 15; x *= 2246822519u; x ^= x >> 13;
    float v = float(x & 0xFFFF) / 32768.0f - 1.0f;
    p[i] = T(v);
  }
}
template <class T>
__global__ void diff(const T* a, const T* b, long long n, double* out) {
  double e = 0, r = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    double x = double(float(a[i])), y = double(float(b[i]));
    e += (x - y) * (x - y); r += y * y;
  }
  atomicAdd(out, e); atomicAdd(out + 1, r);
}

struct Case { const char* name; DataType in, out, acc; int m, n, k; Sm80Variant var; };

template <class F>
float median_ms(F&& f, void* flush, size_t flush_bytes, int reps) {
  for (int i = 0; i < 5; ++i) f();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemsetAsync(flush, r & 0xFF, flush_bytes));  // evict A/B/D from L2
    cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

cudaDataType cuda_type(DataType t) {
  return t == DataType::f16 ? CUDA_R_16F : t == DataType::bf16 ? CUDA_R_16BF : CUDA_R_32F;
}

int main() {
  cudaDeviceProp prop{}; CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  cublasHandle_t h; cublasCreate(&h);
  size_t const flush_bytes = size_t(512) << 20; void* flush; CHECK(cudaMalloc(&flush, flush_bytes));
  const Case cases[] = {
      {"seed f16 TN 5120x5120x4096 acc f16", DataType::f16, DataType::f16, DataType::f16, 5120, 5120, 4096, Sm80Variant::automatic},
      {"  same, seed tile 128x128 3-stage", DataType::f16, DataType::f16, DataType::f16, 5120, 5120, 4096, Sm80Variant::tile128x128},
      {"seed f16 TN 5120x5120x4096 acc f32", DataType::f16, DataType::f16, DataType::f32, 5120, 5120, 4096, Sm80Variant::automatic},
      {"bf16 TN 4096^3", DataType::bf16, DataType::bf16, DataType::f32, 4096, 4096, 4096, Sm80Variant::automatic},
      {"bf16 TN 4095x4097x4093 (odd ld)", DataType::bf16, DataType::bf16, DataType::f32, 4095, 4097, 4093, Sm80Variant::automatic},
      {"tf32 TN 4096^3", DataType::tf32, DataType::f32, DataType::f32, 4096, 4096, 4096, Sm80Variant::automatic},
      {"f16 TN 4096^3 acc f32 single-stage", DataType::f16, DataType::f16, DataType::f32, 4096, 4096, 4096, Sm80Variant::single_stage},
      {"f16 TN 4096^3 acc f32 pipelined", DataType::f16, DataType::f16, DataType::f32, 4096, 4096, 4096, Sm80Variant::pipelined},
      {"f16 TN 4096^3 acc f32 multistage", DataType::f16, DataType::f16, DataType::f32, 4096, 4096, 4096, Sm80Variant::tile128x256},
  };
  std::printf("%-40s %10s %10s %7s %10s\n", "problem", "tessera", "cuBLAS", "ratio", "rel.diff");
  for (const Case& c : cases) {
    long long const in_b = tessera::size_of(c.in), out_b = tessera::size_of(c.out);
    long long const na = (long long)c.m * c.k, nb = (long long)c.k * c.n, nd = (long long)c.m * c.n;
    void *A, *B, *D, *Dc; double* acc;
    CHECK(cudaMalloc(&A, na * in_b)); CHECK(cudaMalloc(&B, nb * in_b));
    CHECK(cudaMalloc(&D, nd * out_b)); CHECK(cudaMalloc(&Dc, nd * out_b)); CHECK(cudaMalloc(&acc, 16));
    if (in_b == 2 && c.in == DataType::f16) { fill<<<1024, 256>>>((__half*)A, na, 1u); fill<<<1024, 256>>>((__half*)B, nb, 2u); }
    else if (in_b == 2) { fill<<<1024, 256>>>((__nv_bfloat16*)A, na, 1u); fill<<<1024, 256>>>((__nv_bfloat16*)B, nb, 2u); }
    else { fill<<<1024, 256>>>((float*)A, na, 1u); fill<<<1024, 256>>>((float*)B, nb, 2u); }
    CHECK(cudaGetLastError());
    tessera::GemmArgs args;
    args.m = c.m; args.n = c.n; args.k = c.k;
    args.input = c.in; args.output = c.out; args.accumulate = c.acc;
    args.a = {A, MatrixOrder::row_major, c.k, 0};
    args.b = {B, MatrixOrder::col_major, c.k, 0};
    args.d = {D, MatrixOrder::col_major, c.m, 0};
    tessera::Status st = tessera::kernels::sm80_tensorop_launch_variant(args, c.var, nullptr);
    if (!st.ok()) { std::printf("%-40s tessera failed: %s\n", c.name, st.message.c_str()); continue; }
    float one = 1.0f, zero = 0.0f; __half hone = __float2half(1.0f), hzero = __float2half(0.0f);
    bool const h16 = c.acc == DataType::f16;
    cublasComputeType_t const ct = h16 ? CUBLAS_COMPUTE_16F : (c.in == DataType::tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F);
    auto run_cublas = [&] {
      cublasStatus_t s = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, c.m, c.n, c.k, h16 ? (void*)&hone : (void*)&one,
                                      A, cuda_type(c.in), c.k, B, cuda_type(c.in), c.k, h16 ? (void*)&hzero : (void*)&zero,
                                      Dc, cuda_type(c.out), c.m, ct, CUBLAS_GEMM_DEFAULT);
      if (s != CUBLAS_STATUS_SUCCESS) std::printf("cublas error %d\n", int(s));
    };
    auto run_ours = [&] { tessera::kernels::sm80_tensorop_launch_variant(args, c.var, nullptr); };
    run_cublas(); CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemset(acc, 0, 16));
    if (c.out == DataType::f16) diff<<<512, 256>>>((const __half*)D, (const __half*)Dc, nd, acc);
    else if (c.out == DataType::bf16) diff<<<512, 256>>>((const __nv_bfloat16*)D, (const __nv_bfloat16*)Dc, nd, acc);
    else diff<<<512, 256>>>((const float*)D, (const float*)Dc, nd, acc);
    double hacc[2]; CHECK(cudaMemcpy(hacc, acc, 16, cudaMemcpyDeviceToHost));
    float const t_ours = median_ms(run_ours, flush, flush_bytes, 30);
    float const t_cub = median_ms(run_cublas, flush, flush_bytes, 30);
    double const flop = 2.0 * c.m * double(c.n) * c.k;
    double const tf_ours = flop / (t_ours * 1e-3) / 1e12, tf_cub = flop / (t_cub * 1e-3) / 1e12;
    std::printf("%-40s %10.1f %10.1f %7.3f %10.2e\n", c.name, tf_ours, tf_cub, tf_ours / tf_cub, std::sqrt(hacc[0] / hacc[1]));
    cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(Dc); cudaFree(acc);
  }
  std::printf("(TFLOP/s, median of 30 after 5 warm-up runs, L2 flushed before each run)\n");
  cublasDestroy(h);
  return 0;
}
EOF
( $NVCC $FLAGS -c "$BUILD/bench_sm80.cu" -o "$BUILD/bench.o" > "$OUT/build_bench.txt" 2>&1 ) &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done
echo "build took $(( $(date +%s) - start ))s"
cat "$OUT"/build_*.txt | grep -E "error" | head -20
grep -h "BUILD FAILED" "$OUT"/ptxas_*.txt
echo "-- resource usage (kernels with spills listed; none expected)"
for f in "$OUT"/ptxas_*.txt; do
  awk -v f="$(basename "$f")" '/Compiling entry function/{name=$0} /spill stores/{ if ($5 != 0 || $9 != 0) print f ": SPILL " $0 "  <- " substr(name, 1, 200); n++ } /Used [0-9]+ registers/{ r[$5]++ } END { printf "%s: %d kernels, registers:", f, n; for (k in r) printf " %s x%d", k, r[k]; printf "\n" }' "$f"
done | tee "$OUT/resources.txt"

LIBS="-lcudart"
$NVCC $ARCH "$BUILD/test.o" "$BUILD"/k_*.o "$BUILD/entry.o" -o "$BUILD/test_gemm_sm80" -lgtest_main -lgtest -lpthread > "$OUT/link_test.txt" 2>&1 || { echo "LINK test FAILED"; cat "$OUT/link_test.txt"; }
$NVCC $ARCH "$BUILD/bench.o" "$BUILD"/k_*.o "$BUILD/entry.o" -o "$BUILD/bench_sm80" -lcublas > "$OUT/link_bench.txt" 2>&1 || { echo "LINK bench FAILED"; cat "$OUT/link_bench.txt"; }

echo "== test_gemm_sm80_indexing (host simulation of the kernel's index math)"
timeout 60 "$BUILD/test_gemm_sm80_indexing" > "$OUT/test_indexing.log" 2>&1
echo "rc=$?"; grep -E "PASSED|FAILED" "$OUT/test_indexing.log" | head -10

echo "== test_gemm_sm80"
timeout 150 "$BUILD/test_gemm_sm80" > "$OUT/test.log" 2>&1
echo "rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|tests ran" "$OUT/test.log" | head -40
grep -E "Failure|error|Expected|Which is" "$OUT/test.log" | head -30

echo "== compute-sanitizer memcheck (small filter)"
FILTER='All/Sm80Gemm.MatchesFp64Reference/f16_f16_tn_odd257x129x77:All/Sm80Gemm.MatchesFp64Reference/bf16_bf16_tn_ptroff130x70x90:All/Sm80Gemm.MatchesFp64Reference/f16_f16_nt_ptroff130x70x90:All/Sm80Gemm.MatchesFp64Reference/bf16_f32_nn_ldodd77x45x99:All/Sm80Gemm.MatchesFp64Reference/tf32_f32_tt_odd257x129x77:All/Sm80Gemm.MatchesFp64Reference/f16_f16acc16_tn_ldpad200x136x72:All/Sm80Gemm.MatchesFp64Reference/variant_pipelined_tn:All/Sm80Gemm.MatchesFp64Reference/variant_single_stage_nt:All/Sm80Gemm.MatchesFp64Reference/variant_tile128x256_tt:All/Sm80Gemm.MatchesFp64Reference/batch3_bf16_bf16_tn'
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 120 "$SAN" --tool memcheck --error-exitcode 9 "$BUILD/test_gemm_sm80" --gtest_filter="$FILTER" > "$OUT/memcheck.log" 2>&1
echo "rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | head -10

echo "== timing vs cuBLAS"
timeout 120 "$BUILD/bench_sm80" 2>&1 | tee "$OUT/bench.txt"
echo "total $(( $(date +%s) - start ))s"
