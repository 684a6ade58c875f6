#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Does the kernel that ran just before a GEMM change the GEMM's time? For
# each target (the Hopper kernel's default launch, cuBLAS) and each
# predecessor, one round runs: predecessor; L2 flush (256 MiB memset); e0;
# target; e1 -- every predecessor in turn, the whole round behind the
# benchmark's queue gate. Prints the median of ROUNDS (100) in µs. bf16 TN,
# D row-major. Predecessors: the target itself, cuBLAS, another of our
# kernels (ping-pong 64x128), a tiny kernel, one with 100 KiB of shared
# memory (another carveout), one with ~160 KB of straight-line code, our
# kernel on other buffers (other tensor maps), on the same buffers with
# K/2, the same kernel function reading A M-major (its other mainloop
# copy), and the sibling instantiation that writes f32. Session 11 (runs
# 112, 122, 125, 128): cuBLAS and our other kernel cost the target the most
# (up to 2.6 µs), the big-code kernel 0-0.7 µs, the others nothing.
# Session 12 (run 129): the other mainloop copy nothing, the f32 sibling
# the most: the cost is fetching the code again; after the stmatrix
# epilogue (run 131) about half of it is left. See
# scripts/gpu/driver_gate.cuh.
# NCU=1: also runs the first shape under ncu (application replay, caches
# left alone), our kernel after each predecessor three times: its time, its
# warps' stalls for want of an instruction, and its instructions. ncu
# prints its results after the program's own lines, in launch order: the
# warm-up's launches of our kernels first (ours, pp64x128, other buffers,
# K/2, A M-major, f32 out; 20 times), then per predecessor and repetition
# the predecessor (when it is one of ours) and the target.
# Logs under $OUT (default /tmp/tessera-predecessor).
# Usage: [ROUNDS=100] [NCU=1] scripts/gpu/predecessor.sh
set -u
OUT=${OUT:-/tmp/tessera-predecessor}
. "$(dirname "$0")/runtime_build.sh"  # cd to the repository; CMake-builds the runtime into $BUILD

cat > "$OUT/predecessor.cu" <<'CU'
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <tessera/gemm/sm90_ws_gemm.cuh>

#include "driver_gate.cuh"
#include "driver_util.cuh"

using namespace tessera;

__global__ void tiny_kernel(int* p) {
  if (p != nullptr && threadIdx.x == 1000000) p[0] = 1;
}

// 100 KiB of dynamic shared memory: another L1/shared carveout than the GEMM's.
__global__ void smem_kernel(int* p) {
  extern __shared__ int s[];
  s[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  if (p != nullptr && s[(threadIdx.x + 1) % blockDim.x] == -1) p[0] = 1;
}

// ~160 KB of straight-line code (10000 dependent FFMAs), no memory traffic.
__global__ void bigcode_kernel(float* out, float a, float b) {
  float x = float(threadIdx.x);
#pragma unroll
  for (int i = 0; i < 10000; ++i) x = fmaf(x, a, b + float(i));
  if (out != nullptr && x == 12345.0f) out[0] = x;
}

int main(int argc, char** argv) {
  bool const profile = argc > 1 && std::string(argv[1]) == "ncu";
  int const rounds = std::getenv("ROUNDS") ? std::atoi(std::getenv("ROUNDS")) : 100;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s; bf16 TN, D row-major, median of %d, µs\n", prop.name, rounds);
  cublasHandle_t h;
  cublasCreate(&h);
  size_t const flush_bytes = size_t(256) << 20;
  void* flush;
  CHECK(cudaMalloc(&flush, flush_bytes));
  CHECK(cudaFuncSetAttribute(smem_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 << 10));
  struct Shape { int m, n, k; };
  std::vector<Shape> shapes = {Shape{1000, 1000, 1000}, Shape{2048, 1024, 512}, Shape{1536, 1536, 1024},
                               Shape{4096, 4096, 4096}};
  if (profile) shapes.resize(1);
  for (Shape sh : shapes) {
    int const M = sh.m, N = sh.n, K = sh.k;
    __nv_bfloat16 *A, *B, *D, *Dc, *A2, *B2, *D2;
    float* D32;
    CHECK(cudaMalloc(&D32, size_t(M) * N * 4));
    for (__nv_bfloat16** p : {&A, &A2}) CHECK(cudaMalloc(p, size_t(M) * K * 2));
    for (__nv_bfloat16** p : {&B, &B2}) CHECK(cudaMalloc(p, size_t(N) * K * 2));
    for (__nv_bfloat16** p : {&D, &Dc, &D2}) CHECK(cudaMalloc(p, size_t(M) * N * 2));
    fill<<<1024, 256>>>(A, (long long)M * K, 1u);
    fill<<<1024, 256>>>(B, (long long)N * K, 2u);
    fill<<<1024, 256>>>(A2, (long long)M * K, 3u);
    fill<<<1024, 256>>>(B2, (long long)N * K, 4u);
    GemmArgs args;
    args.m = M; args.n = N; args.k = K;
    args.input = DataType::bf16; args.output = DataType::bf16; args.accumulate = DataType::f32;
    args.a = MatrixDesc{A, MatrixOrder::row_major, K, 0};
    args.b = MatrixDesc{B, MatrixOrder::col_major, K, 0};
    args.d = MutableMatrixDesc{D, MatrixOrder::row_major, N, 0};
    GemmArgs bufs = args;  // other buffers: other tensor maps, the same kernel
    bufs.a.data = A2; bufs.b.data = B2; bufs.d.data = D2;
    GemmArgs half_k = args;  // the same buffers and kernel, K/2
    half_k.k = K / 2;
    // The same kernel function with A read M-major (the same buffer as
    // (K, M):(M, 1), whose rows have the same alignment when M == K): its
    // other mainloop copy, everything else alike.
    GemmArgs a_mn = args;
    a_mn.a = MatrixDesc{A, MatrixOrder::col_major, M, 0};
    detail::Sm90WsVariant const dflt = detail::default_sm90_ws_variant(args);
    // The default variant writing f32: a sibling instantiation (other
    // epilogue code), the same mainloop and tensor maps for A and B.
    GemmArgs f32out = args;
    f32out.output = DataType::f32;
    f32out.d = MutableMatrixDesc{D32, MatrixOrder::row_major, N, 0};
    detail::Sm90WsVariant pp64;  // another kernel of ours
    pp64.pingpong = true; pp64.tile_n = 128; pp64.tile_m = 64; pp64.tma_store = true; pp64.group_m = 8;
    auto launch = [](const GemmArgs& a, const detail::Sm90WsVariant* v) {
      Status const s = v ? detail::launch_sm90_ws_gemm(a, nullptr, *v) : detail::launch_sm90_ws_gemm(a, nullptr);
      if (!s.ok()) { std::printf("launch failed: %s\n", s.message.c_str()); std::exit(1); }
    };
    float one = 1.0f, zero = 0.0f;
    std::function<void()> const ours = [&] { launch(args, nullptr); };
    std::function<void()> const cublas = [&] {
      if (cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, B, CUDA_R_16BF, K, A, CUDA_R_16BF, K, &zero, Dc,
                       CUDA_R_16BF, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
        std::printf("cublasGemmEx failed\n");
        std::exit(1);
      }
    };
    std::vector<std::pair<const char*, std::function<void()>>> const preds = {
        {"itself", nullptr},
        {"cuBLAS", cublas},
        {"pp64x128", [&] { launch(args, &pp64); }},
        {"tiny", [] { tiny_kernel<<<132, 128>>>(nullptr); }},
        {"smem100K", [] { smem_kernel<<<132, 128, 100 << 10>>>(nullptr); }},
        {"bigcode", [] { bigcode_kernel<<<132, 128>>>(nullptr, 0.999f, 0.5f); }},
        {"otherbufs", [&] { launch(bufs, nullptr); }},
        {"K/2", [&] { launch(half_k, nullptr); }},
        {"A M-major", [&] { launch(a_mn, &dflt); }},
        {"f32 out", [&] { launch(f32out, &dflt); }}};
    // Every kernel launched before any gate (queue_hold.hpp: lazy loading).
    for (int w = 0; w < 20; ++w) {
      ours();
      for (auto& p : preds)
        if (p.second) p.second();
    }
    CHECK(cudaDeviceSynchronize());
    if (profile) {
      // Under ncu (application replay, no cache control): each predecessor,
      // the flush, then our kernel, three times (ncu lists them in this
      // order after the program's own lines).
      for (auto& p : preds)
        for (int r = 0; r < 3; ++r) {
          std::printf("=== %dx%dx%d after %s (%d)\n", M, N, K, p.first, r);
          std::fflush(stdout);
          (p.second ? p.second : ours)();
          CHECK(cudaMemsetAsync(flush, r, flush_bytes));
          ours();
          CHECK(cudaDeviceSynchronize());
        }
    } else {
      std::printf("%dx%dx%d\n  %-8s", M, N, K, "target");
      for (auto& p : preds) std::printf(" %10s", p.first);
      std::printf("\n");
      int const np = int(preds.size());
      for (auto const& t : {std::make_pair("ours", ours), std::make_pair("cuBLAS", cublas)}) {
        std::vector<double> const ms = gated_medians_ms(
            [&](int i) { (preds[size_t(i)].second ? preds[size_t(i)].second : t.second)(); },
            [&](int) { t.second(); }, np, rounds, flush, flush_bytes);
        std::printf("  %-8s", t.first);
        for (double x : ms) std::printf(" %10.2f", x * 1000.0);
        std::printf("\n");
      }
    }
    for (__nv_bfloat16* p : {A, B, D, Dc, A2, B2, D2}) cudaFree(p);
    cudaFree(D32);
  }
  cublasDestroy(h);
  std::printf("cuda: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
CU
build_driver "$OUT/predecessor.cu" "$OUT/predecessor"
"$OUT/predecessor" | tee "$OUT/predecessor.log"
if [ "${NCU:-0}" = 1 ]; then
  ncu --replay-mode application --cache-control none --clock-control none --kernel-name regex:ws_gemm_kernel \
    --metrics gpu__time_duration.sum,smsp__warps_issue_stalled_no_instruction.sum,smsp__inst_executed.sum,sm__cycles_active.avg \
    "$OUT/predecessor" ncu > "$OUT/predecessor_ncu.log" 2>&1
  grep -E '^===|ws_gemm_kernel<|gpu__time|no_instruction|inst_executed|cycles_active' "$OUT/predecessor_ncu.log" \
    | grep -v '==PROF==' | sed -E 's/void tessera::kernels::sm90::ws_gemm_kernel<([^>]*WsGemmConfigT<[^>]*>).*/\1/'
fi
