#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# GPU check of the Ampere tensor-core GEMM (sm80_tensorop) and of the any-ld
# repack path of tessera::gemm, run on a machine with an sm_80+ GPU (built for
# sm_90a: the H100/H200 of the device machine).
#   1. builds the whole runtime (src/**), tests/device/test_gemm_sm80.cu,
#      tests/device/test_gemm_repack.cu and a timing driver with nvcc directly;
#      -Xptxas -v reports of the sm80 kernel units saved, spills listed
#   2. runs the correctness tests (fp64 reference)
#   3. compute-sanitizer memcheck on small filters of both
#   4. times against cuBLAS (cublasGemmEx, same data, same run, median of 30
#      after warm-up, L2 flushed before each run):
#      a. the seed problems (as in GPU run 2);
#      b. 4095x4097x4093 bf16 (ld = extent) in every layout through the whole
#         tessera::gemm call (repack included), and with RepackPolicy::never;
#         aligned 4096^3 bf16 nn/nt/tt through tessera::gemm and with never;
#      c. every tile candidate on the seed problem (f16 TN 5120x5120x4096,
#         f16 and f32 accumulation) and raster groups 4/8/16, sorted, with
#         registers and local memory (spills) per kernel.
# Logs under $OUT (default /tmp/tessera-ampere). Usage: scripts/gpu/ampere.sh
set -u
# The body is a function so that an edit of this file during a run cannot
# derail the running shell.
main() {
OUT=${OUT:-/tmp/tessera-ampere}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${AMPERE_BUILD:-/tmp/tessera-ampere-build}
mkdir -p "$BUILD"
NVCC=${NVCC:-nvcc}
ARCH=${AMPERE_ARCH:--gencode=arch=compute_90a,code=sm_90a}
FLAGS="-std=c++20 -O3 --expt-relaxed-constexpr -I$ROOT/include $ARCH"
start=$(date +%s)

echo "== device"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw --format=csv 2>&1 | tee "$OUT/device.txt"
$NVCC --version | tail -1

echo "== build (ptxas reports in $OUT/ptxas_*.txt)"
JOBS=$(nproc 2>/dev/null || echo 8)
pids=()
wait_slot() { if (( ${#pids[@]} >= JOBS )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi; }
OBJS=()
for f in src/*/*.cu src/*/*/*.cu src/*/*.cpp; do
  [ -f "$f" ] || continue
  o="$BUILD/$(echo "$f" | tr '/' '_').o"
  OBJS+=("$o")
  case "$f" in
    src/gemm/kernels/sm80_tensorop_*.cu)
      kind=$(basename "$f" .cu); kind=${kind#sm80_tensorop_}
      ( $NVCC $FLAGS -Isrc -Xptxas -v -c "$f" -o "$o" > "$OUT/ptxas_$kind.txt" 2>&1 || echo "BUILD FAILED: $f" >> "$OUT/ptxas_$kind.txt" ) & ;;
    *.cu) ( $NVCC $FLAGS -Isrc -c "$f" -o "$o" > "$o.log" 2>&1 || { echo "BUILD FAILED: $f"; cat "$o.log"; } ) & ;;
    *) ( $NVCC $FLAGS -Isrc -x c++ -c "$f" -o "$o" > "$o.log" 2>&1 || { echo "BUILD FAILED: $f"; cat "$o.log"; } ) & ;;
  esac
  pids+=($!); wait_slot
done
for t in test_gemm_sm80 test_gemm_repack; do
  ( $NVCC $FLAGS -Isrc -c tests/device/$t.cu -o "$BUILD/$t.o" > "$OUT/build_$t.txt" 2>&1 || echo "BUILD FAILED: $t" >> "$OUT/build_$t.txt" ) &
  pids+=($!); wait_slot
done
( $NVCC $FLAGS tests/device/test_gemm_sm80_indexing.cu -o "$BUILD/test_gemm_sm80_indexing" -lgtest_main -lgtest -lpthread \
    > "$OUT/build_indexing.txt" 2>&1 ) &
pids+=($!)

# The timing driver (kept here: it is only a script-side tool).
cat > "$BUILD/bench_sm80.cu" <<'EOF'
// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Times sm80_tensorop and tessera::gemm against cublasGemmEx (same data, same
// run). D column-major, so the cuBLAS call is op(A), op(B) of column-major
// storage with the operands as they are.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <tessera/gemm/sm80_tensorop.hpp>

using tessera::DataType;
using tessera::MatrixOrder;
using tessera::kernels::Sm80Variant;

// CHECK and fill: driver_util.cuh.
#include "driver_util.cuh"

// sum (a-b)^2, sum b^2, count of a != b, count of non-finite a.
template <class T>
__global__ void diff(const T* a, const T* b, long long n, double* out, unsigned long long* cnt) {
  double e = 0, r = 0;
  unsigned long long ne = 0, nf = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    double x = double(float(a[i])), y = double(float(b[i]));
    if (!isfinite(x)) { ++nf; continue; }
    e += (x - y) * (x - y); r += y * y; ne += x != y;
  }
  atomicAdd(out, e); atomicAdd(out + 1, r); atomicAdd(cnt, ne); atomicAdd(cnt + 1, nf);
}

float median_ms(const std::function<void()>& f, void* flush, size_t flush_bytes, int reps) {
  for (int i = 0; i < 5; ++i) f();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemsetAsync(flush, r & 0xFF, flush_bytes));  // evict A/B/D from L2
    cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
  }
  CHECK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

cudaDataType cuda_type(DataType t) {
  return t == DataType::f16 ? CUDA_R_16F : t == DataType::bf16 ? CUDA_R_16BF : CUDA_R_32F;
}

cublasHandle_t g_h;
void* g_flush;
size_t const g_flush_bytes = size_t(512) << 20;

// One problem: A (m x k) and B (k x n) in the given orders with ld = extent,
// D column-major m x n (ld m).
struct Problem {
  DataType in, out, acc;
  int m, n, k;
  MatrixOrder ao = MatrixOrder::row_major, bo = MatrixOrder::col_major;
  void *A = nullptr, *B = nullptr, *D = nullptr, *Dc = nullptr;
  tessera::GemmArgs args;
  long long nd = 0;
  void init() {
    long long const in_b = tessera::size_of(in), out_b = tessera::size_of(out);
    long long const na = (long long)m * k, nb = (long long)k * n;
    nd = (long long)m * n;
    CHECK(cudaMalloc(&A, na * in_b)); CHECK(cudaMalloc(&B, nb * in_b));
    CHECK(cudaMalloc(&D, nd * out_b)); CHECK(cudaMalloc(&Dc, nd * out_b));
    if (in == DataType::f16) { fill<<<1024, 256>>>((__half*)A, na, 1u); fill<<<1024, 256>>>((__half*)B, nb, 2u); }
    else if (in == DataType::bf16) { fill<<<1024, 256>>>((__nv_bfloat16*)A, na, 1u); fill<<<1024, 256>>>((__nv_bfloat16*)B, nb, 2u); }
    else { fill<<<1024, 256>>>((float*)A, na, 1u); fill<<<1024, 256>>>((float*)B, nb, 2u); }
    CHECK(cudaGetLastError());
    args.m = m; args.n = n; args.k = k;
    args.input = in; args.output = out; args.accumulate = acc;
    args.a = {A, ao, ao == MatrixOrder::row_major ? k : m, 0};
    args.b = {B, bo, bo == MatrixOrder::col_major ? k : n, 0};
    args.d = {D, MatrixOrder::col_major, m, 0};
  }
  ~Problem() { cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(Dc); }
  void cublas() {
    float one = 1.0f, zero = 0.0f; __half hone = __float2half(1.0f), hzero = __float2half(0.0f);
    bool const h16 = acc == DataType::f16;
    cublasComputeType_t const ct = h16 ? CUBLAS_COMPUTE_16F : (in == DataType::tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F);
    cublasOperation_t const opa = ao == MatrixOrder::row_major ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t const opb = bo == MatrixOrder::col_major ? CUBLAS_OP_N : CUBLAS_OP_T;
    cublasStatus_t s = cublasGemmEx(g_h, opa, opb, m, n, k, h16 ? (void*)&hone : (void*)&one, A, cuda_type(in),
                                    int(args.a.ld), B, cuda_type(in), int(args.b.ld), h16 ? (void*)&hzero : (void*)&zero,
                                    Dc, cuda_type(out), m, ct, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) std::printf("cublas error %d\n", int(s));
  }
  // Relative Frobenius difference of D against cuBLAS; elements that differ.
  std::string compare() {
    double* acc_d; unsigned long long* cnt;
    CHECK(cudaMalloc(&acc_d, 16)); CHECK(cudaMalloc(&cnt, 16));
    CHECK(cudaMemset(acc_d, 0, 16)); CHECK(cudaMemset(cnt, 0, 16));
    if (out == DataType::f16) diff<<<512, 256>>>((const __half*)D, (const __half*)Dc, nd, acc_d, cnt);
    else if (out == DataType::bf16) diff<<<512, 256>>>((const __nv_bfloat16*)D, (const __nv_bfloat16*)Dc, nd, acc_d, cnt);
    else diff<<<512, 256>>>((const float*)D, (const float*)Dc, nd, acc_d, cnt);
    double h[2]; unsigned long long c[2];
    CHECK(cudaMemcpy(h, acc_d, 16, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(c, cnt, 16, cudaMemcpyDeviceToHost));
    cudaFree(acc_d); cudaFree(cnt);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.2e (%llu differ%s)", std::sqrt(h[0] / h[1]), c[0],
                  c[1] ? ", NON-FINITE!" : "");
    return buf;
  }
  double tflops(float ms) const { return 2.0 * m * double(n) * k / (ms * 1e-3) / 1e12; }
};

// Times `ours` and (unless cub_known > 0) cuBLAS; prints one row. Returns our
// TFLOP/s (0: failed).
double row(const char* name, Problem& p, const std::function<tessera::Status()>& ours, double* cub_out = nullptr,
           double cub_known = 0) {
  CHECK(cudaMemset(p.D, 0xFF, p.nd * tessera::size_of(p.out)));  // poison: unwritten D shows as NON-FINITE
  tessera::Status st = ours();
  if (!st.ok()) { std::printf("%-44s failed: %s\n", name, st.message.c_str()); return 0; }
  CHECK(cudaDeviceSynchronize());
  p.cublas();
  CHECK(cudaDeviceSynchronize());
  std::string const d = p.compare();
  float const t = median_ms([&] { (void)ours(); }, g_flush, g_flush_bytes, 30);
  double cub = cub_known;
  if (cub == 0) cub = p.tflops(median_ms([&] { p.cublas(); }, g_flush, g_flush_bytes, 30));
  if (cub_out) *cub_out = cub;
  double const tf = p.tflops(t);
  std::printf("%-44s %9.1f %9.1f %7.3f %9.3f ms  %s\n", name, tf, cub, tf / cub, t, d.c_str());
  std::fflush(stdout);
  return tf;
}

tessera::kernels::sm80::Launch launch_of(const Problem& p, Sm80Variant v) {
  using namespace tessera::kernels;
  if (is_tuning_variant(v))
    return p.acc == DataType::f16 ? sm80::select_tuning_f16_f16acc(v) : sm80::select_tuning_f16_f32acc(v);
  // D column-major: the kernel sees B^T A^T, both K-major for TN.
  return p.acc == DataType::f16 ? sm80::select_f16_f16acc(true, true, v) : sm80::select_f16_f32acc(true, true, v);
}

int main(int argc, char** argv) {
  bool const only_tuning = argc > 1 && std::strcmp(argv[1], "--tuning") == 0;
  cudaDeviceProp prop{}; CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  cublasCreate(&g_h);
  CHECK(cudaMalloc(&g_flush, g_flush_bytes));
  std::printf("%-44s %9s %9s %7s %12s  %s\n", "problem", "tessera", "cuBLAS", "ratio", "time", "rel.diff vs cuBLAS");
  using tessera::kernels::sm80_tensorop_launch_variant;
  if (!only_tuning) {
    std::printf("-- a. seed problems (sm80_tensorop_launch_variant; TFLOP/s)\n");
    struct Case { const char* name; DataType in, out, acc; int m, n, k; Sm80Variant var; };
    const Case cases[] = {
        {"seed f16 TN 5120x5120x4096 acc f16 (auto)", DataType::f16, DataType::f16, DataType::f16, 5120, 5120, 4096, Sm80Variant::automatic},
        {"seed f16 TN 5120x5120x4096 acc f32 (auto)", DataType::f16, DataType::f16, DataType::f32, 5120, 5120, 4096, Sm80Variant::automatic},
        {"bf16 TN 4096^3 (auto)", DataType::bf16, DataType::bf16, DataType::f32, 4096, 4096, 4096, Sm80Variant::automatic},
        {"bf16 TN 4095x4097x4093 element-wide", DataType::bf16, DataType::bf16, DataType::f32, 4095, 4097, 4093, Sm80Variant::automatic},
        {"tf32 TN 4096^3 (auto)", DataType::tf32, DataType::f32, DataType::f32, 4096, 4096, 4096, Sm80Variant::automatic},
        {"f16 TN 4096^3 acc f32 single-stage", DataType::f16, DataType::f16, DataType::f32, 4096, 4096, 4096, Sm80Variant::single_stage},
        {"f16 TN 4096^3 acc f32 pipelined", DataType::f16, DataType::f16, DataType::f32, 4096, 4096, 4096, Sm80Variant::pipelined},
        {"f16 TN 4096^3 acc f32 multistage 128x128", DataType::f16, DataType::f16, DataType::f32, 4096, 4096, 4096, Sm80Variant::tile128x128},
        {"f16 TN 4096^3 acc f32 multistage 128x256", DataType::f16, DataType::f16, DataType::f32, 4096, 4096, 4096, Sm80Variant::tile128x256},
    };
    for (const Case& c : cases) {
      Problem p{c.in, c.out, c.acc, c.m, c.n, c.k};
      p.init();
      row(c.name, p, [&] { return sm80_tensorop_launch_variant(p.args, c.var, nullptr); });
    }

    std::printf("-- b. 4095x4097x4093 bf16, ld = extent: the whole tessera::gemm call (repack included) vs cuBLAS\n");
    const char* lnames[] = {"tn", "nn", "nt", "tt"};
    MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
    MatrixOrder const lay[4][2] = {{R, C}, {C, C}, {C, R}, {R, R}};
    int const sm = prop.major * 10 + prop.minor;
    for (int l = 0; l < 4; ++l) {
      Problem p{DataType::bf16, DataType::bf16, DataType::f32, 4095, 4097, 4093, lay[l][0], lay[l][1]};
      p.init();
      const tessera::GemmKernel* k = nullptr;
      (void)tessera::select_gemm_kernel(p.args, sm, {}, &k);
      std::string name = std::string("odd bf16 ") + lnames[l] + " tessera::gemm";
      double cub = 0;
      row(name.c_str(), p, [&] { return tessera::gemm(p.args, nullptr); }, &cub);
      name = std::string("odd bf16 ") + lnames[l] + " RepackPolicy::never";
      tessera::GemmOptions never;
      never.repack = tessera::RepackPolicy::never;
      row(name.c_str(), p, [&] { return tessera::gemm(p.args, nullptr, never); }, nullptr, cub);
      // The same with a caller workspace (no cudaMallocAsync in the call).
      void* ws = nullptr;
      size_t const bytes = tessera::gemm_workspace_bytes(p.args);
      CHECK(cudaMalloc(&ws, bytes));
      tessera::GemmOptions with_ws;
      with_ws.workspace = ws;
      with_ws.workspace_bytes = bytes;
      name = std::string("odd bf16 ") + lnames[l] + " tessera::gemm, caller workspace";
      row(name.c_str(), p, [&] { return tessera::gemm(p.args, nullptr, with_ws); }, nullptr, cub);
      cudaFree(ws);
      std::printf("   (unpacked, the heuristic would pick %s)\n", k ? std::string(k->info.name).c_str() : "?");
    }
    std::printf("-- b2. 4096^3 bf16, aligned, M/N-major operands: tessera::gemm (K-major copy when it reaches a better kernel) vs never\n");
    for (int l = 1; l < 4; ++l) {
      Problem p{DataType::bf16, DataType::bf16, DataType::f32, 4096, 4096, 4096, lay[l][0], lay[l][1]};
      p.init();
      double cub = 0;
      std::string name = std::string("4096^3 bf16 ") + lnames[l] + " tessera::gemm";
      row(name.c_str(), p, [&] { return tessera::gemm(p.args, nullptr); }, &cub);
      tessera::GemmOptions never;
      never.repack = tessera::RepackPolicy::never;
      name = std::string("4096^3 bf16 ") + lnames[l] + " RepackPolicy::never";
      row(name.c_str(), p, [&] { return tessera::gemm(p.args, nullptr, never); }, nullptr, cub);
    }
  }

  std::printf("-- c. tile candidates, seed f16 TN 5120x5120x4096 (sm80_tensorop_launch_variant)\n");
  struct Result { std::string name; double tf; int regs; size_t local; int smem; };
  for (DataType acc : {DataType::f16, DataType::f32}) {
    Problem p{DataType::f16, DataType::f16, acc, 5120, 5120, 4096};
    p.init();
    double cub = 0;
    std::vector<Result> res;
    const Sm80Variant vars[] = {Sm80Variant::tile128x128, Sm80Variant::tile128x256, Sm80Variant::t128x128_s4,
                                Sm80Variant::t128x128_w8, Sm80Variant::t128x256_s3, Sm80Variant::t256x128_s3,
                                Sm80Variant::t256x128_s4, Sm80Variant::t128x256_w4, Sm80Variant::t128x128_spread,
                                Sm80Variant::t128x256_spread, Sm80Variant::t128x256_w4s2, Sm80Variant::t128x128_tma,
                                Sm80Variant::t128x128_ws};
    for (Sm80Variant v : vars)
      for (int group : {8, 4, 16}) {
        if (group != 8 && v != Sm80Variant::tile128x128 && v != Sm80Variant::tile128x256) continue;
        auto const l = launch_of(p, v);
        if (l.function == nullptr) continue;
        cudaFuncAttributes attr{};
        CHECK(cudaFuncGetAttributes(&attr, l.function));
        std::string name = std::string(acc == DataType::f16 ? "acc16 " : "acc32 ") + tessera::kernels::to_string(v) +
                           " group " + std::to_string(group);
        double const tf = row(name.c_str(), p, [&] { return sm80_tensorop_launch_variant(p.args, v, nullptr, group); },
                              &cub, cub);
        res.push_back({name, tf, attr.numRegs, attr.localSizeBytes, l.smem_bytes});
      }
    std::sort(res.begin(), res.end(), [](const Result& a, const Result& b) { return a.tf > b.tf; });
    std::printf("   sorted (cuBLAS %.1f TFLOP/s):\n", cub);
    for (const Result& r : res)
      std::printf("   %-36s %8.1f TFLOP/s  %3d regs  %4zu B local%s  %6d B smem\n", r.name.c_str(), r.tf, r.regs, r.local,
                  r.local ? " (SPILLS)" : "", r.smem);
  }
  std::printf("(TFLOP/s, median of 30 after 5 warm-up runs, L2 flushed before each run)\n");
  cublasDestroy(g_h);
  return 0;
}
EOF
( $NVCC $FLAGS -Isrc -I"$ROOT/scripts/gpu" -c "$BUILD/bench_sm80.cu" -o "$BUILD/bench.o" > "$OUT/build_bench.txt" 2>&1 ) &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done
echo "build took $(( $(date +%s) - start ))s"
cat "$OUT"/build_*.txt | grep -E "error" | head -20
grep -h "BUILD FAILED" "$OUT"/ptxas_*.txt "$OUT"/build_*.txt
echo "-- resource usage (kernels with spills listed; none expected)"
for f in "$OUT"/ptxas_*.txt; do
  awk -v f="$(basename "$f")" '/Compiling entry function/{name=$0} /spill stores/{ if ($5 != 0 || $9 != 0) print f ": SPILL " $0 "  <- " substr(name, 1, 200); n++ } /Used [0-9]+ registers/{ r[$5]++ } END { printf "%s: %d kernels, registers:", f, n; for (k in r) printf " %s x%d", k, r[k]; printf "\n" }' "$f"
done | tee "$OUT/resources.txt"

$NVCC $ARCH "$BUILD/test_gemm_sm80.o" "${OBJS[@]}" -o "$BUILD/test_gemm_sm80" -lgtest_main -lgtest -lpthread -lcublas > "$OUT/link_test.txt" 2>&1 || { echo "LINK test_gemm_sm80 FAILED"; tail -20 "$OUT/link_test.txt"; }
$NVCC $ARCH "$BUILD/test_gemm_repack.o" "${OBJS[@]}" -o "$BUILD/test_gemm_repack" -lgtest_main -lgtest -lpthread -lcublas > "$OUT/link_repack.txt" 2>&1 || { echo "LINK test_gemm_repack FAILED"; tail -20 "$OUT/link_repack.txt"; }
$NVCC $ARCH "$BUILD/bench.o" "${OBJS[@]}" -o "$BUILD/bench_sm80" -lcublas > "$OUT/link_bench.txt" 2>&1 || { echo "LINK bench FAILED"; tail -20 "$OUT/link_bench.txt"; }

echo "== test_gemm_sm80_indexing (host simulation of the kernel's index math)"
timeout 60 "$BUILD/test_gemm_sm80_indexing" > "$OUT/test_indexing.log" 2>&1
echo "rc=$?"; grep -E "PASSED|FAILED" "$OUT/test_indexing.log" | head -10

for t in test_gemm_sm80 test_gemm_repack; do
  echo "== $t"
  timeout 150 "$BUILD/$t" > "$OUT/$t.log" 2>&1
  echo "rc=$?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|tests ran" "$OUT/$t.log" | head -40
  grep -E "Failure|error|Expected|Which is" "$OUT/$t.log" | head -30
done

echo "== compute-sanitizer memcheck (small filters)"
FILTER='All/Sm80Gemm.MatchesFp64Reference/f16_f16_tn_odd257x129x77:All/Sm80Gemm.MatchesFp64Reference/bf16_bf16_tn_ptroff130x70x90:All/Sm80Gemm.MatchesFp64Reference/f16_f16_nt_ptroff130x70x90:All/Sm80Gemm.MatchesFp64Reference/bf16_f32_nn_ldodd77x45x99:All/Sm80Gemm.MatchesFp64Reference/tf32_f32_tt_odd257x129x77:All/Sm80Gemm.MatchesFp64Reference/f16_f16acc16_tn_ldpad200x136x72:All/Sm80Gemm.MatchesFp64Reference/variant_pipelined_tn:All/Sm80Gemm.MatchesFp64Reference/variant_single_stage_nt:All/Sm80Gemm.MatchesFp64Reference/variant_tile128x256_tt:All/Sm80Gemm.MatchesFp64Reference/batch3_bf16_bf16_tn:All/Sm80Gemm.MatchesFp64Reference/variant_t256x128_s3_acc32:All/Sm80Gemm.MatchesFp64Reference/variant_t128x128_spread_acc16:All/Sm80Gemm.MatchesFp64Reference/variant_t128x256_spread_acc32'
RFILTER='All/RepackGemm.MatchesFp64Reference/bf16_*_drow_oddld:All/RepackGemm.MatchesFp64Reference/tf32_nt_dcol_ptroff:All/RepackGemm.MatchesFp64Reference/*batch*:RepackGemmWorkspace.*'
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 120 "$SAN" --tool memcheck --error-exitcode 9 "$BUILD/test_gemm_sm80" --gtest_filter="$FILTER" > "$OUT/memcheck.log" 2>&1
echo "sm80 rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | head -10
timeout 120 "$SAN" --tool memcheck --error-exitcode 9 "$BUILD/test_gemm_repack" --gtest_filter="$RFILTER" > "$OUT/memcheck_repack.log" 2>&1
echo "repack rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck_repack.log" | head -10

echo "== timing vs cuBLAS"
timeout 200 "$BUILD/bench_sm80" 2>&1 | tee "$OUT/bench.txt"
echo "total $(( $(date +%s) - start ))s"
}
main "$@"
exit $?
