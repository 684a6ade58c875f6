#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Hopper kernel variants on the shapes whose ratio depends on the operands'
# storage order: for each problem and layout (tn, nt, tt, nn; BLAS letters,
# D row-major as in `tessera bench`), cuBLAS (cublasGemmEx, bf16,
# CUBLAS_COMPUTE_32F), the default launch and a list of explicit
# Sm90WsVariants, each result compared with cuBLAS's, then all timed
# interleaved (~1 s warm-up per problem, L2 flushed before every run, median
# of ROUNDS, default 100). Variant labels:
#   default            the per-shape selection (select_sm90_ws_variant)
#   nN[_tr]            cooperative 128xN narrow tiles (N = 16..128, 160..224)
#   coop[_tma]         cooperative 128x256;  pp128[_tma]: ping-pong 128x128;
#   pp64[_tma]         ping-pong 64x128;  pp: ping-pong 64x256
#   suffixes: _tr transposed (D^T = B^T A^T), _sS S-way split-K, _gG group_m G,
#             _c2 clusters of 2 (B multicast; cooperative 128x256 and ping-pong 64x128; narrow 128x64
#             with scripts/gpu/skinny_cluster_experiment.patch), _bw balance_waves,
#             _tailS the last partial wave split S ways along K (split_tail)
# TYPE=tf32: f32 storage, tf32 inputs, f32 out (cuBLAS with
# CUBLAS_COMPUTE_32F_FAST_TF32); TYPE=bf16f32: bf16 inputs, f32 C and D
# (session 54); default bf16 -> bf16.
# LD_PAD=P: A's and B's leading dimensions rounded up to P elements (rows
# aligned without changing the problem; both cuBLAS and Tessera read them so).
# FLUSH_MB=0: no L2 flush (default 256 MiB of memset before every run).
# ROTATE=R: R copies of A and B, each run on the next (with FLUSH_MB=0, the
# method of `tessera bench`'s rotating input sets).
# BETA=b (default 0): D = A B + b C with a random C (row-major, ld N), which
# Tessera reads from its own buffer; cuBLAS updates its D in place (C copied
# into it before the checked run), reading and writing the same bytes.
# GATE=1 (default): each round behind the benchmark's queue gate, every
# Tessera run preceded by an untimed cuBLAS run as in `tessera bench`
# (scripts/gpu/driver_gate.cuh says why); GATE=0: the earlier method (each
# run issued and synchronised alone, after whatever ran before it);
# GATE=both: both, one after the other.
# Builds the runtime with CMake (sm_90a), then the driver with nvcc.
# Usage: scripts/gpu/layouts.sh [ROUNDS [MxNxK:LAYOUTS:VARIANTS ...]]
#   e.g. scripts/gpu/layouts.sh 200 1000x1000x1000:tn:default,n128
set -u
OUT=${OUT:-/tmp/tessera-layouts}
. "$(dirname "$0")/runtime_build.sh"
cat > "$OUT/layouts.cu" <<'CU'
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>
#include <tessera/gemm/sm90_ws_gemm.cuh>
using namespace tessera;
#include "driver_gate.cuh"
#include "driver_util.cuh"

struct Entry { std::string label; bool is_default; detail::Sm90WsVariant v; bool failed = false; };

Entry parse(const std::string& s) {
  Entry e{s, s == "default", {}, false};
  if (e.is_default) return e;
  detail::Sm90WsVariant& v = e.v;
  v.group_m = 8;
  if (s.rfind("coop", 0) == 0) { v.tile_n = 256; v.group_m = 16; }
  else if (s.rfind("pp128", 0) == 0) { v.pingpong = true; v.tile_n = 128; }
  else if (s.rfind("pp64", 0) == 0) { v.pingpong = true; v.tile_n = 128; v.tile_m = 64; }
  else if (s.rfind("pp", 0) == 0) { v.pingpong = true; v.tile_n = 256; }
  else if (s[0] == 'n') v.tile_n = std::atoi(s.c_str() + 1);
  else { std::printf("unknown variant %s\n", s.c_str()); std::exit(2); }
  v.tma_store = s.find("_tma") != std::string::npos;
  v.transpose = s.find("_tr") != std::string::npos;
  if (auto p = s.find("_s"); p != std::string::npos) v.splits = std::atoi(s.c_str() + p + 2);
  if (auto p = s.find("_g"); p != std::string::npos) v.group_m = std::atoi(s.c_str() + p + 2);
  if (s.find("_c2") != std::string::npos) v.cluster = 2;
  if (s.find("_bw") != std::string::npos) v.balance_waves = true;
  if (auto p = s.find("_tail"); p != std::string::npos) { v.splits = std::atoi(s.c_str() + p + 5); v.split_tail = true; }
  return e;
}

struct Problem { int m, n, k; std::vector<std::string> variants; };

// BLAS letters: op(A) = A^T when the first letter is 't' (A stored K-contiguous).
// T: the inputs' storage; TO: C's and D's.
template <class T, class TO = T>
void time_problem(const Problem& pb, const char* lay, int rounds, cublasHandle_t h, void* flush, size_t flush_bytes) {
  int const M = pb.m, N = pb.n, K = pb.k;
  bool const a_kmaj = lay[0] == 't', b_kmaj = lay[1] == 'n';
  constexpr bool kTf32 = std::is_same_v<T, float>;
  constexpr bool kF32Out = std::is_same_v<TO, float>;
  cudaDataType_t const ct = kTf32 ? CUDA_R_32F : CUDA_R_16BF, cto = kF32Out ? CUDA_R_32F : CUDA_R_16BF;
  T *A, *B; TO *D, *Dc; double* acc;
  // ROTATE=R: R copies of A and B with the same contents, each run (cuBLAS
  // and Tessera, the gate's untimed runs too) on the next copy, so that no
  // run finds its operands in L2 from the run before (as `tessera bench`'s
  // rotating input sets); default 1.
  int const rot = std::getenv("ROTATE") ? std::max(1, std::atoi(std::getenv("ROTATE"))) : 1;
  // LD_PAD=P: every leading dimension of A and B rounded up to a multiple of
  // P elements (the rows' alignment without changing the problem).
  int const pad = std::getenv("LD_PAD") ? std::max(1, std::atoi(std::getenv("LD_PAD"))) : 1;
  auto up = [pad](int x) { return (x + pad - 1) / pad * pad; };
  int const lda = a_kmaj ? up(K) : up(M), ldb = b_kmaj ? up(K) : up(N);
  size_t const a_elems = size_t(lda) * (a_kmaj ? M : K), b_elems = size_t(ldb) * (b_kmaj ? N : K);
  std::vector<T*> As(rot), Bs(rot);
  for (int r = 0; r < rot; ++r) {
    CHECK(cudaMalloc(&As[r], a_elems * sizeof(T))); CHECK(cudaMalloc(&Bs[r], b_elems * sizeof(T)));
    fill<<<1024, 256>>>(As[r], (long long)a_elems, 1u); fill<<<1024, 256>>>(Bs[r], (long long)b_elems, 2u);
  }
  A = As[0]; B = Bs[0];
  int turn = 0;
  CHECK(cudaMalloc(&D, size_t(M) * N * sizeof(TO))); CHECK(cudaMalloc(&Dc, size_t(M) * N * sizeof(TO)));
  CHECK(cudaMalloc(&acc, 16));
  float const beta = std::getenv("BETA") ? float(std::atof(std::getenv("BETA"))) : 0.0f;
  TO* C = nullptr;
  if (beta != 0.0f) {
    CHECK(cudaMalloc(&C, size_t(M) * N * sizeof(TO)));
    fill<<<1024, 256>>>(C, (long long)M * N, 3u);
  }
  GemmArgs args;
  args.m = M; args.n = N; args.k = K;
  args.input = kTf32 ? DataType::tf32 : DataType::bf16; args.output = kF32Out ? DataType::f32 : DataType::bf16;
  args.accumulate = DataType::f32;
  // A (M x K): K-contiguous = row-major with ld K; else column-major with ld M.
  args.a = MatrixDesc{A, a_kmaj ? MatrixOrder::row_major : MatrixOrder::col_major, lda, 0};
  args.b = MatrixDesc{B, b_kmaj ? MatrixOrder::col_major : MatrixOrder::row_major, ldb, 0};
  args.d = MutableMatrixDesc{D, MatrixOrder::row_major, N, 0};
  args.beta = beta;
  args.c = MatrixDesc{C, MatrixOrder::row_major, N, 0};
  std::vector<Entry> es;
  for (const std::string& s : pb.variants) es.push_back(parse(s));
  float one = 1.0f;
  auto run = [&](int i) {
    if (rot > 1) {
      A = As[turn % rot]; B = Bs[turn % rot]; ++turn;
      args.a.data = A; args.b.data = B;
    }
    if (i == 0) {  // D row-major = D^T column-major = B^T A^T: cuBLAS's first operand is our B.
      cublasStatus_t s = cublasGemmEx(h, b_kmaj ? CUBLAS_OP_T : CUBLAS_OP_N, a_kmaj ? CUBLAS_OP_N : CUBLAS_OP_T, N, M, K,
                                      &one, B, ct, ldb, A, ct, lda, &beta, Dc, cto, N,
                                      kTf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      if (s != CUBLAS_STATUS_SUCCESS) { std::printf("cublasGemmEx failed %d\n", int(s)); std::exit(1); }
      return;
    }
    Entry& e = es[i - 1];
    if (e.failed) return;
    Status s = e.is_default ? detail::launch_sm90_ws_gemm(args, nullptr) : detail::launch_sm90_ws_gemm(args, nullptr, e.v);
    if (!s.ok()) { std::printf("  %s refused: %s\n", e.label.c_str(), s.message.c_str()); e.failed = true; }
  };
  int const nv = int(es.size()) + 1;
  if (C) CHECK(cudaMemcpy(Dc, C, size_t(M) * N * sizeof(TO), cudaMemcpyDeviceToDevice));
  run(0); CHECK(cudaDeviceSynchronize());
  std::printf("%dx%dx%d %s%s%s%s\n", M, N, K, lay, kTf32 ? " tf32" : kF32Out ? " bf16->f32" : "", pad > 1 ? (" ld padded to " + std::to_string(pad)).c_str() : "",
              C ? (" beta " + std::to_string(beta)).c_str() : "");
  for (int i = 1; i < nv; ++i) {
    CHECK(cudaMemset(D, 0xff, size_t(M) * N * sizeof(TO))); run(i); CHECK(cudaDeviceSynchronize());
    if (es[i - 1].failed) continue;
    CHECK(cudaMemset(acc, 0, 16)); diff<<<512, 256>>>(D, Dc, (long long)M * N, acc);
    double hh[2]; CHECK(cudaMemcpy(hh, acc, 16, cudaMemcpyDeviceToHost));
    double const rd = std::sqrt(hh[0] / hh[1]);
    if (!(rd < 1e-2)) std::printf("  WRONG RESULT %s rel.diff %.2e\n", es[i - 1].label.c_str(), rd);
  }
  // GATE=1 (default): every round queued behind the benchmark's queue gate,
  // each Tessera run preceded by an untimed cuBLAS run (driver_gate.cuh);
  // GATE=0: each run issued and synchronised on its own (the method before
  // session 11); GATE=both: one after the other.
  std::string const gate = std::getenv("GATE") ? std::getenv("GATE") : "1";
  double const flop = 2.0 * M * N * double(K);
  for (int pass = 0; pass < 2; ++pass) {
    bool const gated = pass == 0 ? gate != "0" : false;
    if (pass == 1 && gate != "both") break;
    std::vector<double> const tf = gated ? gated_interleaved_tflops(run, nv, rounds, 1000.0f, flush, flush_bytes, flop, 0)
                                         : interleaved_tflops(run, nv, rounds, 1000.0f, flush, flush_bytes, flop);
    std::printf("  %-14s %7.1f  (%s)\n", "cuBLAS", tf[0], gated ? "gated" : "not gated");
    for (int i = 1; i < nv; ++i)
      if (!es[i - 1].failed) std::printf("  %-14s %7.1f  %.3fx\n", es[i - 1].label.c_str(), tf[i], tf[i] / tf[0]);
  }
  for (int r = 0; r < rot; ++r) { cudaFree(As[r]); cudaFree(Bs[r]); }
  cudaFree(D); cudaFree(Dc); cudaFree(acc); cudaFree(C);
}

int main(int argc, char** argv) {
  int const rounds = argc > 1 ? std::atoi(argv[1]) : 100;
  // FLUSH_MB (default 256): bytes of the L2 flush before every run; 0 = none
  // (memory-bound shapes: the flush's dirty lines are written back during
  // the timed run that follows it).
  size_t const flush_bytes = size_t(std::getenv("FLUSH_MB") ? std::atoi(std::getenv("FLUSH_MB")) : 256) << 20;
  void* flush; CHECK(cudaMalloc(&flush, flush_bytes > 0 ? flush_bytes : 1));
  cublasHandle_t h; cublasCreate(&h);
  // Problems: "MxNxK:LAYOUTS:VARIANTS" arguments (layouts and variants comma-separated), or the list below.
  struct Spec { Problem p; std::vector<std::string> layouts; };
  std::vector<Spec> specs;
  auto split = [](const std::string& s, char c) {
    std::vector<std::string> out; std::string cur;
    for (char x : s) { if (x == c) { out.push_back(cur); cur.clear(); } else cur += x; }
    out.push_back(cur); return out;
  };
  for (int i = 2; i < argc; ++i) {
    std::vector<std::string> const f = split(argv[i], ':');
    Spec sp;
    if (f.size() != 3 || std::sscanf(f[0].c_str(), "%dx%dx%d", &sp.p.m, &sp.p.n, &sp.p.k) != 3) { std::printf("bad problem %s\n", argv[i]); return 2; }
    sp.layouts = split(f[1], ','); sp.p.variants = split(f[2], ',');
    specs.push_back(sp);
  }
  if (specs.empty())
    specs = {
        {{64, 28672, 4096, {"default", "n64_tr", "n64_tr_s2", "n32_tr", "n128_tr", "coop_tma", "coop_tma_s2", "pp64_tma", "pp128_tma"}}, {"tn", "nt", "tt", "nn"}},
        {{128, 8192, 8192, {"default", "pp64_tr", "n128_tr", "coop_tma", "pp128_tma"}}, {"tn", "nt", "tt", "nn"}},
        {{1000, 1000, 1000, {"default", "pp128_tma_s2", "n128_s2", "n128", "coop_tma_s4"}}, {"tn", "tt"}},
    };
  std::string const type = std::getenv("TYPE") ? std::getenv("TYPE") : "bf16";
  if (type != "bf16" && type != "tf32" && type != "bf16f32") { std::printf("unknown TYPE %s\n", type.c_str()); return 2; }
  for (const Spec& sp : specs)
    for (const std::string& lay : sp.layouts) {
      if (type == "tf32") time_problem<float>(sp.p, lay.c_str(), rounds, h, flush, flush_bytes);
      else if (type == "bf16f32") time_problem<__nv_bfloat16, float>(sp.p, lay.c_str(), rounds, h, flush, flush_bytes);
      else time_problem<__nv_bfloat16>(sp.p, lay.c_str(), rounds, h, flush, flush_bytes);
    }
  std::printf("cuda: %s\n", cudaGetErrorString(cudaGetLastError()));
}
CU
build_driver "$OUT/layouts.cu" "$OUT/layouts"
"$OUT/layouts" "${1:-100}" "${@:2}" | tee "$OUT/layouts.txt"
