// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// sgemm_ladder: runs the eight rungs of the SGEMM ladder and cuBLAS on the
// same random data, checks each against an fp64 reference computed on the
// GPU, and times each (L2 flushed, warm-up, median of --reps runs).
//
//   sgemm_ladder [--sizes 1024,2048,4096,8192,4095x4097x4093] [--reps 20]
//                [--pad P] [--naive-max 4096] [--csv FILE] [--no-suite]
//                [--rungs cublas,k1_naive,...]
//
// A size is N (square) or MxNxK. Before the timed sizes, a suite of small
// awkward shapes (ragged edges, leading dimensions larger than the matrix,
// misaligned pointers) is checked, unless --no-suite.
// Exit status: 0 all checks passed, 1 a check failed, 2 bad usage,
// 77 no CUDA device.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "k1_naive.cuh"
#include "k2_smem.cuh"
#include "k3_thread_tile_1d.cuh"
#include "k4_thread_tile_2d.cuh"
#include "k5_vectorized.cuh"
#include "k6_warp_tile.cuh"
#include "k7_double_buffer.cuh"
#include "k8_wmma.cuh"

#define TESSERA_LADDER_CUDA(call)                                                                       \
  do {                                                                                                  \
    cudaError_t err_ = (call);                                                                          \
    if (err_ != cudaSuccess) {                                                                          \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                                                     \
    }                                                                                                   \
  } while (0)

#define TESSERA_LADDER_CUBLAS(call)                                                        \
  do {                                                                                     \
    cublasStatus_t st_ = (call);                                                           \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                    \
      std::fprintf(stderr, "%s:%d: %s failed: status %d\n", __FILE__, __LINE__, #call, int(st_)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

namespace tessera::ladder {
namespace {

// ---------------------------------------------------------------- data ----

__device__ __forceinline__ uint32_t hash32(uint64_t x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
  return static_cast<uint32_t>(x);
}

// rows x ld buffer: uniform(-1, 1) inside rows x cols, NaN in the padding
// columns, so a kernel that reads past `cols` poisons its own result.
__global__ void fill_kernel(float* p, int rows, int cols, int ld, uint64_t seed) {
  const size_t total = static_cast<size_t>(rows) * ld;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total; i += size_t(gridDim.x) * blockDim.x) {
    const int c = static_cast<int>(i % ld);
    p[i] = c < cols ? static_cast<float>(hash32(seed * 0x9e3779b97f4a7c15ull + i) >> 8) * (2.0f / 16777216.0f) - 1.0f
                    : __int_as_float(0x7fffffff);
  }
}

// R = A * B in fp64 (M x N dense), 16 x 16 shared-memory tiles.
__global__ void reference_kernel(int M, int N, int K, const float* A, int lda, const float* B, int ldb, double* R) {
  __shared__ double sA[16][16], sB[16][17];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  double acc = 0.0;
  for (int k0 = 0; k0 < K; k0 += 16) {
    sA[ty][tx] = (row < M && k0 + tx < K) ? double(A[size_t(row) * lda + k0 + tx]) : 0.0;
    sB[ty][tx] = (k0 + ty < K && col < N) ? double(B[size_t(k0 + ty) * ldb + col]) : 0.0;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) acc += sA[ty][k] * sB[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) R[size_t(row) * N + col] = acc;
}

struct CheckSums {
  double diff2, ref2;
  unsigned long long nonfinite, padding_touched;
};

// Compares C (ld ldc) with alpha * R + beta * C0 (C0 dense, read only when
// beta != 0) and checks that C's padding columns still hold the poison bits.
__global__ void check_kernel(int M, int N, const float* C, int ldc, const double* R, const float* C0, double alpha,
                             double beta, uint32_t poison_bits, CheckSums* out) {
  double d2 = 0.0, r2 = 0.0;
  unsigned long long bad = 0, pad = 0;
  const size_t total = size_t(M) * ldc;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total; i += size_t(gridDim.x) * blockDim.x) {
    const size_t m = i / ldc;
    const int n = int(i % ldc);
    if (n < N) {
      const double ref = alpha * R[m * N + n] + (beta != 0.0 ? beta * double(C0[m * N + n]) : 0.0);
      const float c = C[i];
      if (!isfinite(c)) ++bad;
      else { d2 += (double(c) - ref) * (double(c) - ref); }
      r2 += ref * ref;
    } else if (__float_as_uint(C[i]) != poison_bits) {
      ++pad;
    }
  }
  for (int o = 16; o > 0; o /= 2) {
    d2 += __shfl_down_sync(0xffffffffu, d2, o);
    r2 += __shfl_down_sync(0xffffffffu, r2, o);
    bad += __shfl_down_sync(0xffffffffu, bad, o);
    pad += __shfl_down_sync(0xffffffffu, pad, o);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&out->diff2, d2);
    atomicAdd(&out->ref2, r2);
    atomicAdd(&out->nonfinite, bad);
    atomicAdd(&out->padding_touched, pad);
  }
}

// ------------------------------------------------------------ problem ----

struct Shape {
  int M, N, K;
  int pad;      // extra elements per row in lda, ldb, ldc
  int misalign; // base pointers shifted by this many floats (1 = not 16-byte aligned)
  bool timed;
};

constexpr uint32_t kPoisonBits = 0xffffffffu;  // a NaN; cudaMemset(0xff) writes it

struct Problem {
  Shape s;
  int lda, ldb, ldc;
  float *A_raw, *B_raw, *C_raw, *C0;
  float *A, *B, *C;
  double* R;

  explicit Problem(const Shape& shape) : s(shape) {
    lda = s.K + s.pad; ldb = s.N + s.pad; ldc = s.N + s.pad;
    TESSERA_LADDER_CUDA(cudaMalloc(&A_raw, (size_t(s.M) * lda + 4) * sizeof(float)));
    TESSERA_LADDER_CUDA(cudaMalloc(&B_raw, (size_t(s.K) * ldb + 4) * sizeof(float)));
    TESSERA_LADDER_CUDA(cudaMalloc(&C_raw, (size_t(s.M) * ldc + 4) * sizeof(float)));
    TESSERA_LADDER_CUDA(cudaMalloc(&C0, size_t(s.M) * s.N * sizeof(float)));
    TESSERA_LADDER_CUDA(cudaMalloc(&R, size_t(s.M) * s.N * sizeof(double)));
    A = A_raw + s.misalign; B = B_raw + s.misalign; C = C_raw + s.misalign;
    static uint64_t seed = 1;
    fill_kernel<<<1024, 256>>>(A, s.M, s.K, lda, seed++);
    fill_kernel<<<1024, 256>>>(B, s.K, s.N, ldb, seed++);
    fill_kernel<<<1024, 256>>>(C0, s.M, s.N, s.N, seed++);
    reference_kernel<<<dim3((s.N + 15) / 16, (s.M + 15) / 16), dim3(16, 16)>>>(s.M, s.N, s.K, A, lda, B, ldb, R);
    TESSERA_LADDER_CUDA(cudaGetLastError());
    TESSERA_LADDER_CUDA(cudaDeviceSynchronize());
  }
  ~Problem() {
    cudaFree(A_raw); cudaFree(B_raw); cudaFree(C_raw); cudaFree(C0); cudaFree(R);
  }
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;

  GemmParams params(float alpha, float beta) const { return {s.M, s.N, s.K, A, lda, B, ldb, C, ldc, alpha, beta}; }
  double flops() const { return 2.0 * s.M * s.N * double(s.K); }
  std::string name() const {
    std::string n = std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K);
    if (s.pad) n += "+" + std::to_string(s.pad);
    if (s.misalign) n += "~";
    return n;
  }
};

// A contender: a ladder rung or cuBLAS.
struct Contender {
  std::string name;
  bool tf32;
  const void* kernel;  // null for cuBLAS
  void (*launch)(const GemmParams&, cudaStream_t);
};

cublasHandle_t g_cublas;

void launch_cublas(const GemmParams& p, cudaStream_t s) {
  // Row-major C = A B is column-major C^T = B^T A^T: swap the operands.
  TESSERA_LADDER_CUBLAS(cublasSetStream(g_cublas, s));
  TESSERA_LADDER_CUBLAS(cublasSgemm(g_cublas, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &p.alpha, p.B, p.ldb, p.A,
                                    p.lda, &p.beta, p.C, p.ldc));
}

struct CheckResult {
  double rel_err;
  unsigned long long nonfinite, padding_touched;
};

CheckResult run_check(const Problem& pr, const Contender& c, float alpha, float beta, CheckSums* d_sums) {
  TESSERA_LADDER_CUDA(cudaMemset(pr.C_raw, 0xff, (size_t(pr.s.M) * pr.ldc + 4) * sizeof(float)));
  if (beta != 0.0f)
    TESSERA_LADDER_CUDA(cudaMemcpy2D(pr.C, pr.ldc * sizeof(float), pr.C0, pr.s.N * sizeof(float),
                                     pr.s.N * sizeof(float), pr.s.M, cudaMemcpyDeviceToDevice));
  c.launch(pr.params(alpha, beta), nullptr);
  TESSERA_LADDER_CUDA(cudaGetLastError());
  TESSERA_LADDER_CUDA(cudaDeviceSynchronize());
  TESSERA_LADDER_CUDA(cudaMemset(d_sums, 0, sizeof(CheckSums)));
  check_kernel<<<512, 256>>>(pr.s.M, pr.s.N, pr.C, pr.ldc, pr.R, pr.C0, alpha, beta, kPoisonBits, d_sums);
  TESSERA_LADDER_CUDA(cudaGetLastError());
  CheckSums h{};
  TESSERA_LADDER_CUDA(cudaMemcpy(&h, d_sums, sizeof h, cudaMemcpyDeviceToHost));
  return {h.ref2 > 0 ? std::sqrt(h.diff2 / h.ref2) : std::sqrt(h.diff2), h.nonfinite, h.padding_touched};
}

// Tolerance on the relative Frobenius error ||C - C_ref|| / ||C_ref||.
// fp32: K products summed in fp32 (unit roundoff u = 2^-24) with independent
// random data: rounding errors behave like a random walk, typical relative
// error ~ u * sqrt(K) / 2; we allow 16 u sqrt(K) + 4 u (the 4 u covers the
// alpha/beta update). That is far below the worst-case bound K u, and any
// indexing mistake (a lost k tile, a wrong element) gives errors of order 1e-2.
// tf32: inputs rounded to 10 mantissa bits (u = 2^-11): error ~ 1e-4..1e-3
// independent of K; 5e-3 per the project rule.
double tolerance(bool tf32, int K) {
  if (tf32) return 5e-3;
  const double u = std::ldexp(1.0, -24);
  return u * (16.0 * std::sqrt(double(std::max(K, 1))) + 4.0);
}

struct Row {
  std::string size, rung, status, note;
  int M, N, K;
  double ms = NAN, tflops = NAN, ratio = NAN, err = NAN, tol = NAN;
  int regs = -1, spill = 0;
};

float median_ms(const Problem& pr, const Contender& c, int reps, void* flush, size_t flush_bytes) {
  const GemmParams p = pr.params(1.0f, 0.0f);
  for (int i = 0; i < 2; ++i) c.launch(p, nullptr);  // warm-up
  TESSERA_LADDER_CUDA(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> ev(2 * reps);
  for (auto& e : ev) TESSERA_LADDER_CUDA(cudaEventCreate(&e));
  for (int r = 0; r < reps; ++r) {
    // NOTE: rewrite a buffer of twice the L2 size so no operand starts L2-hot.
    TESSERA_LADDER_CUDA(cudaMemsetAsync(flush, r & 0xff, flush_bytes));
    TESSERA_LADDER_CUDA(cudaEventRecord(ev[2 * r]));
    c.launch(p, nullptr);
    TESSERA_LADDER_CUDA(cudaEventRecord(ev[2 * r + 1]));
  }
  TESSERA_LADDER_CUDA(cudaGetLastError());
  TESSERA_LADDER_CUDA(cudaDeviceSynchronize());
  std::vector<float> ms(reps);
  for (int r = 0; r < reps; ++r) TESSERA_LADDER_CUDA(cudaEventElapsedTime(&ms[r], ev[2 * r], ev[2 * r + 1]));
  for (auto& e : ev) cudaEventDestroy(e);
  std::sort(ms.begin(), ms.end());
  return reps % 2 ? ms[reps / 2] : 0.5f * (ms[reps / 2 - 1] + ms[reps / 2]);
}

bool parse_size(const std::string& tok, Shape& s) {
  int m = 0, n = 0, k = 0;
  char tail = 0;
  if (std::sscanf(tok.c_str(), "%dx%dx%d%c", &m, &n, &k, &tail) == 3 && m > 0 && n > 0 && k > 0) {
    s.M = m; s.N = n; s.K = k;
    return true;
  }
  if (std::sscanf(tok.c_str(), "%d%c", &m, &tail) == 1 && m > 0) {
    s.M = s.N = s.K = m;
    return true;
  }
  return false;
}

int usage(const char* msg) {
  std::fprintf(stderr,
               "sgemm_ladder: %s\nusage: sgemm_ladder [--sizes N|MxNxK[,...]] [--reps R] [--pad P] "
               "[--naive-max N] [--csv FILE] [--no-suite] [--rungs NAME,...]\n",
               msg);
  return 2;
}

}  // namespace
}  // namespace tessera::ladder

int main(int argc, char** argv) {
  using namespace tessera::ladder;
  std::string sizes_arg = "1024,2048,4096,8192,4095x4097x4093", csv_path, only;
  int reps = 20, pad = 0, naive_max = 4096;
  bool suite = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--no-suite") { suite = false; continue; }
    if (a != "--sizes" && a != "--reps" && a != "--pad" && a != "--naive-max" && a != "--csv" && a != "--rungs")
      return usage(("unknown option " + a).c_str());
    if (!(v = value())) return usage(("missing value for " + a).c_str());
    if (a == "--sizes") sizes_arg = v;
    else if (a == "--reps") reps = std::atoi(v);
    else if (a == "--pad") pad = std::atoi(v);
    else if (a == "--naive-max") naive_max = std::atoi(v);
    else if (a == "--rungs") only = std::string(",") + v + ",";
    else csv_path = v;
  }
  if (reps < 1 || pad < 0 || naive_max < 0) return usage("--reps must be >= 1, --pad and --naive-max >= 0");

  std::vector<Shape> shapes;
  if (suite) {
    // Correctness-only shapes: ragged edges in every mode, ld > extent,
    // unaligned leading dimensions ("+p") and unaligned base pointers ("~").
    shapes = {{1, 1, 1, 0, 0, false},      {7, 13, 5, 3, 1, false},    {33, 65, 17, 1, 0, false},
              {128, 128, 8, 0, 0, false},  {129, 131, 33, 1, 0, false}, {257, 129, 65, 3, 0, false},
              {200, 300, 1000, 2, 1, false}, {64, 520, 9, 0, 0, false}, {300, 40, 515, 4, 0, false}};
  }
  for (size_t b = 0, e; b <= sizes_arg.size(); b = e + 1) {
    e = sizes_arg.find(',', b);
    if (e == std::string::npos) e = sizes_arg.size();
    Shape s{0, 0, 0, pad, 0, true};
    if (!parse_size(sizes_arg.substr(b, e - b), s)) return usage(("bad size '" + sizes_arg.substr(b, e - b) + "'").c_str());
    shapes.push_back(s);
  }

  std::vector<Contender> contenders = {{"cublas", false, nullptr, launch_cublas}};
  for (const Rung* r : {&k1_naive, &k2_smem, &k3_thread_tile_1d, &k4_thread_tile_2d, &k5_vectorized, &k6_warp_tile,
                        &k7_double_buffer, &k8_wmma})
    contenders.push_back({r->name, r->tf32, r->kernel, r->launch});
  if (!only.empty()) {  // --rungs: keep the named contenders only
    std::vector<Contender> kept;
    for (const Contender& c : contenders)
      if (only.find("," + c.name + ",") != std::string::npos) kept.push_back(c);
    if (kept.empty()) return usage("--rungs names no known rung (cublas, k1_naive ... k8_wmma)");
    contenders = kept;
  }

  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("sgemm_ladder: no CUDA device found; nothing to run (exit 77 = skipped)\n");
    return 77;
  }
  int dev = 0, clock_khz = 0, l2 = 0, sms = 0, rt = 0, cublas_ver = 0;
  cudaDeviceProp prop{};
  TESSERA_LADDER_CUDA(cudaGetDevice(&dev));
  TESSERA_LADDER_CUDA(cudaGetDeviceProperties(&prop, dev));
  TESSERA_LADDER_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  TESSERA_LADDER_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  TESSERA_LADDER_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  TESSERA_LADDER_CUDA(cudaRuntimeGetVersion(&rt));
  TESSERA_LADDER_CUBLAS(cublasCreate(&g_cublas));
  TESSERA_LADDER_CUBLAS(cublasGetVersion(g_cublas, &cublas_ver));
  std::printf("device: %s (sm_%d%d, %d SMs, max SM clock %.0f MHz, L2 %.1f MiB), CUDA runtime %d, cuBLAS %d\n",
              prop.name, prop.major, prop.minor, sms, clock_khz / 1000.0, l2 / 1048576.0, rt, cublas_ver);
  if (prop.major < 8) {
    std::printf("sgemm_ladder: needs sm_80 or newer (rung 8 uses tf32 wmma), found sm_%d%d (exit 77 = skipped)\n",
                prop.major, prop.minor);
    return 77;
  }
  if (const char* o = std::getenv("NVIDIA_TF32_OVERRIDE"))
    std::printf("warning: NVIDIA_TF32_OVERRIDE=%s is set; cuBLAS may not run true fp32\n", o);
  std::printf("cuBLAS: cublasSgemm, CUBLAS_DEFAULT_MATH (fp32). Timing: 2 warm-up runs, median of %d, "
              "L2 flushed before each run, alpha=1 beta=0.\n"
              "Checks: C poisoned with NaN, (alpha,beta)=(1,0) and (0.75,-1.25); padding columns must stay "
              "untouched; fp32 tol 2^-24*(16*sqrt(K)+4), tf32 tol 5e-3.\n",
              reps);


  const size_t flush_bytes = std::max<size_t>(size_t(2) * l2, size_t(64) << 20);
  void* flush = nullptr;
  TESSERA_LADDER_CUDA(cudaMalloc(&flush, flush_bytes));
  CheckSums* d_sums = nullptr;
  TESSERA_LADDER_CUDA(cudaMalloc(&d_sums, sizeof(CheckSums)));

  std::vector<Row> rows;
  int failures = 0;
  for (const Shape& s : shapes) {
    Problem pr(s);
    double cublas_ms = NAN;
    for (const Contender& c : contenders) {
      Row row;
      row.size = pr.name(); row.rung = c.name; row.M = s.M; row.N = s.N; row.K = s.K;
      row.tol = tolerance(c.tf32, s.K);
      if (c.kernel) {
        cudaFuncAttributes fa{};
        TESSERA_LADDER_CUDA(cudaFuncGetAttributes(&fa, c.kernel));
        row.regs = fa.numRegs;
        row.spill = int(fa.localSizeBytes);
      }
      if (c.name == "k1_naive" && pr.flops() > 2.0 * double(naive_max) * naive_max * naive_max) {
        row.status = "SKIP";
        row.note = "naive rung skipped above " + std::to_string(naive_max) + "^3 (too slow; --naive-max)";
        rows.push_back(row);
        continue;
      }
      const CheckResult r1 = run_check(pr, c, 1.0f, 0.0f, d_sums);
      const CheckResult r2 = run_check(pr, c, 0.75f, -1.25f, d_sums);
      row.err = std::max(r1.rel_err, r2.rel_err);
      const unsigned long long nonfinite = r1.nonfinite + r2.nonfinite;
      const unsigned long long touched = r1.padding_touched + r2.padding_touched;
      const bool pass = nonfinite == 0 && touched == 0 && row.err <= row.tol;
      row.status = pass ? "PASS" : "FAIL";
      if (nonfinite) row.note += std::to_string(nonfinite) + " non-finite outputs; ";
      if (touched) row.note += std::to_string(touched) + " padding elements written; ";
      if (!pass) ++failures;
      if (s.timed) {
        row.ms = median_ms(pr, c, reps, flush, flush_bytes);
        row.tflops = pr.flops() / (row.ms * 1e-3) / 1e12;
        if (c.kernel == nullptr) cublas_ms = row.ms;
        row.ratio = cublas_ms / row.ms;
      }
      rows.push_back(row);
    }
  }

  std::printf("\n%-18s %-18s %10s %9s %9s %10s %9s %9s  %s\n", "size", "rung", "median_ms", "TFLOP/s", "x_cuBLAS",
              "rel_err", "tol", "regs", "status");
  for (const Row& r : rows) {
    char regs[32] = "-";
    if (r.regs >= 0) std::snprintf(regs, sizeof regs, r.spill ? "%d+%dB" : "%d", r.regs, r.spill);
    if (r.status == "SKIP") {
      std::printf("%-18s %-18s %10s %9s %9s %10s %9s %9s  SKIP (%s)\n", r.size.c_str(), r.rung.c_str(), "-", "-", "-",
                  "-", "-", regs, r.note.c_str());
      continue;
    }
    char ms[32] = "-", tf[32] = "-", ratio[32] = "-";
    if (!std::isnan(r.ms)) {
      std::snprintf(ms, sizeof ms, "%.3f", r.ms);
      std::snprintf(tf, sizeof tf, "%.2f", r.tflops);
      std::snprintf(ratio, sizeof ratio, "%.3f", r.ratio);
    }
    std::printf("%-18s %-18s %10s %9s %9s %10.2e %9.2e %9s  %s%s%s\n", r.size.c_str(), r.rung.c_str(), ms, tf, ratio,
                r.err, r.tol, regs, r.status.c_str(), r.note.empty() ? "" : " ", r.note.c_str());
  }
  std::printf("(size: MxNxK, '+p' = leading dimensions padded by p, '~' = base pointers not 16-byte aligned; "
              "x_cuBLAS = cuBLAS time / rung time, >1 is faster than cuBLAS)\n");

  if (!csv_path.empty()) {
    FILE* f = std::fopen(csv_path.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "sgemm_ladder: cannot write %s\n", csv_path.c_str());
      return 1;
    }
    std::fprintf(f, "size,M,N,K,rung,median_ms,tflops,ratio_vs_cublas,rel_err,tol,regs,spill_bytes,status\n");
    for (const Row& r : rows)
      std::fprintf(f, "%s,%d,%d,%d,%s,%.5f,%.4f,%.4f,%.3e,%.3e,%d,%d,%s\n", r.size.c_str(), r.M, r.N, r.K,
                   r.rung.c_str(), r.ms, r.tflops, r.ratio, r.err, r.tol, r.regs, r.spill, r.status.c_str());
    std::fclose(f);
  }
  cudaFree(flush);
  cudaFree(d_sums);
  cublasDestroy(g_cublas);
  std::printf("%s: %d check(s) failed\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
