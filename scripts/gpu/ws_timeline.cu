// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Where a Hopper GEMM launch spends its time, CTA by CTA: the default
// sm90_ws_gemm launch of each problem (bf16 TN, D row-major), built with
// the TESSERA_WS_TIMELINE hook (include/tessera/gemm/sm90_ws_timeline.cuh),
// ROUNDS times behind the bench's queue gate on three rotating input sets.
// Per launch, times are taken from the first CTA's entry: when the CTAs
// start, when the producers issue their first and last TMA load, when the
// consumers pass their first and last full[] waits, and when they are done;
// each is summarised over the CTAs (median, max), then over the launches
// (median).
// Also printed: the medians of slots 9-13 (sm90_ws_timeline.cuh: the
// start's steps, consumer 0's last wgmma wait and epilogue end), the
// launch's event time, and the bytes of A and B over it and over the
// stretch between the median first and last stage.
// BETA=b in the environment: D = A B + b C, C in D's buffer (in place).
// Usage: ws_timeline ROUNDS MxNxK...  (scripts/gpu/ws_timeline.sh builds it)
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <tessera/gemm/sm90_ws_gemm.cuh>

#include "driver_util.cuh"
#include "queue_hold.hpp"
#include "ws_launch.cuh"

#ifndef TESSERA_WS_TIMELINE
#error "ws_timeline.cu needs -DTESSERA_WS_TIMELINE (and a runtime built with it): scripts/gpu/ws_timeline.sh"
#endif

using namespace tessera;
namespace sm90 = tessera::kernels::sm90;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void run_problem(int m, int n, int k, int rounds) {
  using T = __nv_bfloat16;
  std::vector<T*> as(3), bs(3);
  for (int r = 0; r < 3; ++r) {
    CHECK(cudaMalloc(&as[r], sizeof(T) * size_t(m) * k));
    CHECK(cudaMalloc(&bs[r], sizeof(T) * size_t(n) * k));
    fill<<<1024, 256>>>(as[r], (long long)m * k, 1u);
    fill<<<1024, 256>>>(bs[r], (long long)n * k, 2u);
  }
  T* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof(T) * size_t(m) * n));
  GemmArgs args = bf16_tn_args(m, n, k, as[0], bs[0], d);
  // BETA=b (session 50): D = A B + b C with C in D's buffer, in place, as
  // `tessera bench --beta` times it; D starts as random values.
  float const beta = std::getenv("BETA") ? float(std::atof(std::getenv("BETA"))) : 0.0f;
  if (beta != 0.0f) {
    fill<<<1024, 256>>>(d, (long long)m * n, 3u);
    args.beta = beta;
    args.c = MatrixDesc{d, MatrixOrder::row_major, n, 0};
  }
  int turn = 0;
  auto launch = [&] {
    args.a.data = as[turn % 3];
    args.b.data = bs[turn % 3];
    ++turn;
    launch_default_or_exit(args);
  };
  for (int i = 0; i < 50; ++i) launch();
  CHECK(cudaDeviceSynchronize());

  constexpr int kS = sm90::kWsTimelineSlots;
  std::vector<std::uint64_t> slots(size_t(sm90::kWsTimelineCtas) * kS);
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  bench::QueueHold gate;
  // Per launch: [0] event time; [1..] the summaries below (us).
  enum { kEvent, kCtas, kEntryMax, kIssueMed, kIssueLastMed, kFirstMed, kFirstMax, kLastMed, kLastMax, kDoneMed, kDoneMax, kSync, kProdLoop, kCoords, kMmaDone, kEpiDone, kN };
  std::vector<std::vector<double>> per(kN);
  // Slots 9-13, summarised as kSync .. kEpiDone.
  constexpr int kMark0 = 9, kMarks = kN - kSync;
  for (int r = 0; r < rounds; ++r) {
    Status s = detail::ws_timeline_clear();
    if (s.ok()) s = gate.hold(nullptr);
    if (!s.ok()) {
      std::printf("%s\n", s.message.c_str());
      std::exit(1);
    }
    CHECK(cudaEventRecord(e0));
    launch();
    CHECK(cudaEventRecord(e1));
    gate.release();
    CHECK(cudaDeviceSynchronize());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    s = detail::ws_timeline_copy(slots.data(), sm90::kWsTimelineCtas);
    if (!s.ok()) {
      std::printf("%s\n", s.message.c_str());
      std::exit(1);
    }
    std::uint64_t t0 = ~std::uint64_t{0};
    for (int c = 0; c < sm90::kWsTimelineCtas; ++c)
      if (slots[size_t(c) * kS] != 0) t0 = std::min(t0, slots[size_t(c) * kS]);
    std::vector<double> entry, issue, issue_last, first, last, done;
    std::vector<std::vector<double>> extra(kMarks);  // slots kMark0 ..
    auto us = [t0](std::uint64_t t) { return double(t - t0) * 1e-3; };
    for (int c = 0; c < sm90::kWsTimelineCtas; ++c) {
      std::uint64_t const* q = &slots[size_t(c) * kS];
      if (q[0] == 0) continue;
      entry.push_back(us(q[0]));
      if (q[1] != 0) issue.push_back(us(q[1]));
      if (q[2] != 0) issue_last.push_back(us(q[2]));
      for (int x = 0; x < kMarks; ++x)
        if (q[kMark0 + x] != 0) extra[size_t(x)].push_back(us(q[kMark0 + x]));
      std::uint64_t f = ~std::uint64_t{0}, l = 0, dn = 0;
      for (int cw = 0; cw < 2; ++cw) {
        if (q[3 + 3 * cw] == 0) continue;
        f = std::min(f, q[3 + 3 * cw]);
        l = std::max(l, q[4 + 3 * cw]);
        dn = std::max(dn, q[5 + 3 * cw]);
      }
      if (l == 0) continue;  // a CTA without a unit
      first.push_back(us(f));
      last.push_back(us(l));
      done.push_back(us(dn));
    }
    auto mx = [](const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); };
    per[kEvent].push_back(1e3 * ms);
    per[kCtas].push_back(double(entry.size()));
    per[kEntryMax].push_back(mx(entry));
    per[kIssueMed].push_back(median(issue));
    per[kIssueLastMed].push_back(median(issue_last));
    per[kFirstMed].push_back(median(first));
    per[kFirstMax].push_back(mx(first));
    per[kLastMed].push_back(median(last));
    per[kLastMax].push_back(mx(last));
    per[kDoneMed].push_back(median(done));
    per[kDoneMax].push_back(mx(done));
    for (int x = 0; x < kMarks; ++x) per[size_t(kSync + x)].push_back(median(extra[size_t(x)]));
  }
  if (gate.timed_out()) std::printf("  (a queue gate opened by its timeout: host time in some intervals)\n");
  double const bytes = 2.0 * (double(m) + double(n)) * double(k);
  double const ev = median(per[kEvent]);
  double const stream = median(per[kLastMed]) - median(per[kFirstMed]);
  detail::Sm90WsVariant const v = detail::default_sm90_ws_variant(args);
  std::printf("%dx%dx%d tn bf16, beta %g: %.0f CTAs (tile_n %d%s%s, splits %d), median of %d launches, us from the first "
              "CTA's entry\n",
              m, n, k, double(args.beta), median(per[kCtas]), v.tile_n, v.pingpong ? ", ping-pong" : "",
              v.transpose ? ", transposed" : "", v.splits, rounds);
  std::printf("  last CTA entry %6.2f | TMA issue (median): first %6.2f, last %6.2f\n", median(per[kEntryMax]),
              median(per[kIssueMed]), median(per[kIssueLastMed]));
  std::printf("  first stage in: median %6.2f, max %6.2f | last stage in: median %6.2f, max %6.2f\n",
              median(per[kFirstMed]), median(per[kFirstMax]), median(per[kLastMed]), median(per[kLastMax]));
  std::printf("  consumers done: median %6.2f, max %6.2f | event time %6.2f (gated)\n", median(per[kDoneMed]),
              median(per[kDoneMax]), ev);
  std::printf("  (medians) barrier init synced %6.2f | producer at its loop %6.2f | first unit known %6.2f\n"
              "  consumer 0: last wgmma wait passed %6.2f, epilogues done %6.2f\n",
              median(per[kSync]), median(per[kProdLoop]), median(per[kCoords]), median(per[kMmaDone]),
              median(per[kEpiDone]));
  std::printf("  A+B over the event time %.0f GB/s; over the median first-to-last stage %.0f GB/s (%.2f us)\n",
              bytes / (ev * 1e-6) / 1e9, stream > 0 ? bytes / (stream * 1e-6) / 1e9 : 0.0, stream);
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  for (int r = 0; r < 3; ++r) {
    CHECK(cudaFree(as[r]));
    CHECK(cudaFree(bs[r]));
  }
  CHECK(cudaFree(d));
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::printf("usage: %s ROUNDS MxNxK...\n", argv[0]);
    return 2;
  }
  int const rounds = std::atoi(argv[1]);
  for (int a = 2; a < argc; ++a) {
    int m = 0, n = 0, k = 0;
    if (std::sscanf(argv[a], "%dx%dx%d", &m, &n, &k) != 3 || m <= 0 || n <= 0 || k <= 0) {
      std::printf("bad problem %s (MxNxK)\n", argv[a]);
      return 2;
    }
    run_problem(m, n, k, rounds);
  }
  return 0;
}
