// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// hopper_cute: seed 002's Hopper GEMMs written in CuTe's vocabulary
// (kernels.cuh), checked and timed beside cuBLAS on the same data.
//
//   hopper_cute [--sizes 4096,8192,4095x4097x4096] [--reps 20] [--no-suite]
//               [--rungs h7_pipeline,h8_pingpong_tma]
//
// A size is N (square) or MxNxK; K must be a multiple of 8. First a suite of
// awkward shapes is checked against an fp64 host reference (unless
// --no-suite); every timed kernel is checked against cuBLAS's output.
// Timing: the contenders interleaved (cuBLAS, cublasGemmEx bf16 in, f32 out,
// CUBLAS_COMPUTE_32F, among them): 2 warm-up rounds, then --reps rounds of
// one run each, the round's first contender rotating, L2 flushed before each
// run; the median per contender. Exit status: 0 all checks passed, 1 a check failed, 2 bad usage,
// 77 no sm_90 device.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "kernels.cuh"

#define HC_CUDA(call)                                                                                       \
  do {                                                                                                      \
    cudaError_t err_ = (call);                                                                              \
    if (err_ != cudaSuccess) {                                                                              \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                                                         \
    }                                                                                                       \
  } while (0)

namespace {

using namespace hopper_cute;
using tessera::bfloat16_t;

struct Shape3 {
  int M, N, K;
};

struct Operands {
  Shape3 s;
  bfloat16_t* a = nullptr;  // (M,K) row-major
  bfloat16_t* b = nullptr;  // (N,K) row-major
  float* c = nullptr;       // (M,N) row-major
  std::vector<bfloat16_t> ha, hb;
};

Operands make_operands(Shape3 s, std::mt19937& rng) {
  Operands o{s};
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  o.ha.resize(std::size_t(s.M) * s.K);
  o.hb.resize(std::size_t(s.N) * s.K);
  for (auto& v : o.ha) v = bfloat16_t(d(rng));
  for (auto& v : o.hb) v = bfloat16_t(d(rng));
  HC_CUDA(cudaMalloc(&o.a, o.ha.size() * 2));
  HC_CUDA(cudaMalloc(&o.b, o.hb.size() * 2));
  HC_CUDA(cudaMalloc(&o.c, std::size_t(s.M) * s.N * 4));
  HC_CUDA(cudaMemcpy(o.a, o.ha.data(), o.ha.size() * 2, cudaMemcpyHostToDevice));
  HC_CUDA(cudaMemcpy(o.b, o.hb.data(), o.hb.size() * 2, cudaMemcpyHostToDevice));
  return o;
}

void free_operands(Operands& o) {
  cudaFree(o.a);
  cudaFree(o.b);
  cudaFree(o.c);
}

// A launcher per contender: returns false (with a reason) when it cannot run the shape.
using Launcher = bool (*)(Operands const&, cublasHandle_t, std::string*);

// C as the TMA stores of h4-h7 and h8_pingpong_tma write it, in 64 x 32 f32
// chunks; not ok() when C's rows are not whole 16-byte units (N % 4 != 0).
auto make_c_store(Operands const& o) {
  return make_tma_copy(SM90_TMA_STORE{},
                       make_tensor(make_gmem_ptr(o.c), make_layout(make_shape(o.s.M, o.s.N), make_stride(o.s.N, _1{}))),
                       H4::EpiTile{}, make_shape(Int<H4::kChunkM>{}, Int<H4::kChunkN>{}));
}
char const* const kDeclineTmaStore = "declines (C's rows are not whole 16-byte units for a TMA store): ";

template <class Cfg, int kWhich>
bool launch(Operands const& o, cublasHandle_t, std::string* why) {
  constexpr int kCluster = kWhich == 6 || kWhich == 7 ? 2 : 1;
  auto ta = make_operand_copy<Cfg::kBM>(o.a, o.s.M, o.s.K);
  auto tb = make_operand_copy<Cfg::kBN, kCluster>(o.b, o.s.N, o.s.K);
  if (!ta.ok() || !tb.ok()) {
    *why = !ta.ok() ? ta.error() : tb.error();
    return false;
  }
  if (!tb.slices_ok()) {
    *why = tb.slice_error();
    return false;
  }
  dim3 const grid((o.s.M + Cfg::kBM - 1) / Cfg::kBM, (o.s.N + Cfg::kBN - 1) / Cfg::kBN);
  if constexpr (kWhich == 1) {
    auto k = h1_seed<decltype(ta), decltype(tb)>;
    HC_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmem));
    k<<<grid, Cfg::kThreads, Cfg::kSmem>>>(ta, tb, o.c, o.s.M, o.s.N, o.s.K);
  } else {
    static int sms = 0;
    if (sms == 0) HC_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int const tiles = int(grid.x * grid.y);
    // h2: one CTA per tile; h3-h8: one per SM walking the tiles.
    int const ctas = kWhich == 2 || tiles < sms ? tiles : sms;
    if constexpr (kWhich == 8) {
      if constexpr (Cfg::kTmaStore) {
        auto tc = make_c_store(o);
        if (!tc.ok()) {
          *why = std::string(kDeclineTmaStore) + tc.error();
          return false;
        }
        auto k = h8_pingpong_tma<Cfg, decltype(ta), decltype(tb), decltype(tc)>;
        HC_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmem));
        k<<<ctas, Cfg::kThreads, Cfg::kSmem>>>(ta, tb, tc, o.s.M, o.s.N, o.s.K, 16);
      } else {
        auto k = h8_pingpong<Cfg, decltype(ta), decltype(tb)>;
        HC_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmem));
        k<<<ctas, Cfg::kThreads, Cfg::kSmem>>>(ta, tb, o.c, o.s.M, o.s.N, o.s.K, 16);
      }
    } else if constexpr (kWhich <= 3) {
      auto k = h3_persistent<decltype(ta), decltype(tb)>;
      HC_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmem));
      k<<<ctas, Cfg::kThreads, Cfg::kSmem>>>(ta, tb, o.c, o.s.M, o.s.N, o.s.K);
    } else {
      auto tc = make_c_store(o);
      if (!tc.ok()) {
        *why = std::string(kDeclineTmaStore) + tc.error();
        return false;
      }
      auto k = h4_tma_store<decltype(ta), decltype(tb), decltype(tc), kCluster, kWhich == 7>;
      HC_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, H4::kSmem));
      if constexpr (kCluster == 1) {
        // h5: groups of 16 M-tiles walked N-first (tile_index); h4: the plain order.
        k<<<ctas, Cfg::kThreads, H4::kSmem>>>(ta, tb, tc, o.s.M, o.s.N, o.s.K, kWhich == 5 ? 16 : o.s.M);
      } else {
        // h6/h7: as many clusters of 2 as fit at once (GPCs of odd size leave
        // SMs idle), walking pairs of tiles in groups of 8 pairs (16 M-tiles).
        static int active = 0;
        arch::ClusterLaunch l;
        l.block = dim3(Cfg::kThreads);
        l.cluster = dim3(2);
        l.smem = std::size_t(H4::kSmem);
        if (active == 0) {
          l.grid = dim3(2);
          active = arch::max_active_clusters(reinterpret_cast<const void*>(k), l);
          if (active <= 0) {
            *why = "no cluster of 2 fits";
            return false;
          }
        }
        int const pairs = ((int(grid.x) + 1) / 2) * int(grid.y);
        l.grid = dim3(unsigned(2 * std::min(pairs, active)));
        HC_CUDA(arch::launch_cluster(k, l, ta, tb, tc, o.s.M, o.s.N, o.s.K, 8));
      }
    }
  }
  HC_CUDA(cudaGetLastError());
  return true;
}

bool launch_cublas(Operands const& o, cublasHandle_t h, std::string* why) {
  float const alpha = 1.f, beta = 0.f;
  // Column-major view: C^T (N x M) = B (K x N, ld K)^T * A (K x M, ld K).
  cublasStatus_t const st =
      cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, o.s.N, o.s.M, o.s.K, &alpha, o.b, CUDA_R_16BF, o.s.K, o.a,
                   CUDA_R_16BF, o.s.K, &beta, o.c, CUDA_R_32F, o.s.N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (st != CUBLAS_STATUS_SUCCESS) {
    *why = "cublasGemmEx status " + std::to_string(int(st));
    return false;
  }
  return true;
}

// may_decline: a shape the rung does not take is skipped, not a failure.
struct Contender {
  char const* name;
  Launcher run;
  bool may_decline = false;
};
Contender const kContenders[] = {{"cublas", launch_cublas},
                                 {"h1_seed", launch<H1, 1>},
                                 {"h2_ws", launch<H2, 2>},
                                 {"h3_persist", launch<H2, 3>},
                                 {"h4_tmastore", launch<H2, 4>, true},
                                 {"h5_grouped", launch<H2, 5>, true},
                                 {"h6_cluster", launch<H2, 6>, true},
                                 {"h7_pipeline", launch<H2, 7>, true},
                                 {"h8_pingpong", launch<H8, 8>},
                                 {"h8_pingpong_64x256", launch<H8w, 8>},
                                 {"h8_pingpong_tma", launch<H8t, 8>, true},
                                 {"h8_pingpong_64x256_tma", launch<H8wt, 8>, true}};

std::vector<float> download(Operands const& o) {
  std::vector<float> c(std::size_t(o.s.M) * o.s.N);
  HC_CUDA(cudaMemcpy(c.data(), o.c, c.size() * 4, cudaMemcpyDeviceToHost));
  return c;
}

double rel_error(std::vector<float> const& got, std::vector<double> const& ref) {
  double e = 0, r = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double const d = double(got[i]) - ref[i];
    e += d * d;
    r += ref[i] * ref[i];
  }
  return r > 0 ? std::sqrt(e / r) : std::sqrt(e);
}

std::vector<double> host_reference(Operands const& o) {
  std::vector<double> ref(std::size_t(o.s.M) * o.s.N);
  for (int m = 0; m < o.s.M; ++m)
    for (int n = 0; n < o.s.N; ++n) {
      double acc = 0;
      for (int k = 0; k < o.s.K; ++k)
        acc += double(float(o.ha[std::size_t(m) * o.s.K + k])) * double(float(o.hb[std::size_t(n) * o.s.K + k]));
      ref[std::size_t(m) * o.s.N + n] = acc;
    }
  return ref;
}

// Median milliseconds of each contender in `run`, timed interleaved: two
// warm-up rounds, then `reps` rounds in which every contender runs once
// (L2 flushed before each run), each round starting one contender later, so
// that the clock drift of a long run and the order within a round fall on
// every contender alike.
std::vector<float> interleaved_median_ms(Operands const& o, std::vector<Contender> const& run, cublasHandle_t h,
                                         int reps, void* flush, std::size_t flush_bytes) {
  std::string why;
  std::size_t const n = run.size();
  for (int w = 0; w < 2; ++w)
    for (Contender const& c : run) c.run(o, h, &why);
  std::vector<cudaEvent_t> ev(2 * n * std::size_t(reps));
  for (auto& e : ev) HC_CUDA(cudaEventCreate(&e));
  for (int r = 0; r < reps; ++r)
    for (std::size_t j = 0; j < n; ++j) {
      std::size_t const c = (std::size_t(r) + j) % n;
      cudaEvent_t* const e = &ev[2 * (std::size_t(r) * n + c)];
      HC_CUDA(cudaMemsetAsync(flush, r & 0xff, flush_bytes));
      HC_CUDA(cudaEventRecord(e[0]));
      run[c].run(o, h, &why);
      HC_CUDA(cudaEventRecord(e[1]));
    }
  HC_CUDA(cudaDeviceSynchronize());
  std::vector<float> med(n);
  for (std::size_t c = 0; c < n; ++c) {
    std::vector<float> ms(static_cast<std::size_t>(reps));
    for (int r = 0; r < reps; ++r) {
      std::size_t const i = 2 * (std::size_t(r) * n + c);
      HC_CUDA(cudaEventElapsedTime(&ms[std::size_t(r)], ev[i], ev[i + 1]));
    }
    std::sort(ms.begin(), ms.end());
    med[c] = ms[std::size_t(reps) / 2];
  }
  for (auto& e : ev) cudaEventDestroy(e);
  return med;
}

bool parse_sizes(std::string const& arg, std::vector<Shape3>* out) {
  std::size_t pos = 0;
  while (pos <= arg.size()) {
    std::size_t const end = std::min(arg.find(',', pos), arg.size());
    std::string const tok = arg.substr(pos, end - pos);
    int m = 0, n = 0, k = 0;
    char tail = 0;
    if (std::sscanf(tok.c_str(), "%dx%dx%d%c", &m, &n, &k, &tail) == 3) {
    } else if (std::sscanf(tok.c_str(), "%d%c", &m, &tail) == 1) {
      n = k = m;
    } else {
      return false;
    }
    if (m < 1 || n < 1 || k < 1) return false;
    out->push_back({m, n, k});
    pos = end + 1;
  }
  return !out->empty();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Shape3> sizes;
  int reps = 20;
  bool suite = true;
  std::string rungs;  // empty: every rung; else a comma-separated list (cuBLAS always runs)
  for (int i = 1; i < argc; ++i) {
    std::string const a = argv[i];
    if (a == "--sizes" && i + 1 < argc) {
      if (!parse_sizes(argv[++i], &sizes)) {
        std::fprintf(stderr, "hopper_cute: bad --sizes '%s' [N or MxNxK, comma-separated, positive]\n", argv[i]);
        return 2;
      }
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
      if (reps < 1) {
        std::fprintf(stderr, "hopper_cute: --reps must be positive\n");
        return 2;
      }
    } else if (a == "--no-suite") {
      suite = false;
    } else if (a == "--rungs" && i + 1 < argc) {
      // Every name must be a rung's: a misspelt one would silently drop it from the set.
      std::string const list = argv[++i];
      rungs = "," + list + ",";
      for (std::size_t b = 0, e; b <= list.size(); b = e + 1) {
        e = std::min(list.find(',', b), list.size());
        std::string const name = list.substr(b, e - b);
        bool known = false;
        for (Contender const& c : kContenders) known |= c.run != launch_cublas && name == c.name;
        if (!known) {
          std::string names;  // the table's, so that the list cannot fall behind it
          for (Contender const& c : kContenders)
            if (c.run != launch_cublas) names += std::string(names.empty() ? "" : ", ") + c.name;
          std::fprintf(stderr, "hopper_cute: --rungs: '%s' is not a rung [%s]\n", name.c_str(), names.c_str());
          return 2;
        }
      }
    } else {
      std::fprintf(stderr,
                   "usage: hopper_cute [--sizes 4096,8192,4095x4097x4096] [--reps 20] [--no-suite] "
                   "[--rungs h7_pipeline,h8_pingpong_tma]\n");
      return 2;
    }
  }
  if (sizes.empty()) sizes = {{4096, 4096, 4096}, {8192, 8192, 8192}, {4095, 4097, 4096}};
  // Timing a rung among slower ones raises the GPU's clock for all of them
  // (docs/performance.md, Ampere v6): --rungs times only the named ones.
  auto const selected = [&](Contender const& c) {
    return rungs.empty() || c.run == launch_cublas || rungs.find("," + std::string(c.name) + ",") != std::string::npos;
  };

  int count = 0;
  cudaDeviceProp prop{};
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 || cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      prop.major != 9 || prop.minor != 0) {
    std::printf("hopper_cute: needs an sm_90 GPU (wgmma and TMA as sm_90a); %s\n",
                count == 0 ? "no CUDA device found" : "device 0 is not sm_90");
    return 77;
  }
  std::printf("device: %s, %d SMs. cuBLAS: cublasGemmEx bf16 x bf16 -> f32, CUBLAS_COMPUTE_32F.\n", prop.name,
              prop.multiProcessorCount);
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "hopper_cute: cublasCreate failed\n");
    return 1;
  }
  std::mt19937 rng(std::random_device{}());
  bool all_ok = true;

  if (suite) {
    // 2300x2052x72: more tiles than two per SM of 132 (306 of 128x128, 324 of
    // 64x256, 162 of 128x256), so the persistent rungs' CTAs walk several
    // tiles and both ping-pong warpgroups run (in the smaller shapes each CTA
    // has one tile, warpgroup 0's), with M and N residues and N % 4 == 0 for
    // the TMA-store rungs.
    Shape3 const awkward[] = {{1, 1, 8},     {129, 257, 72}, {300, 200, 1000}, {256, 384, 1000},
                              {77, 513, 136}, {2300, 2052, 72}};
    for (Shape3 const s : awkward) {
      Operands o = make_operands(s, rng);
      std::vector<double> const ref = host_reference(o);
      for (Contender const& c : kContenders) {
        if (!selected(c)) continue;
        HC_CUDA(cudaMemset(o.c, 0xFF, std::size_t(s.M) * s.N * 4));  // poison
        std::string why;
        if (!c.run(o, handle, &why)) {
          std::printf("check %dx%dx%d %-8s %s: %s\n", s.M, s.N, s.K, c.name,
                      c.may_decline ? "skipped" : "FAILED to launch", why.c_str());
          all_ok &= c.may_decline;
          continue;
        }
        HC_CUDA(cudaDeviceSynchronize());
        double const e = rel_error(download(o), ref);
        bool const ok = std::isfinite(e) && e <= 1e-5;
        all_ok &= ok;
        std::printf("check %dx%dx%d %-8s rel_err %.2e %s\n", s.M, s.N, s.K, c.name, e, ok ? "ok" : "FAILED");
      }
      free_operands(o);
    }
  }

  std::size_t const flush_bytes = std::max<std::size_t>(std::size_t(2) * prop.l2CacheSize, std::size_t(64) << 20);
  void* flush = nullptr;
  HC_CUDA(cudaMalloc(&flush, flush_bytes));
  std::printf("\n%-16s %-8s %10s %9s %9s %9s\n", "size", "rung", "median_ms", "TFLOP/s", "x_cuBLAS", "rel_err");
  for (Shape3 const s : sizes) {
    Operands o = make_operands(s, rng);
    std::vector<double> ref_cublas;
    std::vector<Contender> timed;
    std::vector<double> errors;
    for (Contender const& c : kContenders) {  // check each against cuBLAS's output
      if (!selected(c)) continue;
      std::string why;
      HC_CUDA(cudaMemset(o.c, 0xFF, std::size_t(s.M) * s.N * 4));
      if (!c.run(o, handle, &why)) {
        std::printf("%5dx%5dx%5d %-8s skipped: %s\n", s.M, s.N, s.K, c.name, why.c_str());
        all_ok &= c.may_decline;
        continue;
      }
      HC_CUDA(cudaDeviceSynchronize());
      std::vector<float> const got = download(o);
      double e = 0;
      if (c.run == launch_cublas) {
        ref_cublas.assign(got.begin(), got.end());
      } else if (ref_cublas.empty()) {
        continue;  // nothing to check against
      } else {
        e = rel_error(got, ref_cublas);
        // Both accumulate in f32, in different orders: at K = 8192 their
        // relative difference is a few 1e-6 (1e-5 against fp64 above).
        bool const ok = std::isfinite(e) && e <= 1e-4;
        all_ok &= ok;
        if (!ok) std::printf("%5dx%5dx%5d %-8s differs from cuBLAS: rel_err %.2e\n", s.M, s.N, s.K, c.name, e);
      }
      timed.push_back(c);
      errors.push_back(e);
    }
    if (timed.empty() || timed[0].run != launch_cublas) {
      free_operands(o);
      continue;
    }
    std::vector<float> const ms = interleaved_median_ms(o, timed, handle, reps, flush, flush_bytes);
    for (std::size_t i = 0; i < timed.size(); ++i) {
      double const tflops = 2.0 * s.M * double(s.N) * s.K / (ms[i] * 1e-3) / 1e12;
      std::printf("%5dx%5dx%5d %-8s %10.3f %9.1f %9.3f %9.1e\n", s.M, s.N, s.K, timed[i].name, ms[i], tflops,
                  ms[0] / ms[i], errors[i]);
    }
    free_operands(o);
  }
  cudaFree(flush);
  cublasDestroy(handle);
  std::printf("\n%s\n", all_ok ? "all checks passed" : "SOME CHECKS FAILED");
  return all_ok ? 0 : 1;
}
