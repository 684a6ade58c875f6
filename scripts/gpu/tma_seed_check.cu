// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Standalone check of the TMA-fed seed tile (sm80_tma_gemm.cuh) and the one
// fed by a copy warp (sm80_ws_gemm.cuh) without the runtime library, for a
// device session too short to build it: f16 TN, D row-major, the kernels
// launched directly (unsplit). Each problem: cuBLAS (f16 in, f32 compute,
// f16 out) as the reference, the cp.async seed tile (sm80_gemm_kernel), the
// TMA-fed one and the copy-warp one, f16 and f32 accumulation; relative norm
// difference to cuBLAS, then the seed problem timed interleaved (L2 flushed,
// median of argv[1] rounds; PAIR=1: each kernel beside cuBLAS alone) for f16
// accumulation. Kernels: kind 0 cp.async, 1 TMA-fed, 2 one copy warp, 3 two
// copy warps (the library's t128x128_ws). SEED_ONLY=1: the seed problem's
// checks only, f16 accumulation, no timing (one launch per kernel, for ncu).
// WAIT_PROBE=1: after the timing, the TMA-fed, two-copy-warp and
// one-copy-warp kernels again (kinds 1, 3, 2) with clock64 around each wait
// (where each role's cycles go; their results are not checked, and
// SEED_ONLY=1 skips them).
// RASTER=g: CTA rasterisation groups of g M-tiles (g >= 1; default
// kRasterGroupM).
// Build: nvcc -std=c++20 -O3 --expt-relaxed-constexpr -arch=sm_90a -Iinclude -Isrc
//        scripts/gpu/tma_seed_check.cu src/tma/tensor_map.cpp -lcublas -o tma_seed_check
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include <tessera/gemm/sm80_tma_gemm.cuh>
#include <tessera/gemm/sm80_ws_gemm.cuh>
#include <tessera/tma/tensor_map.hpp>

using namespace tessera;
using namespace tessera::kernels::sm80;
using Cfg = tessera::kernels::sm80::ConfigTile128x128<2, true, true>;

// WAIT_PROBE=1: clock64 summed around every wait of the TMA-fed and
// copy-warp kernels (sm80_wait_probe.cuh), per role: [role][site],
// [role][kWaitSites] the warps' cycles from the probe's start to done(),
// [role][kWaitSites + 1] the number of warps.
__device__ unsigned long long g_wait[2][kWaitSites + 2];
struct ClockProbe {
  long long t0 = 0;
  long long sum[kWaitSites] = {};
  __device__ ClockProbe() { t0 = clock64(); }
  template <class Wait>
  __device__ __forceinline__ void operator()(WaitSite site, Wait&& wait) {
    long long const a = clock64();
    wait();
    sum[int(site)] += clock64() - a;
  }
  __device__ void done(WaitRole role) {
    if ((threadIdx.x & 31) != 0) return;
    unsigned long long* const g = g_wait[int(role)];
    for (int s = 0; s < kWaitSites; ++s) atomicAdd(g + s, (unsigned long long)sum[s]);
    atomicAdd(g + kWaitSites, (unsigned long long)(clock64() - t0));
    atomicAdd(g + kWaitSites + 1, 1ull);
  }
};

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));              \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

__global__ void fill(__half* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned h = unsigned(i) * 2654435761u ^ seed * 40503u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    p[i] = __float2half(float(int(h % 2001u) - 1000) / 1000.0f);
  }
}
__global__ void diff(const __half* a, const __half* b, long long n, double* acc) {
  double d = 0, r = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    double const x = __half2float(a[i]), y = __half2float(b[i]);
    d += (x - y) * (x - y);
    r += y * y;
  }
  atomicAdd(acc, d);
  atomicAdd(acc + 1, r);
}

struct Problem {
  int m, n, k;
  __half *a, *b, *d, *ref;
  Params p{};
  CUtensorMap ma{}, mb{};
};

CUtensorMap encode(const void* base, int k, int rows) {
  tma::TiledDesc d;
  d.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  d.elem_bytes = 2;
  d.rank = 2;
  d.swizzle = tma::Swizzle::b128;
  d.base = base;
  d.dims[0] = std::uint64_t(k);
  d.dims[1] = std::uint64_t(rows);
  d.strides[0] = std::uint64_t(k) * 2;
  d.box[0] = 64;
  d.box[1] = 128;
  CUtensorMap m{};
  tma::EncodeResult const r = tma::encode_tiled(&m, d);
  if (!r.ok) {
    std::printf("encode failed: %s\n", r.message.c_str());
    std::exit(1);
  }
  return m;
}

Problem make(int m, int n, int k, cublasHandle_t h) {
  Problem pb{m, n, k};
  CHECK(cudaMalloc(&pb.a, size_t(m) * k * 2));
  CHECK(cudaMalloc(&pb.b, size_t(n) * k * 2));
  CHECK(cudaMalloc(&pb.d, size_t(m) * n * 2));
  CHECK(cudaMalloc(&pb.ref, size_t(m) * n * 2));
  fill<<<1024, 256>>>(pb.a, (long long)m * k, 1u);
  fill<<<1024, 256>>>(pb.b, (long long)n * k, 2u);
  float one = 1.0f, zero = 0.0f;  // D^T = B^T A^T column-major = D row-major
  if (cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, pb.b, CUDA_R_16F, k, pb.a, CUDA_R_16F, k, &zero, pb.ref,
                   CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
    std::printf("cublasGemmEx failed\n");
  Params& p = pb.p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.batch_count = 1;
  p.tiles_m = (m + 127) / 128;
  p.tiles_n = (n + 127) / 128;
  int const raster = std::getenv("RASTER") != nullptr ? std::atoi(std::getenv("RASTER")) : 0;
  p.raster_group = raster >= 1 ? raster : kRasterGroupM;  // 0 would divide by zero in rasterize()
  p.a = pb.a;
  p.lda = k;
  p.b = pb.b;
  p.ldb = k;
  p.epi.d = pb.d;
  p.epi.ldd = n;
  p.epi.c = nullptr;
  p.epi.c_row = n;
  p.epi.c_col = 1;
  p.epi.alpha = 1.0f;
  p.epi.beta = 0.0f;
  p.epi.out = OutputType::f16;
  p.epi.d_vec_ok = n % 8 == 0;
  p.epi.c_vec_ok = false;
  pb.ma = encode(pb.a, k, m);
  pb.mb = encode(pb.b, k, n);
  return pb;
}

// kind 0: the cp.async seed tile; 1: TMA-fed; 2: fed by a copy warp; 3: by
// two (one per operand; f16 accumulation only). Probe: the wait probe of
// kinds 1-3 (ClockProbe with WAIT_PROBE=1).
template <class Acc, class Probe = NoWaitProbe>
void launch(Problem& pb, int kind, cudaStream_t s = nullptr) {
  dim3 const grid(unsigned(pb.p.tiles_m * pb.p.tiles_n));
  if (kind == 1)
    sm80_tma_gemm_kernel<Cfg, __half, Acc, false, Probe>
        <<<grid, Cfg::kThreads, tma_ring_smem_bytes<Cfg>(), s>>>(pb.ma, pb.mb, pb.p);
  else if (kind == 2)
    sm80_ws_gemm_kernel<Cfg, __half, Acc, false, 1, Probe>
        <<<grid, kWsThreads<Cfg>, ws_ring_smem_bytes<Cfg>(), s>>>(pb.p);
  else if (kind == 3) {
    if constexpr (std::is_same_v<Acc, __half>)
      sm80_ws_gemm_kernel<Cfg, __half, Acc, false, 2, Probe>
          <<<grid, kWsThreads<Cfg, 2>, ws_ring_smem_bytes<Cfg>(), s>>>(pb.p);
  }
  else
    sm80_gemm_kernel<Cfg, __half, Acc, false><<<grid, Cfg::kThreads, Cfg::kSmemBytes, s>>>(pb.p);
}

// The dynamic shared memory each kernel of launch<Acc, Probe> asks for.
template <class Acc, class Probe = NoWaitProbe>
void allow_smem() {
  CHECK(cudaFuncSetAttribute(sm80_tma_gemm_kernel<Cfg, __half, Acc, false, Probe>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, tma_ring_smem_bytes<Cfg>()));
  CHECK(cudaFuncSetAttribute(sm80_ws_gemm_kernel<Cfg, __half, Acc, false, 1, Probe>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, ws_ring_smem_bytes<Cfg>()));
  if constexpr (std::is_same_v<Acc, __half>)
    CHECK(cudaFuncSetAttribute(sm80_ws_gemm_kernel<Cfg, __half, Acc, false, 2, Probe>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, ws_ring_smem_bytes<Cfg>()));
  CHECK(cudaFuncSetAttribute(sm80_gemm_kernel<Cfg, __half, Acc, false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             Cfg::kSmemBytes));
}

// WAIT_PROBE=1: kinds 1 (TMA-fed), 3 (two copy warps) and 2 (one) with
// ClockProbe, `launches` times each after the timing's warm-up; where each
// role's warps spent their cycles.
void wait_probe(Problem& pb, int launches) {
  char const* site_names[kWaitSites] = {"full", "release", "empty", "landed", "issue"};
  int const k_tiles = (pb.k + Cfg::kBlockK - 1) / Cfg::kBlockK;
  for (int kind : {1, 3, 2}) {
    unsigned long long zero[2][kWaitSites + 2] = {};
    CHECK(cudaMemcpyToSymbol(g_wait, zero, sizeof zero));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventRecord(e0));
    for (int i = 0; i < launches; ++i) launch<__half, ClockProbe>(pb, kind);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaGetLastError());
    float ms;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    unsigned long long g[2][kWaitSites + 2];
    CHECK(cudaMemcpyFromSymbol(g, g_wait, sizeof g));
    std::printf("  wait probe, %s, %d launches back to back, %.1f TFLOP/s:\n",
                kind == 1 ? "TMA-fed" : kind == 3 ? "2 copy warps" : "1 copy warp", launches,
                2.0 * pb.m * pb.n * double(pb.k) * launches / (ms * 1e-3) / 1e12);
    for (int role = 0; role < 2; ++role) {
      double const warps = double(g[role][kWaitSites + 1]);
      if (warps == 0) continue;
      double const total = double(g[role][kWaitSites]) / warps;
      std::printf("    %-4s warps: %.0f cycles each to done() (%.0f per k-tile)", role == 0 ? "mma" : "copy", total,
                  total / k_tiles);
      double waits = 0;
      for (int s = 0; s < kWaitSites; ++s) {
        double const c = double(g[role][s]) / warps;
        if (c == 0) continue;
        if (s != int(WaitSite::issue)) waits += c;
        std::printf(", %s %.1f%% (%.0f per k-tile)", site_names[s], 100.0 * c / total, c / k_tiles);
      }
      std::printf("; not waiting %.0f per k-tile\n", (total - waits) / k_tiles);
    }
  }
}

double rel_diff(Problem& pb, double* acc) {
  CHECK(cudaMemset(acc, 0, 16));
  diff<<<512, 256>>>(pb.d, pb.ref, (long long)pb.m * pb.n, acc);
  double hh[2];
  CHECK(cudaMemcpy(hh, acc, 16, cudaMemcpyDeviceToHost));
  return std::sqrt(hh[0] / hh[1]);
}

int main(int argc, char** argv) {
  int const rounds = argc > 1 ? std::atoi(argv[1]) : 30;
  allow_smem<__half>();
  allow_smem<float>();
  allow_smem<__half, ClockProbe>();
  cublasHandle_t h;
  cublasCreate(&h);
  double* acc;
  CHECK(cudaMalloc(&acc, 16));
  int const shapes[][3] = {{128, 128, 64}, {1000, 1064, 520}, {296, 520, 264}, {129, 257, 72}, {5120, 5120, 4096}};
  int bad = 0;
  bool const seed_only = std::getenv("SEED_ONLY") != nullptr && std::atoi(std::getenv("SEED_ONLY")) != 0;
  for (auto const& s : shapes) {
    if (seed_only && s[0] != 5120) continue;
    Problem pb = make(s[0], s[1], s[2], h);
    for (int kind = 0; kind < 4; ++kind)
      for (int acc16 = 1; acc16 >= (kind == 3 || seed_only ? 1 : 0); --acc16) {
        CHECK(cudaMemset(pb.d, 0xff, size_t(pb.m) * pb.n * 2));
        if (acc16) launch<__half>(pb, kind); else launch<float>(pb, kind);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        double const rd = rel_diff(pb, acc);
        // f16 accumulation rounds the running sum every k16 step.
        double const bound = acc16 ? 2.5e-3 * std::sqrt(pb.k / 16.0) + 2e-3 : 2e-3;
        bool const ok = rd < bound;
        bad += !ok;
        std::printf("%5dx%5dx%5d %-7s %s acc: rel.diff vs cuBLAS %.2e (bound %.1e) %s\n", pb.m, pb.n, pb.k,
                    kind == 1 ? "tma" : kind == 2 ? "ws" : kind == 3 ? "ws2" : "cp.async", acc16 ? "f16" : "f32", rd, bound,
                    ok ? "ok" : "WRONG");
      }
    if (s[0] == 5120 && !seed_only) {
      size_t const flush_bytes = size_t(256) << 20;
      void* flush;
      CHECK(cudaMalloc(&flush, flush_bytes));
      cudaEvent_t e0, e1;
      cudaEventCreate(&e0);
      cudaEventCreate(&e1);
      __half hone = __float2half(1.0f), hzero = __float2half(0.0f);
      auto run = [&](int i) {
        if (i == 0)
          cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, pb.n, pb.m, pb.k, &hone, pb.b, CUDA_R_16F, pb.k, pb.a, CUDA_R_16F,
                       pb.k, &hzero, pb.ref, CUDA_R_16F, pb.n, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT);
        else
          launch<__half>(pb, i - 1);
      };
      constexpr int kTimed = 5;  // cuBLAS, kinds 0-3
      for (int w = 0; w < 20; ++w)
        for (int i = 0; i < kTimed; ++i) run(i);
      // PAIR=1: each kernel interleaved beside cuBLAS alone (its own cuBLAS
      // times kept for neither), not all three together: timed among
      // slower kernels a kernel runs at a higher clock (docs/performance.md,
      // Ampere v6).
      bool const pair = std::getenv("PAIR") != nullptr && std::atoi(std::getenv("PAIR")) != 0;
      std::vector<float> t[kTimed];
      auto timed = [&](int i) {
        CHECK(cudaEventRecord(e0));
        run(i);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        return ms;
      };
      for (int r = 0; r < rounds; ++r)
        for (int i = 0; i < kTimed; ++i) {
          CHECK(cudaMemset(flush, r & 0xff, flush_bytes));
          t[i].push_back(timed(i));
        }
      std::vector<float> tc[kTimed];  // PAIR=1: the cuBLAS times beside kernel i
      if (pair) {
        for (int i = 1; i < kTimed; ++i) {
          t[i].clear();
          for (int r = 0; r < rounds; ++r) {
            CHECK(cudaMemset(flush, r & 0xff, flush_bytes));
            tc[i].push_back(timed(0));
            CHECK(cudaMemset(flush, r & 0xff, flush_bytes));
            t[i].push_back(timed(i));
          }
        }
      }
      double const flop = 2.0 * pb.m * pb.n * double(pb.k);
      char const* names[] = {"cuBLAS f16acc", "seed cp.async", "seed tma", "seed copy warp", "seed 2 copy warps"};
      auto median_tflops = [&](std::vector<float>& v) {
        std::sort(v.begin(), v.end());
        return flop / (v[v.size() / 2] * 1e-3) / 1e12;
      };
      double tf[kTimed], cub[kTimed];
      for (int i = 0; i < kTimed; ++i) {
        tf[i] = median_tflops(t[i]);
        cub[i] = pair && i > 0 ? median_tflops(tc[i]) : tf[0];
      }
      for (int i = 0; i < kTimed; ++i)
        std::printf("  %-17s %7.1f TFLOP/s  %.3fx cuBLAS (%.1f)\n", names[i], tf[i], tf[i] / cub[i], cub[i]);
      if (std::getenv("WAIT_PROBE") != nullptr && std::atoi(std::getenv("WAIT_PROBE")) != 0) wait_probe(pb, 20);
      std::printf("  tma / cp.async %.3f, copy warp / cp.async %.3f, 2 copy warps / cp.async %.3f (unsplit, median of %d, L2 flushed, %s)\n",
                  tf[2] / tf[1], tf[3] / tf[1], tf[4] / tf[1], rounds, pair ? "each beside cuBLAS alone" : "all five interleaved");
    }
  }
  std::printf("%d wrong; cuda: %s\n", bad, cudaGetErrorString(cudaGetLastError()));
  return bad != 0;
}
