// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Runs rungs 1-8 on the host (see cuda_runtime.h here) over ragged shapes,
// padded/unaligned leading dimensions and misaligned pointers, with NaN in the
// padding, against an fp64 reference. Built and run by run.sh.
#include <cstdio>
#include <deque>
#include <functional>
#include <random>
#include <thread>
#include <vector>
#include "k1_naive.cuh"
#include "k2_smem.cuh"
#include "k3_thread_tile_1d.cuh"
#include "k4_thread_tile_2d.cuh"
#include "k5_vectorized.cuh"
#include "k6_warp_tile.cuh"
#include "k7_double_buffer.cuh"
#include "k8_wmma.cuh"
using namespace tessera::ladder;

void run(dim3 grid, dim3 block, const std::function<void()>& body) {
  gridDim = grid; blockDim = block;
  const unsigned n = block.x * block.y;
  for (unsigned by = 0; by < grid.y; ++by)
    for (unsigned bx = 0; bx < grid.x; ++bx) {
      blockIdx = {bx, by, 0};
      std::barrier<> bar(n); g_bar = &bar;
      std::deque<std::barrier<>> warp_bars;  // one per warp, for __syncwarp
      std::vector<std::barrier<>*> warp_bar_ptrs;
      for (unsigned w = 0; w < (n + 31) / 32; ++w) warp_bar_ptrs.push_back(&warp_bars.emplace_back(32));
      g_warp_bars = warp_bar_ptrs.data();
      std::vector<std::thread> ts;
      for (unsigned t = 0; t < n; ++t)
        ts.emplace_back([&, t] { threadIdx = {t % block.x, t / block.x, 0}; body(); });
      for (auto& t : ts) t.join();
    }
}

int main() {
  struct Case { int M, N, K, pad, mis; };
  int fails = 0;
  for (Case cs : {Case{130, 132, 20, 0, 0}, Case{130, 130, 18, 2, 0}, Case{67, 45, 37, 0, 0}, Case{129, 140, 13, 1, 1}, Case{5, 3, 2, 4, 0}}) {
    const int lda = cs.K + cs.pad, ldb = cs.N + cs.pad, ldc = cs.N + cs.pad;
    std::mt19937 g(7); std::uniform_real_distribution<float> U(-1, 1);
    std::vector<float> A(size_t(cs.M) * lda + cs.mis), B(size_t(cs.K) * ldb + cs.mis), C0(size_t(cs.M) * cs.N);
    for (int m = 0; m < cs.M; ++m) for (int k = 0; k < lda; ++k) A[cs.mis + m * lda + k] = k < cs.K ? U(g) : NAN;
    for (int k = 0; k < cs.K; ++k) for (int n = 0; n < ldb; ++n) B[cs.mis + k * ldb + n] = n < cs.N ? U(g) : NAN;
    for (auto& c : C0) c = U(g);
    for (float beta : {0.0f, -1.25f}) {
      const float alpha = 0.75f;
      std::vector<std::pair<const char*, std::function<void(GemmParams)>>> rungs = {
        {"k1", [](GemmParams p) { run(dim3((p.N + 31) / 32, (p.M + 31) / 32), dim3(32, 32), [&] { k1_naive_kernel(p); }); }},
        {"k2", [](GemmParams p) { run(dim3((p.N + 31) / 32, (p.M + 31) / 32), dim3(32, 32), [&] { k2_smem_kernel<32>(p); }); }},
        {"k3", [](GemmParams p) { run(dim3((p.N + 63) / 64, (p.M + 63) / 64), dim3(512), [&] { k3_thread_tile_1d_kernel<64, 64, 8, 8>(p); }); }},
        {"k4", [](GemmParams p) { run(dim3((p.N + 127) / 128, (p.M + 127) / 128), dim3(256), [&] { k4_thread_tile_2d_kernel<128, 128, 8, 8, 8>(p); }); }},
        {"k5", [](GemmParams p) { run(dim3((p.N + 127) / 128, (p.M + 127) / 128), dim3(256), [&] { k5_vectorized_kernel<128, 128, 8, 8, 8>(p); }); }},
        {"k6", [](GemmParams p) { run(dim3((p.N + 127) / 128, (p.M + 127) / 128), dim3(256), [&] { k6_warp_tile_kernel<K6Shape>(p); }); }},
        {"k7", [](GemmParams p) { run(dim3((p.N + 127) / 128, (p.M + 127) / 128), dim3(256), [&] { k7_double_buffer_kernel<K6Shape>(p); }); }},
        {"k8", [](GemmParams p) { run(dim3((p.N + 127) / 128, (p.M + 127) / 128), dim3(256), [&] { k8_wmma_kernel<K8Shape>(p); }); }},
      };
      for (auto& [name, fn] : rungs) {
        std::vector<float> C(size_t(cs.M) * ldc + cs.mis, NAN);
        if (beta != 0) for (int m = 0; m < cs.M; ++m) for (int n = 0; n < cs.N; ++n) C[cs.mis + m * ldc + n] = C0[m * cs.N + n];
        fn(GemmParams{cs.M, cs.N, cs.K, A.data() + cs.mis, lda, B.data() + cs.mis, ldb, C.data() + cs.mis, ldc, alpha, beta});
        double d2 = 0, r2 = 0; int bad = 0, pad = 0;
        for (int m = 0; m < cs.M; ++m) for (int n = 0; n < ldc; ++n) {
          const float c = C[cs.mis + m * ldc + n];
          if (n >= cs.N) { pad += !std::isnan(c); continue; }
          double ref = 0; for (int k = 0; k < cs.K; ++k) ref += double(A[cs.mis + m * lda + k]) * B[cs.mis + k * ldb + n];
          ref = alpha * ref + (beta != 0 ? beta * double(C0[m * cs.N + n]) : 0.0);
          if (!std::isfinite(c)) ++bad; else d2 += (c - ref) * (c - ref);
          r2 += ref * ref;
        }
        const double err = std::sqrt(d2 / r2);
        const bool ok = bad == 0 && pad == 0 && err < (name[1] == '8' ? 5e-3 : 1e-5);
        fails += !ok;
        std::printf("%dx%dx%d+%d%s beta=%.2f %s err=%.2e nonfinite=%d pad=%d %s\n", cs.M, cs.N, cs.K, cs.pad, cs.mis ? "~" : "", beta, name, err, bad, pad, ok ? "ok" : "FAIL");
      }
    }
  }
  std::printf("%d failures\n", fails);
  return fails != 0;
}
