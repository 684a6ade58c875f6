// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The any-ld fast path of tessera::gemm (src/gemm/repack.hpp, docs/gemm.md):
// A/B whose pointers or leading dimensions are not 16-byte multiples are
// copied into a padded workspace and a fast kernel runs on the copy.
//  * RepackPlan.*, RepackSelect.*: the plan and what gemm() would run (host
//    only, no GPU needed);
//  * RepackGemm.*: tessera::gemm on odd leading dimensions, misaligned
//    pointers, every operand order, both D orders, batches, against an fp64
//    reference with D poisoned (the padding of D must stay poison);
//    caller-provided workspace (its contents are checked against the plan),
//    too-small workspace, RepackPolicy::never, and bad input writing nothing;
//  * RepackGemmLayouts.*: a large aligned problem in every layout (M/N-major
//    operands may be copied K-major to reach a better-ranked kernel).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gemm/repack.hpp"
#include "tessera/gemm/api.hpp"

#include "device_test.cuh"
#include "host_elements.cuh"

namespace {

using tessera::DataType;
using tessera::GemmArgs;
using tessera::MatrixOrder;
using tessera::detail::RepackTarget;

constexpr MatrixOrder R = MatrixOrder::row_major;
constexpr MatrixOrder C = MatrixOrder::col_major;

// ---- the plan (host) --------------------------------------------------------

GemmArgs odd_args(MatrixOrder ao, MatrixOrder bo, std::int64_t batch) {
  GemmArgs g;
  g.m = 45;
  g.n = 37;
  g.k = 29;
  g.batch_count = batch;
  g.input = DataType::bf16;
  g.a = {reinterpret_cast<const void*>(std::uintptr_t(0x1002)), ao, ao == R ? 29 : 45, batch > 1 ? 2000 : 0};
  g.b = {reinterpret_cast<const void*>(std::uintptr_t(0x9000)), bo, bo == C ? 29 : 37, batch > 1 ? 1111 : 0};
  return g;
}

TEST(RepackPlan, SameOrderPadsRowsTo16Bytes) {
  GemmArgs const g = odd_args(R, R, 1);
  auto const p = tessera::detail::plan_repack(g, RepackTarget::same_order, RepackTarget::keep);
  ASSERT_TRUE(p.a.active);
  EXPECT_FALSE(p.b.active);
  EXPECT_EQ(p.a.order, R);
  EXPECT_EQ(p.a.rows, 45);
  EXPECT_EQ(p.a.cols, 29);
  EXPECT_EQ(p.a.ld, 32);  // 29 rounded up to 8 bf16 elements
  EXPECT_EQ(p.a.src_row, 29);
  EXPECT_EQ(p.a.src_col, 1);
  EXPECT_EQ(p.a.bytes, std::size_t(45 * 32 * 2));
  EXPECT_EQ(p.bytes, std::size_t((45 * 32 * 2 + 255) / 256 * 256));
}

TEST(RepackPlan, KMajorTransposesMnMajorOperands) {
  GemmArgs const g = odd_args(C, R, 1);  // "nt": A M-major, B N-major
  auto const p = tessera::detail::plan_repack(g, RepackTarget::k_major, RepackTarget::k_major);
  // A copied row-major (M rows of K): A(i,k) was at i + k*45.
  EXPECT_EQ(p.a.order, R);
  EXPECT_EQ(p.a.rows, 45);
  EXPECT_EQ(p.a.cols, 29);
  EXPECT_EQ(p.a.src_row, 1);
  EXPECT_EQ(p.a.src_col, 45);
  // B copied column-major (N columns of K): B(k,j) was at k*37 + j.
  EXPECT_EQ(p.b.order, C);
  EXPECT_EQ(p.b.rows, 37);
  EXPECT_EQ(p.b.cols, 29);
  EXPECT_EQ(p.b.ld, 32);
  EXPECT_EQ(p.b.src_row, 1);
  EXPECT_EQ(p.b.src_col, 37);
  EXPECT_EQ(p.b.offset % tessera::detail::kRepackBlockAlign, 0u);
  EXPECT_GE(p.b.offset, p.a.bytes);
  alignas(16) static char ws[1];
  GemmArgs const q = tessera::detail::packed_args(g, p, ws);
  EXPECT_EQ(q.a.order, R);
  EXPECT_EQ(q.a.ld, 32);
  EXPECT_EQ(q.b.order, C);
  EXPECT_EQ(static_cast<const char*>(q.b.data) - ws, std::ptrdiff_t(p.b.offset));
  EXPECT_TRUE(tessera::detail::operand_aligned16(q.a, 2, 1));
  EXPECT_TRUE(tessera::detail::operand_aligned16(q.b, 2, 1));
}

TEST(RepackPlan, BatchesKeepBroadcastsAndPackStrides) {
  GemmArgs g = odd_args(R, C, 3);
  g.b.batch_stride = 0;  // B broadcast: copied once
  auto const p = tessera::detail::plan_repack(g, RepackTarget::same_order, RepackTarget::same_order);
  EXPECT_EQ(p.a.matrices, 3);
  EXPECT_EQ(p.a.batch_stride, 45 * 32);
  EXPECT_EQ(p.a.src_batch, 2000);
  EXPECT_EQ(p.b.matrices, 1);
  EXPECT_EQ(p.b.batch_stride, 0);
  EXPECT_LE(p.bytes, tessera::gemm_workspace_bytes(g));
}

TEST(RepackPlan, WorkspaceBoundCoversEveryPlan) {
  for (MatrixOrder ao : {R, C})
    for (MatrixOrder bo : {R, C}) {
      GemmArgs const g = odd_args(ao, bo, 2);
      std::size_t const bound = tessera::gemm_workspace_bytes(g);
      for (RepackTarget ta :
           {RepackTarget::keep, RepackTarget::same_order, RepackTarget::k_major, RepackTarget::mn_major})
        for (RepackTarget tb :
             {RepackTarget::keep, RepackTarget::same_order, RepackTarget::k_major, RepackTarget::mn_major})
          EXPECT_LE(tessera::detail::plan_repack(g, ta, tb).bytes, bound);
    }
  GemmArgs e = odd_args(R, C, 1);
  e.k = 0;
  EXPECT_EQ(tessera::gemm_workspace_bytes(e), 0u);
}

// ---- what gemm() would do (host only: selection needs no device) -------------

GemmArgs big(MatrixOrder ao, MatrixOrder bo, std::int64_t m, std::int64_t n, std::int64_t k, bool odd,
             DataType input = DataType::bf16) {
  GemmArgs g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.input = input;
  if (input == DataType::tf32) g.output = DataType::f32;
  std::int64_t const lda = ao == R ? k : m;
  std::int64_t const ldb = bo == C ? k : n;
  // Fake, never dereferenced addresses: 16-byte aligned unless `odd` (then 2).
  std::uintptr_t const base = odd ? 0x10002 : 0x10000;
  g.a = {reinterpret_cast<const void*>(base), ao, lda, 0};
  g.b = {reinterpret_cast<const void*>(base + 0x40000000), bo, ldb, 0};
  g.d = {reinterpret_cast<void*>(std::uintptr_t(0x80000000)), R, n, 0};
  return g;
}

std::string plan_of(const GemmArgs& g, int sm, const tessera::GemmOptions& o = {}) {
  tessera::GemmCallPlan p;
  tessera::Status const s = tessera::select_gemm_call(g, sm, o, &p);
  if (!s.ok()) return "error: " + s.message;
  return std::string(p.kernel->info.name) + (p.copies_a ? " +A" : "") + (p.copies_b ? " +B" : "") +
         (p.workspace_bytes > 0 ? " ws" : "");
}

TEST(RepackSelect, OddLeadingDimensionsAreCopiedForTheFastKernels) {
  GemmArgs const tn = big(R, C, 4095, 4097, 4093, true);
  EXPECT_EQ(plan_of(tn, 90), "sm90_ws_gemm +A +B ws");
  EXPECT_EQ(plan_of(tn, 80), "sm80_tensorop +A +B ws");
  // nn on Hopper: aligned copies in the same order, which the TMA kernel
  // reads (MN-major 16-bit tiles); tf32 copies are made K-major.
  EXPECT_EQ(plan_of(big(C, C, 4095, 4097, 4093, true), 90), "sm90_ws_gemm +A +B ws");
  EXPECT_EQ(plan_of(big(C, C, 4095, 4097, 4093, true, DataType::tf32), 90), "sm90_ws_gemm +A +B ws");
  tessera::GemmOptions never;
  never.repack = tessera::RepackPolicy::never;
  EXPECT_EQ(plan_of(tn, 90, never), "sm80_tensorop");
  // A named kernel that reads the operands as they are gets no copy; one that
  // cannot gets one.
  EXPECT_EQ(plan_of(tn, 90, tessera::GemmOptions{"sm80_tensorop"}), "sm80_tensorop");
  EXPECT_EQ(plan_of(tn, 90, tessera::GemmOptions{"sm90_ws_gemm"}), "sm90_ws_gemm +A +B ws");
}

TEST(RepackSelect, AlignedMnMajorCopiedOnlyWhenItReachesABetterKernel) {
  // 16-bit inputs: the TMA kernel reads M/N-major operands itself (run 26):
  // no copy, whatever the shape.
  for (GemmArgs const g : {big(C, C, 4096, 4096, 4096, false), big(R, R, 4096, 4096, 4096, false),
                           big(C, R, 4096, 4096, 4096, false), big(R, C, 4096, 4096, 4096, false),
                           big(C, R, 128, 8192, 8192, false), big(R, R, 64, 28672, 4096, false),
                           big(C, C, 256, 256, 256, false)})
    EXPECT_EQ(plan_of(g, 90), "sm90_ws_gemm") << g.m << "x" << g.n << "x" << g.k;
  EXPECT_EQ(plan_of(big(C, C, 4096, 4096, 4096, false), 80), "sm80_tensorop");
  // tf32 (no transposed wgmma): the TMA kernel reads one M/N-major operand
  // through registers (as wgmma's A), unless it is the small side of a
  // skinny problem. Two M/N-major operands: one is copied K-major (the
  // smaller; A at equal size) when the problem has >= 2^30 flop and the GEMM
  // does >= 256 flop per copied byte; otherwise mma.sync reads them in place.
  auto tf32 = [](MatrixOrder ao, MatrixOrder bo, std::int64_t m, std::int64_t n, std::int64_t k) {
    return big(ao, bo, m, n, k, false, DataType::tf32);
  };
  for (GemmArgs const g : {tf32(R, C, 4096, 4096, 4096), tf32(C, C, 4096, 4096, 4096), tf32(R, R, 4096, 4096, 4096),
                           tf32(C, C, 256, 256, 256), tf32(C, C, 128, 8192, 8192), tf32(R, R, 64, 28672, 4096)})
    EXPECT_EQ(plan_of(g, 90), "sm90_ws_gemm") << g.m << "x" << g.n << "x" << g.k;
  EXPECT_EQ(plan_of(tf32(C, R, 4096, 4096, 4096), 90), "sm90_ws_gemm +A ws");  // 2048 flop per byte
  EXPECT_EQ(plan_of(tf32(C, R, 4096, 8192, 4096), 90), "sm90_ws_gemm +A ws");  // the smaller one
  EXPECT_EQ(plan_of(tf32(C, R, 8192, 4096, 4096), 90), "sm90_ws_gemm +B ws");
  EXPECT_EQ(plan_of(tf32(C, R, 128, 8192, 8192), 90), "sm90_ws_gemm +A ws");  // 4 MB copied for 17 GFLOP
  EXPECT_EQ(plan_of(tf32(C, R, 1000, 1000, 1000), 90), "sm90_ws_gemm +A ws");  // 500 flop per byte
  EXPECT_EQ(plan_of(tf32(C, R, 512, 512, 512), 90), "sm80_tensorop");  // too small to pay for a copy
  EXPECT_EQ(plan_of(tf32(C, R, 256, 256, 256), 90), "sm80_tensorop");
  // 16x4096x14336: 1.9 GFLOP for 0.9 MB (A), 2048 flop per byte.
  EXPECT_EQ(plan_of(tf32(C, R, 16, 4096, 14336), 90), "sm90_ws_gemm +A ws");
  // Copying the smaller operand does (the other dimension) / 2 flop per
  // byte: 150 here, too little work per copied byte.
  EXPECT_EQ(plan_of(tf32(C, R, 300, 300, 8192), 90), "sm80_tensorop");
  // One M/N-major operand that would sit on B' in D's orientation (tt with a
  // row-major D): the kernel computes D^T with the direct epilogue; for a
  // D of 32 MiB or more and a short K the operand is copied instead (runs
  // 198-199: 16384x8192x1024 tt 0.815x in place, 1.148x copied).
  EXPECT_EQ(plan_of(tf32(R, R, 16384, 8192, 1024), 90), "sm90_ws_gemm +B ws");
  // The rule is the Hopper kernel's orientation; Ampere's kernel has none.
  EXPECT_EQ(plan_of(tf32(R, R, 16384, 8192, 1024), 80), "sm80_tensorop");
  EXPECT_EQ(plan_of(tf32(R, R, 16384, 8192, 2048), 90), "sm90_ws_gemm");  // K long enough
  EXPECT_EQ(plan_of(tf32(R, R, 2048, 2048, 1024), 90), "sm90_ws_gemm");   // 16 MB of D: in place
  EXPECT_EQ(plan_of(tf32(R, R, 3072, 3072, 1024), 90), "sm90_ws_gemm +B ws");  // 36 MB
  EXPECT_EQ(plan_of(tf32(C, C, 16384, 8192, 1024), 90), "sm90_ws_gemm");  // A' = A: TMA store as it is
  {
    GemmArgs g = tf32(C, C, 16384, 8192, 1024);  // D column-major: A is the B' side
    g.d = {g.d.data, C, g.m, 0};
    EXPECT_EQ(plan_of(g, 90), "sm90_ws_gemm +A ws");
  }
  // The small side of a skinny problem M/N-major: copied K-major (2 MB for
  // 8.6 GFLOP).
  EXPECT_EQ(plan_of(tf32(C, C, 64, 8192, 8192), 90), "sm90_ws_gemm +A ws");
  EXPECT_EQ(plan_of(tf32(R, R, 8192, 64, 8192), 90), "sm90_ws_gemm +B ws");
}

TEST(RepackSelect, F32KContiguousOperandsCopiedMnMajorForTheFfmaKernel) {
  // The FFMA kernels copy M/N-contiguous operands with 16-byte cp.async and
  // K-contiguous ones element by element (8192^3, run 18: tn 0.87x against
  // nt 0.95x): large f32 problems copy the K-contiguous operands first.
  auto f32 = [](MatrixOrder ao, MatrixOrder bo, std::int64_t m, std::int64_t n, std::int64_t k) {
    return big(ao, bo, m, n, k, false, DataType::f32);
  };
  for (int sm : {80, 90}) {
    EXPECT_EQ(plan_of(f32(C, R, 4096, 4096, 4096), sm), "simt_tiled_sgemm");        // nt: read in place
    EXPECT_EQ(plan_of(f32(R, R, 4096, 4096, 4096), sm), "simt_tiled_sgemm +A ws");  // tt
    EXPECT_EQ(plan_of(f32(C, C, 4096, 4096, 4096), sm), "simt_tiled_sgemm +B ws");  // nn
    EXPECT_EQ(plan_of(f32(R, C, 4096, 4096, 4096), sm), "simt_tiled_sgemm +A +B ws");  // tn
    EXPECT_EQ(plan_of(f32(R, C, 1024, 1024, 1024), sm), "simt_tiled_sgemm");  // too small to pay for a copy
    // Skinny: too little work per copied byte (128x8192x8192 tn: 256 flop/B).
    EXPECT_EQ(plan_of(f32(R, C, 128, 8192, 8192), sm), "simt_tiled_sgemm +A ws");
    EXPECT_EQ(plan_of(f32(C, C, 16, 4096, 14336), sm), "simt_tiled_sgemm");
    // Odd leading dimensions: K-contiguous operands copied M/N-major, a
    // misaligned M/N-contiguous one padded in its own order.
    // (ld = K = 4093 and ld = N = 4097: rows 4-byte aligned only.)
    EXPECT_EQ(plan_of(f32(R, R, 4095, 4097, 4093), sm), "simt_tiled_sgemm +A +B ws");
    EXPECT_EQ(plan_of(f32(C, R, 4095, 4097, 4093), sm), "simt_tiled_sgemm +A +B ws");
  }
  // The copy makes the operand M/N-major.
  GemmArgs const tn = f32(R, C, 4096, 4096, 4096);
  tessera::detail::RepackPlan const rp =
      tessera::detail::plan_repack(tn, RepackTarget::mn_major, RepackTarget::mn_major);
  EXPECT_EQ(rp.a.order, C);
  EXPECT_EQ(rp.b.order, R);
  EXPECT_EQ(rp.a.rows, 4096);
  EXPECT_EQ(rp.a.src_row, 1);     // row r of the copy = column r of A (row-major, ld 4096)
  EXPECT_EQ(rp.a.src_col, 4096);
  // A kernel named by the caller runs the operands as given.
  EXPECT_EQ(plan_of(tn, 90, tessera::GemmOptions{"simt_sgemm"}), "simt_sgemm");
  EXPECT_EQ(plan_of(tn, 90, tessera::GemmOptions{"simt_tiled_sgemm"}), "simt_tiled_sgemm");
}

// ---- tessera::gemm on the GPU ----------------------------------------------

using tessera::test::at;
using tessera::test::load_elem;
using tessera::test::store_elem;

using DeviceBuffer = tessera::test::DevBuf;

struct Case {
  std::string name;
  DataType in, out, acc;
  MatrixOrder ao, bo, dorder;
  std::int64_t m, n, k;
  std::int64_t pad = 0;     // extra elements on A/B leading dimensions
  std::int64_t offset = 0;  // elements added to A/B base pointers
  int batch = 1;
  float beta = 0.0f;
  std::int64_t pad_b = 0;   // extra elements on B's leading dimension only
};

double tolerance(const Case& c) {
  if (c.in == DataType::tf32) return 4e-3;
  if (c.acc == DataType::f16) return 2.5e-3 * std::sqrt(double(c.k) / 16.0) + 2e-3;
  if (c.out == DataType::f16) return 2e-3;
  if (c.out == DataType::bf16) return 1e-2;
  return 1e-4;
}

// Host-side storage of one case and its logical fp64 values.
struct Problem {
  Case cs;
  std::int64_t lda = 0, ldb = 0, ldd = 0, sa = 0, sb = 0, sd = 0;
  std::vector<unsigned char> ha, hb, hc;
  DeviceBuffer da, db, dc, dd;
  GemmArgs args;
};

void make_problem(const Case& cs, Problem& p) {
  p.cs = cs;
  std::int64_t const in_b = tessera::size_of(cs.in), out_b = tessera::size_of(cs.out);
  p.lda = (cs.ao == R ? cs.k : cs.m) + cs.pad;
  p.ldb = (cs.bo == R ? cs.n : cs.k) + cs.pad + cs.pad_b;
  p.ldd = (cs.dorder == R ? cs.n : cs.m) + 3;  // D padded: the padding must stay poison
  p.sa = p.lda * (cs.ao == R ? cs.m : cs.k) + 5;  // odd batch strides
  p.sb = p.ldb * (cs.bo == R ? cs.k : cs.n) + 3;
  p.sd = p.ldd * (cs.dorder == R ? cs.m : cs.n);
  std::int64_t const na = p.sa * cs.batch + cs.offset, nb = p.sb * cs.batch + cs.offset, nd = p.sd * cs.batch;
  std::mt19937 rng(777u + unsigned(cs.m * 3 + cs.n * 5 + cs.k * 7));
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  p.ha.resize(std::size_t(na * in_b));
  p.hb.resize(std::size_t(nb * in_b));
  p.hc.resize(std::size_t(nd * out_b));
  for (std::int64_t i = 0; i < na; ++i) store_elem(cs.in, p.ha.data(), i, dist(rng));
  for (std::int64_t i = 0; i < nb; ++i) store_elem(cs.in, p.hb.data(), i, dist(rng));
  for (std::int64_t i = 0; i < nd; ++i) store_elem(cs.out, p.hc.data(), i, dist(rng));
  ASSERT_EQ(cudaMalloc(&p.da.p, p.ha.size()), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&p.db.p, p.hb.size()), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&p.dc.p, p.hc.size()), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&p.dd.p, p.hc.size()), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(p.da.p, p.ha.data(), p.ha.size(), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(p.db.p, p.hb.data(), p.hb.size(), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(p.dc.p, p.hc.data(), p.hc.size(), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(p.dd.p, 0xFF, p.hc.size()), cudaSuccess);  // poison: NaN in every type
  GemmArgs& g = p.args;
  g.m = cs.m;
  g.n = cs.n;
  g.k = cs.k;
  g.batch_count = cs.batch;
  g.input = cs.in;
  g.output = cs.out;
  g.accumulate = cs.acc;
  g.beta = cs.beta;
  g.a = {static_cast<char*>(p.da.p) + cs.offset * in_b, cs.ao, p.lda, p.sa};
  g.b = {static_cast<char*>(p.db.p) + cs.offset * in_b, cs.bo, p.ldb, p.sb};
  g.c = {cs.beta != 0.0f ? p.dc.p : nullptr, cs.dorder, p.ldd, p.sd};
  g.d = {p.dd.p, cs.dorder, p.ldd, p.sd};
}

// D against the fp64 product (computed here on the host) and D's padding
// still poisoned.
void check_result(Problem& p) {
  const Case& cs = p.cs;
  std::int64_t const out_b = tessera::size_of(cs.out);
  std::vector<unsigned char> hd(p.hc.size());
  ASSERT_EQ(cudaMemcpy(hd.data(), p.dd.p, hd.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  double err = 0, ref = 0;
  for (int z = 0; z < cs.batch; ++z)
    for (std::int64_t i = 0; i < cs.m; ++i)
      for (std::int64_t j = 0; j < cs.n; ++j) {
        double s = 0;
        for (std::int64_t kk = 0; kk < cs.k; ++kk)
          s += load_elem(cs.in, p.ha.data(), cs.offset + z * p.sa + at(cs.ao, p.lda, i, kk)) *
               load_elem(cs.in, p.hb.data(), cs.offset + z * p.sb + at(cs.bo, p.ldb, kk, j));
        std::int64_t const o = z * p.sd + at(cs.dorder, p.ldd, i, j);
        if (cs.beta != 0.0f) s += double(cs.beta) * load_elem(cs.out, p.hc.data(), o);
        double const got = load_elem(cs.out, hd.data(), o);
        ASSERT_TRUE(std::isfinite(got)) << cs.name << ": D(" << z << "," << i << "," << j << ") not written";
        err += (got - s) * (got - s);
        ref += s * s;
      }
  double const rel = std::sqrt(err / ref);
  EXPECT_LE(rel, tolerance(cs)) << cs.name;
  // Padding of D untouched.
  std::int64_t const inner = cs.dorder == R ? cs.n : cs.m, outer = cs.dorder == R ? cs.m : cs.n;
  for (int z = 0; z < cs.batch; ++z)
    for (std::int64_t r = 0; r < outer; ++r)
      for (std::int64_t c = inner; c < p.ldd; ++c) {
        std::int64_t const o = z * p.sd + r * p.ldd + c;
        for (std::int64_t b = 0; b < out_b; ++b)
          ASSERT_EQ(hd[std::size_t(o * out_b + b)], 0xFF) << cs.name << ": padding of D written";
      }
}

std::vector<Case> cases() {
  std::vector<Case> v;
  struct T {
    const char* n;
    DataType in, out, acc;
  } const types[] = {{"bf16", DataType::bf16, DataType::bf16, DataType::f32},
                     {"f16", DataType::f16, DataType::f16, DataType::f32},
                     {"f16acc16", DataType::f16, DataType::f16, DataType::f16},
                     {"bf16f32", DataType::bf16, DataType::f32, DataType::f32},
                     {"tf32", DataType::tf32, DataType::f32, DataType::f32}};
  struct L {
    const char* n;
    MatrixOrder a, b;
  } const layouts[] = {{"tn", R, C}, {"nn", C, C}, {"nt", C, R}, {"tt", R, R}};
  for (const T& t : types)
    for (const L& l : layouts)
      for (MatrixOrder d : {R, C}) {
        std::string const base = std::string(t.n) + "_" + l.n + (d == R ? "_drow" : "_dcol");
        // ld == extent, odd: rows only 2-byte (4-byte for tf32) aligned.
        v.push_back({base + "_oddld", t.in, t.out, t.acc, l.a, l.b, d, 195, 133, 141});
        // 16-byte multiple ld but a base pointer one element off.
        v.push_back({base + "_ptroff", t.in, t.out, t.acc, l.a, l.b, d, 130, 72, 96, 0, 1});
      }
  // Batches with odd strides, beta, an aligned A (ld 72) beside a misaligned B (ld 73).
  v.push_back({"bf16_tn_batch3_beta", DataType::bf16, DataType::bf16, DataType::f32, R, C, R, 77, 90, 101, 0, 0, 3, 0.5f});
  v.push_back({"f16_nt_batch2", DataType::f16, DataType::f32, DataType::f32, C, R, C, 64, 129, 80, 3, 1, 2});
  v.push_back({"bf16_tn_b_only", DataType::bf16, DataType::bf16, DataType::f32, R, C, R, 128, 128, 72, 0, 0, 1, 0.0f, 1});
  return v;
}

class RepackGemm : public ::testing::TestWithParam<Case> {};

TEST_P(RepackGemm, MatchesFp64Reference) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  Problem p;
  make_problem(GetParam(), p);
  if (HasFatalFailure()) return;
  ASSERT_TRUE(tessera::validate_arguments(p.args).ok()) << tessera::validate_arguments(p.args).message;
  tessera::Status const s = tessera::gemm(p.args, nullptr);
  ASSERT_TRUE(s.ok()) << s.message;
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  check_result(p);
}

INSTANTIATE_TEST_SUITE_P(All, RepackGemm, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

// The caller's workspace is used, and holds the plan's copies afterwards.
TEST(RepackGemmWorkspace, CallerWorkspaceHoldsThePaddedCopies) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  Case const cs{"ws", DataType::bf16, DataType::bf16, DataType::f32, R, C, R, 70, 50, 45, 0, 1};
  Problem p;
  make_problem(cs, p);
  if (HasFatalFailure()) return;
  std::size_t const bytes = tessera::gemm_workspace_bytes(p.args);
  ASSERT_GT(bytes, 0u);
  DeviceBuffer ws;
  TESSERA_TEST_CUDA(cudaMalloc(&ws.p, bytes));
  TESSERA_TEST_CUDA(cudaMemset(ws.p, 0xFF, bytes));
  tessera::GemmOptions opts;
  opts.workspace = ws.p;
  opts.workspace_bytes = bytes;
  ASSERT_TRUE(tessera::gemm(p.args, nullptr, opts).ok());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  check_result(p);
  // Both operands are misaligned (pointer + 1): both were copied. A TN problem
  // keeps its orders in the first plan; A's copy is at offset 0.
  std::vector<std::uint16_t> h(bytes / 2);
  TESSERA_TEST_CUDA(cudaMemcpy(h.data(), ws.p, bytes, cudaMemcpyDeviceToHost));
  auto const plan = tessera::detail::plan_repack(p.args, RepackTarget::same_order, RepackTarget::same_order);
  const auto* ha = reinterpret_cast<const std::uint16_t*>(p.ha.data()) + cs.offset;
  for (std::int64_t r = 0; r < plan.a.rows; ++r)
    for (std::int64_t c = 0; c < plan.a.ld; ++c) {
      std::uint16_t const want = c < plan.a.cols ? ha[r * p.lda + c] : 0;
      ASSERT_EQ(h[std::size_t(r * plan.a.ld + c)], want) << "A copy (" << r << "," << c << ")";
    }
}

// A workspace that is too small is ignored (stream-ordered allocation
// instead); RepackPolicy::never runs the element-wide path. Both correct.
TEST(RepackGemmWorkspace, SmallWorkspaceAndNeverStillCorrect) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  Case const cs{"small", DataType::f16, DataType::f16, DataType::f32, C, R, R, 100, 60, 33, 0, 1};
  for (int mode = 0; mode < 2; ++mode) {
    Problem p;
    make_problem(cs, p);
    if (HasFatalFailure()) return;
    DeviceBuffer ws;
    TESSERA_TEST_CUDA(cudaMalloc(&ws.p, 64));
    tessera::GemmOptions opts;
    if (mode == 0) {
      opts.workspace = ws.p;
      opts.workspace_bytes = 64;
    } else {
      opts.repack = tessera::RepackPolicy::never;
    }
    ASSERT_TRUE(tessera::gemm(p.args, nullptr, opts).ok()) << mode;
    TESSERA_TEST_CUDA(cudaDeviceSynchronize());
    check_result(p);
  }
}

// fp64 reference on the device for the large cases: D(i,j) = sum_k A(i,k)
// B(k,j), operands read through their (row, column) strides.
__device__ inline double to_double(__nv_bfloat16 x) { return double(__bfloat162float(x)); }
__device__ inline double to_double(float x) { return double(x); }
inline double host_double(__nv_bfloat16 x) { return double(__bfloat162float(x)); }
inline double host_double(float x) { return double(x); }

template <class T>
__global__ void reference_gemm(int m, int n, int k, const T* a, long long a_i, long long a_k, const T* b,
                               long long b_k, long long b_j, double* d) {
  int const j = int(blockIdx.x * blockDim.x + threadIdx.x);
  int const i = int(blockIdx.y);
  if (j >= n || i >= m) return;
  double s = 0;
  for (int kk = 0; kk < k; ++kk) s += to_double(a[i * a_i + kk * a_k]) * to_double(b[kk * b_k + j * b_j]);
  d[(long long)i * n + j] = s;
}

// Aligned operands of a large problem in every layout (2048x2048x1024 =
// 2^33 flop: at the copy threshold) through tessera::gemm: it may copy them
// first (16-bit tf32 inputs: K-major for the TMA kernel; f32: K-contiguous
// operands M/N-major for the FFMA kernel). Checked against fp64, D poisoned,
// in both orders of D. `copies[l]` is what select_gemm_call must plan for
// layout l (tn, nn, nt, tt) on this GPU.
template <class T>
void every_layout(DataType type, double bound, const char* const (&copies)[4]) {
  int const m = 2048, n = 2048, k = 1024;
  struct L {
    const char* name;
    MatrixOrder a, b;
  } const layouts[] = {{"tn", R, C}, {"nn", C, C}, {"nt", C, R}, {"tt", R, R}};
  std::vector<T> ha(std::size_t(m) * k), hb(std::size_t(k) * n);
  std::mt19937 rng(99u);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (auto& x : ha) x = T(dist(rng));
  for (auto& x : hb) x = T(dist(rng));
  DeviceBuffer da, db, dd, dref;
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(da, ha));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(db, hb));
  TESSERA_TEST_CUDA(cudaMalloc(&dd.p, std::size_t(m) * n * sizeof(T)));
  TESSERA_TEST_CUDA(cudaMalloc(&dref.p, std::size_t(m) * n * 8));
  int dev = 0;
  cudaDeviceProp prop{};
  TESSERA_TEST_CUDA(cudaGetDevice(&dev));
  TESSERA_TEST_CUDA(cudaGetDeviceProperties(&prop, dev));
  for (int li = 0; li < 4; ++li) {
    const L& l = layouts[li];
    // The same buffers reinterpreted in each order: A(i,k) and B(k,j) change
    // with the layout, the reference reads them through the same strides.
    long long const a_i = l.a == R ? k : 1, a_k = l.a == R ? 1 : m;
    long long const b_k = l.b == C ? 1 : n, b_j = l.b == C ? k : 1;
    reference_gemm<T><<<dim3((n + 127) / 128, m), 128>>>(m, n, k, static_cast<const T*>(da.p), a_i, a_k,
                                                         static_cast<const T*>(db.p), b_k, b_j,
                                                         static_cast<double*>(dref.p));
    TESSERA_TEST_CUDA(cudaGetLastError());
    std::vector<double> ref(std::size_t(m) * n);
    TESSERA_TEST_CUDA(cudaMemcpy(ref.data(), dref.p, ref.size() * 8, cudaMemcpyDeviceToHost));
    for (MatrixOrder d_order : {R, C}) {
      SCOPED_TRACE(std::string(l.name) + (d_order == R ? ", D row-major" : ", D column-major"));
      TESSERA_TEST_CUDA(cudaMemset(dd.p, 0xFF, std::size_t(m) * n * sizeof(T)));
      GemmArgs g;
      g.m = m;
      g.n = n;
      g.k = k;
      g.input = type;
      g.a = {da.p, l.a, l.a == R ? k : m, 0};
      g.b = {db.p, l.b, l.b == C ? k : n, 0};
      g.d = {dd.p, d_order, d_order == R ? n : m, 0};
      EXPECT_EQ(plan_of(g, prop.major * 10 + prop.minor), copies[li]);
      tessera::Status const st = tessera::gemm(g, nullptr);
      ASSERT_TRUE(st.ok()) << st.message;
      TESSERA_TEST_CUDA(cudaDeviceSynchronize());
      std::vector<T> got(std::size_t(m) * n);
      TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dd.p, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
      double err = 0, nrm = 0;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          double const x = host_double(got[d_order == R ? std::size_t(i) * n + j : std::size_t(j) * m + i]);
          ASSERT_TRUE(std::isfinite(x)) << "D(" << i << "," << j << ") not written";
          double const r = ref[std::size_t(i) * n + j];
          err += (x - r) * (x - r);
          nrm += r * r;
        }
      EXPECT_LE(std::sqrt(err / nrm), bound);
    }
  }
}

TEST(RepackGemmLayouts, LargeAlignedEveryLayout) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  int const cc = tessera::test::device_cc();
  // bf16: the TMA kernel reads every layout in place on Hopper.
  const char* const hopper[4] = {"sm90_ws_gemm", "sm90_ws_gemm", "sm90_ws_gemm", "sm90_ws_gemm"};
  const char* const ampere[4] = {"sm80_tensorop", "sm80_tensorop", "sm80_tensorop", "sm80_tensorop"};
  every_layout<__nv_bfloat16>(DataType::bf16, 1e-2, cc >= 90 ? hopper : ampere);
}

TEST(RepackGemmLayouts, LargeF32KContiguousCopiedMnMajor) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  const char* const plans[4] = {"simt_tiled_sgemm +A +B ws", "simt_tiled_sgemm +B ws", "simt_tiled_sgemm",
                                "simt_tiled_sgemm +A ws"};
  every_layout<float>(DataType::f32, 1e-5, plans);
}

// Batched f32 with alpha, beta and C: the M/N-major copies are made per
// batch (A's batch stride padded, B shared by every batch: batch stride 0).
TEST(RepackGemmLayouts, BatchedF32CopiesWithAlphaBeta) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  int const m = 1024, n = 1040, k = 1024, batches = 8;  // 2^34 flop in all
  long long const lda = k + 4, stride_a = (long long)m * lda + 64;  // A row-major (K-contiguous), padded
  long long const ldb = k;                                          // B column-major (K-contiguous), shared
  std::vector<float> ha(std::size_t(stride_a) * batches), hb(std::size_t(ldb) * n), hc(std::size_t(m) * n * batches);
  std::mt19937 rng(7u);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (auto& x : ha) x = dist(rng);
  for (auto& x : hb) x = dist(rng);
  for (auto& x : hc) x = dist(rng);
  DeviceBuffer da, db, dc, dd, dref;
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(da, ha));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(db, hb));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(dc, hc));
  TESSERA_TEST_CUDA(cudaMalloc(&dd.p, hc.size() * 4));
  TESSERA_TEST_CUDA(cudaMalloc(&dref.p, std::size_t(m) * n * 8));
  TESSERA_TEST_CUDA(cudaMemset(dd.p, 0xFF, hc.size() * 4));
  GemmArgs g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.batch_count = batches;
  g.input = DataType::f32;
  g.alpha = 1.5f;
  g.beta = -0.5f;
  g.a = {da.p, R, lda, stride_a};
  g.b = {db.p, C, ldb, 0};
  g.c = {dc.p, C, m, (long long)m * n};  // C and D column-major
  g.d = {dd.p, C, m, (long long)m * n};
  int dev = 0;
  cudaDeviceProp prop{};
  TESSERA_TEST_CUDA(cudaGetDevice(&dev));
  TESSERA_TEST_CUDA(cudaGetDeviceProperties(&prop, dev));
  EXPECT_EQ(plan_of(g, prop.major * 10 + prop.minor), "simt_tiled_sgemm +A +B ws");
  tessera::Status const st = tessera::gemm(g, nullptr);
  ASSERT_TRUE(st.ok()) << st.message;
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<float> got(hc.size());
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dd.p, got.size() * 4, cudaMemcpyDeviceToHost));
  std::vector<double> ref(std::size_t(m) * n);
  for (int b = 0; b < batches; ++b) {
    SCOPED_TRACE(b);
    reference_gemm<float><<<dim3((n + 127) / 128, m), 128>>>(m, n, k, static_cast<const float*>(da.p) + b * stride_a,
                                                             lda, 1, static_cast<const float*>(db.p), 1, ldb,
                                                             static_cast<double*>(dref.p));
    TESSERA_TEST_CUDA(cudaGetLastError());
    TESSERA_TEST_CUDA(cudaMemcpy(ref.data(), dref.p, ref.size() * 8, cudaMemcpyDeviceToHost));
    double err = 0, nrm = 0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        std::size_t const at_cd = std::size_t(b) * m * n + std::size_t(j) * m + i;
        double const r = 1.5 * ref[std::size_t(i) * n + j] - 0.5 * double(hc[at_cd]);
        double const x = double(got[at_cd]);
        ASSERT_TRUE(std::isfinite(x)) << "D(" << i << "," << j << ") of batch " << b << " not written";
        err += (x - r) * (x - r);
        nrm += r * r;
      }
    EXPECT_LE(std::sqrt(err / nrm), 1e-5);
  }
}

// Arguments that fail validation write nothing, misaligned or not.
TEST(RepackGemmWorkspace, BadInputWritesNothing) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  Case const cs{"bad", DataType::bf16, DataType::bf16, DataType::f32, R, C, R, 40, 30, 20, 0, 1};
  Problem p;
  make_problem(cs, p);
  if (HasFatalFailure()) return;
  GemmArgs g = p.args;
  g.b.ld = 3;  // smaller than K
  EXPECT_EQ(tessera::gemm(g, nullptr).code, tessera::StatusCode::bad_leading_dimension);
  EXPECT_EQ(tessera::gemm(p.args, nullptr, tessera::GemmOptions{"no_such_kernel"}).code,
            tessera::StatusCode::unknown_kernel);
  g = p.args;
  g.a.data = static_cast<const char*>(p.args.d.data) + 2;  // A overlaps D
  EXPECT_EQ(tessera::gemm(g, nullptr).code, tessera::StatusCode::aliasing);
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<unsigned char> hd(p.hc.size());
  TESSERA_TEST_CUDA(cudaMemcpy(hd.data(), p.dd.p, hd.size(), cudaMemcpyDeviceToHost));
  for (unsigned char b : hd) ASSERT_EQ(b, 0xFF);
}

}  // namespace
