#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# simt_tiled_sgemm's reg_k operands (K-contiguous f32 read through registers,
# include/tessera/gemm/simt_tiled.cuh) against cuBLAS SGEMM and against what
# tessera::gemm ran before them (the operands copied M/N-major by the repack
# kernel, then the kernel's nt form). Per problem and order (tn: both
# operands K-contiguous, tt: A, nn: B; nt has none), interleaved with cuBLAS,
# L2 flushed, ~2 s warm-up, median of ROUNDS (default 30):
#   gemm        tessera::gemm (whatever the heuristic picks: copies or not)
#   regk/oN     the tiled kernel with reg_k, kRegKOrder N (0 fetch ahead,
#               1 store after the FFMAs, 2 store after half of them)
#   elemk       the tiled kernel with the 4-byte transposing cp.async
# then the SASS of each order's tn kernel: where its loads and stores sit in
# the k loop (instruction index of LDG / STS.64 / BAR / first and last FFMA).
# With NCU=1: instead of the timing, ncu (warp states, scheduler, memory) of
# the first five tiled launches of 4096^3 tn: the nt-form kernel behind
# tessera::gemm, regk/o0, o1, o2, elemk.
# Usage: scripts/gpu/regk.sh [ROUNDS]
set -u
OUT=${OUT:-/tmp/tessera-regk}
ROUNDS=${1:-30}
. "$(dirname "$0")/runtime_build.sh"
cat > "$OUT/regk.cu" <<'CU'
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <tessera/gemm/api.hpp>
#include <tessera/gemm/simt_tiled.cuh>
using namespace tessera;
namespace simt = tessera::kernels::simt;
#include "driver_util.cuh"
using Cfg = simt::SgemmDefault;

// Only the mode pairs these problems plan (aligned operands), to keep the
// driver's build short.
template <int kOrder, bool kRegK>
Status launch_tiled(const GemmArgs& a) {
  using M = simt::OperandMode;
  return simt::detail::launch_planned_sgemm<Cfg>(a, nullptr, "tiled", false, kRegK, [](M x, M y) -> const void* {
    constexpr M k = kRegK ? M::reg_k : M::elem_k;
    if (x == M::vec16 && y == M::vec16) return (const void*)&simt::simt_tiled_sgemm_kernel<Cfg, M::vec16, M::vec16, true, kOrder>;
    if (x == k && y == M::vec16) return (const void*)&simt::simt_tiled_sgemm_kernel<Cfg, k, M::vec16, true, kOrder>;
    if (x == M::vec16 && y == k) return (const void*)&simt::simt_tiled_sgemm_kernel<Cfg, M::vec16, k, true, kOrder>;
    if (x == k && y == k) return (const void*)&simt::simt_tiled_sgemm_kernel<Cfg, k, k, true, kOrder>;
    return nullptr;
  });
}

int main(int argc, char** argv) {
  int const rounds = argc > 1 ? std::atoi(argv[1]) : 30;
  size_t const flush_bytes = size_t(256) << 20; void* flush; CHECK(cudaMalloc(&flush, flush_bytes));
  cublasHandle_t h; cublasCreate(&h);
  cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);  // true fp32
  const char* names[] = {"cuBLAS", "gemm", "regk/o0", "regk/o1", "regk/o2", "elemk"};
  bool const one = argc > 2;  // "one": 4096^3 tn only (for ncu)
  for (int n : {4096, 8192})
    for (const char* lay : {"tn", "tt", "nn"}) {
      if (one && (n != 4096 || lay[1] != 'n' || lay[0] != 't')) continue;
      int const M = n, N = n, K = n;
      bool const a_row = lay[0] == 't', b_col = lay[1] == 'n';  // BLAS letters: t = A row-major (K-contiguous)
      float *A, *B, *D, *Dc; double* acc;
      CHECK(cudaMalloc(&A, size_t(M) * K * 4)); CHECK(cudaMalloc(&B, size_t(N) * K * 4));
      CHECK(cudaMalloc(&D, size_t(M) * N * 4)); CHECK(cudaMalloc(&Dc, size_t(M) * N * 4)); CHECK(cudaMalloc(&acc, 16));
      fill<<<1024, 256>>>(A, (long long)M * K, 1u); fill<<<1024, 256>>>(B, (long long)N * K, 2u);
      GemmArgs args;
      args.m = M; args.n = N; args.k = K;
      args.a = {A, a_row ? MatrixOrder::row_major : MatrixOrder::col_major, a_row ? K : M, 0};
      args.b = {B, b_col ? MatrixOrder::col_major : MatrixOrder::row_major, b_col ? K : N, 0};
      args.d = MutableMatrixDesc{D, MatrixOrder::row_major, N, 0};
      float one = 1.0f, zero = 0.0f;
      auto run = [&](int i) {
        Status s;
        if (i == 0) {  // D row-major = (B^T A^T) column-major
          cublasStatus_t st = cublasSgemm(h, b_col ? CUBLAS_OP_T : CUBLAS_OP_N, a_row ? CUBLAS_OP_N : CUBLAS_OP_T, N, M, K,
                                          &one, B, b_col ? K : N, A, a_row ? K : M, &zero, Dc, N);
          if (st != CUBLAS_STATUS_SUCCESS) { std::printf("cublasSgemm failed\n"); std::exit(1); }
          return;
        }
        if (i == 1) s = gemm(args, nullptr);
        if (i == 2) s = launch_tiled<0, true>(args);
        if (i == 3) s = launch_tiled<1, true>(args);
        if (i == 4) s = launch_tiled<2, true>(args);
        if (i == 5) s = launch_tiled<0, false>(args);
        if (!s.ok()) { std::printf("%s: %s\n", names[i], s.message.c_str()); std::exit(1); }
      };
      int const nv = 6;
      run(0); CHECK(cudaDeviceSynchronize());
      std::printf("%dx%dx%d %s\n", M, N, K, lay);
      for (int i = 1; i < nv; ++i) {
        CHECK(cudaMemset(D, 0xff, size_t(M) * N * 4)); run(i); CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemset(acc, 0, 16)); diff<<<512, 256>>>(D, Dc, (long long)M * N, acc);
        double hh[2]; CHECK(cudaMemcpy(hh, acc, 16, cudaMemcpyDeviceToHost));
        std::printf("  %-8s rel.diff vs cuBLAS %.2e\n", names[i], std::sqrt(hh[0] / hh[1]));
      }
      std::vector<double> const tf = interleaved_tflops(run, nv, rounds, 2000.0f, flush, flush_bytes, 2.0 * M * N * double(K));
      for (int i = 0; i < nv; ++i) std::printf("  %-8s %6.2f TFLOP/s  %.3fx cuBLAS\n", names[i], tf[i], tf[i] / tf[0]);
      cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(Dc); cudaFree(acc);
    }
  return 0;
}
CU
build_driver "$OUT/regk.cu" "$OUT/regk"
if [ -n "${NCU:-}" ]; then
  ncu --clock-control none -k regex:simt_tiled_sgemm_kernel --launch-count 5 --section WarpStateStats \
    --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
    "$OUT/regk" 3 one > "$OUT/regk.ncu.txt" 2>&1
  grep -E "simt_tiled_sgemm_kernel|Stall|Duration|Issued Warp|Eligible|No Eligible|Mem Busy|Max Bandwidth|L1/TEX Hit|L2 Hit|Warp Cycles Per Issued|Issue Slots Busy" "$OUT/regk.ncu.txt" \
    | sed -E 's/.*simt_tiled_sgemm_kernel<.*OperandMode\)([0-9]), \(tessera::kernels::simt::OperandMode\)([0-9]), true, ([0-9])>.*/KERNEL modes \1 \2 order \3/' | cut -c1-150
  exit 0
fi
"$OUT/regk" "$ROUNDS" | tee "$OUT/regk.txt"
cuobjdump -sass "$OUT/regk" > "$OUT/regk.sass" 2>/dev/null
python3 - "$OUT/regk.sass" <<'PY'
import re, sys
txt = open(sys.argv[1]).read()
for f in txt.split('Function : ')[1:]:
    name = f.split('\n', 1)[0]
    m = re.search(r'simt_tiled_sgemm_kernel.*OperandModeE(\d)ELS\d+_(\d)ELb1ELi(\d)E', name)
    if not m or m.group(1) != '4' or m.group(2) != '4': continue
    ins = re.findall(r'/\*([0-9a-f]{4})\*/\s+((?:@!?U?P\w+\s+)?[A-Z0-9_.]+)', f)
    ops = [o.split()[-1] for _, o in ins]
    ff = [i for i, o in enumerate(ops) if o.startswith('FFMA')]
    # the k loop: the stretch around the densest FFMA block
    print('order', m.group(3), 'instructions', len(ops), 'FFMA', len(ff))
    marks = [(i, o) for i, o in enumerate(ops) if o.startswith(('LDG', 'STS', 'BAR', 'BRA', 'DEPBAR', 'LDGSTS'))]
    print('  ', ' '.join(f'{i}:{o}' for i, o in marks if ff and ff[0] - 200 <= i <= ff[-1] + 50))
    print('   FFMA from', ff[0] if ff else None, 'to', ff[-1] if ff else None)
PY
