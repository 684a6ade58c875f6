#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# GPU check of simt_sgemm (include/tessera/gemm/simt_sgemm.cuh), on a machine
# with an sm_80+ GPU (built for sm_90a: the H100/H200 of the device machine).
#   1. builds with nvcc directly, in parallel: the library TU, the device test
#      and one timing TU per tile configuration; -Xptxas -v reports saved,
#      every kernel with a spill listed
#   2. runs tests/device/test_simt_sgemm.cu (fp64 reference)
#   3. compute-sanitizer memcheck on a small filter
#   4. times every configuration and cuBLAS SGEMM (true fp32) in the same run
#      on 4096^3, 8192^3 and 4095x4097x4093, three storage orders; fresh
#      random data, L2 flushed before each run, 3 warm-ups, median of 25
#      CUDA-event timings; prints TFLOP/s, the ratio and the difference to
#      cuBLAS's result.
# Logs under $OUT (default /tmp/tessera-simt). Usage: scripts/gpu/simt.sh
set -u
OUT=${OUT:-/tmp/tessera-simt}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${SIMT_BUILD:-/tmp/tessera-simt-build}
mkdir -p "$BUILD"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" > /dev/null || NVCC=/usr/local/cuda/bin/nvcc
ARCH=${SIMT_ARCH:--gencode=arch=compute_90a,code=sm_90a}
FLAGS="-O3 -std=c++20 -I$ROOT/include -I$ROOT/src $ARCH --expt-relaxed-constexpr"
start=$(date +%s)

echo "== device"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv 2>&1 | tee "$OUT/device.txt"
$NVCC --version | tail -1

# One timing TU per configuration (CFG_ID), exporting run/shape functions.
cat > "$BUILD/bench_cfg.cu" <<'EOF'
// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include <tessera/gemm/simt_sgemm.cuh>
namespace s = tessera::kernels::simt;
#if CFG_ID == 0
using Cfg = s::Sgemm128x128x8;
#elif CFG_ID == 1
using Cfg = s::Sgemm128x128x16;
#elif CFG_ID == 2
using Cfg = s::Sgemm128x128x8W;
#elif CFG_ID == 3
using Cfg = s::Sgemm128x256x8;
#elif CFG_ID == 4
using Cfg = s::Sgemm128x128x8NoPf;
#endif
#define TESSERA_CAT2(a, b) a##b
#define TESSERA_CAT(a, b) TESSERA_CAT2(a, b)
tessera::Status TESSERA_CAT(simt_run_, CFG_ID)(const tessera::GemmArgs& a) { return s::sgemm_launch<Cfg>(a, nullptr); }
const void* TESSERA_CAT(simt_fn_, CFG_ID)(const tessera::GemmArgs& a) { return s::sgemm_launch_shape<Cfg>(a).function; }
EOF

cat > "$BUILD/bench_main.cu" <<'EOF'
// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Times simt_sgemm configurations against cublasSgemm on the same data.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <tessera/gemm/api.hpp>

using tessera::GemmArgs;
using tessera::MatrixOrder;
constexpr MatrixOrder R = MatrixOrder::row_major, C = MatrixOrder::col_major;

#define DECL(i) tessera::Status simt_run_##i(const GemmArgs&); const void* simt_fn_##i(const GemmArgs&);
DECL(0) DECL(1) DECL(2) DECL(3) DECL(4)
struct Config { const char* name; tessera::Status (*run)(const GemmArgs&); const void* (*fn)(const GemmArgs&); };
const Config kConfigs[] = {
    {"128x128x8 s4 (default)", simt_run_0, simt_fn_0}, {"128x128x16 s3", simt_run_1, simt_fn_1},
    {"128x128x8 s4 4x8 lanes", simt_run_2, simt_fn_2}, {"128x256x8 s4 1CTA", simt_run_3, simt_fn_3},
    {"128x128x8 s4 no frag prefetch", simt_run_4, simt_fn_4}};

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);   \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

__global__ void fill(float* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ seed ^ unsigned(i >> 32) * 40503u;
    x ^= x >> 15; x *= 2246822519u; x ^= x >> 13; x *= 3266489917u; x ^= x >> 16;
    p[i] = float(x & 0xFFFFFF) / 8388608.0f - 1.0f;
  }
}
__global__ void diff(const float* a, const float* b, long long n, double* out) {
  double e = 0, r = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    double x = a[i], y = b[i];
    e += (x - y) * (x - y); r += y * y;
  }
  atomicAdd(out, e); atomicAdd(out + 1, r);
}

template <class F>
float median_ms(F&& f, void* flush, size_t flush_bytes, int reps) {
  for (int i = 0; i < 3; ++i) f();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemsetAsync(flush, r & 0xFF, flush_bytes));  // evict A/B/D from L2
    cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
  }
  cudaEventDestroy(a); cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  int const reps = argc > 1 ? std::atoi(argv[1]) : 25;
  cudaDeviceProp prop{}; CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0; cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  std::printf("device: %s (sm_%d%d, %d SMs, max SM clock %d MHz)\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount, clock_khz / 1000);
  cublasHandle_t h; cublasCreate(&h);
  cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);  // true fp32, never tf32
  size_t const flush_bytes = size_t(512) << 20; void* flush; CHECK(cudaMalloc(&flush, flush_bytes));
  unsigned const seed = unsigned(std::chrono::steady_clock::now().time_since_epoch().count());
  std::printf("seed %u\n", seed);
  struct Size { int m, n, k; };
  const Size sizes[] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {4095, 4097, 4093}};
  // tt: A, B, D row-major (the SGEMM ladder's convention); nt: A column-major,
  // B row-major, D column-major (no transposing copy); tn: A row-major, B and
  // D column-major (cuBLAS's TN: both operands K-contiguous).
  struct Orders { const char* name; MatrixOrder a, b, d; };
  const Orders orders[] = {{"tt", R, R, R}, {"nt", C, R, C}, {"tn", R, C, C}};
  std::printf("%-16s %-3s %-27s %4s %8s %8s %7s %9s\n", "size", "ord", "kernel", "regs", "ms", "TFLOP/s", "ratio", "diff");
  for (const Size& sz : sizes) {
    long long const na = (long long)sz.m * sz.k, nb = (long long)sz.k * sz.n, nd = (long long)sz.m * sz.n;
    float *A, *B, *D, *Dc; double* acc;
    CHECK(cudaMalloc(&A, na * 4)); CHECK(cudaMalloc(&B, nb * 4));
    CHECK(cudaMalloc(&D, nd * 4)); CHECK(cudaMalloc(&Dc, nd * 4)); CHECK(cudaMalloc(&acc, 16));
    fill<<<2048, 256>>>(A, na, seed); fill<<<2048, 256>>>(B, nb, seed * 7 + 1);
    CHECK(cudaGetLastError());
    double const flop = 2.0 * sz.m * double(sz.n) * sz.k;
    char size_name[64]; std::snprintf(size_name, sizeof size_name, "%dx%dx%d", sz.m, sz.n, sz.k);
    for (const Orders& o : orders) {
      GemmArgs args;
      args.m = sz.m; args.n = sz.n; args.k = sz.k;
      args.a = {A, o.a, o.a == R ? sz.k : sz.m, 0};
      args.b = {B, o.b, o.b == R ? sz.n : sz.k, 0};
      args.d = {D, o.d, o.d == R ? sz.n : sz.m, 0};
      float const one = 1.0f, zero = 0.0f;
      auto run_cublas = [&] {
        cublasStatus_t s;
        if (o.d == R)  // D^T = B^T A^T in column-major terms
          s = cublasSgemm(h, o.b == R ? CUBLAS_OP_N : CUBLAS_OP_T, o.a == R ? CUBLAS_OP_N : CUBLAS_OP_T, sz.n, sz.m,
                          sz.k, &one, B, int(args.b.ld), A, int(args.a.ld), &zero, Dc, sz.n);
        else
          s = cublasSgemm(h, o.a == C ? CUBLAS_OP_N : CUBLAS_OP_T, o.b == C ? CUBLAS_OP_N : CUBLAS_OP_T, sz.m, sz.n,
                          sz.k, &one, A, int(args.a.ld), B, int(args.b.ld), &zero, Dc, sz.m);
        if (s != CUBLAS_STATUS_SUCCESS) std::printf("cublas error %d\n", int(s));
      };
      float const t_cub = median_ms(run_cublas, flush, flush_bytes, reps);
      double const tf_cub = flop / (t_cub * 1e-3) / 1e12;
      std::printf("%-16s %-3s %-27s %4s %8.3f %8.1f %7.3f %9s\n", size_name, o.name, "cuBLAS sgemm", "-", t_cub, tf_cub, 1.0, "-");
      for (const Config& c : kConfigs) {
        CHECK(cudaMemset(D, 0xFF, nd * 4));  // NaN poison
        tessera::Status st = c.run(args);
        if (!st.ok()) { std::printf("%-16s %-3s %-27s failed: %s\n", size_name, o.name, c.name, st.message.c_str()); continue; }
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemset(acc, 0, 16));
        diff<<<1024, 256>>>(D, Dc, nd, acc);
        double hacc[2]; CHECK(cudaMemcpy(hacc, acc, 16, cudaMemcpyDeviceToHost));
        cudaFuncAttributes fa{}; cudaFuncGetAttributes(&fa, c.fn(args));
        float const t = median_ms([&] { c.run(args); }, flush, flush_bytes, reps);
        double const tf = flop / (t * 1e-3) / 1e12;
        char regs[16]; std::snprintf(regs, sizeof regs, "%d%s", fa.numRegs, fa.localSizeBytes ? "L" : "");
        std::printf("%-16s %-3s %-27s %4s %8.3f %8.1f %7.3f %9.1e\n", size_name, o.name, c.name, regs, t, tf, tf / tf_cub,
                    std::sqrt(hacc[0] / hacc[1]));
      }
    }
    cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(Dc); cudaFree(acc);
  }
  std::printf("(median of %d after 3 warm-ups, L2 flushed before each run; ratio = ours / cuBLAS same run;\n"
              " diff = relative Frobenius difference to cuBLAS's D; regs with L = local memory/spills)\n", reps);
  cublasDestroy(h);
  return 0;
}
EOF

echo "== build (ptxas reports in $OUT/ptxas_*.txt)"
pids=()
( $NVCC $FLAGS -Xptxas -v -c src/gemm/kernels/simt_sgemm.cu -o "$BUILD/lib.o" > "$OUT/ptxas_lib.txt" 2>&1 \
    || echo "BUILD FAILED: lib" >> "$OUT/ptxas_lib.txt" ) &
pids+=($!)
( $NVCC $FLAGS -Xptxas -v -c tests/device/test_simt_sgemm.cu -o "$BUILD/test.o" > "$OUT/ptxas_test.txt" 2>&1 \
    || echo "BUILD FAILED: test" >> "$OUT/ptxas_test.txt" ) &
pids+=($!)
for id in 0 1 2 3 4; do
  ( $NVCC $FLAGS -Xptxas -v -DCFG_ID=$id -c "$BUILD/bench_cfg.cu" -o "$BUILD/cfg$id.o" > "$OUT/ptxas_cfg$id.txt" 2>&1 \
      || echo "BUILD FAILED: cfg$id" >> "$OUT/ptxas_cfg$id.txt" ) &
  pids+=($!)
done
( $NVCC $FLAGS -c "$BUILD/bench_main.cu" -o "$BUILD/bench_main.o" > "$OUT/build_bench.txt" 2>&1 \
    || echo "BUILD FAILED: bench" >> "$OUT/build_bench.txt" ) &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done
echo "build took $(( $(date +%s) - start ))s"
grep -h -E "error|BUILD FAILED" "$OUT"/ptxas_*.txt "$OUT/build_bench.txt" | head -20
echo "-- resource usage (sm_90a; every kernel with a spill is listed)"
for f in "$OUT"/ptxas_*.txt; do
  awk -v f="$(basename "$f" .txt)" '
    /Compiling entry function/ { name = $0; sub(/.*SgemmConfigI/, "", name); sub(/EEEvNS.*/, "", name) }
    /spill stores/ { if ($5 != 0 || $9 != 0) { print f ": SPILL " $5 "B store " $9 "B load  <- " name; s++ } }
    /Used [0-9]+ registers/ { r[$5]++; n++ }
    END { printf "%s: %d kernels, %d with spills, registers:", f, n, s; for (k in r) printf " %s x%d", k, r[k]; printf "\n" }' "$f"
done | tee "$OUT/resources.txt"

$NVCC $ARCH "$BUILD/test.o" -o "$BUILD/test_simt_sgemm" -lgtest_main -lgtest -lpthread > "$OUT/link_test.txt" 2>&1 \
  || { echo "LINK test FAILED"; head -20 "$OUT/link_test.txt"; }
$NVCC $ARCH "$BUILD/bench_main.o" "$BUILD"/cfg?.o -o "$BUILD/bench_simt" -lcublas > "$OUT/link_bench.txt" 2>&1 \
  || { echo "LINK bench FAILED"; head -20 "$OUT/link_bench.txt"; }

echo "== test_simt_sgemm"
timeout 150 "$BUILD/test_simt_sgemm" > "$OUT/test.log" 2>&1
echo "rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|tests ran" "$OUT/test.log" | head -40
grep -E -A3 "Failure" "$OUT/test.log" | head -40

echo "== compute-sanitizer memcheck (small filter)"
FILTER='SimtSgemm/0.OddShapes:SimtSgemm/0.MisalignedPointers:SimtSgemm/0.BetaZeroNeverReadsC:SimtSgemm/0.InPlaceAndBatched:SimtSgemm/3.LeadingDimensionsAboveExtent:SimtSgemm/1.KZeroIsBetaC'
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 120 "$SAN" --tool memcheck --error-exitcode 9 "$BUILD/test_simt_sgemm" --gtest_filter="$FILTER" > "$OUT/memcheck.log" 2>&1
echo "rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | head -10

echo "== timing vs cuBLAS"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader 2>&1 | sed 's/^/clocks before: /'
timeout 150 "$BUILD/bench_simt" 25 2>&1 | tee "$OUT/bench.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader 2>&1 | sed 's/^/clocks after: /'
echo "total $(( $(date +%s) - start ))s"
