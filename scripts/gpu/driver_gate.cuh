// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Interleaved timing behind the benchmark's queue gate
// (bench/queue_hold.hpp), for the timing drivers that link the runtime
// library (layouts.sh, waves.sh, predecessor.sh). Same rounds, rotation and
// L2 flush as interleaved_tflops (driver_util.cuh); the difference is that a
// round's runs, flushes and events are all enqueued behind a held gate before
// the GPU reaches the first of them, as `tessera bench` times. Without it, a
// round synchronises after every run, the GPU idles while the host issues the
// next one, and each interval of a ~10 us kernel can hold more than GPU time
// (docs/performance.md, "Benchmark method", the queue gate).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "driver_util.cuh"
#include "queue_hold.hpp"

// `rounds` rounds behind one queue gate each; a round visits i = 0 .. n - 1
// in a rotating order (round r starts at r mod n) and enqueues pre(i)
// (untimed), the L2 flush (flush bytes overwritten), then timed(i) between
// two events. Returns each i's median in milliseconds. Every kernel must
// have been launched once before (queue_hold.hpp, lazy loading).
template <class Pre, class Timed>
std::vector<double> gated_medians_ms(Pre&& pre, Timed&& timed, int n, int rounds, void* flush, size_t flush_bytes) {
  std::vector<cudaEvent_t> ev(2 * size_t(n));
  for (cudaEvent_t& e : ev) CHECK(cudaEventCreate(&e));
  tessera::bench::QueueHold gate;
  std::vector<std::vector<float>> t(n);
  for (int r = 0; r < rounds; ++r) {
    tessera::Status const s = gate.hold(nullptr);
    if (!s.ok()) { std::printf("queue gate: %s\n", s.message.c_str()); std::exit(1); }
    for (int j = 0; j < n; ++j) {
      int const i = (j + r) % n;
      pre(i);
      CHECK(cudaMemsetAsync(flush, r & 0xff, flush_bytes));
      CHECK(cudaEventRecord(ev[2 * i]));
      timed(i);
      CHECK(cudaEventRecord(ev[2 * i + 1]));
    }
    gate.release();
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i) {
      float ms;
      CHECK(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
      t[i].push_back(ms);
    }
  }
  if (gate.timed_out()) std::printf("  queue gate timed out: some intervals may include host time\n");
  for (cudaEvent_t& e : ev) CHECK(cudaEventDestroy(e));
  std::vector<double> med(n);
  for (int i = 0; i < n; ++i) {
    std::sort(t[i].begin(), t[i].end());
    med[i] = t[i][t[i].size() / 2];
  }
  return med;
}

// As interleaved_tflops; every kernel must have been launched once before
// (the warm-up does it; see queue_hold.hpp on lazy loading). Prints a line
// when a gate opened by its timeout.
// `before` >= 0: every timed run(i) is preceded, before the flush, by
// run(i) and run(before) (run(1) when i == before), untimed: each kernel
// then runs as in `tessera bench`, which alternates cuBLAS and Tessera
// runs. NOTE: a GEMM kernel's time depends on what ran before it (session
// 11, runs 112-114, H200): our default at 2048x1024x512 took 10.3 us after
// itself, 11.6 after cuBLAS and 12.9 after another of our kernels, where a
// tiny kernel or one with another shared-memory carveout before it cost
// nothing, nor did the same kernel on other buffers or with another K (runs
// 112, 125). Session 12 (run 129, H100): the same function on its other
// mainloop copy costs nothing, its f32 sibling (other epilogue code) the
// most, and ncu counts 3-4x the no-instruction stalls after a different
// function: the code is fetched again (the L2 flush evicts it from L2
// too). A smaller epilogue halved the cost (run 131;
// scripts/gpu/predecessor.sh repeats the experiment). Without `before`, each
// run follows whatever the rotation put before it, which favours a variant
// listed right after an identical one by up to 25% on a ~10 us kernel.
template <class Run>
std::vector<double> gated_interleaved_tflops(Run&& run, int n, int rounds, float warm_ms, void* flush,
                                             size_t flush_bytes, double flop, int before = -1) {
  cudaEvent_t w0, w1;
  warm_up(run, n, warm_ms, &w0, &w1);
  CHECK(cudaEventDestroy(w0));
  CHECK(cudaEventDestroy(w1));
  auto pre = [&](int i) {
    if (before < 0) return;
    run(i);
    run(i != before ? before : (before + 1) % n);
  };
  std::vector<double> const ms = gated_medians_ms(pre, run, n, rounds, flush, flush_bytes);
  std::vector<double> tf(n);
  for (int i = 0; i < n; ++i) tf[i] = flop / (ms[i] * 1e-3) / 1e12;
  return tf;
}
