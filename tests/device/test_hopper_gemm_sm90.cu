// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// sm90_ws_gemm against an fp64 reference: odd shapes (M, N, K not multiples
// of the 128x256x64 tile), every output type, alpha/beta with C, a
// column-major D (the swapped orientation), more tiles than SMs (the
// persistent loop). A and B padding past K (ld > K) holds NaN, so a TMA read
// outside the tensor shows up in D; D is poisoned with NaN before the run.
// Skips unless the device is sm_90.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <tessera/gemm/sm90_ws_gemm.cuh>

#include "device_test.cuh"

namespace {

using namespace tessera;

template <class T>
__host__ __device__ double to_double(T v) {
  if constexpr (std::is_same_v<T, float>) return double(v);
  else if constexpr (std::is_same_v<T, __half>) return double(__half2float(v));
  else return double(__bfloat162float(v));
}

// fp64 reference, 16x16 output tile per block, K staged through shared memory.
// A(i,k) at a[i*a_row + k*a_col], B(k,j) at b[k*b_row + j*b_col], C(i,j) at
// c[i*c_row + j*c_col].
template <class TIn, class TOut>
__global__ void reference_kernel(int64_t m, int64_t n, int64_t k, const TIn* a, int64_t a_row, int64_t a_col,
                                 const TIn* b, int64_t b_row, int64_t b_col, const TOut* c, int64_t c_row,
                                 int64_t c_col, double alpha, double beta, double* ref) {
  __shared__ double sa[16][17], sb[16][17];
  int64_t const i = int64_t(blockIdx.y) * 16 + threadIdx.y;
  int64_t const j = int64_t(blockIdx.x) * 16 + threadIdx.x;
  double acc = 0;
  for (int64_t k0 = 0; k0 < k; k0 += 16) {
    int64_t const ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
    sa[threadIdx.y][threadIdx.x] = (i < m && ka < k) ? to_double(a[i * a_row + ka * a_col]) : 0.0;
    sb[threadIdx.y][threadIdx.x] = (j < n && kb < k) ? to_double(b[kb * b_row + j * b_col]) : 0.0;
    __syncthreads();
#pragma unroll
    for (int t = 0; t < 16; ++t) acc += sa[threadIdx.y][t] * sb[t][threadIdx.x];
    __syncthreads();
  }
  if (i < m && j < n) {
    double v = alpha * acc;
    if (beta != 0.0) v += beta * to_double(c[i * c_row + j * c_col]);
    ref[i * n + j] = v;
  }
}

template <class T>
T from_float(float x) {
  if constexpr (std::is_same_v<T, float>) return x;
  else if constexpr (std::is_same_v<T, __half>) return __float2half(x);
  else return __float2bfloat16(x);
}

struct Shape {
  int64_t m, n, k;
};

using tessera::test::DevBuf;
using tessera::test::upload;

// An operand's element (i, j) at i * rows + j * cols.
template <class T>
struct Strided {
  const T* p;
  int64_t rows, cols;
};

// The fp64 reference alpha * A * B + beta * C of one m x n x k problem,
// row-major, appended to `out` (c.p may be null when beta is 0).
template <class TIn, class TOut>
void append_reference(Shape s, Strided<TIn> a, Strided<TIn> b, Strided<TOut> c, double alpha, double beta,
                      std::vector<double>& out) {
  DevBuf dref;
  size_t const count = size_t(s.m * s.n);
  TESSERA_TEST_CUDA(cudaMalloc(&dref.p, count * sizeof(double)));
  dim3 const grid(unsigned((s.n + 15) / 16), unsigned((s.m + 15) / 16));
  reference_kernel<TIn, TOut><<<grid, dim3(16, 16)>>>(s.m, s.n, s.k, a.p, a.rows, a.cols, b.p, b.rows, b.cols, c.p,
                                                      c.rows, c.cols, alpha, beta, dref.as<double>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  size_t const at = out.size();
  out.resize(at + count);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data() + at, dref.p, count * sizeof(double), cudaMemcpyDeviceToHost));
}

constexpr int kDefaultLaunch = -1;

// A cluster-pair variant: cooperative 128x256 (tile_m 128, tile_n 256) or
// ping-pong tile_m x 128 (tile_n 128).
detail::Sm90WsVariant pair_variant(bool pingpong, int tile_m, bool tma_store, bool transpose = false) {
  detail::Sm90WsVariant v;
  v.cluster = 2;
  v.pingpong = pingpong;
  v.tile_m = tile_m;
  v.tile_n = pingpong ? 128 : 256;
  v.tma_store = tma_store;
  v.transpose = transpose;
  return v;
}

// Where C lies when beta != 0. By default: its own buffer, D's order, ld
// and batch stride.
struct CPlace {
  bool other_order = false;  // the order D does not have
  int64_t ld_extra = 0;      // elements of padding (NaN) after each row / column
  int64_t offset = 0;        // elements C's base lies past its buffer's 256-byte aligned start
  bool in_place = false;     // C is D's own buffer (D starts as C)
  int by_tma = -1;           // 0 / 1: expected sm90_ws_reads_c_by_tma; -1: not checked
};

// kF16Acc: f16 inputs and output with f16 accumulation (GemmArgs::accumulate).
template <class TIn, class TOut, bool kF16Acc = false>
void run_gemm(Shape s, MatrixOrder d_order, float alpha, float beta, int64_t batch = 1,
              detail::Sm90WsVariant variant = {}, MatrixOrder a_order = MatrixOrder::row_major,
              MatrixOrder b_order = MatrixOrder::col_major, CPlace cp = {}) {
  constexpr DataType kIn = std::is_same_v<TIn, float>    ? DataType::tf32
                           : std::is_same_v<TIn, __half> ? DataType::f16
                                                         : DataType::bf16;
  constexpr DataType kOut = std::is_same_v<TOut, float> ? DataType::f32 : kIn;
  static_assert(!kF16Acc || (kIn == DataType::f16 && kOut == DataType::f16), "run_gemm: f16 accumulation is f16 -> f16");
  SCOPED_TRACE(testing::Message() << s.m << "x" << s.n << "x" << s.k << " in " << to_string(kIn) << " out "
                                  << to_string(kOut) << (kF16Acc ? " f16 accumulation" : "") << " D " << (d_order == MatrixOrder::row_major ? "row" : "col")
                                  << "-major alpha " << alpha << " beta " << beta << " batch " << batch
                                  << (variant.pingpong ? " ping-pong" : " cooperative") << " cluster " << variant.cluster << " tile "
                                  << variant.tile_m << "x" << variant.tile_n << " group_m " << variant.group_m
                                  << (variant.tma_store ? " tma-store epilogue" : "") << " splits " << variant.splits
                                  << (variant.transpose ? " transposed" : "") << " A "
                                  << (a_order == MatrixOrder::row_major ? "row" : "col") << "-major B "
                                  << (b_order == MatrixOrder::row_major ? "row" : "col") << "-major");
  // TMA: leading dimensions a multiple of 16 bytes; padding NaN.
  auto padded = [](int64_t x) { return (x + 7) / 8 * 8; };
  bool const a_row = a_order == MatrixOrder::row_major, b_col = b_order == MatrixOrder::col_major;
  int64_t const lda = a_row ? padded(s.k) : padded(s.m), ldb = b_col ? padded(s.k) : padded(s.n);
  // A(i, k) at i * a_rs + k * a_ks, B(k, j) at k * b_ks + j * b_js.
  int64_t const a_rs = a_row ? lda : 1, a_ks = a_row ? 1 : lda;
  int64_t const b_ks = b_col ? 1 : ldb, b_js = b_col ? ldb : 1;
  std::mt19937 rng(uint32_t(s.m * 31 + s.n * 17 + s.k + (a_row ? 0 : 5) + (b_col ? 0 : 11)));
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  int64_t const a_bs = (a_row ? s.m : s.k) * lda, b_bs = (b_col ? s.n : s.k) * ldb, d_bs = s.m * s.n;  // batch strides
  std::vector<TIn> ha(size_t(batch * a_bs)), hb(size_t(batch * b_bs));
  std::memset(ha.data(), 0xff, ha.size() * sizeof(TIn));  // NaN in every type
  std::memset(hb.data(), 0xff, hb.size() * sizeof(TIn));
  for (int64_t bi = 0; bi < batch; ++bi) {
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t kk = 0; kk < s.k; ++kk) ha[size_t(bi * a_bs + i * a_rs + kk * a_ks)] = from_float<TIn>(u(rng));
    for (int64_t j = 0; j < s.n; ++j)
      for (int64_t kk = 0; kk < s.k; ++kk) hb[size_t(bi * b_bs + kk * b_ks + j * b_js)] = from_float<TIn>(u(rng));
  }
  int64_t const ldd = d_order == MatrixOrder::row_major ? s.n : s.m;
  size_t const dn = size_t(batch * d_bs);
  ASSERT_TRUE(!cp.in_place || (!cp.other_order && cp.ld_extra == 0 && cp.offset == 0)) << "in place: C is D";
  MatrixOrder const c_order =
      cp.other_order ? (d_order == MatrixOrder::row_major ? MatrixOrder::col_major : MatrixOrder::row_major) : d_order;
  bool const crow = c_order == MatrixOrder::row_major;
  int64_t const ldc = (crow ? s.n : s.m) + cp.ld_extra;
  int64_t const c_bs = (crow ? s.m : s.n) * ldc;
  int64_t const c_row = crow ? ldc : 1, c_col = crow ? 1 : ldc;  // C(i, j) at i * c_row + j * c_col
  // Padding NaN: a read of it would show in D.
  std::vector<TOut> hc(size_t(cp.offset + batch * c_bs));
  std::memset(hc.data(), 0xff, hc.size() * sizeof(TOut));
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t j = 0; j < s.n; ++j) hc[size_t(cp.offset + bi * c_bs + i * c_row + j * c_col)] = from_float<TOut>(u(rng));

  DevBuf a_buf, b_buf, c_buf, d_buf;
  ASSERT_NO_FATAL_FAILURE(upload(a_buf, ha));
  ASSERT_NO_FATAL_FAILURE(upload(b_buf, hb));
  ASSERT_NO_FATAL_FAILURE(upload(c_buf, hc));
  if (!cp.in_place) {
    TESSERA_TEST_CUDA(cudaMalloc(&d_buf.p, dn * sizeof(TOut)));
    TESSERA_TEST_CUDA(cudaMemset(d_buf.p, 0xff, dn * sizeof(TOut)));
  }
  TIn* const da = a_buf.as<TIn>();
  TIn* const db = b_buf.as<TIn>();
  TOut* const dc = c_buf.as<TOut>() + cp.offset;
  TOut* const dd = cp.in_place ? dc : d_buf.as<TOut>();

  GemmArgs args;
  args.m = s.m;
  args.n = s.n;
  args.k = s.k;
  args.input = kIn;
  args.output = kOut;
  args.accumulate = kF16Acc ? DataType::f16 : DataType::f32;
  args.alpha = alpha;
  args.beta = beta;
  args.batch_count = batch;
  args.a = {da, a_order, lda, a_bs};
  args.b = {db, b_order, ldb, b_bs};
  args.c = {beta != 0.0f ? dc : nullptr, c_order, ldc, c_bs};
  args.d = {dd, d_order, ldd, d_bs};
  ASSERT_TRUE(validate_arguments(args).ok()) << validate_arguments(args).message;
  ASSERT_TRUE(detail::can_implement_sm90_ws_gemm(args));
  // The reference first: in place, the launch overwrites C.
  std::vector<double> href;
  for (int64_t bi = 0; bi < batch; ++bi) {
    append_reference<TIn, TOut>(s, {da + bi * a_bs, a_rs, a_ks}, {db + bi * b_bs, b_ks, b_js},
                                {dc + bi * c_bs, c_row, c_col}, alpha, beta, href);
    if (testing::Test::HasFatalFailure()) return;
  }
  if (cp.by_tma >= 0) {
    detail::Sm90WsVariant const chosen =
        variant.group_m == kDefaultLaunch ? detail::default_sm90_ws_variant(args) : variant;
    EXPECT_EQ(detail::sm90_ws_reads_c_by_tma(args, chosen), cp.by_tma == 1) << "beta * C path";
  }
  // group_m == kDefaultLaunch: the registry's launch (per-shape selection).
  Status const st = variant.group_m == kDefaultLaunch ? detail::launch_sm90_ws_gemm(args, nullptr)
                                                      : detail::launch_sm90_ws_gemm(args, nullptr, variant);
  ASSERT_TRUE(st.ok()) << st.message;
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());

  bool const drow = d_order == MatrixOrder::row_major;
  std::vector<TOut> hd(dn);
  TESSERA_TEST_CUDA(cudaMemcpy(hd.data(), dd, dn * sizeof(TOut), cudaMemcpyDeviceToHost));

  double const eps = kOut == DataType::f32 ? 1e-6 : kOut == DataType::f16 ? 1.0 / 2048 : 1.0 / 256;
  // The relative-norm bound of an f16 accumulation (the one
  // test_gemm_repack uses); per element, three times that of the rms.
  double const f16acc_bound = 2.5e-3 * std::sqrt(double(s.k) / 16.0) + 2e-3;
  double const abs_tol = kF16Acc ? 3 * f16acc_bound : kIn == DataType::tf32 ? 8e-3 : 1e-3;
  double num = 0, den = 0;
  int64_t non_finite = 0, bad = 0;
  for (size_t e = 0; e < dn; ++e) den += href[e] * href[e];
  double const rms = std::sqrt(den / double(dn));
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t j = 0; j < s.n; ++j) {
        double const r = href[size_t(bi * d_bs + i * s.n + j)];
        double const v = to_double(hd[size_t(bi * d_bs + (drow ? i * ldd + j : j * ldd + i))]);
        if (!std::isfinite(v)) {
          if (++non_finite <= 5)
            ADD_FAILURE() << "D[" << bi << "](" << i << ", " << j << ") = " << v << " (unwritten or NaN), reference " << r;
          continue;
        }
        double const diff = v - r;
        num += diff * diff;
        // tf32 keeps 10 of the 23 mantissa bits of each f32 input: an error
        // of ~2^-11 per product, ~2^-11 * rms over the sum. f16
        // accumulation rounds the running sum once per k16 step: a random
        // walk of ~sqrt(K / 16) roundings of ~2^-12 of the sum.
        if (std::fabs(diff) > 4 * eps * std::fabs(r) + abs_tol * rms) {
          if (++bad <= 5)
            ADD_FAILURE() << "D[" << bi << "](" << i << ", " << j << ") = " << v << ", reference " << r << " (tile "
                          << i / 128 << "," << j / 256 << ", row in tile " << i % 128 << ", col in tile " << j % 256
                          << ")";
        }
      }
  double const rel = std::sqrt(num / den);
  // Bounds of docs/performance.md ("Benchmark method"): tf32 1e-3.
  double const bound = kF16Acc                 ? f16acc_bound
                       : kIn == DataType::tf32  ? 1e-3
                       : kOut == DataType::f32 ? 1e-5
                       : kOut == DataType::f16 ? 2e-3
                                               : 1e-2;
  // A default launch is printed as the variant the registry picked.
  bool const by_default = variant.group_m == kDefaultLaunch;
  detail::Sm90WsVariant const ran = by_default ? detail::default_sm90_ws_variant(args) : variant;
  std::printf("  [sm90_ws_gemm%s%s tile %dx%d%s%s g%d splits %d] %lldx%lldx%lld x%lld %s->%s%s A %s B %s D %s: rel err %.3e (bound %.1e), non-finite %lld, off %lld\n",
              by_default ? " default:" : "", ran.pingpong ? " ping-pong" : " cooperative", ran.tile_m, ran.tile_n,
              ran.transpose ? " transposed" : "",
              ran.cluster == 2 ? " cluster2" : ran.tma_store ? " tma-store" : "",
              ran.group_m, ran.splits, (long long)s.m, (long long)s.n, (long long)s.k,
              (long long)batch, std::string(to_string(kIn)).c_str(), std::string(to_string(kOut)).c_str(),
              kF16Acc ? " (f16 acc)" : "",
              a_row ? "row" : "col", b_col ? "col" : "row", drow ? "row" : "col", rel, bound, (long long)non_finite, (long long)bad);
  EXPECT_EQ(non_finite, 0);
  EXPECT_EQ(bad, 0);
  EXPECT_LE(rel, bound);
}

TEST(HopperGemm, SingleTileAndTiny) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_gemm<__nv_bfloat16, float>({128, 256, 64}, MatrixOrder::row_major, 1.0f, 0.0f);
  run_gemm<__nv_bfloat16, float>({1, 1, 1}, MatrixOrder::row_major, 1.0f, 0.0f);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({129, 257, 65}, MatrixOrder::row_major, 1.0f, 0.0f);
  run_gemm<__nv_bfloat16, float>({256, 512, 4096}, MatrixOrder::row_major, 1.0f, 0.0f);
}

TEST(HopperGemm, Bf16OddShapes) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f);
  run_gemm<__nv_bfloat16, float>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({4095, 4097, 4093}, MatrixOrder::row_major, 1.0f, 0.0f);
}

TEST(HopperGemm, F16OddShapes) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_gemm<__half, __half>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f);
  run_gemm<__half, float>({4095, 4097, 4093}, MatrixOrder::row_major, 1.0f, 0.0f);
}

// f16 inputs and output with f16 accumulation (wgmma .f16.f16.f16), in the
// configurations the launcher can pick: the default launch (cooperative
// 128x256 with the TMA store and the held stage at 2048^3, ping-pong
// 64x128 at 1000^3, narrow 128x64 tiles with split-K for a 64-row problem,
// MN-major operands), the direct epilogue with alpha/beta and a
// column-major D, batches, ping-pong 128x128 (two m64 row halves per
// consumer), a tail split and clusters of 2.
TEST(HopperGemm, F16Accumulation) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  using H = __half;
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  run_gemm<H, H, true>({2048, 2048, 2048}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);
  run_gemm<H, H, true>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);
  run_gemm<H, H, true>({64, 4096, 4096}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);
  run_gemm<H, H, true>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def, MatrixOrder::col_major,
                       MatrixOrder::row_major);
  run_gemm<H, H, true>({513, 1031, 200}, MatrixOrder::col_major, -2.0f, 0.25f);
  run_gemm<H, H, true>({257, 129, 72}, MatrixOrder::col_major, 1.0f, 0.0f, 2);
  detail::Sm90WsVariant pp{true, 0, 128};
  pp.tma_store = true;
  run_gemm<H, H, true>({1000, 777, 300}, MatrixOrder::row_major, 1.5f, -0.5f, 1, pp);
  detail::Sm90WsVariant tail;
  tail.tma_store = true;
  tail.splits = 4;
  tail.split_tail = true;
  run_gemm<H, H, true>({4096, 2048, 1024}, MatrixOrder::row_major, 1.0f, 0.0f, 1, tail);
  // Every tile split: the last unit takes the f32 sum into the packed f16
  // accumulator (F16AccView::set4), then applies alpha and beta.
  detail::Sm90WsVariant split;
  split.splits = 4;
  run_gemm<H, H, true>({256, 512, 4096}, MatrixOrder::row_major, 0.5f, 0.25f, 1, split);
  detail::Sm90WsVariant c2;
  c2.cluster = 2;
  c2.tma_store = true;
  run_gemm<H, H, true>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, c2);
}

// f16 accumulation is what it says: on positive data whose running sums
// reach ~1000 (f16 spacing 0.5-1 there), the f16-accumulated D is several
// times further from the fp64 result than the f32-accumulated D of the same
// inputs, whose error is only the final rounding to f16. (Were the request
// ignored and f32 used, the two errors would be equal.)
TEST(HopperGemm, F16AccumulationRoundsTheRunningSum) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  int64_t const m = 256, n = 256, k = 4096;
  std::mt19937 rng(20261126u);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<__half> ha(size_t(m * k)), hb(size_t(n * k));
  for (auto& x : ha) x = __float2half(u(rng));
  for (auto& x : hb) x = __float2half(u(rng));
  DevBuf a_buf, b_buf, d_buf;
  ASSERT_NO_FATAL_FAILURE(upload(a_buf, ha));
  ASSERT_NO_FATAL_FAILURE(upload(b_buf, hb));
  TESSERA_TEST_CUDA(cudaMalloc(&d_buf.p, size_t(m * n) * sizeof(__half)));
  __half* const da = a_buf.as<__half>();
  __half* const db = b_buf.as<__half>();
  __half* const dd = d_buf.as<__half>();
  std::vector<double> href;
  append_reference<__half, __half>({m, n, k}, {da, k, 1}, {db, 1, k}, {nullptr, 0, 0}, 1.0, 0.0, href);
  if (HasFatalFailure()) return;
  // Writes through `err` (not a return value) so the ASSERTs inside can bail out.
  auto rel_error = [&](DataType accumulate, double& err) {
    err = INFINITY;
    GemmArgs args;
    args.m = m;
    args.n = n;
    args.k = k;
    args.input = DataType::f16;
    args.output = DataType::f16;
    args.accumulate = accumulate;
    args.a = {da, MatrixOrder::row_major, k, 0};
    args.b = {db, MatrixOrder::col_major, k, 0};
    args.d = {dd, MatrixOrder::row_major, n, 0};
    EXPECT_TRUE(detail::can_implement_sm90_ws_gemm(args));
    TESSERA_TEST_CUDA(cudaMemset(dd, 0xff, size_t(m * n) * sizeof(__half)));
    Status const st = detail::launch_sm90_ws_gemm(args, nullptr);
    EXPECT_TRUE(st.ok()) << st.message;
    TESSERA_TEST_CUDA(cudaDeviceSynchronize());
    std::vector<__half> hd(size_t(m * n));
    TESSERA_TEST_CUDA(cudaMemcpy(hd.data(), dd, hd.size() * sizeof(__half), cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (size_t e = 0; e < hd.size(); ++e) {
      double const v = double(__half2float(hd[e]));
      if (!std::isfinite(v)) return;
      num += (v - href[e]) * (v - href[e]);
      den += href[e] * href[e];
    }
    err = std::sqrt(num / den);
  };
  double err32 = 0, err16 = 0;
  rel_error(DataType::f32, err32);
  if (HasFatalFailure()) return;
  rel_error(DataType::f16, err16);
  if (HasFatalFailure()) return;
  std::printf("  [sm90_ws_gemm f16 inputs, 256x256x4096 in [0, 1)] rel err: f32 accumulation %.3e, f16 accumulation %.3e\n",
              err32, err16);
  EXPECT_LE(err32, 4e-4) << "f32 accumulation: only the final rounding to f16";
  EXPECT_GT(err16, 3 * err32) << "f16 accumulation should round the running sum";
  EXPECT_LE(err16, 2.5e-3 * std::sqrt(double(k) / 16.0) + 2e-3);
}

TEST(HopperGemm, AlphaBetaAndColumnMajorD) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_gemm<__nv_bfloat16, float>({1000, 777, 300}, MatrixOrder::row_major, 1.5f, -0.5f);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 777, 300}, MatrixOrder::col_major, 1.0f, 0.0f);
  run_gemm<__half, __half>({513, 1031, 200}, MatrixOrder::col_major, -2.0f, 0.25f);
}

TEST(HopperGemm, Batched) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_gemm<__nv_bfloat16, float>({300, 500, 200}, MatrixOrder::row_major, 1.0f, 0.5f, 3);
  run_gemm<__half, __half>({257, 129, 72}, MatrixOrder::col_major, 1.0f, 0.0f, 2);
}

TEST(HopperGemm, ManyTilesPersistent) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  // 64 x 16 = 1024 tiles: several per CTA on any Hopper part.
  run_gemm<__nv_bfloat16, float>({8192, 4096, 256}, MatrixOrder::row_major, 1.0f, 0.0f);
}

// Host-side rules: no GPU needed.
TEST(HopperGemm, RejectsWhatTmaCannotDo) {
  alignas(16) static uint16_t buf[64];
  GemmArgs args;
  args.m = 4;
  args.n = 4;
  args.k = 10;
  args.input = DataType::bf16;
  args.output = DataType::f32;
  args.a = {buf, MatrixOrder::row_major, 10, 0};  // 20-byte rows
  args.b = {buf, MatrixOrder::col_major, 16, 0};
  args.d = {buf, MatrixOrder::row_major, 4, 0};
  EXPECT_FALSE(detail::can_implement_sm90_ws_gemm(args));
  Status st = detail::launch_sm90_ws_gemm(args, nullptr);
  EXPECT_EQ(st.code, StatusCode::cannot_implement);
  EXPECT_NE(st.message.find("16 bytes"), std::string::npos) << st.message;
  args.a.ld = 16;
  EXPECT_TRUE(detail::can_implement_sm90_ws_gemm(args));
  args.a.order = MatrixOrder::col_major;  // MN-major A: wgmma reads 16-bit tiles transposed
  EXPECT_TRUE(detail::can_implement_sm90_ws_gemm(args));
  args.a.order = MatrixOrder::row_major;
  args.input = DataType::f32;  // plain f32 is not a tensor-core type
  args.output = DataType::f32;
  EXPECT_FALSE(detail::can_implement_sm90_ws_gemm(args));
  args.input = DataType::tf32;  // tf32: 16 elements of A per row = 64 bytes, fine
  EXPECT_TRUE(detail::can_implement_sm90_ws_gemm(args));
  // No transposed tf32 wgmma: one M/N-major operand is read through
  // registers as wgmma's A, two are refused.
  args.b.order = MatrixOrder::row_major;
  EXPECT_TRUE(detail::can_implement_sm90_ws_gemm(args));
  args.a.order = MatrixOrder::col_major;
  EXPECT_FALSE(detail::can_implement_sm90_ws_gemm(args));
  st = detail::launch_sm90_ws_gemm(args, nullptr);
  EXPECT_EQ(st.code, StatusCode::cannot_implement);
  EXPECT_NE(st.message.find("at most one M/N-major operand"), std::string::npos) << st.message;
  args.b.order = MatrixOrder::col_major;  // A alone M/N-major
  EXPECT_TRUE(detail::can_implement_sm90_ws_gemm(args));
  // ... but not as the small side of a skinny problem (the narrow tiles put
  // it on wgmma's B); as the large side it is A'.
  args.m = 16;
  args.n = 4096;
  args.d.ld = 4096;
  EXPECT_FALSE(detail::can_implement_sm90_ws_gemm(args));
  st = detail::launch_sm90_ws_gemm(args, nullptr);
  EXPECT_NE(st.message.find("small side"), std::string::npos) << st.message;
  args.m = 4096;
  args.n = 16;
  args.d.ld = 16;
  EXPECT_TRUE(detail::can_implement_sm90_ws_gemm(args));
  // An explicit variant whose orientation puts the M/N-major tf32 operand on
  // B' is refused by name (D row-major, transposed: A becomes B').
  detail::Sm90WsVariant tr;
  tr.tile_n = 128;
  tr.transpose = true;
  st = detail::launch_sm90_ws_gemm(args, nullptr, tr);
  EXPECT_EQ(st.code, StatusCode::cannot_implement);
  EXPECT_NE(st.message.find("puts the M/N-major operand on B'"), std::string::npos) << st.message;
  args.m = 4;
  args.n = 4;
  args.d.ld = 4;
  args.a.order = MatrixOrder::row_major;
  args.a.ld = 10;  // 40-byte rows
  EXPECT_FALSE(detail::can_implement_sm90_ws_gemm(args));
  args.a.ld = 16;
  args.output = DataType::bf16;  // tf32 writes f32
  EXPECT_FALSE(detail::can_implement_sm90_ws_gemm(args));
  args.input = DataType::bf16;
  args.a.data = reinterpret_cast<const uint8_t*>(buf) + 2;
  EXPECT_FALSE(detail::can_implement_sm90_ws_gemm(args));
  args.a.data = buf;
  // f16 accumulation: f16 inputs and an f16 output only.
  args.input = DataType::f16;
  args.output = DataType::f16;
  args.accumulate = DataType::f16;
  EXPECT_TRUE(detail::can_implement_sm90_ws_gemm(args));
  args.output = DataType::f32;
  EXPECT_FALSE(detail::can_implement_sm90_ws_gemm(args));
  st = detail::launch_sm90_ws_gemm(args, nullptr);
  EXPECT_NE(st.message.find("f16 accumulation needs f16 inputs and an f16 output"), std::string::npos) << st.message;
  args.input = DataType::bf16;
  args.output = DataType::bf16;
  EXPECT_FALSE(detail::can_implement_sm90_ws_gemm(args));
}

// Which kernel the heuristic gives f16 accumulation (host only: the choice
// depends on the SM number passed in, not on the device): the wgmma kernel
// on sm_90, the mma.sync kernel on sm_80; and no kernel at all for an
// f16-accumulating bf16 problem, which validate_arguments refuses first.
TEST(HopperGemm, F16AccumulationSelection) {
  // Never dereferenced; each the matrix's full extent, since D may not
  // overlap A or B.
  alignas(16) static uint16_t a[64 * 64], b[64 * 64], d[64 * 64];
  GemmArgs args;
  args.m = 64;
  args.n = 64;
  args.k = 64;
  args.input = DataType::f16;
  args.output = DataType::f16;
  args.accumulate = DataType::f16;
  args.a = {a, MatrixOrder::row_major, 64, 0};
  args.b = {b, MatrixOrder::col_major, 64, 0};
  args.d = {d, MatrixOrder::row_major, 64, 0};
  Status const valid = validate_arguments(args);
  ASSERT_TRUE(valid.ok()) << valid.message;
  const GemmKernel* chosen = nullptr;
  ASSERT_TRUE(select_gemm_kernel(args, 90, {}, &chosen).ok());
  ASSERT_NE(chosen, nullptr);
  EXPECT_EQ(std::string(chosen->info.name), "sm90_ws_gemm");
  ASSERT_TRUE(select_gemm_kernel(args, 80, {}, &chosen).ok());
  ASSERT_NE(chosen, nullptr);
  EXPECT_EQ(std::string(chosen->info.name), "sm80_tensorop");
  args.input = DataType::bf16;
  args.output = DataType::bf16;
  Status const st = validate_arguments(args);
  EXPECT_EQ(st.code, StatusCode::unsupported_types) << st.message;
}

// The variants timed by scripts/gpu/hopper.sh, each on the odd shapes: the
// raster group size (a remainder group: 8 tile rows in groups of 3), and the
// ping-pong kernel (64x256 tiles, consumers alternate; K-blocks fewer than
// the 5 stages; odd and even tile counts per CTA). Last in the file: a hang
// here (an mbarrier phase) cannot hide the results above.
TEST(HopperGemm, RasterGroupVariants) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, {false, 3});
  run_gemm<__nv_bfloat16, float>({4095, 4097, 4093}, MatrixOrder::row_major, 1.0f, 0.0f, 1, {false, 1});
  run_gemm<__nv_bfloat16, float>({8192, 4096, 256}, MatrixOrder::row_major, 1.0f, 0.0f, 1, {false, 16});
}

// Small problems of both ping-pong variants (hopper.sh runs this one under
// compute-sanitizer memcheck).
TEST(HopperGemm, PingPongSmall) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (int tn : {256, 128}) {
    detail::Sm90WsVariant const pp{true, 0, tn};
    run_gemm<__nv_bfloat16, float>({64, 256, 64}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
    run_gemm<__nv_bfloat16, float>({1, 1, 1}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({129, 257, 65}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
    run_gemm<__nv_bfloat16, float>({300, 500, 40}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);  // 1 K-block
    run_gemm<__half, __half>({257, 129, 72}, MatrixOrder::col_major, 1.0f, 0.0f, 2, pp);
  }
}

TEST(HopperGemm, PingPongVariant) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  detail::Sm90WsVariant const pp{true, 0};
  run_gemm<__nv_bfloat16, float>({256, 512, 4096}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({4095, 4097, 4093}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__half, float>({4095, 4097, 4093}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__nv_bfloat16, float>({1000, 777, 300}, MatrixOrder::row_major, 1.5f, -0.5f, 1, pp);
  run_gemm<__half, __half>({513, 1031, 200}, MatrixOrder::col_major, -2.0f, 0.25f, 1, pp);
  run_gemm<__nv_bfloat16, float>({300, 500, 200}, MatrixOrder::row_major, 1.0f, 0.5f, 3, pp);
  // 128 x 16 = 2048 tiles of 64x256 (15-16 per CTA on 132 SMs, odd and even).
  run_gemm<__nv_bfloat16, float>({8192, 4096, 256}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__nv_bfloat16, float>({8192, 4096, 256}, MatrixOrder::row_major, 1.0f, 0.0f, 1, {true, 5});
}

// Ping-pong with 64x128 tiles (one m64n128 block per consumer, 9 stages of
// 24 KiB): odd shapes, alpha/beta, col-major D, batches, both orientations,
// split-K and a tail split.
TEST(HopperGemm, PingPong64x128Variant) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  detail::Sm90WsVariant pp{true, 0, 128};
  pp.tile_m = 64;
  run_gemm<__nv_bfloat16, float>({64, 128, 64}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__half, float>({4095, 4097, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__nv_bfloat16, float>({1000, 777, 300}, MatrixOrder::row_major, 1.5f, -0.5f, 1, pp);
  run_gemm<__half, __half>({513, 1031, 200}, MatrixOrder::col_major, -2.0f, 0.25f, 1, pp);
  run_gemm<__nv_bfloat16, float>({300, 500, 200}, MatrixOrder::row_major, 1.0f, 0.5f, 3, pp);
  run_gemm<__nv_bfloat16, float>({128, 8192, 1024}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  pp.transpose = true;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({128, 2048, 1024}, MatrixOrder::row_major, 1.0f, 0.5f, 1, pp);
  pp.transpose = false;
  pp.splits = 3;
  run_gemm<__nv_bfloat16, float>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  pp.split_tail = true;
  run_gemm<__nv_bfloat16, float>({4096, 2048, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  // The TMA-store epilogue (WsGemmPingPong64x128TmaStoreConfig, the default
  // for 1024^3-class problems): edges, alpha/beta, batches, split-K, D whose
  // rows are not 16-byte multiples (direct-epilogue fallback).
  detail::Sm90WsVariant tma{true, 0, 128};
  tma.tile_m = 64;
  tma.tma_store = true;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, tma);
  run_gemm<__nv_bfloat16, float>({1024, 1024, 1024}, MatrixOrder::col_major, 1.5f, -0.5f, 1, tma);
  run_gemm<__half, __half>({300, 500, 200}, MatrixOrder::row_major, 1.0f, 0.5f, 3, tma);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({129, 257, 65}, MatrixOrder::row_major, 1.0f, 0.0f, 1, tma);
  run_gemm<__nv_bfloat16, float>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, tma,
                                 MatrixOrder::col_major, MatrixOrder::row_major);
  tma.splits = 3;
  run_gemm<__nv_bfloat16, float>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, tma);
  detail::Sm90WsVariant bad;  // cooperative narrow tiles have no TMA-store epilogue
  bad.tile_n = 64;
  bad.tma_store = true;
  GemmArgs args;
  EXPECT_EQ(detail::launch_sm90_ws_gemm(args, nullptr, bad).code, StatusCode::cannot_implement);
}

// The skinny default for m in (32, 64] (session 38): ping-pong 64x128 with
// the TMA store, 64-157 tiles of one row, balanced waves where the last
// wave is under 60% full; and session 39's for m in (64, 128] and m <= 32. Small K, so that compute-sanitizer can run it
// (hopper.sh's memcheck filter names it).
TEST(HopperGemm, PingPong64x128Skinny) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  MatrixOrder const R = MatrixOrder::row_major;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({64, 20000, 64}, R, 1.0f, 0.0f, 1, def);  // 157 tiles: 79 CTAs of two
  run_gemm<__nv_bfloat16, float>({48, 8192, 192}, R, 1.5f, -0.5f, 1, def);         // 64 tiles, 48 of 64 rows
  run_gemm<__half, __half>({40, 9000, 256}, R, 1.0f, 0.5f, 2, def);                // N residue, batch
  detail::Sm90WsVariant bw{true, 0, 128};
  bw.tile_m = 64;
  bw.tma_store = true;
  bw.balance_waves = true;
  run_gemm<__half, float>({64, 36864, 64}, R, 1.0f, 0.0f, 1, bw);  // 288 tiles: 3 waves of 96 CTAs
  // Session 39's defaults beside it (on 132 SMs): ping-pong 128x128 at m =
  // 128 (96 tiles), 64x128 balanced (314 tiles: 105 CTAs of three), narrow
  // 128x32 balanced (157 tiles).
  run_gemm<__nv_bfloat16, __nv_bfloat16>({128, 12288, 128}, R, 1.0f, 0.5f, 1, def);
  run_gemm<__nv_bfloat16, float>({128, 20000, 64}, R, 1.0f, 0.0f, 1, def);
  run_gemm<__half, __half>({32, 20000, 64}, R, 1.0f, 0.0f, 1, def);
  // m > n: ping-pong 128x128 down M (96 tiles), 64x128 balanced (314 tiles).
  run_gemm<__nv_bfloat16, __nv_bfloat16>({12288, 128, 128}, R, 1.0f, 0.0f, 1, def);
  run_gemm<__nv_bfloat16, float>({20000, 128, 64}, R, 1.0f, 0.5f, 1, def);
  // m > n with A M-major, n in (48, 64] (session 55,
  // SkinnyMnMajorPingPongSelection): ping-pong 64x128 transposed with the TMA
  // store, balanced (224 tiles: 112 CTAs of two; 156: 78), B in either
  // order, f16 accumulation; C in D's other order is read without TMA.
  MatrixOrder const C = MatrixOrder::col_major;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({28672, 64, 128}, R, 1.0f, 0.0f, 1, def, C, C);
  run_gemm<__half, __half>({19968, 64, 64}, R, 1.0f, 0.0f, 1, def, C, R);
  run_gemm<__half, __half, true>({19968, 56, 64}, R, 1.0f, 0.0f, 1, def, C, C);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({28672, 64, 64}, R, 1.0f, 0.5f, 1, def, C, C,
                                         CPlace{.other_order = true, .by_tma = 0});
  // Three waves (313 tiles: 105 CTAs of three), and the m < n mirror with B
  // N-major (SkinnyMnMajorPingPongSelection): untransposed, balanced.
  run_gemm<__nv_bfloat16, __nv_bfloat16>({40000, 64, 64}, R, 1.0f, 0.0f, 1, def, C, C);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({64, 28672, 128}, R, 1.0f, 0.0f, 1, def, R, R);
  run_gemm<__half, __half>({56, 19968, 64}, R, 1.0f, 0.0f, 1, def, C, R);
}

// Ping-pong with 128x128 tiles (two m64n128 row halves per consumer, 7-stage
// ring of 32 KiB).
TEST(HopperGemm, PingPong128Variant) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  detail::Sm90WsVariant const pp{true, 0, 128};
  run_gemm<__nv_bfloat16, float>({128, 128, 64}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__nv_bfloat16, float>({256, 512, 4096}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({4095, 4097, 4093}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__half, float>({4095, 4097, 4093}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);
  run_gemm<__nv_bfloat16, float>({1000, 777, 300}, MatrixOrder::row_major, 1.5f, -0.5f, 1, pp);
  run_gemm<__half, __half>({513, 1031, 200}, MatrixOrder::col_major, -2.0f, 0.25f, 1, pp);
  run_gemm<__nv_bfloat16, float>({300, 500, 200}, MatrixOrder::row_major, 1.0f, 0.5f, 3, pp);
  run_gemm<__nv_bfloat16, float>({8192, 4096, 256}, MatrixOrder::row_major, 1.0f, 0.0f, 1, pp);  // 2048 tiles
}

// Clusters of 2 CTAs (vertically adjacent 128x256 tiles, B multicast), with
// the direct and the TMA-store epilogue: tile-row counts odd and even (the
// pair's second tile past M: its TMA stores are clipped), one K-block,
// batches, col-major D, beta, many units per cluster.
TEST(HopperGemm, Cluster2Variant) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (bool const tma_store : {false, true}) {
    SCOPED_TRACE(tma_store ? "TMA-store epilogue" : "direct epilogue");
    detail::Sm90WsVariant const v = pair_variant(false, 128, tma_store);
    run_gemm<__nv_bfloat16, float>({128, 256, 64}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, float>({1, 1, 1}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({129, 257, 65}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, float>({300, 500, 40}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__half, __half>({257, 129, 72}, MatrixOrder::col_major, 1.0f, 0.0f, 2, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({4095, 4097, 4093}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, float>({1000, 777, 300}, MatrixOrder::row_major, 1.5f, -0.5f, 1, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({300, 512, 128}, MatrixOrder::row_major, 1.5f, -0.5f, 1, v);
    run_gemm<__nv_bfloat16, float>({8192, 4096, 256}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
  }
}

// Ping-pong 64x128 in clusters of 2 (the pair's two 64-row tiles share B' in
// 64-row multicast halves; each consumer owns the same unit in both CTAs),
// direct and TMA-store epilogue: odd tile-row counts (the pair's second tile
// past M'), N' not a multiple of the tile, one K-block, batches, beta, a
// column-major D, f16 accumulation, tf32.
TEST(HopperGemm, Cluster2PingPong64x128) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (bool const tma_store : {false, true}) {
    SCOPED_TRACE(tma_store ? "TMA-store epilogue" : "direct epilogue");
    detail::Sm90WsVariant const v = pair_variant(true, 64, tma_store);
    run_gemm<__nv_bfloat16, float>({64, 128, 64}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, float>({1, 1, 1}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({129, 257, 65}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({128, 8192, 1024}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__half, __half>({200, 300, 72}, MatrixOrder::col_major, 1.0f, 0.0f, 2, v);
    run_gemm<__nv_bfloat16, float>({1000, 777, 300}, MatrixOrder::row_major, 1.5f, -0.5f, 1, v);
    run_gemm<__half, __half, true>({513, 1031, 200}, MatrixOrder::row_major, -2.0f, 0.25f, 1, v);
    run_gemm<float, float>({300, 500, 200}, MatrixOrder::row_major, 1.0f, 0.5f, 3, v);
  }
  // What clusters do not cover is refused, not run unclustered.
  GemmArgs args;
  for (int const tile_n : {16, 32, 64, 128}) {
    detail::Sm90WsVariant narrow;
    narrow.cluster = 2;
    narrow.tile_n = tile_n;
    EXPECT_EQ(detail::launch_sm90_ws_gemm(args, nullptr, narrow).code, StatusCode::cannot_implement) << tile_n;
  }
  detail::Sm90WsVariant pp256;
  pp256.cluster = 2;
  pp256.pingpong = true;
  pp256.tile_n = 256;
  EXPECT_EQ(detail::launch_sm90_ws_gemm(args, nullptr, pp256).code, StatusCode::cannot_implement);
  detail::Sm90WsVariant split = pair_variant(true, 64, true);
  split.splits = 2;
  Status const refused = detail::launch_sm90_ws_gemm(args, nullptr, split);
  EXPECT_EQ(refused.code, StatusCode::cannot_implement);
  EXPECT_NE(refused.message.find("split-K is not implemented for clusters"), std::string::npos) << refused.message;
}

// Ping-pong 128x128 in clusters of 2 (two m64n128 row halves per consumer;
// the pair's 128-row tiles share B' in 64-row multicast halves), both
// epilogues: odd tile-row counts, residues, batches, beta, a column-major D,
// f16 accumulation (the TMA-store form widens both blocks), tf32, M/N-major
// operands and the transposed orientation.
TEST(HopperGemm, Cluster2PingPong128) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  for (bool const tma_store : {false, true}) {
    SCOPED_TRACE(tma_store ? "TMA-store epilogue" : "direct epilogue");
    detail::Sm90WsVariant const v = pair_variant(true, 128, tma_store);
    run_gemm<__nv_bfloat16, float>({128, 128, 64}, R, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, float>({1, 1, 1}, R, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({129, 257, 65}, R, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({2000, 1000, 1000}, R, 1.0f, 0.0f, 1, v);
    run_gemm<__half, __half>({300, 500, 72}, C, 1.0f, 0.0f, 2, v);
    run_gemm<__nv_bfloat16, float>({1000, 777, 300}, R, 1.5f, -0.5f, 1, v);
    run_gemm<__half, __half, true>({513, 1031, 200}, R, -2.0f, 0.25f, 1, v);
    run_gemm<float, float>({300, 500, 200}, R, 1.0f, 0.5f, 3, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({4095, 4097, 4093}, R, 1.0f, 0.0f, 1, v);
    for (MatrixOrder ao : {R, C})
      for (MatrixOrder bo : {R, C}) run_gemm<__half, float>({257, 300, 136}, R, 1.0f, 0.5f, 1, v, ao, bo);
    run_gemm<float, float>({300, 500, 200}, R, 1.0f, 0.0f, 1, v, C, C);  // tf32, A' M-major
  }
  detail::Sm90WsVariant const tr = pair_variant(true, 128, false, true);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 2000, 1000}, R, 1.0f, 0.0f, 1, tr);
  run_gemm<float, float>({300, 500, 200}, R, 1.0f, 0.5f, 1, tr, R, R);  // tf32, A' = B^T N-major
}

// Small launches of the three cluster-pair kernels (cooperative 128x256,
// ping-pong 64x128 and 128x128), both epilogues: for compute-sanitizer
// racecheck, which did not finish Cluster2Variant in 540 s (session 47).
// One full tile pair; residues with the pair's second tile past M'; beta
// through TMA (TMA-store epilogue) and element-wise (direct epilogue, and C
// in the other order); batches; f16 accumulation; a column-major D.
TEST(HopperGemm, Cluster2Small) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  CPlace const other{.other_order = true, .by_tma = 0};
  for (int kind = 0; kind < 3; ++kind)
    for (bool const tma_store : {false, true}) {
      SCOPED_TRACE(testing::Message() << "pair kind " << kind << (tma_store ? ", TMA store" : ", direct"));
      detail::Sm90WsVariant const v = pair_variant(kind != 0, kind == 1 ? 64 : 128, tma_store);
      CPlace const own{.by_tma = tma_store ? 1 : 0};
      run_gemm<__nv_bfloat16, float>({2 * v.tile_m, v.tile_n, 64}, R, 1.0f, 0.0f, 1, v);
      run_gemm<__nv_bfloat16, __nv_bfloat16>({264, 328, 72}, R, 1.5f, -0.75f, 1, v, R, C, own);
      run_gemm<__half, __half>({200, 136, 72}, C, 1.0f, 0.5f, 2, v, R, C, own);
      run_gemm<__nv_bfloat16, __nv_bfloat16>({136, 200, 64}, R, 1.0f, 1.0f, 1, v, R, C, other);
      run_gemm<__half, __half, true>({129, 136, 128}, R, -2.0f, 0.25f, 1, v);
    }
}

// The cluster-pair configurations Cluster2MnMajor and Cluster2MnMajorSmall
// walk. each_mn_major_pair: both cluster kernels (cooperative 128x256,
// ping-pong 64x128) and both epilogues; per_order(v, ao, bo) for each
// operand order with an MN-major operand (K-major A and B: Cluster2Variant,
// Cluster2PingPong64x128, Cluster2Small), then per_variant(v).
// each_transposed_pair: the transposed orientation (D' = D^T of a
// row-major D, the direct epilogue) of both kernels; per_order for every
// operand order, then per_variant.
template <class PerOrder, class PerVariant>
void each_mn_major_pair(PerOrder per_order, PerVariant per_variant) {
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  for (bool const pingpong : {false, true})
    for (bool const tma_store : {false, true}) {
      detail::Sm90WsVariant const v = pair_variant(pingpong, pingpong ? 64 : 128, tma_store);
      SCOPED_TRACE(testing::Message() << (pingpong ? "ping-pong 64x128" : "cooperative 128x256")
                                      << (tma_store ? ", TMA-store epilogue" : ", direct epilogue"));
      for (MatrixOrder ao : {R, C})
        for (MatrixOrder bo : {R, C})
          if (ao != R || bo != C) per_order(v, ao, bo);
      per_variant(v);
    }
}

template <class PerOrder, class PerVariant>
void each_transposed_pair(PerOrder per_order, PerVariant per_variant) {
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  for (bool const pingpong : {false, true}) {
    // tma_store is ignored when transposed: the direct epilogue (the
    // column-major TMA store exists for the wide unclustered tiles only).
    detail::Sm90WsVariant const v = pair_variant(pingpong, pingpong ? 64 : 128, true, true);
    SCOPED_TRACE(pingpong ? "ping-pong 64x128, transposed" : "cooperative 128x256, transposed");
    for (MatrixOrder ao : {R, C})
      for (MatrixOrder bo : {R, C}) per_order(v, ao, bo);
    per_variant(v);
  }
}

// Clusters of 2 over M/N-major operands: A' loaded per CTA as MN-major
// boxes, an MN-major B' as boxes of which each CTA of the pair loads half,
// multicast into both. Both cluster kernels and epilogues, the three orders
// with an MN-major operand, both D orders, odd tile-row counts, residues in
// M, N and K, beta, batches; tf32 with A' M/N-major (read through registers).
TEST(HopperGemm, Cluster2MnMajor) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  each_mn_major_pair(
      [&](const detail::Sm90WsVariant& v, MatrixOrder ao, MatrixOrder bo) {
        run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, R, 1.0f, 0.0f, 1, v, ao, bo);
        run_gemm<__nv_bfloat16, float>({300, 500, 200}, R, 1.0f, 0.5f, 2, v, ao, bo);
        run_gemm<__half, __half>({257, 129, 72}, C, 1.0f, 0.0f, 1, v, ao, bo);
        run_gemm<__nv_bfloat16, float>({129, 257, 65}, C, 1.5f, -0.5f, 1, v, ao, bo);
      },
      [&](const detail::Sm90WsVariant& v) {
        run_gemm<float, float>({300, 500, 200}, R, 1.0f, 0.5f, 1, v, C, C);  // A' = A, M-major
        run_gemm<float, float>({300, 500, 200}, C, 1.0f, 0.0f, 1, v, R, R);  // D^T: A' = B^T, N-major
      });
  // The transposed orientation, every operand order; tf32 with the M/N-major
  // operand on A'.
  each_transposed_pair(
      [&](const detail::Sm90WsVariant& v, MatrixOrder ao, MatrixOrder bo) {
        run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, R, 1.0f, 0.0f, 1, v, ao, bo);
        run_gemm<__half, float>({257, 300, 72}, C, 1.5f, -0.5f, 2, v, ao, bo);
      },
      [&](const detail::Sm90WsVariant& v) {
        run_gemm<float, float>({300, 500, 200}, R, 1.0f, 0.5f, 1, v, R, R);  // D^T: A' = B^T, N-major
        run_gemm<float, float>({300, 500, 996}, R, 1.0f, 0.0f, 1, v, R, C);  // both K-major, 16-byte rows
      });
}

// Small launches of Cluster2MnMajor's paths, for compute-sanitizer
// racecheck, which did not finish Cluster2MnMajor in 270 s (run 405; this
// test: 0 hazards in 7.8 s, run 413): both cluster kernels and epilogues
// with each order that has an MN-major operand (one full tile pair;
// residues with the pair's second tile past M', beta, a column-major D),
// tf32 with an M-major A', and the transposed orientation in every operand
// order.
TEST(HopperGemm, Cluster2MnMajorSmall) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  each_mn_major_pair(
      [&](const detail::Sm90WsVariant& v, MatrixOrder ao, MatrixOrder bo) {
        run_gemm<__nv_bfloat16, __nv_bfloat16>({2 * v.tile_m, v.tile_n, 64}, R, 1.0f, 0.0f, 1, v, ao, bo);
        run_gemm<__nv_bfloat16, float>({129, 136, 72}, C, 1.5f, -0.5f, 1, v, ao, bo);
      },
      [&](const detail::Sm90WsVariant& v) {
        run_gemm<float, float>({136, 200, 72}, R, 1.0f, 0.5f, 1, v, C, C);  // tf32, A' = A, M-major
      });
  each_transposed_pair(
      [&](const detail::Sm90WsVariant& v, MatrixOrder ao, MatrixOrder bo) {
        run_gemm<__half, float>({136, 264, 72}, R, 1.5f, -0.5f, 1, v, ao, bo);
      },
      [&](const detail::Sm90WsVariant& v) {
        run_gemm<float, float>({136, 200, 72}, R, 1.0f, 0.5f, 1, v, R, R);  // D^T: A' = B^T, N-major
      });
}

// Rows of A and B only 16-byte aligned (ld * element bytes an odd multiple
// of 16) take clusters of 2 by default (select_sm90_ws_variant): ping-pong
// 64x128 where 128x128 tiles would fill at most half the SMs, cooperative
// 128x256 where those tiles fill at least half, ping-pong 128x128 in
// between. The default launch on such shapes: odd tile-row counts, a D that
// TMA cannot store (the direct epilogue), M/N-major operands and tf32.
TEST(HopperGemm, SixteenByteRowsDefault) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  detail::Sm90WsVariant def;
  def.group_m = kDefaultLaunch;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);
  run_gemm<__nv_bfloat16, float>({1000, 1000, 3000}, MatrixOrder::row_major, 1.5f, -0.5f, 1, def);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2000, 2000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);
  run_gemm<__half, __half>({2100, 1900, 520}, MatrixOrder::col_major, 1.0f, 0.5f, 2, def);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1500, 1503, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);
  run_gemm<__half, __half, true>({3000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);
  // M/N-major operands (any order takes the rule): A' M-major, B' N-major, both.
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, R, 1.0f, 0.0f, 1, def, C, R);
  run_gemm<__nv_bfloat16, float>({2000, 2000, 1000}, R, 1.0f, 0.0f, 1, def, C, C);
  run_gemm<__half, __half>({1000, 1000, 3000}, C, 1.0f, 0.5f, 1, def, R, R);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({3000, 3000, 1000}, R, 1.0f, 0.0f, 1, def, R, R);
  // The band between (ping-pong 128x128 pairs).
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2000, 1000, 1000}, R, 1.0f, 0.0f, 1, def);
  run_gemm<__half, float>({1000, 2000, 1000}, C, 1.0f, 0.5f, 1, def, C, R);
  // tf32 rows of 996 elements (3984 bytes): both K-major; B row-major, which
  // the launch flips onto A' (transposed, through registers); A column-major.
  run_gemm<float, float>({996, 996, 996}, R, 1.0f, 0.0f, 1, def);
  run_gemm<float, float>({2000, 2000, 996}, R, 1.0f, 0.5f, 1, def, R, R);
  run_gemm<float, float>({996, 1500, 996}, C, 1.0f, 0.0f, 1, def, C, C);
}

// The stmatrix addressing of the 16-bit TMA-store epilogue (host only, no
// GPU). stmatrix.x4 semantics (PTX): lanes 8i .. 8i + 7 give the row
// addresses of matrix i; register i of lane l holds row l / 4, elements
// 2 (l % 4) and + 1 of matrix i; with .trans the matrix is stored
// transposed (that pair lands in stored rows 2 (l % 4) and + 1, element
// l / 4). The epilogue's register i of lane l is the accumulator pair of
// block (h = i % 2, jb + i / 2), which the wgmma fragment map puts at row
// 16w + l / 4 + 8h, columns 8 (jb + i / 2) + 2 (l % 4) + e of the group.
// Every such element must land where the TMA store reads it:
//   - row-major D', boxes of S = 128, 64 or 32 bytes of columns by 64 rows
//     side by side: element (r, c) in box 2c / S at row r * S, its 16-byte
//     chunk moved by the TMA swizzle of S bytes (chunk ^ (r % 8), ^ (r / 2
//     % 4), ^ (r / 4 % 2));
//   - column-major D' (.trans): group column c is the 128-byte row c, the
//     64 rows of the block in it, chunk r / 8 ^ (c % 8);
// the four warps' eight stmatrix together must write each of the 64 x 64
// elements exactly once, and the 8 rows of each matrix must hit 8
// different 16-byte bank groups (no bank conflict).
TEST(HopperGemm, StmatrixEpilogueAddressing) {
  for (int const span : {128, 64, 32})
    for (bool const trans : {false, true}) {
      if (trans && span != 128) continue;  // column-major: 128-byte rows, boxes of J of them
      SCOPED_TRACE(testing::Message() << (trans ? "column-major D'" : "row-major D'") << ", boxes of " << span
                                      << " bytes");
      std::vector<int> hits(64 * 64, 0);
      for (int w = 0; w < 4; ++w)
        for (int jb = 0; jb < 8; jb += 2) {
          for (int i = 0; i < 4; ++i) {  // matrix i: its 8 row addresses' bank groups
            std::vector<int> banks;
            for (int r8 = 0; r8 < 8; ++r8)
              banks.push_back(kernels::sm90::ws_stmatrix_row_offset(w, 8 * i + r8, jb, span, trans) / 16 % 8);
            std::sort(banks.begin(), banks.end());
            ASSERT_TRUE(std::adjacent_find(banks.begin(), banks.end()) == banks.end())
                << "bank conflict: w " << w << " jb " << jb << " matrix " << i;
          }
          for (int l = 0; l < 32; ++l)
            for (int i = 0; i < 4; ++i)
              for (int e = 0; e < 2; ++e) {
                // Where stmatrix puts register i of lane l, element e.
                int const row_lane = trans ? 8 * i + 2 * (l % 4) + e : 8 * i + l / 4;
                int const within = trans ? (l / 4) * 2 : (2 * (l % 4) + e) * 2;
                int const stored = kernels::sm90::ws_stmatrix_row_offset(w, row_lane, jb, span, trans) + within;
                // Where the fragment map says that value belongs, and where
                // the TMA box image has it.
                int const h = i % 2, block = jb + i / 2;
                int const r = 16 * w + l / 4 + 8 * h, col = 8 * block + 2 * (l % 4) + e;
                int expected = 0;
                if (trans) {
                  expected = col * 128 + (((r / 8) ^ (col % 8)) * 16) + (r % 8) * 2;
                } else {
                  int const x = col * 2 % span, box = col * 2 / span;
                  int const sw = span == 128 ? r % 8 : span == 64 ? r / 2 % 4 : r / 4 % 2;
                  expected = box * 64 * span + r * span + (((x / 16) ^ sw) * 16) + x % 16;
                }
                ASSERT_EQ(stored, expected) << "w " << w << " jb " << jb << " lane " << l << " matrix " << i << " e " << e;
                ASSERT_EQ(stored, kernels::sm90::ws_epi_offset(r, col, 2, span, trans));
                ++hits[size_t(stored / 2)];
              }
        }
      for (int x = 0; x < 64 * 64; ++x) ASSERT_EQ(hits[size_t(x)], 1) << "element " << x << " of the group";
    }
  // Which TMA-store kernels compile the column-major store: the wide tiles
  // only (the launcher refuses the others' transposed TMA-store launches,
  // uses_tma_store gives them the direct epilogue).
  static_assert(kernels::sm90::WsGemmNarrowTmaConfig<160>::kStages == 5 &&
                kernels::sm90::WsGemmNarrowTmaConfig<176>::kStages == 5 &&
                kernels::sm90::WsGemmNarrowTmaConfig<192>::kStages == 4 &&
                kernels::sm90::WsGemmNarrowTmaConfig<224>::kStages == 4 &&
                kernels::sm90::WsGemmNarrowConfig<160>::kStages == 6);
  static_assert(kernels::sm90::WsGemmNarrowTmaConfig<160>::kWideTmaStore &&
                kernels::sm90::WsGemmNarrowTmaConfig<176>::kWideTmaStore &&
                kernels::sm90::WsGemmNarrowTmaConfig<192>::kWideTmaStore &&
                kernels::sm90::WsGemmNarrowTmaConfig<208>::kWideTmaStore &&
                kernels::sm90::WsGemmNarrowTmaConfig<224>::kWideTmaStore);
  static_assert(!kernels::sm90::WsGemmTmaStoreConfig::kWideTmaStore &&
                !kernels::sm90::WsGemmTmaStoreReadCConfig::kWideTmaStore &&
                kernels::sm90::WsGemmTmaStoreConfig::kDeferStores &&
                !kernels::sm90::WsGemmTmaStoreReadCConfig::kDeferStores &&
                !kernels::sm90::WsGemmCluster2TmaStoreConfig::kWideTmaStore &&
                !kernels::sm90::WsGemmPingPong128TmaStoreConfig::kWideTmaStore &&
                !kernels::sm90::WsGemmPingPong64x128TmaStoreConfig::kWideTmaStore &&
                !kernels::sm90::WsGemmNarrowConfig<192>::kWideTmaStore);
  // The box widths and column-major box heights the wide tiles take.
  EXPECT_EQ(kernels::sm90::ws_epi_box_bytes(256 * 2), 128);
  EXPECT_EQ(kernels::sm90::ws_epi_box_bytes(192 * 2), 128);
  EXPECT_EQ(kernels::sm90::ws_epi_box_bytes(160 * 2), 64);
  EXPECT_EQ(kernels::sm90::ws_epi_box_bytes(224 * 2), 64);
  EXPECT_EQ(kernels::sm90::ws_epi_box_bytes(176 * 2), 32);
  EXPECT_EQ(kernels::sm90::ws_epi_box_bytes(208 * 2), 32);
  EXPECT_EQ(kernels::sm90::ws_epi_box_bytes(176 * 4), 64);
  EXPECT_EQ(kernels::sm90::ws_epi_trans_rows(160), 32);
  EXPECT_EQ(kernels::sm90::ws_epi_trans_rows(176), 16);
  EXPECT_EQ(kernels::sm90::ws_epi_trans_rows(192), 64);
}

// Per-shape selection of the default launch (host only, no GPU): the
// measured winners on 132-SM H100/H200s, in kernel orientation (m x n x k).
TEST(HopperGemm, DefaultVariantSelection) {
  auto pick = [](int64_t m, int64_t n, int64_t k) { return detail::select_sm90_ws_variant(m, n, k, 132); };
  // Cooperative 128x256 with the TMA-store epilogue; a last wave at most half
  // full is split along K (tail x splits <= 132, at most 16).
  // Unsplit launches of 2-4 waves, the last one partly filled, run every
  // wave full (balance_waves).
  // One wave of 128x256 tiles filling more than half the SMs runs in
  // clusters of 2 (session 32).
  struct Coop {
    Shape s;
    int tail_splits;  // 1: no split
    bool balanced = false;
    int cluster = 1;
  };
  for (Coop c : {Coop{{4096, 4096, 4096}, 1, true},    // 512 tiles: 4 waves of 128
                 Coop{{8192, 8192, 8192}, 1},          // 16 waves
                 Coop{{4096, 4096, 14336}, 1, true},
                 Coop{{4096, 6144, 4096}, 1},          // 6 waves
                 Coop{{2048, 2048, 2048}, 1, false, 2},  // 128 tiles: one wave, 64 pairs
                 Coop{{1792, 2304, 2048}, 1, false, 2},  // 126 tiles, 63 pairs
                 Coop{{2560, 1536, 4096}, 1, false, 2},  // 120 tiles (128x192: 160, two waves)
                 Coop{{1664, 2560, 4096}, 1},          // 130 tiles, 70 pairs (13 tile rows): two waves of pairs
                 Coop{{3072, 4096, 4096}, 1, true},    // 384 tiles: 3 waves of 128
                 Coop{{16384, 16384, 16384}, 16},   // 8192 tiles = 62 waves + 8
                 Coop{{4096, 28672, 4096}, 6},      // 3584 = 27 waves + 20
                 Coop{{28672, 4096, 4096}, 6},
                 Coop{{5120, 5120, 4096}, 16}}) {   // 800 = 6 waves + 8
    detail::Sm90WsVariant const v = pick(c.s.m, c.s.n, c.s.k);
    SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k);
    EXPECT_FALSE(v.pingpong) << "cooperative 128x256 expected";
    EXPECT_EQ(v.tile_n, 256);
    EXPECT_EQ(v.group_m, 16);
    EXPECT_TRUE(v.tma_store);
    EXPECT_EQ(v.splits, c.tail_splits);
    EXPECT_EQ(v.split_tail, c.tail_splits > 1);
    EXPECT_EQ(v.balance_waves, c.balanced);
    EXPECT_EQ(v.cluster, c.cluster);
    EXPECT_FALSE(v.transpose);
  }
  // Cooperative 128 x w tiles (w 160-224, TMA-store epilogue since session
  // 34) where the time model of select_sm90_ws_variant predicts them 3%
  // faster than 128x256 (session 33; per-width rates 0.89-0.97, session 34):
  // 16-bit inputs, K >= 2048; they also replace ping-pong 128x128 where
  // that would win on efficiency and fills the SMs worse. The M/N-major
  // operand on A' (an N-major B' only with both M/N-major: 128x192
  // untransposed); K-major operands in either orientation, D's own on a tie.
  // Per operand order: A' and B' K-major, A' M-major, B' N-major, both.
  struct Pick {
    int w;  // 0: cooperative 128x256 (the rule does not apply); 128: ping-pong 128x128
    bool transposed;
  };
  struct Wide {
    Shape s;
    Pick p[4];
  };
  // 1536x2048: 96 tiles of 128x256 -> 128 of 128x192 (132 transposed).
  for (Wide c : {Wide{{1536, 2048, 4096}, {{192, true}, {192, false}, {192, true}, {192, false}}},
                 Wide{{2048, 1536, 4096}, {{192, false}, {192, false}, {192, true}, {192, false}}},
                 // one wave: K = 2048 is enough
                 Wide{{1536, 2048, 2048}, {{192, true}, {192, false}, {192, true}, {192, false}}},
                 Wide{{1536, 1536, 4096}, {{160, false}, {160, false}, {160, true}, {192, false}}},  // 72 -> 120 tiles
                 Wide{{1536, 1536, 2048}, {{160, false}, {160, false}, {160, true}, {192, false}}},
                 // 160 tiles -> 256 in two full waves
                 Wide{{2048, 2560, 4096}, {{160, false}, {160, false}, {160, true}, {0, false}}},
                 Wide{{2560, 2048, 4096}, {{160, true}, {160, false}, {160, true}, {0, false}}},
                 Wide{{2560, 2560, 4096}, {{208, false}, {208, false}, {208, true}, {0, false}}},  // 200 -> 260 tiles
                 // the orientation decides the count
                 Wide{{2560, 1024, 4096}, {{160, true}, {176, false}, {160, true}, {192, false}}},
                 Wide{{1024, 2560, 4096}, {{160, false}, {160, false}, {176, true}, {192, false}}},
                 // 128 tiles of 128x192 in D's orientation, 144 transposed
                 Wide{{1024, 3072, 4096}, {{192, false}, {192, false}, {208, true}, {192, false}}},
                 // 288 tiles of 128x256 (2.2 waves, tail split) -> 384 of 128x192 (2.9)
                 Wide{{3072, 3072, 4096}, {{192, false}, {192, false}, {192, true}, {192, false}}},
                 // several waves at K = 2048 (session 34: no longer K >= 4096)
                 Wide{{2560, 2560, 2048}, {{208, false}, {208, false}, {208, true}, {0, false}}},
                 Wide{{5120, 5120, 2048}, {{224, false}, {224, false}, {224, true}, {0, false}}},
                 // over ping-pong 128x128 (288 tiles, efficiency 0.73 -> 0.87)
                 Wide{{1536, 3072, 2048}, {{160, false}, {160, false}, {160, true}, {128, false}}},
                 // not where ping-pong already fills its waves (0.94 against 0.97 x 0.97 for 128x224)
                 Wide{{3584, 5120, 2048}, {{128, false}, {128, false}, {128, false}, {128, false}}},
                 // model +2.6% over the tail split, under the 3% margin (measured +2.6%, run 286)
                 Wide{{1536, 3072, 4096}, {{0, false}, {0, false}, {0, false}, {0, false}}},
                 // 128 tiles already fill the wave
                 Wide{{2048, 2048, 4096}, {{0, false}, {0, false}, {0, false}, {0, false}}},
                 Wide{{4096, 4096, 4096}, {{0, false}, {0, false}, {0, false}, {0, false}}},
                 Wide{{2560, 1536, 4096}, {{0, false}, {0, false}, {0, false}, {0, false}}}}) {
    for (int order = 0; order < 4; ++order) {
      bool const a_km = order != 1 && order != 3, b_km = order < 2;
      detail::Sm90WsVariant const v = detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 128, a_km, b_km);
      SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k << ", A' " << (a_km ? "K" : "M")
                                      << "-major, B' " << (b_km ? "K" : "N") << "-major");
      Pick const want = c.p[order];
      EXPECT_EQ(v.pingpong, want.w == 128);
      EXPECT_EQ(v.tile_n, want.w == 0 ? 256 : want.w);
      EXPECT_TRUE(v.tma_store);
      EXPECT_EQ(v.group_m, want.w == 0 ? 16 : 8);
      EXPECT_EQ(v.transpose, want.transposed);
      if (want.w != 0) EXPECT_EQ(v.splits, 1);
      if (want.w != 0) EXPECT_EQ(v.cluster, 1);
    }
    EXPECT_EQ(detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 4).tile_n, 256);  // tf32: not measured
  }
  // 1024 <= K < 2048 (session 35): one wave of 128 x w tiles where their
  // efficiency times their rate beats the ping-pong tiling the rule would
  // take (64x128 counted at kPingPong64Rate); otherwise ping-pong as before.
  // 512 <= K < 1024 (session 36): the same, where that tiling is 64x128;
  // K < 512 (session 37): likewise, 128x160 tiles only.
  struct ShortK {
    Shape s;
    int w;  // 0: ping-pong
    bool transposed;
    int pp_tile_m;
  };
  for (ShortK c : {ShortK{{1536, 1536, 1536}, 160, false, 0},  // 120 tiles over 288 of 64x128
                   ShortK{{1536, 1536, 1024}, 160, false, 0},
                   ShortK{{1536, 2048, 1536}, 192, true, 0},  // 128 tiles
                   ShortK{{1536, 2048, 1024}, 192, true, 0},
                   ShortK{{2560, 1280, 1536}, 208, true, 0},  // over 200 tiles of 128x128
                   ShortK{{1280, 2560, 1536}, 208, false, 0},
                   ShortK{{512, 5120, 1024}, 160, false, 0},
                   // 392 tiles of 64x128 at efficiency 0.99 (measured 0.93-0.97 against 0.86-0.93)
                   ShortK{{1792, 1792, 1024}, 0, false, 64},
                   // two waves of the wide tiles: ping-pong stays (run 292)
                   ShortK{{2304, 2304, 1024}, 0, false, 64},
                   ShortK{{1536, 3072, 1024}, 0, false, 64},
                   ShortK{{2048, 2048, 1024}, 0, false, 128},
                   ShortK{{3072, 2048, 1024}, 0, false, 128},
                   ShortK{{2560, 2560, 1536}, 0, false, 128},
                   // 512 <= K < 1024, replacing 64x128 (runs 299, 302)
                   ShortK{{1536, 1536, 512}, 160, false, 0},
                   ShortK{{1536, 1536, 768}, 160, false, 0},
                   ShortK{{1536, 2048, 512}, 192, true, 0},
                   ShortK{{3072, 768, 768}, 160, false, 0},
                   ShortK{{2304, 1024, 512}, 160, true, 0},
                   ShortK{{1792, 1792, 768}, 0, false, 64},
                   // 128x128 ping-pong stays below K = 1024 (128x224 lost 4-8% at K = 512)
                   ShortK{{2304, 1536, 512}, 0, false, 128},
                   ShortK{{1280, 2560, 768}, 0, false, 128},
                   // K < 512: 128x160 only, replacing 64x128 (run 304: 128x192 lost
                   // 0.4-0.8% where 128x160 gained 4-5%; runs 308-311 down to K = 8)
                   ShortK{{1536, 1536, 448}, 160, false, 0},
                   ShortK{{1536, 1536, 256}, 160, false, 0},
                   ShortK{{2304, 1024, 384}, 160, true, 0},
                   ShortK{{512, 5120, 256}, 160, false, 0},
                   ShortK{{3328, 768, 320}, 160, true, 0},
                   ShortK{{1536, 2048, 256}, 0, false, 64},  // 128x192's one wave: not taken
                   ShortK{{768, 4096, 256}, 0, false, 64},
                   ShortK{{2304, 1536, 384}, 0, false, 128},
                   ShortK{{1536, 1536, 128}, 160, false, 0},
                   ShortK{{1280, 2048, 32}, 160, true, 0},
                   ShortK{{4608, 512, 8}, 160, true, 0},
                   ShortK{{1536, 2048, 64}, 0, false, 64}}) {
    SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k);
    detail::Sm90WsVariant const v = pick(c.s.m, c.s.n, c.s.k);
    EXPECT_EQ(v.pingpong, c.w == 0);
    EXPECT_EQ(v.tile_n, c.w == 0 ? 128 : c.w);
    EXPECT_EQ(v.tile_m, c.w == 0 ? c.pp_tile_m : 128);
    EXPECT_EQ(v.transpose, c.transposed);
    EXPECT_TRUE(v.tma_store);
    EXPECT_EQ(v.splits, 1);
    EXPECT_EQ(v.cluster, 1);
  }
  // Huge problems: the model prices a launch in O(1) per width (2^45 tiles
  // here; a loop over the waves would not finish).
  detail::Sm90WsVariant const huge = pick(int64_t(1) << 30, int64_t(1) << 30, 1 << 16);
  EXPECT_FALSE(huge.pingpong);
  EXPECT_EQ(huge.tile_n, 256);
  // Short K, a badly quantised 128x256 tiling, or too few 128x256 tiles:
  // ping-pong 128x128, or 64x128 where 128x128 tiles would leave one
  // consumer of most CTAs idle (K < 2048, fewer than 1.5 tiles per SM) or
  // quantise badly (64x128 efficiency above 128x128's by > 0.12, K < 2048;
  // > 0.2 otherwise). Session 11, runs 114-115.
  struct PingPong {
    Shape s;
    int tile_m;
  };
  for (PingPong c : {PingPong{{16384, 8192, 1024}, 128}, PingPong{{4095, 4097, 4093}, 128},
                     PingPong{{2048, 2048, 1024}, 128},   // 256 tiles, 1.94 per SM
                     PingPong{{2048, 2048, 512}, 128}, PingPong{{3072, 3072, 512}, 128},
                     PingPong{{4096, 2048, 512}, 128},
                     PingPong{{2560, 2560, 512}, 128},    // efficiency +0.108
                     PingPong{{2048, 1024, 4096}, 128},   // K >= 2048: 128 tiles, the same efficiency
                     PingPong{{1024, 1024, 1024}, 64},    // 64 tiles
                     PingPong{{1000, 1000, 1000}, 64}, PingPong{{1024, 1024, 768}, 64},
                     // (1536^2 x 768 and 1536^3: one wave of 128x160 since sessions 36 and 35, ShortK above)
                     PingPong{{2048, 1024, 512}, 64},     // 128 tiles
                     PingPong{{2304, 2304, 1024}, 64},    // 324 tiles, efficiency +0.16
                     PingPong{{1536, 3072, 512}, 64}}) {  // 288 tiles, efficiency +0.146
    Shape const s = c.s;
    detail::Sm90WsVariant const v = pick(s.m, s.n, s.k);
    SCOPED_TRACE(testing::Message() << s.m << "x" << s.n << "x" << s.k);
    EXPECT_TRUE(v.pingpong && v.tile_n == 128 && v.tile_m == c.tile_m) << "ping-pong " << c.tile_m << "x128 expected";
    EXPECT_EQ(v.group_m, 8);
    EXPECT_TRUE(v.tma_store);
    EXPECT_EQ(v.splits, 1);
    EXPECT_FALSE(v.transpose);
  }
  // Rows only 16-byte aligned, operands in any order: clusters of 2
  // (session 29; M/N-major operands and tf32 session 30), ping-pong 64x128 where 128x128 tiles fill at most half the
  // SMs, cooperative 128x256 where those tiles fill at least half; never
  // split, never transposed.
  struct Rows16 {
    Shape s;
    bool pp64;
  };
  for (Rows16 c : {Rows16{{1000, 1000, 1000}, true},     // 64 tiles of 128x128
                   Rows16{{1000, 1000, 3000}, true},
                   Rows16{{1024, 1024, 1000}, true},
                   Rows16{{1408, 768, 1000}, true},      // 66 tiles: half of 132
                   Rows16{{1500, 1500, 1000}, false},    // 72 tiles of 128x256
                   Rows16{{1408, 1536, 1000}, false},    // 66 tiles of 128x256
                   Rows16{{2000, 2000, 1000}, false},
                   Rows16{{3000, 3000, 1000}, false},
                   Rows16{{8000, 8000, 8008}, false}}) {
    for (int order = 0; order < 4; ++order) {
      bool const a_km = order & 1, b_km = order & 2;
      detail::Sm90WsVariant const v = detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 16, a_km, b_km);
      SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k << ", 16-byte rows, A' "
                                      << (a_km ? "K" : "M") << "-major, B' " << (b_km ? "K" : "N") << "-major");
      EXPECT_EQ(v.cluster, 2);
      EXPECT_EQ(v.pingpong, c.pp64);
      EXPECT_EQ(v.tile_m, c.pp64 ? 64 : 128);
      EXPECT_EQ(v.tile_n, c.pp64 ? 128 : 256);
      EXPECT_TRUE(v.tma_store);
      EXPECT_EQ(v.splits, 1);
      EXPECT_FALSE(v.transpose);
    }
    // tf32 (K * 4 bytes an odd multiple of 16) alike; rows 32-byte aligned:
    // no cluster.
    detail::Sm90WsVariant const t = detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 4, 16, false, true);
    EXPECT_EQ(t.cluster, 2);
    EXPECT_EQ(t.pingpong, c.pp64);
    EXPECT_EQ(detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 32).cluster, 1);
    EXPECT_EQ(detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 4, 32).cluster, 1);
  }
  // Between the two (more than 66 tiles of 128x128, fewer than 66 of
  // 128x256): ping-pong 128x128 pairs (2000x1000x1000 0.727 -> 0.793 in run
  // 263; 0.690 in 128x256 pairs in run 258), any order, 16-bit or tf32.
  for (Shape s : {Shape{2000, 1000, 1000}, Shape{1000, 2000, 1000}, Shape{1408, 896, 1000}})
    for (int order = 0; order < 8; ++order) {
      int const e = order & 4 ? 4 : 2;
      detail::Sm90WsVariant const v = detail::select_sm90_ws_variant(s.m, s.n, s.k, 132, e, 16, order & 1, order & 2);
      SCOPED_TRACE(testing::Message() << s.m << "x" << s.n << "x" << s.k << ", 16-byte rows, order " << order);
      EXPECT_EQ(v.cluster, 2);
      EXPECT_TRUE(v.pingpong && v.tile_n == 128 && v.tile_m == 128);
      EXPECT_TRUE(v.tma_store);
      EXPECT_EQ(v.splits, 1);
      EXPECT_FALSE(v.transpose);
      // 32-byte rows: unclustered ping-pong 128x128.
      detail::Sm90WsVariant const a = detail::select_sm90_ws_variant(s.m, s.n, s.k, 132, e, 32, order & 1, order & 2);
      EXPECT_EQ(a.cluster, 1);
      EXPECT_TRUE(a.pingpong && a.tile_n == 128);
    }
  // The skinny rules come first: a dimension <= 128 keeps its tiles.
  EXPECT_EQ(detail::select_sm90_ws_variant(64, 28672, 4000, 132, 2, 16).cluster, 1);
  EXPECT_EQ(detail::select_sm90_ws_variant(128, 8192, 8000, 132, 2, 16).cluster, 1);
  // Rows 32-byte but not 128-byte aligned: 64x128 on the efficiency gain
  // only (1000x1000x2000, 4000-byte rows: +0.46), not on the tile count
  // (1200x1200x1040, 2080-byte rows, 100 tiles: run 116 measured 128x128
  // faster).
  EXPECT_EQ(detail::select_sm90_ws_variant(1000, 1000, 2000, 132, 2, 32).tile_m, 64);
  EXPECT_EQ(detail::select_sm90_ws_variant(1200, 1200, 1040, 132, 2, 32).tile_m, 128);
  EXPECT_EQ(detail::select_sm90_ws_variant(1200, 1200, 1040, 132, 2, 128).tile_m, 64);
  // 256 <= K < 512 with 128-byte rows: 64x128 over 128x128 from an
  // efficiency gain of 0.09 (session 38; 0.12 elsewhere below K = 2048).
  // 3072^2: 576 tiles of 128x128 in 5 waves (0.873), 1152 of 64x128 in 9
  // (0.970), a gain of 0.097; 2304x3840: 540 tiles, a gain of 0.091.
  for (int64_t k : {256, 320, 448, 511})
    EXPECT_EQ(pick(3072, 3072, k).tile_m, 64) << "K = " << k;
  EXPECT_EQ(pick(2304, 3840, 384).tile_m, 64);
  for (int64_t k : {192, 255, 512, 768}) EXPECT_EQ(pick(3072, 3072, k).tile_m, 128) << "K = " << k;
  EXPECT_EQ(detail::select_sm90_ws_variant(3072, 3072, 256, 132, 2, 64).tile_m, 128);
  EXPECT_EQ(pick(3072, 3584, 256).tile_m, 128);  // a gain of 0.077
  // One dimension in (64, 128]: ping-pong 64x128 in the problem's own
  // orientation, with the TMA-store epilogue (run 33: 1.01x against 0.98x
  // transposed with the direct epilogue at 128x8192x8192); with 16-bit
  // operands on 128-byte rows, ping-pong 128x128 where its tiles sweep the
  // SMs at least as efficiently (session 39), and 64x128 balanced where its
  // tiles are alike (m % 64 == 0 when m is the small dimension) and its 2-4
  // waves end in one under 60% full.
  struct Mid {
    Shape s;
    int tile_m;
    bool balanced;
  };
  for (Mid c : {Mid{{128, 8192, 8192}, 64, false},   // 128 tiles of 64x128 against 64 of 128x128
                Mid{{8192, 128, 8192}, 64, false},   // m > n: 128 tiles against 64
                Mid{{28672, 128, 4096}, 128, false},  // m > n: 448 against 224
                Mid{{20000, 128, 4096}, 64, true},    // m > n: 314 tiles, last wave 50 of 132
                Mid{{20000, 96, 4096}, 64, true},     // m > n: every tile 64x96
                Mid{{100, 3000, 500}, 64, false},    // 48 tiles against 24
                Mid{{128, 20000, 4096}, 64, true},   // 314 tiles (50 in the last wave) against 157
                Mid{{128, 18000, 4096}, 64, true},   // 282 tiles (18) against 141
                Mid{{96, 20000, 4096}, 64, false},   // rows of 64 and 32: not balanced
                Mid{{128, 24576, 4096}, 64, false},  // 384 tiles, last wave 120 of 132
                Mid{{128, 40000, 4096}, 64, false},  // 626 tiles: 5 waves
                Mid{{128, 28672, 4096}, 128, false},  // 448 tiles against 224: both 85% efficient
                Mid{{96, 28672, 4096}, 128, false},
                Mid{{128, 12288, 4096}, 128, false},  // 192 against 96
                Mid{{128, 16384, 1024}, 128, false}}) {
    detail::Sm90WsVariant const v = pick(c.s.m, c.s.n, c.s.k);
    SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k);
    EXPECT_TRUE(v.pingpong && v.tile_n == 128) << "ping-pong x128 expected";
    EXPECT_EQ(v.tile_m, c.tile_m);
    EXPECT_EQ(v.balance_waves, c.balanced);
    EXPECT_FALSE(v.transpose);
    EXPECT_TRUE(v.tma_store);
    EXPECT_EQ(v.splits, 1);
    EXPECT_EQ(v.cluster, 1);
  }
  // Any operand order (run 329: nt, tt and nn gained as tn did).
  for (auto [a_km, b_km] : {std::pair{true, false}, std::pair{false, false}, std::pair{false, true}}) {
    SCOPED_TRACE(testing::Message() << "A' K-major " << a_km << ", B' K-major " << b_km);
    detail::Sm90WsVariant const v = detail::select_sm90_ws_variant(128, 12288, 4096, 132, 2, 128, a_km, b_km);
    EXPECT_TRUE(v.pingpong && v.tile_m == 128 && v.tile_n == 128);
    EXPECT_TRUE(detail::select_sm90_ws_variant(128, 20000, 4096, 132, 2, 128, a_km, b_km).balance_waves);
  }
  // 128x128 and balanced waves only where measured: 16-bit operands,
  // 128-byte rows.
  for (auto [v, what] :
       {std::pair{detail::select_sm90_ws_variant(128, 28672, 4096, 132, 4), "tf32"},
        std::pair{detail::select_sm90_ws_variant(128, 28672, 4096, 132, 2, 64), "64-byte rows"},
        std::pair{detail::select_sm90_ws_variant(128, 20000, 4096, 132, 2, 64), "64-byte rows, 314 tiles"}}) {
    SCOPED_TRACE(what);
    EXPECT_TRUE(v.pingpong && v.tile_m == 64 && v.tile_n == 128);
    EXPECT_FALSE(v.balance_waves);
  }
  // m in (32, 64], 16-bit K-major operands on 128-byte rows: ping-pong
  // 64x128 with the TMA store in D's orientation (session 38) where its
  // tiles fill at least half the SMs (2 * tiles + 4 >= 132) in one wave, or
  // make 2-4 waves whose last one is under 60% full, then balanced.
  struct Skinny64 {
    Shape s;
    bool balanced;
  };
  for (Skinny64 c : {Skinny64{{64, 20000, 4096}, true},   // 157 tiles: last wave 25 of 132
                     Skinny64{{64, 25600, 4096}, true},   // 200 tiles: 68 of 132
                     Skinny64{{64, 36864, 4096}, true},   // 288 tiles: 3 waves, 24 of 132
                     Skinny64{{64, 8192, 8192}, false},   // 64 tiles, unsplit
                     Skinny64{{64, 12288, 4096}, false},  // 96 tiles
                     Skinny64{{64, 16896, 4096}, false},  // 132 tiles: one full wave
                     Skinny64{{48, 16384, 4096}, false}, Skinny64{{33, 16384, 64}, false}}) {
    detail::Sm90WsVariant const v = pick(c.s.m, c.s.n, c.s.k);
    SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k);
    EXPECT_TRUE(v.pingpong && v.tile_m == 64 && v.tile_n == 128) << "ping-pong 64x128 expected";
    EXPECT_FALSE(v.transpose);
    EXPECT_TRUE(v.tma_store);
    EXPECT_EQ(v.splits, 1);
    EXPECT_EQ(v.cluster, 1);
    EXPECT_EQ(v.balance_waves, c.balanced);
  }
  // Not taken: a last wave 60% full or more (224 tiles: 92 of 132; 256:
  // 124), more than 4 waves, m > n, rows under 128 bytes aligned, tf32, an
  // M/N-major operand (the small A' M-major: the narrow tiles; the large B'
  // N-major: ping-pong 64x256, below), fewer than 64 tiles, m = 32.
  for (auto [v, what] :
       {std::pair{detail::select_sm90_ws_variant(64, 28672, 4096, 132), "224 tiles"},
        std::pair{detail::select_sm90_ws_variant(48, 28672, 4096, 132), "224 tiles, m = 48"},
        std::pair{detail::select_sm90_ws_variant(64, 32768, 4096, 132), "256 tiles"},
        std::pair{detail::select_sm90_ws_variant(64, 90000, 4096, 132), "704 tiles"},
        std::pair{detail::select_sm90_ws_variant(20000, 64, 4096, 132), "m > n"},
        std::pair{detail::select_sm90_ws_variant(64, 20000, 4096, 132, 2, 64), "64-byte rows"},
        std::pair{detail::select_sm90_ws_variant(64, 20000, 4096, 132, 4), "tf32"},
        std::pair{detail::select_sm90_ws_variant(64, 20000, 4096, 132, 2, 128, false, true), "A' M-major"},
        std::pair{detail::select_sm90_ws_variant(64, 7936, 4096, 132), "62 tiles"},
        std::pair{detail::select_sm90_ws_variant(64, 4096, 14336, 132), "32 tiles"},
        std::pair{detail::select_sm90_ws_variant(32, 20000, 4096, 132), "m = 32"}}) {
    SCOPED_TRACE(what);
    EXPECT_FALSE(v.pingpong && v.tile_m == 64 && v.tile_n == 128);
  }
  // One dimension <= 64 otherwise: narrow tiles, that dimension on the
  // tile's N side, uniform split-K where K is long for the few tiles.
  struct Narrow {
    Shape s;
    int tile_n, splits;
    bool transpose;
  };
  for (Narrow c : {Narrow{{64, 28672, 4096}, 64, 1, true}, Narrow{{28672, 64, 4096}, 64, 1, false},
                   Narrow{{64, 4096, 14336}, 64, 4, true},
                   Narrow{{16, 4096, 14336}, 16, 4, true}, Narrow{{4096, 16, 14336}, 16, 4, false},
                   Narrow{{30, 2000, 300}, 32, 1, true}}) {
    detail::Sm90WsVariant const v = pick(c.s.m, c.s.n, c.s.k);
    SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k);
    EXPECT_FALSE(v.pingpong);
    EXPECT_EQ(v.tile_n, c.tile_n);
    EXPECT_EQ(v.splits, c.splits);
    EXPECT_FALSE(v.split_tail);
    EXPECT_EQ(v.transpose, c.transpose);
    EXPECT_FALSE(v.tma_store);
  }
  // Unsplit narrow 128x64 tiles in 2-4 waves, the last partly filled, run
  // every wave full (session 28): 224 tiles as 112 CTAs of two. The
  // narrower tiles lost 1% that way at 224 tiles and are balanced only where
  // the last wave is under 60% full (session 39). (Some m < n with m in
  // (32, 64] take ping-pong 64x128 above.)
  struct Waves {
    Shape s;
    bool balanced;
  };
  for (Waves c : {Waves{{64, 28672, 4096}, true},      // 224 tiles: 112 CTAs of two
                  Waves{{28672, 64, 4096}, true},      // either orientation
                  Waves{{20000, 64, 4096}, true},      // 157 tiles: 79 CTAs
                  Waves{{28672, 64, 2048}, true},      // shorter K, the same tiles
                  Waves{{32, 28672, 4096}, false},     // 128x32 tiles, last wave 92 of 132
                  Waves{{28672, 16, 4096}, false},     // 128x16 tiles, the same
                  Waves{{32, 20000, 4096}, true},      // 157 tiles: last wave 25 of 132
                  Waves{{16, 20000, 4096}, true},
                  Waves{{20000, 32, 4096}, true},      // either orientation
                  Waves{{32, 22528, 4096}, true},      // 176 tiles: 44
                  Waves{{32, 40000, 4096}, true},      // 313 tiles: 49
                  Waves{{32, 27008, 4096}, true},      // 211 tiles: 79, just under 60%
                  Waves{{32, 27136, 4096}, false},     // 212 tiles: 80, just over
                  Waves{{16896, 64, 4096}, false},     // 132 tiles: one full wave
                  Waves{{8192, 64, 4096}, false},      // 64 tiles: one wave
                  Waves{{67584, 64, 4096}, false},     // 528 tiles: 4 full waves
                  Waves{{90000, 64, 4096}, false},     // 704 tiles: 6 waves
                  Waves{{16, 4096, 14336}, false}}) {  // split along K
    SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k);
    EXPECT_EQ(pick(c.s.m, c.s.n, c.s.k).balance_waves, c.balanced);
  }
  // One dimension in (32, 64] and the large operand M/N-major: ping-pong
  // 64x256 with the small dimension on M (transposed when it is n), when
  // the 64x256 tiles cover at least half the SMs; otherwise as above.
  auto pick_major = [](int64_t m, int64_t n, bool a_km, bool b_km) {
    return detail::select_sm90_ws_variant(m, n, 4096, 132, 2, 128, a_km, b_km);
  };
  struct Major {
    Shape s;
    bool a_km, b_km;
    bool pp64x256, transpose;
  };
  for (Major c : {Major{{40, 28672, 0}, true, false, true, false},   // nt / tt: B' N-major (m = 64:
                  Major{{40, 28672, 0}, false, false, true, false},  // SkinnyMnMajorPingPongSelection)
                  Major{{28672, 48, 0}, false, true, true, true},    // A' M-major, m large, n <= 48 (n = 64:
                                                                     // SkinnyMnMajorPingPongSelection)
                  Major{{48, 16896, 0}, true, false, true, false},   // 66 tiles of 256 = half of 132 SMs
                  Major{{64, 28672, 0}, false, true, false, true},   // the small operand M-major only
                  Major{{64, 28672, 0}, true, true, false, true},    // K-major: narrow 128x64 (224 tiles)
                  Major{{64, 16640, 0}, true, false, false, true},   // 65 tiles: fewer than half the SMs
                  Major{{32, 28672, 0}, true, false, false, true}}) {  // 32 wide: narrow 128x32
    detail::Sm90WsVariant const v = pick_major(c.s.m, c.s.n, c.a_km, c.b_km);
    SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << " A' " << (c.a_km ? "K" : "M") << "-major B' "
                                    << (c.b_km ? "K" : "N") << "-major");
    EXPECT_EQ(v.pingpong, c.pp64x256);
    EXPECT_EQ(v.tile_n, c.pp64x256 ? 256 : c.s.m < c.s.n ? c.s.m : c.s.n);
    EXPECT_EQ(v.transpose, c.transpose);
    EXPECT_FALSE(v.tma_store);
  }
  // tf32: K-blocks of 32 elements, so twice as many per K.
  EXPECT_EQ(detail::select_sm90_ws_variant(16, 4096, 7168, 132, 4).splits, 4);
  // tf32 with an M/N-major A' (read through registers, which only A can be):
  // never transposed, so it stays A'. A bf16 problem of the same shape and
  // majors takes ping-pong 64x128 transposed (SkinnyMnMajorPingPongSelection);
  // tf32 the narrow 128x64 tiles, untransposed.
  for (auto [m, n] : {std::pair<int64_t, int64_t>{28672, 64}, {4096, 48}, {8192, 16}}) {
    detail::Sm90WsVariant const v = detail::select_sm90_ws_variant(m, n, 4096, 132, 4, 128, false, true);
    SCOPED_TRACE(testing::Message() << m << "x" << n << " tf32, A' M-major");
    EXPECT_FALSE(v.transpose);
    EXPECT_FALSE(v.pingpong);
    EXPECT_EQ(v.tile_n, n <= 16 ? 16 : 64);
  }
  EXPECT_TRUE(detail::select_sm90_ws_variant(28672, 64, 4096, 132, 2, 128, false, true).transpose);
  EXPECT_EQ(pick(0, 5, 5).cluster, 1);
}

// The generated skinny grid of BetaSkinnySelection and
// BetaSkinnyF32Selection: one dimension 1-128, the other 1024-49152, every
// operand order, the small one on either side, rows 16- or 128-byte
// aligned.
struct SkinnyGridCase {
  int64_t m, n, small;
  bool a_km, b_km, m_small;
  int row_align;
};
std::vector<SkinnyGridCase> skinny_grid() {
  std::vector<SkinnyGridCase> cases;
  for (int64_t small = 1; small <= 128; small += 7)
    for (int64_t big = 1024; big <= 49152; big += 1531)
      for (int order = 0; order < 8; ++order) {
        bool const a_km = order & 1, b_km = order & 2, m_small = order & 4;
        for (int row_align : {16, 128})
          cases.push_back({m_small ? small : big, m_small ? big : small, small, a_km, b_km, m_small, row_align});
      }
  return cases;
}
// Whether ping-pong 64x128 over n columns (132 SMs) makes two waves whose
// last is at least 60% full (or full).
bool pp64_two_waves_60(int64_t n) {
  int64_t const tiles = (n + 127) / 128;
  return tiles > 132 && tiles <= 264 && (tiles == 264 || 5 * (tiles - 132) >= 3 * 132);
}

// Host: the beta != 0 clause (c_by_tma, session 53). Where C is loaded by
// TMA, a skinny problem (the small dimension in (32, 64], 16-bit operands
// on 128-byte rows) whose beta = 0 pick has the direct epilogue takes one
// wave of wide TMA-store tiles filling at least half the SMs: cooperative
// 128x256 for m < n, 128x224 transposed for m > n (n over 48), in every
// operand order; but m < n with B' N-major, where the 64x128 tiles make two
// waves whose last is at least 60% full, ping-pong 64x128 with the TMA
// store (session 54), and m > n with A' M-major, ping-pong 64x128
// transposed with the TMA store over the whole window (session 55).
// Everything else picks as at beta = 0.
TEST(HopperGemm, BetaSkinnySelection) {
  struct Case {
    Shape s;
    int w;              // 256 / 224: the wide tile; 0: the beta = 0 pick (224: A' M-major takes ping-pong
                        // 64x128 transposed in place of 128x224)
    bool pp64 = false;  // B' N-major: ping-pong 64x128 in place of 128x256
  };
  for (Case c : {Case{{64, 28672, 4096}, 256, true},  // 112 tiles of 128x256 (beta = 0: narrow 128x64), 224 of 64x128
                 Case{{64, 32768, 4096}, 256, true},  // 128 tiles, 256 of 64x128
                 Case{{48, 28672, 1024}, 256, true},
                 Case{{64, 16896, 4096}, 256},   // 66 tiles: half the SMs (beta = 0: ping-pong 64x128 in
                                                 // K-major orders, so only the others change); 132 of 64x128
                 Case{{64, 33792, 4096}, 256, true},  // 132 tiles, 264 of 64x128
                 Case{{64, 27136, 4096}, 256, true},  // 106 tiles, 212 of 64x128: 80 in the last wave
                 Case{{64, 27008, 4096}, 256},        // 106 tiles, 211 of 64x128: 79 in the last wave
                 Case{{28672, 64, 4096}, 224},   // 128 tiles of 128x224, transposed
                 Case{{20000, 64, 4096}, 224},   // 90 tiles
                 Case{{14784, 64, 4096}, 224},   // 66 tiles
                 Case{{28672, 48, 4096}, 0},     // n = 48, transposed: run 417 lost 1.3%
                 Case{{29568, 64, 4096}, 224},   // 132 tiles
                 Case{{64, 33793, 4096}, 0},     // 133 tiles: two waves
                 Case{{40000, 64, 4096}, 0},     // 179 tiles
                 Case{{64, 16640, 4096}, 0},     // 65 tiles: under half the SMs
                 Case{{14560, 64, 4096}, 0},     // 65 tiles of 128x224
                 Case{{32, 28672, 4096}, 0},     // the small dimension 32
                 Case{{28672, 16, 4096}, 0},
                 Case{{64, 4096, 14336}, 0},     // 16 tiles: split-K
                 Case{{64, 20000, 4096}, 256},   // 79 tiles; K-major: ping-pong 64x128, TMA-stored already
                 Case{{4096, 4096, 4096}, 0}}) {
    for (int order = 0; order < 4; ++order) {
      bool const a_km = order != 1 && order != 3, b_km = order < 2;
      SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k << ", A' " << (a_km ? "K" : "M")
                                      << "-major, B' " << (b_km ? "K" : "N") << "-major");
      detail::Sm90WsVariant const at0 = detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 128, a_km, b_km);
      detail::Sm90WsVariant const v = detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 128, a_km, b_km, true);
      if (c.w == 0 || at0.tma_store) {
        EXPECT_TRUE(v == at0) << "the beta = 0 pick expected";
        continue;
      }
      bool const pp64 = c.w == 256 ? c.pp64 && !b_km : !a_km;
      EXPECT_EQ(v.pingpong, pp64);
      EXPECT_EQ(v.tile_m, pp64 ? 64 : 128);
      EXPECT_EQ(v.tile_n, pp64 ? 128 : c.w);
      EXPECT_TRUE(v.tma_store);
      EXPECT_EQ(v.transpose, c.w == 224);
      EXPECT_EQ(v.splits, 1);
      EXPECT_EQ(v.cluster, 1);
      // The transposed ping-pong tiles balanced over two partial waves.
      int64_t const tiles128 = (c.s.m + 127) / 128;
      EXPECT_EQ(v.balance_waves, pp64 && c.w == 224 && tiles128 > 132 && tiles128 % 132 != 0);
    }
    // Not measured: tf32, rows under 128 bytes aligned.
    EXPECT_TRUE(detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 4, 128, true, true, true) ==
                detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 4, 128, true, true));
    EXPECT_TRUE(detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 64, true, true, true) ==
                detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 64, true, true));
  }
  // Over a generated grid (one dimension 1-128, the other 1024-49152, every
  // order and alignment): c_by_tma changes only direct-epilogue picks, into
  // one unsplit, unclustered wave of cooperative TMA-store tiles filling
  // half the SMs, or (m < n, B' N-major) ping-pong 64x128 with the TMA
  // store in two waves whose last is at least 60% full, or (m > n, A'
  // M-major) ping-pong 64x128 transposed with the TMA store where 128x224
  // tiles would make one wave filling half the SMs.
  int changed = 0, pingpong = 0, pingpong_tr = 0;
  for (SkinnyGridCase const g : skinny_grid()) {
    detail::Sm90WsVariant const at0 =
        detail::select_sm90_ws_variant(g.m, g.n, 4096, 132, 2, g.row_align, g.a_km, g.b_km);
    detail::Sm90WsVariant const v =
        detail::select_sm90_ws_variant(g.m, g.n, 4096, 132, 2, g.row_align, g.a_km, g.b_km, true);
    if (v == at0) continue;
    SCOPED_TRACE(testing::Message() << g.m << "x" << g.n << " rows " << g.row_align << " A' K-major " << g.a_km
                                    << " B' K-major " << g.b_km);
    ++changed;
    ASSERT_FALSE(at0.tma_store);
    ASSERT_TRUE(v.tma_store && v.splits == 1 && v.cluster == 1);
    ASSERT_EQ(v.balance_waves, v.transpose && v.pingpong && (g.m + 127) / 128 > 132);
    ASSERT_GT(g.small, g.m_small ? 32 : 48);
    ASSERT_LE(g.small, 64);
    if (v.pingpong && !g.m_small) {
      ++pingpong_tr;
      ASSERT_TRUE(!g.a_km && g.row_align == 128);
      ASSERT_TRUE(v.tile_m == 64 && v.tile_n == 128 && v.transpose);
      int64_t const tiles224 = (g.m + 223) / 224;
      ASSERT_LE(tiles224, 132);
      ASSERT_GE(2 * tiles224, 132);
      continue;
    }
    if (v.pingpong) {
      ++pingpong;
      ASSERT_TRUE(g.m_small && !g.b_km && g.row_align == 128);
      ASSERT_TRUE(v.tile_m == 64 && v.tile_n == 128 && !v.transpose);
      ASSERT_TRUE(pp64_two_waves_60(g.n));
      continue;
    }
    ASSERT_FALSE(!g.m_small && !g.a_km) << "m > n with A' M-major takes ping-pong 64x128";
    int64_t const rows = v.transpose ? v.tile_n : 128, cols = v.transpose ? 128 : v.tile_n;
    int64_t const tiles = ((g.m + rows - 1) / rows) * ((g.n + cols - 1) / cols);
    ASSERT_LE(tiles, 132);
    ASSERT_GE(2 * tiles, 132);
  }
  EXPECT_GT(changed, 20);  // the grid reaches the clause
  EXPECT_GT(pingpong, 2);
  EXPECT_GT(pingpong_tr, 2);
}

// Host: the same clause for f32 outputs (out_bytes 4, session 54): m < n
// only, ping-pong 64x128 with the TMA store, unbalanced, where the 64x128
// tiles make two waves whose last is at least 60% full (and the 128x256
// tiles one wave filling half the SMs, as for 16-bit outputs). m > n, and
// every other count of waves, keep the beta = 0 pick.
TEST(HopperGemm, BetaSkinnyF32Selection) {
  struct Case {
    Shape s;
    bool pp64;  // ping-pong 64x128 with the TMA store; false: the beta = 0 pick
  };
  for (Case c : {Case{{64, 28672, 4096}, true},    // 224 tiles of 64x128, 92 in the last wave
                 Case{{48, 28672, 1024}, true},
                 Case{{64, 32768, 4096}, true},    // 256 tiles
                 Case{{64, 33792, 4096}, true},    // 264 tiles: two full waves
                 Case{{64, 27136, 4096}, true},    // 212 tiles: 80 in the last wave, 60.6%
                 Case{{64, 27008, 4096}, false},   // 211 tiles: 79, 59.8%
                 Case{{64, 20000, 4096}, false},   // 157 tiles (K-major: balanced ping-pong 64x128 at beta = 0)
                 Case{{64, 16896, 4096}, false},   // 132 tiles: one wave
                 Case{{64, 33793, 4096}, false},   // 133 tiles of 128x256
                 Case{{28672, 64, 4096}, false},   // m > n
                 Case{{32, 28672, 4096}, false},   // the small dimension 32
                 Case{{64, 4096, 14336}, false}}) {
    for (int order = 0; order < 4; ++order) {
      bool const a_km = order != 1 && order != 3, b_km = order < 2;
      SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k << ", A' " << (a_km ? "K" : "M")
                                      << "-major, B' " << (b_km ? "K" : "N") << "-major");
      detail::Sm90WsVariant const at0 =
          detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 128, a_km, b_km, false, 4);
      detail::Sm90WsVariant const v =
          detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 128, a_km, b_km, true, 4);
      if (!c.pp64 || at0.tma_store) {
        EXPECT_TRUE(v == at0) << "the beta = 0 pick expected";
        continue;
      }
      EXPECT_TRUE(v.pingpong);
      EXPECT_EQ(v.tile_m, 64);
      EXPECT_EQ(v.tile_n, 128);
      EXPECT_TRUE(v.tma_store);
      EXPECT_FALSE(v.transpose);
      EXPECT_EQ(v.splits, 1);
      EXPECT_EQ(v.cluster, 1);
      EXPECT_FALSE(v.balance_waves);
    }
    // An output size the clause does not know keeps the beta = 0 pick (of
    // that size: the 16-bit outputs' can differ, SkinnyMnMajorPingPongSelection).
    EXPECT_TRUE(detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 128, true, false, true, 8) ==
                detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, 2, 128, true, false, false, 8));
  }
  // Over the generated grid of BetaSkinnySelection: every changed pick is
  // m < n, 32 < m <= 64, ping-pong 64x128 with the TMA store in two waves
  // whose last is at least 60% full.
  int changed = 0;
  for (SkinnyGridCase const g : skinny_grid()) {
    detail::Sm90WsVariant const at0 =
        detail::select_sm90_ws_variant(g.m, g.n, 4096, 132, 2, g.row_align, g.a_km, g.b_km, false, 4);
    detail::Sm90WsVariant const v =
        detail::select_sm90_ws_variant(g.m, g.n, 4096, 132, 2, g.row_align, g.a_km, g.b_km, true, 4);
    if (v == at0) continue;
    SCOPED_TRACE(testing::Message() << g.m << "x" << g.n << " rows " << g.row_align << " A' K-major " << g.a_km
                                    << " B' K-major " << g.b_km);
    ++changed;
    ASSERT_FALSE(at0.tma_store);
    ASSERT_TRUE(g.m_small);
    ASSERT_EQ(g.row_align, 128);
    ASSERT_GT(g.m, 32);
    ASSERT_LE(g.m, 64);
    ASSERT_TRUE(v.pingpong && v.tile_m == 64 && v.tile_n == 128 && v.tma_store && !v.transpose);
    ASSERT_TRUE(v.splits == 1 && v.cluster == 1 && !v.balance_waves);
    ASSERT_TRUE(pp64_two_waves_60(g.n));
  }
  EXPECT_GT(changed, 5);  // the grid reaches the clause
}

// Host: skinny problems whose large operand is M/N-major (A' for m > n,
// B' for m < n) at beta = 0 (session 55, runs 425-427): ping-pong 64x128
// with the TMA store, the small dimension on M (transposed for m > n, D'
// column-major, stmatrix .trans), balanced over 2-4 waves whose last is
// partial, in place of ping-pong 64x256 with the direct epilogue, where the
// operands are 16-bit on 128-byte rows, D is 16-bit, the small dimension is
// 49-64 and the 64x128 tiles make at most three waves.
TEST(HopperGemm, SkinnyMnMajorPingPongSelection) {
  struct Case {
    Shape s;
    bool pp64;      // ping-pong 64x128 with the TMA store; false: ping-pong 64x256
    bool balanced;  // balance_waves
  };
  for (Case c : {Case{{28672, 64, 4096}, true, true},    // 224 tiles of 64x128: 112 CTAs of two
                 Case{{19968, 64, 4096}, true, true},    // 156 tiles
                 Case{{24576, 64, 1024}, true, true},    // 192 tiles
                 Case{{33792, 64, 4096}, true, false},   // 264 tiles: two full waves
                 Case{{16896, 64, 4096}, true, false},   // 132 tiles of 64x128, 66 of 64x256: one wave
                 Case{{28672, 49, 4096}, true, true},
                 Case{{40000, 64, 4096}, true, true},    // 313 tiles: three waves
                 Case{{50688, 64, 4096}, true, false},   // 396 tiles: three full waves
                 Case{{50689, 64, 4096}, false, false},  // 397 tiles: four waves, not measured
                 Case{{60000, 64, 4096}, false, false},
                 Case{{28672, 48, 4096}, false, false},  // the small dimension 48
                 Case{{64, 28672, 4096}, true, true},    // m < n: B' N-major
                 Case{{64, 40000, 4096}, true, true},
                 Case{{56, 19968, 2048}, true, true},
                 Case{{64, 16896, 4096}, true, false},
                 Case{{64, 50689, 4096}, false, false},
                 Case{{48, 28672, 4096}, false, false}}) {
    bool const tr = c.s.m > c.s.n;
    SCOPED_TRACE(testing::Message() << c.s.m << "x" << c.s.n << "x" << c.s.k);
    // The large operand M/N-major, the other K-major.
    auto pick = [&](int elem_bytes, int row_align, bool other_k_major, int out_bytes) {
      return detail::select_sm90_ws_variant(c.s.m, c.s.n, c.s.k, 132, elem_bytes, row_align,
                                            tr ? false : other_k_major, tr ? other_k_major : false, false, out_bytes);
    };
    detail::Sm90WsVariant const v = pick(2, 128, true, 2);
    EXPECT_TRUE(v.pingpong);
    EXPECT_EQ(v.transpose, tr);
    EXPECT_EQ(v.tile_m, c.pp64 ? 64 : 128);
    EXPECT_EQ(v.tile_n, c.pp64 ? 128 : 256);
    EXPECT_EQ(v.tma_store, c.pp64);
    EXPECT_EQ(v.balance_waves, c.balanced);
    EXPECT_EQ(v.splits, 1);
    EXPECT_EQ(v.cluster, 1);
    // The small operand's order does not count.
    EXPECT_TRUE(v == pick(2, 128, false, 2));
    if (!c.pp64) continue;
    // Not measured, so ping-pong 64x256: f32 outputs (whose column-major D'
    // the TMA store does not write for m > n), rows under 128 bytes aligned;
    // tf32 never takes it.
    for (detail::Sm90WsVariant const w : {pick(2, 128, true, 4), pick(2, 64, true, 2)})
      EXPECT_TRUE(w.pingpong && w.transpose == tr && w.tile_n == 256 && !w.tma_store);
    EXPECT_FALSE(pick(4, 128, true, 4).tma_store);
  }
  // A' K-major with m > n: not this pick.
  for (int64_t m : {19968, 28672, 40000}) {
    detail::Sm90WsVariant const k_major = detail::select_sm90_ws_variant(m, 64, 4096, 132, 2, 128, true, true);
    EXPECT_FALSE(k_major.pingpong && k_major.transpose && k_major.tile_m == 64) << m;
  }
  // Over the generated grid: for m > n, ping-pong 64x128 transposed is
  // picked exactly for A' M-major, 48 < n <= 64, 16-bit on 128-byte rows and
  // 64x256 tiles filling half the SMs in at most three waves of 64x128; for
  // m < n, every such problem with B' N-major takes ping-pong 64x128
  // untransposed, and so does no other with B' N-major. Balanced exactly
  // where the last of 2-4 waves is partial.
  int taken = 0;
  for (SkinnyGridCase const g : skinny_grid()) {
    detail::Sm90WsVariant const v =
        detail::select_sm90_ws_variant(g.m, g.n, 4096, 132, 2, g.row_align, g.a_km, g.b_km);
    SCOPED_TRACE(testing::Message() << g.m << "x" << g.n << " rows " << g.row_align << " A' K-major " << g.a_km
                                    << " B' K-major " << g.b_km);
    int64_t const big = g.m_small ? g.n : g.m, tiles = (big + 127) / 128;
    bool const big_mn_major = g.m_small ? !g.b_km : !g.a_km;
    bool const eligible = big_mn_major && g.row_align == 128 && g.small > 48 && g.small <= 64 &&
                          2 * ((big + 255) / 256) >= 132 && tiles <= 3 * 132;
    bool const pp64 = v.pingpong && v.tile_m == 64 && v.tile_n == 128 && v.transpose == !g.m_small;
    // B' K-major: session 38's ping-pong rule (DefaultVariantSelection); the
    // small dimension over 64: ping-pong 64x128 in D's orientation anyway.
    if ((g.m_small && g.b_km) || g.small > 64) continue;
    ASSERT_EQ(pp64, eligible);
    if (!pp64) continue;
    ++taken;
    ASSERT_TRUE(v.tma_store && v.splits == 1 && v.cluster == 1);
    int64_t const waves = (tiles + 131) / 132;
    ASSERT_EQ(v.balance_waves, waves >= 2 && tiles % 132 != 0);
  }
  EXPECT_GT(taken, 10);  // the grid reaches the pick
}

// Host: the short-K picks over a generated grid (M, N 256-6144 in steps of
// 128, K 1-511, rows 32- or 128-byte aligned, every operand order). Below
// K = 512 the rule runs ping-pong (64x128 or 128x128), or one wave of
// cooperative 128x160 tiles with the TMA store, unsplit and unclustered,
// with an M/N-major operand on A' and never with both M/N-major; tf32 never
// takes them (session 37).
TEST(HopperGemm, ShortKSelectionInvariants) {
  constexpr int kSms = 132;
  int wide = 0, pingpong = 0;
  for (int64_t k : {1, 8, 48, 64, 200, 256, 320, 448, 511})
    for (int row_align : {32, 128})
      for (int order = 0; order < 4; ++order) {
        bool const a_k = order & 1, b_k = order & 2;
        for (int64_t m = 256; m <= 6144; m += 128)
          for (int64_t n = 256; n <= 6144; n += 128) {
            detail::Sm90WsVariant const v = detail::select_sm90_ws_variant(m, n, k, kSms, 2, row_align, a_k, b_k);
            SCOPED_TRACE(testing::Message() << m << "x" << n << "x" << k << " rows " << row_align << "B, A "
                                            << (a_k ? "K" : "M") << "-major, B " << (b_k ? "K" : "N") << "-major");
            if (v.pingpong) {
              ++pingpong;
              ASSERT_EQ(v.tile_n, 128);
              ASSERT_TRUE(v.tile_m == 64 || v.tile_m == 128) << v.tile_m;
              continue;
            }
            ++wide;
            ASSERT_EQ(v.tile_m, 128);
            ASSERT_EQ(v.tile_n, 160);
            ASSERT_TRUE(v.tma_store);
            ASSERT_EQ(v.splits, 1);
            ASSERT_EQ(v.cluster, 1);
            ASSERT_TRUE(a_k || b_k) << "both operands M/N-major: 128x192 only, not below K = 512";
            if (!a_k) ASSERT_FALSE(v.transpose) << "an M-major A stays on A'";
            if (a_k && !b_k) ASSERT_TRUE(v.transpose) << "an N-major B goes on A'";
            int64_t const rows = v.transpose ? 160 : 128, cols = v.transpose ? 128 : 160;
            ASSERT_LE(((m + rows - 1) / rows) * ((n + cols - 1) / cols), kSms) << "one wave only";
            EXPECT_NE(detail::select_sm90_ws_variant(m, n, k, kSms, 4, row_align, a_k, b_k).tile_n, 160)
                << "tf32 takes no wide tile";
          }
      }
  // Both kinds occur: the grid exercises the clause, not just ping-pong.
  EXPECT_GT(wide, 100);
  EXPECT_GT(pingpong, 1000);
}

// The default launch (per-shape selection) on shapes that pick each kernel.
TEST(HopperGemm, DefaultLaunchSelectsPerShape) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  run_gemm<__nv_bfloat16, __nv_bfloat16>({4095, 4097, 4093}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);  // ping-pong
  run_gemm<__nv_bfloat16, float>({2048, 2048, 1024}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);          // short K
  run_gemm<__nv_bfloat16, float>({4096, 2048, 4096}, MatrixOrder::col_major, 1.0f, 0.5f, 1, def);          // cooperative
  run_gemm<__nv_bfloat16, __nv_bfloat16>({16, 4096, 14336}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);   // narrow 16, split 4
  run_gemm<__nv_bfloat16, __nv_bfloat16>({4096, 64, 4096}, MatrixOrder::col_major, 1.0f, 0.0f, 1, def);     // narrow 64, transposed
  run_gemm<__nv_bfloat16, float>({128, 8192, 8192}, MatrixOrder::row_major, 1.0f, 0.5f, 1, def);           // ping-pong 64x128 + TMA store
  run_gemm<__nv_bfloat16, __nv_bfloat16>({100, 3000, 500}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);     // the same, M residue
  run_gemm<__nv_bfloat16, float>({1000, 1000, 1000}, MatrixOrder::row_major, 1.5f, -0.5f, 1, def);         // ping-pong, small
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1024, 1024, 1024}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);    // 64x128 + TMA store
  run_gemm<__nv_bfloat16, float>({1000, 1000, 2000}, MatrixOrder::row_major, 1.5f, -0.5f, 1, def);   // 64x128, 4000-byte rows
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2048, 1024, 512}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);  // 64x128, 128 tiles
  run_gemm<__half, float>({128, 8192, 2048}, MatrixOrder::col_major, 1.0f, 0.5f, 1, def);                   // 64x128 + TMA store
  run_gemm<__nv_bfloat16, __nv_bfloat16>({5120, 5120, 1024}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);   // ping-pong (short K)
  run_gemm<__half, __half>({300, 500, 2000}, MatrixOrder::col_major, 1.0f, 0.5f, 3, def);                  // ping-pong, batch
  // The large operand N-major (M-major) and the other dimension 48-64 wide.
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({64, 17000, 200}, R, 1.0f, 0.0f, 1, def, R, R);  // ping-pong 64x256, B N-major
  run_gemm<__half, float>({17000, 48, 136}, R, 1.0f, 0.5f, 1, def, C, C);                 // the same, transposed
  // Session 38: m in (32, 64], K-major: ping-pong 64x128 (200 tiles,
  // balanced), and 64x128 over 128x128 at 256 <= K < 512 from a gain of 0.09.
  run_gemm<__nv_bfloat16, __nv_bfloat16>({64, 25600, 512}, R, 1.0f, 0.0f, 1, def);
  run_gemm<__nv_bfloat16, float>({2304, 3840, 384}, R, 1.0f, 0.5f, 1, def);
}

// Small split-K cases (hopper.sh runs this one under memcheck): each kernel
// configuration, an uneven last split, alpha/beta.
TEST(HopperGemm, SplitKSmall) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (int kind = 0; kind < 3; ++kind) {
    detail::Sm90WsVariant v;
    v.pingpong = kind == 1;
    v.tile_n = kind == 1 ? 128 : 256;
    v.tma_store = kind == 2;
    v.splits = 3;
    run_gemm<__nv_bfloat16, float>({129, 257, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__half, __half>({72, 136, 300}, MatrixOrder::col_major, 1.5f, -0.5f, 1, v);
  }
}

// Split-K forced through the variant: odd M/N/K, uneven K-blocks per split
// (the last split reads zeros past K), more splits asked than K-blocks,
// alpha/beta with C, column-major D, batches, both kernels and both
// epilogue configurations (the partial store is the same in each).
TEST(HopperGemm, SplitK) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (int kind = 0; kind < 3; ++kind) {
    detail::Sm90WsVariant v;
    v.pingpong = kind == 1;
    v.tile_n = kind == 1 ? 128 : 256;
    v.tma_store = kind == 2;
    for (int sp : {2, 3, 7}) {
      v.splits = sp;
      run_gemm<__nv_bfloat16, float>({129, 257, 4093}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
      run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    }
    v.splits = 5;
    run_gemm<__nv_bfloat16, float>({1, 1, 1}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);      // 1 K-block: no split
    run_gemm<__nv_bfloat16, float>({300, 500, 130}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);  // 3 K-blocks
    run_gemm<__nv_bfloat16, float>({1000, 777, 3000}, MatrixOrder::row_major, 1.5f, -0.5f, 1, v);
    run_gemm<__half, __half>({513, 1031, 2000}, MatrixOrder::col_major, -2.0f, 0.25f, 1, v);
    run_gemm<__nv_bfloat16, float>({300, 500, 2000}, MatrixOrder::row_major, 1.0f, 0.5f, 3, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({16, 4096, 14336}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
  }
  detail::Sm90WsVariant bad;
  bad.cluster = 2;
  bad.splits = 2;
  GemmArgs args;
  EXPECT_EQ(detail::launch_sm90_ws_gemm(args, nullptr, bad).code, StatusCode::cannot_implement);
}

// The shared-memory + TMA-store epilogue, cooperative and ping-pong 128x128.
// D's ld and base are 16-byte aligned in every case below except the ones
// marked "fallback" (direct epilogue); edge tiles (M and N not multiples of
// the tile) rely on the TMA store clipping. Beta != 0 reads C per element.
// Cooperative with 16-bit outputs: the epilogue packs each block into
// registers and stores it during the next tile's first four K-blocks
// (WsGemmConfigT::kDeferStores); with f32 outputs it rolls through its two
// buffers.
detail::Sm90WsVariant tma_store_variant(bool pp) {
  detail::Sm90WsVariant v;
  v.pingpong = pp;
  v.tile_n = pp ? 128 : 256;
  v.tma_store = true;
  return v;
}

// beta * C through the TMA-store epilogues: C' loaded by TMA in D's boxes
// into the group buffers (sm90_ws_reads_c_by_tma), and the element-wise
// reads where C cannot go that way (another order than D, rows that are not
// 16-byte multiples, a misaligned base). Ragged M and N (boxes partly
// outside C'), C with its own padded ld (NaN padding), in place (C is D),
// batches, split-K (the last unit loads C itself), both orientations, f32
// and f16 accumulation, every TMA-store configuration. Small enough for
// compute-sanitizer (hopper.sh's memcheck filter names it).
TEST(HopperGemm, BetaCThroughTma) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  CPlace const tma{.by_tma = 1};
  CPlace const padded{.ld_extra = 24, .by_tma = 1};
  CPlace const in_place{.in_place = true, .by_tma = 1};
  CPlace const other{.other_order = true, .by_tma = 0};
  CPlace const odd_ld{.ld_extra = 3, .by_tma = 0};
  CPlace const shifted{.offset = 1, .by_tma = 0};
  for (int kind = 0; kind < 6; ++kind) {
    // cooperative 128x256 (16-bit outputs: WsGemmTmaStoreReadCConfig), ping-pong
    // 128x128 and 64x128, the cluster pair, wide 128x192 (and transposed).
    detail::Sm90WsVariant v = kind == 3 ? pair_variant(false, 128, true) : tma_store_variant(kind == 1 || kind == 2);
    if (kind == 2) v.tile_m = 64;
    if (kind >= 4) v.tile_n = 192;
    v.transpose = kind == 5;
    SCOPED_TRACE(testing::Message() << "configuration " << kind);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({328, 520, 200}, R, 1.5f, -0.75f, 1, v, R, C, tma);
    run_gemm<__half, __half>({264, 400, 72}, C, 1.0f, 0.5f, 2, v, R, C, padded);
    run_gemm<__half, __half, true>({200, 328, 128}, R, -2.0f, 0.25f, 1, v, R, C, in_place);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({200, 328, 64}, R, 1.0f, 1.0f, 1, v, R, C, other);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({200, 328, 64}, R, 1.0f, 1.0f, 1, v, R, C, odd_ld);
    run_gemm<__half, __half>({200, 328, 64}, R, 1.0f, 1.0f, 1, v, R, C, shifted);
    if (kind != 5) run_gemm<__nv_bfloat16, float>({264, 328, 100}, R, 1.0f, -1.0f, 1, v, R, C, padded);
    if (kind != 3) {
      detail::Sm90WsVariant split = v;
      split.splits = 3;
      run_gemm<__nv_bfloat16, __nv_bfloat16>({264, 520, 640}, R, 1.0f, 0.5f, 1, split, R, C, tma);
    }
  }
  // The default launch (whichever configuration the shape gets): several
  // tiles per CTA, the early load of C' behind the last K-block's wgmmas.
  CPlace const own{.in_place = true};
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2048, 2048, 512}, R, 1.0f, 1.0f, 1, def);
  run_gemm<__half, float>({1000, 1032, 256}, C, 0.5f, 2.0f, 1, def, R, C, own);
}

// Small cases (hopper.sh runs this one under compute-sanitizer memcheck).
TEST(HopperGemm, TmaStoreSmall) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (bool pp : {false, true}) {
    detail::Sm90WsVariant const v = tma_store_variant(pp);
    run_gemm<__nv_bfloat16, float>({128, 256, 64}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, float>({1, 8, 1}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({129, 264, 65}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__half, __half>({264, 136, 72}, MatrixOrder::col_major, 1.0f, 0.5f, 2, v);
  }
  // 143 cooperative tiles on at most 132 CTAs: the deferred epilogue's
  // pending block crosses into a CTA's next tile (1 and 3 K-blocks).
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1664, 2816, 64}, MatrixOrder::row_major, 1.0f, 0.0f, 1, tma_store_variant(false));
  run_gemm<__half, __half>({1664, 2816, 192}, MatrixOrder::row_major, 1.0f, 0.5f, 1, tma_store_variant(false));
  // The column-major D' (transposed orientation, stmatrix .trans) and the
  // wide cooperative tiles' boxes of 64 and 32 bytes or 32 and 16 columns;
  // 128x256 and ping-pong 128x128 transposed fall back to the direct
  // epilogue.
  for (int tn : {256, 128, 160, 176, 192, 208, 224})
    for (bool tr : {false, true}) {
      if (!tr && (tn == 256 || tn == 128)) continue;  // the loop above
      detail::Sm90WsVariant v = tma_store_variant(tn == 128);
      v.tile_n = tn;
      v.transpose = tr;
      if (tn == 256 || tr) run_gemm<__nv_bfloat16, __nv_bfloat16>({129, 264, 65}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
      run_gemm<__half, __half>({264, 136, 72}, MatrixOrder::col_major, 1.0f, 0.5f, 2, v);
      if (tn != 128 && tn != 256) run_gemm<__nv_bfloat16, float>({40, 300, 64}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    }
}

TEST(HopperGemm, TmaStoreEpilogue) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (bool pp : {false, true}) {
    detail::Sm90WsVariant const v = tma_store_variant(pp);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, float>({4095, 4104, 4093}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__half, __half>({4095, 4104, 4093}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, float>({1000, 776, 300}, MatrixOrder::row_major, 1.5f, -0.5f, 1, v);
    run_gemm<__half, __half>({520, 1031, 200}, MatrixOrder::col_major, -2.0f, 0.25f, 1, v);
    run_gemm<__nv_bfloat16, float>({300, 504, 200}, MatrixOrder::row_major, 1.0f, 0.5f, 3, v);
    run_gemm<__nv_bfloat16, float>({8192, 4096, 256}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);  // many tiles per CTA
    run_gemm<__nv_bfloat16, __nv_bfloat16>({129, 257, 65}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);  // fallback
  }
  // The deferred cooperative epilogue (16-bit outputs) with several tiles
  // per CTA (more than 132 tiles in one launch; D's rows 16-byte aligned,
  // or the launch takes the direct epilogue): units of 1, 2 and 3 K-blocks
  // store the previous block's remaining groups after their K loop, 5
  // K-blocks all four inside it; N not a multiple of the tile; f16
  // accumulation; M/N-major A and B (the other K loop copies); a batch (one
  // launch per entry: the final block only). beta != 0 with a 16-bit output
  // takes the cooperative kernel that reads C and stores each block at its
  // tile's end (WsGemmTmaStoreReadCConfig; the deferred kernel refuses
  // beta != 0), so those cases check that kernel and the routing.
  detail::Sm90WsVariant const coop = tma_store_variant(false);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({4096, 4096, 64}, R, 1.0f, 0.0f, 1, coop);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({4000, 4104, 128}, R, -1.0f, 0.0f, 1, coop);
  run_gemm<__half, __half>({2048, 8192, 192}, R, 1.0f, 0.5f, 1, coop);
  run_gemm<__half, __half, true>({4096, 2048, 320}, R, 1.0f, 0.0f, 1, coop);
  run_gemm<__half, __half, true>({2048, 4096, 128}, R, 1.0f, 0.5f, 1, coop);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2048, 4096, 256}, R, 1.0f, 0.0f, 1, coop, C, R);
  run_gemm<__half, __half>({2048, 4104, 192}, R, 1.0f, 0.0f, 1, coop, R, R);
  run_gemm<__half, __half>({1000, 1000, 200}, C, 1.0f, 0.25f, 8, coop);
  // The same epilogue as the finisher of split-K and tail-split tiles: a
  // unit that does not finish its block leaves nothing pending; with more
  // units than CTAs (768 units of 3, 3 and 2 K-blocks), a pending block
  // is stored during units that finish theirs and units that do not.
  detail::Sm90WsVariant split = tma_store_variant(false);
  split.splits = 3;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, R, 1.0f, 0.0f, 1, split);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2048, 4096, 512}, R, 1.0f, 0.0f, 1, split);
  split.splits = 4;
  split.split_tail = true;
  run_gemm<__half, __half>({5120, 5120, 512}, R, 1.0f, -0.5f, 1, split);
  detail::Sm90WsVariant bad;
  bad.pingpong = true;
  bad.tile_n = 256;
  bad.tma_store = true;
  GemmArgs args;
  EXPECT_EQ(detail::launch_sm90_ws_gemm(args, nullptr, bad).code, StatusCode::cannot_implement);
}

// Narrow cooperative tiles 128 x N (N = 16..128, 192), both orientations (the
// transposed one writes a column-major D'), with and without split-K:
// partial tiles in both dimensions, alpha/beta with C, batches.
TEST(HopperGemm, NarrowVariants) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (int tn : {16, 32, 64, 128, 192}) {
    for (bool tr : {false, true}) {
      for (int sp : {1, 3}) {
        detail::Sm90WsVariant v;
        v.tile_n = tn;
        v.transpose = tr;
        v.splits = sp;
        run_gemm<__nv_bfloat16, __nv_bfloat16>({17, 1000, 700}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
        run_gemm<__nv_bfloat16, float>({1000, 45, 700}, MatrixOrder::row_major, 1.5f, -0.5f, 1, v);
        run_gemm<__half, __half>({100, 777, 1000}, MatrixOrder::col_major, 1.0f, 0.5f, 2, v);
      }
    }
  }
}

// Cooperative 128 x w tiles, w = 160, 176, 192, 208, 224
// (WsGemmNarrowConfig<w>, wgmma m64nw; an N-major B' in boxes of 64 bytes
// for 160 and 224, 32 bytes for 176 and 208), the default for mid-size
// problems whose 128x256 tiles fill their waves badly (sessions 32-33):
// every input type (tf32 and f16 accumulation included), M/N-major
// operands in each order and both orientations, residues in every
// dimension (N not a multiple of w or of 64), alpha/beta with C, a
// column-major D, batches; then the default launch on shapes the rule
// gives each width.
TEST(HopperGemm, CooperativeWide) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  for (int w : {160, 176, 192, 208, 224}) {
    detail::Sm90WsVariant v;
    v.tile_n = w;
    v.transpose = w % 32 == 0;  // 160, 192, 224 transposed; 176, 208 in D's orientation
    run_gemm<__nv_bfloat16, __nv_bfloat16>({1536, 1536, 4096}, R, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, float>({1000, 777, 3000}, R, 1.5f, -0.5f, 1, v);
    run_gemm<__half, __half>({700, 1000, 1000}, C, 1.0f, 0.5f, 2, v);
    run_gemm<__half, __half, true>({1000, 1200, 2048}, R, 1.0f, 0.0f, 1, v);
    v.transpose = false;  // tf32 reads an M/N-major operand as A' only
    run_gemm<float, float>({1000, 1000, 996}, R, 1.0f, 0.5f, 1, v);
    run_gemm<float, float>({300, 500, 200}, R, 1.0f, 0.0f, 1, v, C, C);  // A' M-major (registers)
    for (int tr = 0; tr < 2; ++tr) {
      v.transpose = tr == 1;
      for (int order = 0; order < 4; ++order) {
        MatrixOrder const ao = order & 1 ? C : R, bo = order & 2 ? R : C;
        run_gemm<__nv_bfloat16, __nv_bfloat16>({777, 1031, 520}, R, 1.0f, 0.0f, 1, v, ao, bo);
      }
    }
  }
  // The default launch where the rule picks 128 x w (select_sm90_ws_variant):
  // 192 (1536x2048, 2048x1536), 160 (1536^2, 2048x2560), 208 (2560^2), 176
  // (2560x1024 with an M-major A), 192 with both operands M/N-major.
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2048, 1536, 4096}, R, 1.0f, 0.0f, 1, def);
  run_gemm<__half, float>({1536, 1536, 4096}, C, 1.0f, 0.0f, 1, def);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1536, 1536, 4096}, R, 1.0f, 0.0f, 1, def, R, R);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2048, 2560, 4096}, R, 1.0f, 0.0f, 1, def);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2560, 2560, 4096}, R, 1.0f, 0.0f, 1, def, R, R);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2560, 1024, 4096}, R, 1.0f, 0.0f, 1, def, C, C);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2560, 1024, 4096}, R, 1.0f, 0.0f, 1, def, C, R);
}

// The wide cooperative tiles with the TMA-store epilogue
// (WsGemmNarrowTmaConfig<w>): groups of 64 x 128 bytes in TMA boxes of 128
// bytes (192), 64 (160, 224) or 32 (176, 208; f32 outputs: 64), a column-
// major D' (transposed orientation) in boxes of 64, 32 or 16 columns; odd
// group counts (buffer reuse across tiles), residues in every dimension
// and N not a multiple of the box, alpha/beta with C, batches, split-K
// finishers, M/N-major operands, f16 accumulation; a D that TMA cannot
// store (odd row length) falls back to the direct epilogue, as does an f32
// output with a column-major D'. Then 128x256 and ping-pong 128x128 /
// 64x128 explicitly transposed with tma_store: the direct epilogue for the
// first two (their TMA store writes a row-major D' only,
// WsGemmConfigT::kTransTmaStore), the column-major TMA store for ping-pong
// 64x128 with 16-bit outputs (PingPong64TransTmaStore).
TEST(HopperGemm, CooperativeWideTmaStore) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  for (int w : {160, 176, 192, 208, 224})
    for (bool tr : {false, true}) {
      detail::Sm90WsVariant v;
      v.tile_n = w;
      v.transpose = tr;
      v.tma_store = true;
      run_gemm<__nv_bfloat16, __nv_bfloat16>({1536, 1536, 4096}, R, 1.0f, 0.0f, 1, v);
      run_gemm<__nv_bfloat16, float>({1000, 776, 3000}, R, 1.5f, -0.5f, 1, v);
      run_gemm<__half, __half>({696, 1000, 1000}, C, 1.0f, 0.5f, 2, v);
      run_gemm<__half, __half, true>({1000, 1200, 2048}, R, 1.0f, 0.0f, 1, v);
      run_gemm<__half, float>({2000, 2000, 512}, C, 1.0f, 0.0f, 1, v);  // several tiles per CTA
      run_gemm<__nv_bfloat16, __nv_bfloat16>({777, 1031, 520}, R, 1.0f, 0.0f, 1, v);  // odd rows: direct
      for (int order = 0; order < 4; ++order) {
        MatrixOrder const ao = order & 1 ? C : R, bo = order & 2 ? R : C;
        run_gemm<__nv_bfloat16, __nv_bfloat16>({776, 1032, 520}, R, 1.0f, 0.0f, 1, v, ao, bo);
      }
      detail::Sm90WsVariant split = v;
      split.splits = 3;
      run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, R, 1.0f, 0.5f, 1, split);
      run_gemm<float, float>({1000, 1000, 996}, R, 1.0f, 0.5f, 1, v);  // tf32: the direct-epilogue form
    }
  for (int kind = 0; kind < 3; ++kind) {
    detail::Sm90WsVariant v = tma_store_variant(kind != 0);
    if (kind == 2) v.tile_m = 64;
    v.transpose = true;
    SCOPED_TRACE(kind == 0 ? "cooperative 128x256" : kind == 1 ? "ping-pong 128x128" : "ping-pong 64x128");
    run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, R, 1.0f, 0.0f, 1, v);
    run_gemm<__half, __half>({4095, 4104, 1000}, C, 1.0f, 0.5f, 1, v);
    run_gemm<__half, __half, true>({520, 1031, 200}, R, -2.0f, 0.25f, 2, v);
    run_gemm<__nv_bfloat16, float>({1000, 776, 300}, R, 1.5f, -0.5f, 1, v);  // f32: direct
    detail::Sm90WsVariant split = v;
    split.splits = 4;
    split.split_tail = true;
    if (kind == 0) run_gemm<__half, __half>({5120, 5120, 512}, R, 1.0f, -0.5f, 1, split);
  }
  // The default launch where the rule takes them with the TMA store (session
  // 34): 128x192 over a tail split (3072^2 x 4096, D's orientation and, tt,
  // transposed), 128x208 at K = 2048 over balanced 128x256 waves, 128x160 over
  // ping-pong 128x128; rows of D that TMA cannot store (3070 bf16 = 6140
  // bytes) take the direct epilogue of the same tile.
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  run_gemm<__nv_bfloat16, __nv_bfloat16>({3072, 3072, 4096}, R, 1.0f, 0.0f, 1, def);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({3072, 3072, 4096}, R, 1.0f, 0.0f, 1, def, R, R);
  run_gemm<__half, __half>({2560, 2560, 2048}, C, 1.0f, 0.5f, 1, def);
  run_gemm<__nv_bfloat16, float>({1536, 3072, 2048}, R, 1.0f, 0.0f, 1, def);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({3072, 3070, 4096}, R, 1.0f, 0.0f, 1, def);
  // Session 35: one wave of them at 1024 <= K < 2048 (1536^3: 128x160; 1536 x
  // 2048 x 1536: 128x192 transposed), f32 outputs, beta, other operand orders.
  run_gemm<__nv_bfloat16, float>({1536, 1536, 1536}, R, 1.0f, 0.5f, 1, def);
  run_gemm<__half, __half>({1536, 2048, 1536}, R, 1.0f, 0.0f, 1, def, C, R);
  run_gemm<__nv_bfloat16, float>({1536, 2048, 1024}, C, 1.0f, 0.0f, 1, def);
  // Session 36: and at 512 <= K < 1024 where they replace 64x128 (1536^2 x
  // 512: 128x160; 2304 x 1024 x 768: 128x160 transposed, 12 k-blocks).
  run_gemm<__nv_bfloat16, float>({1536, 1536, 512}, R, 1.0f, 0.5f, 1, def);
  run_gemm<__half, __half>({2304, 1024, 768}, R, 1.0f, 0.0f, 1, def, C, R);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({2304, 1024, 576}, C, 1.0f, 0.0f, 1, def);
  // Session 37: 128x160 at K < 512 (1 to 7 k-blocks around the ring's 5
  // stages; a K of 48 is one part-filled block, rows 32-byte aligned): both
  // orientations, beta, f32 out, col-major A.
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1536, 1536, 256}, R, 1.0f, 0.5f, 1, def);
  run_gemm<__half, __half>({1280, 2048, 48}, R, 1.0f, 0.5f, 1, def);
  run_gemm<__half, float>({2304, 1024, 384}, C, 1.0f, 0.0f, 1, def, C, R);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({512, 5120, 448}, R, -1.0f, 0.0f, 1, def);
  // What has no TMA-store form is refused by name.
  detail::Sm90WsVariant bad;
  bad.tile_n = 128;
  bad.tma_store = true;
  GemmArgs args;
  EXPECT_EQ(detail::launch_sm90_ws_gemm(args, nullptr, bad).code, StatusCode::cannot_implement);
  bad.tile_n = 192;
  bad.cluster = 2;
  EXPECT_EQ(detail::launch_sm90_ws_gemm(args, nullptr, bad).code, StatusCode::cannot_implement);
}

// Small narrow and split-K cases for memcheck (hopper.sh): one tile, one
// K-block, a tile past M, the counters reused by a second launch.
TEST(HopperGemm, NarrowSmall) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (int tn : {16, 128, 160, 176, 192, 208, 224}) {
    detail::Sm90WsVariant v;
    v.tile_n = tn;
    v.transpose = true;
    v.splits = 2;
    run_gemm<__nv_bfloat16, float>({1, 1, 1}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, float>({16, 130, 200}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({16, 130, 200}, MatrixOrder::col_major, 1.0f, 0.5f, 2, v);
  }
}

// beta * C through the direct epilogue (ws_epilogue): in place (C is D:
// each element must be read before its own write, by the thread that
// writes it), C with a padded ld, C in the other order. The kernels:
// cooperative 128 x 16..256 (every chunk size of ws_epilogue_chunk in
// c_chunk_direct_experiment.patch: 4, 8, 16, 16 x 2, 10 x 4, 11 x 4,
// 16 x 3, 13 x 4, 14 x 4, 16 x 4 pairs), 128x16 / 128x64 / 128x224 also
// transposed, ping-pong
// 64x256, 128x128 and 64x128, and the three cluster pairs. Ragged M and N
// (rows past m skipped inside a chunk), split-K (the last unit's
// epilogue), batches, f16 accumulation, tf32. Small enough for
// compute-sanitizer.
TEST(HopperGemm, DirectEpilogueBeta) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  CPlace const in_place{.in_place = true, .by_tma = 0};
  CPlace const padded{.ld_extra = 5, .by_tma = 0};
  CPlace const other{.other_order = true, .by_tma = 0};
  std::vector<detail::Sm90WsVariant> variants;
  for (int tn : {16, 32, 64, 128, 160, 176, 192, 208, 224, 256})
    for (bool tr : {false, true}) {
      if (tr && tn != 16 && tn != 64 && tn != 224) continue;
      detail::Sm90WsVariant v;  // cooperative 128 x tn, direct epilogue
      v.tile_n = tn;
      v.transpose = tr;
      variants.push_back(v);
    }
  // Ping-pong 64x256 (tile_n 256; tile_m stays 128), 128x128 and 64x128.
  for (auto const [tm, tn] : {std::pair{128, 256}, std::pair{128, 128}, std::pair{64, 128}}) {
    detail::Sm90WsVariant v;
    v.pingpong = true;
    v.tile_m = tm;
    v.tile_n = tn;
    variants.push_back(v);
  }
  variants.push_back(pair_variant(false, 128, false));
  variants.push_back(pair_variant(true, 64, false));
  variants.push_back(pair_variant(true, 128, false));
  for (std::size_t i = 0; i < variants.size(); ++i) {
    detail::Sm90WsVariant const& v = variants[i];
    SCOPED_TRACE(testing::Message() << "direct variant " << i << ": tile_n " << v.tile_n << (v.transpose ? " transposed" : "")
                                    << (v.pingpong ? " ping-pong" : "") << " cluster " << v.cluster);
    ASSERT_FALSE(v.tma_store);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({200, 328, 72}, R, 1.5f, -0.75f, 1, v, R, C, in_place);
    run_gemm<__half, float>({131, 270, 64}, C, 1.0f, 2.0f, 2, v, R, C, in_place);
    run_gemm<__half, __half, true>({72, 200, 128}, R, -2.0f, 0.25f, 1, v, R, C, in_place);
    run_gemm<__nv_bfloat16, __nv_bfloat16>({264, 136, 64}, C, 1.0f, 0.5f, 1, v, R, C, padded);
    run_gemm<__half, __half>({136, 200, 64}, R, 1.0f, 1.0f, 1, v, R, C, other);
    run_gemm<float, float>({136, 200, 96}, R, 1.0f, -1.0f, 1, v, R, C, in_place);
    if (v.cluster == 1) {
      detail::Sm90WsVariant split = v;
      split.splits = 3;
      run_gemm<__nv_bfloat16, __nv_bfloat16>({200, 328, 640}, R, 1.0f, 0.5f, 1, split, R, C, in_place);
    }
  }
}

// Ping-pong 64x128 writing a column-major D' by TMA (the transposed
// orientation, WsGemmPingPong64x128TmaStoreTransConfig, 16-bit outputs):
// the m > n skinny shape it is for in K- and M-major A, beta with C by TMA
// in place and in its own buffer, residues in every dimension, a
// column-major D, f16 accumulation with batches; an f32 output and a D row
// TMA cannot store take the direct epilogue of the same tile.
TEST(HopperGemm, PingPong64TransTmaStore) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  detail::Sm90WsVariant v;
  v.pingpong = true;
  v.tile_m = 64;
  v.tile_n = 128;
  v.tma_store = true;
  v.transpose = true;
  CPlace const tma{.by_tma = 1};
  CPlace const in_place{.in_place = true, .by_tma = 1};
  run_gemm<__nv_bfloat16, __nv_bfloat16>({28672, 64, 256}, R, 1.0f, 0.5f, 1, v, R, C, tma);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({28672, 64, 192}, R, 1.0f, -1.0f, 1, v, C, C, in_place);
  run_gemm<__half, __half>({20000, 56, 136}, R, 1.5f, 0.5f, 1, v, C, R, tma);
  run_gemm<__half, __half>({1000, 1000, 1000}, R, 1.0f, 0.0f, 1, v);
  run_gemm<__half, __half>({4096, 4104, 1000}, C, 1.0f, 0.5f, 1, v, R, C, tma);
  run_gemm<__half, __half, true>({520, 1032, 200}, R, -2.0f, 0.25f, 2, v);
  run_gemm<__nv_bfloat16, float>({1000, 776, 300}, R, 1.5f, -0.5f, 1, v, R, C, CPlace{.by_tma = 0});  // f32: direct
  run_gemm<__nv_bfloat16, __nv_bfloat16>({1001, 50, 64}, R, 1.0f, 0.5f, 1, v, R, C, CPlace{.by_tma = 0});  // 100-byte rows
  // Balanced waves (the default's form, session 55): 156 tiles on 78 CTAs.
  detail::Sm90WsVariant bw = v;
  bw.balance_waves = true;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({19968, 64, 128}, R, 1.0f, 0.5f, 1, bw, C, C, tma);
  run_gemm<__half, __half>({19968, 64, 64}, R, 1.0f, 0.0f, 1, bw, C, R);
}

// The default launch at beta != 0 on skinny shapes (BetaSkinnySelection,
// BetaSkinnyF32Selection): one wave of wide TMA-store tiles for 16-bit
// outputs, ping-pong 64x128 with the TMA store for f32 ones and for B'
// N-major (m < n), C' loaded by TMA, where C and D allow it; the beta = 0
// kernels (direct epilogue) where they do not.
TEST(HopperGemm, BetaSkinnyDefault) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  CPlace const tma{.by_tma = 1};
  CPlace const in_place{.in_place = true, .by_tma = 1};
  // Every operand row 128-byte aligned (K and the M/N-major extents
  // multiples of 64), as the clause needs.
  // 128x256 over 64 x 28672 (112 tiles; narrow 128x64 at beta = 0) and 64
  // x 16960 (67 tiles, the last one ragged) in the orders whose beta = 0
  // pick has the direct epilogue; K-major, 64 x 16960 takes ping-pong
  // 64x128 with the TMA store at beta = 0 already.
  run_gemm<__nv_bfloat16, __nv_bfloat16>({64, 28672, 128}, R, 1.0f, 0.5f, 1, def, R, C, tma);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({64, 16960, 128}, R, 1.0f, 0.5f, 1, def, R, C, tma);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({50, 16960, 64}, R, 1.5f, -1.0f, 1, def, R, R, tma);
  run_gemm<__half, __half>({64, 16960, 192}, R, 1.0f, 1.0f, 1, def, C, C, in_place);
  run_gemm<__half, __half>({64, 16960, 64}, R, 1.0f, 2.0f, 1, def, C, R, tma);
  // 128x224 transposed over 14848 x 64 (67 tiles), and a column-major D
  // (64 x 16960 in the kernel's orientation).
  run_gemm<__nv_bfloat16, __nv_bfloat16>({14848, 64, 128}, R, 1.0f, -0.5f, 1, def, R, C, tma);
  run_gemm<__half, __half>({14848, 64, 64}, R, 1.0f, 1.0f, 1, def, C, R, in_place);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({16960, 64, 128}, C, 1.0f, 0.5f, 1, def, R, C, tma);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({28672, 64, 128}, C, 1.0f, 0.5f, 1, def, R, C, tma);
  // 16-bit out, m < n, B' N-major over 224 64x128 tiles: ping-pong 64x128
  // with the TMA store, balanced, the beta = 0 pick
  // (SkinnyMnMajorPingPongSelection).
  run_gemm<__nv_bfloat16, __nv_bfloat16>({64, 28672, 64}, R, 1.0f, 0.5f, 1, def, R, R, tma);
  run_gemm<__half, __half>({64, 28672, 128}, R, 1.0f, 1.0f, 1, def, C, R, in_place);
  // 16-bit out, m > n, A' M-major (90 and 128 tiles of 128x224): ping-pong
  // 64x128 transposed with the TMA store (BetaSkinnySelection, session 55).
  run_gemm<__nv_bfloat16, __nv_bfloat16>({28672, 64, 128}, R, 1.0f, 0.5f, 1, def, C, C, tma);
  run_gemm<__half, __half>({19968, 64, 64}, R, 1.0f, -1.0f, 1, def, C, R, in_place);
  // f32 out, m < n (BetaSkinnyF32Selection): ping-pong 64x128 with the TMA
  // store over 64 x 28672 (224 tiles), K-major and MN-major operands, and
  // a column-major D (28672 x 64, 64 x 28672 in the kernel's orientation).
  run_gemm<__nv_bfloat16, float>({64, 28672, 64}, R, 1.0f, 0.5f, 1, def, R, C, tma);
  run_gemm<__nv_bfloat16, float>({64, 28672, 128}, R, 1.0f, -1.0f, 1, def, C, R, in_place);
  run_gemm<__half, float>({28672, 64, 64}, C, 1.5f, 0.5f, 1, def, R, C, tma);
  // Where C cannot go by TMA, or the rows are not 128-byte aligned, or the
  // output is f32 with m > n: the beta = 0 pick (narrow 128x64, direct
  // epilogue).
  CPlace const other{.other_order = true, .by_tma = 0};
  CPlace const odd_ld{.ld_extra = 3, .by_tma = 0};
  run_gemm<__nv_bfloat16, __nv_bfloat16>({64, 16960, 64}, R, 1.0f, 0.5f, 1, def, R, C, other);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({14848, 64, 64}, R, 1.0f, 0.5f, 1, def, R, C, odd_ld);
  run_gemm<__nv_bfloat16, __nv_bfloat16>({64, 16960, 72}, R, 1.0f, 0.5f, 1, def, R, C, CPlace{.by_tma = 0});
  run_gemm<__nv_bfloat16, float>({28672, 64, 64}, R, 1.0f, 0.5f, 1, def, R, C, CPlace{.by_tma = 0});
}

// Host: the default launch's pick at beta != 0 (default_sm90_ws_variant,
// no GPU needed: 132 SMs assumed without one): the clauses of
// BetaSkinnySelection (16-bit outputs) and BetaSkinnyF32Selection only
// where C goes by TMA and D is TMA-stored; everything else as at beta = 0.
TEST(HopperGemm, BetaSkinnyDefaultVariant) {
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  // Never read: the picks look at alignment only. 4 GiB apart, so that no
  // two matrices overlap.
  auto base = [](int i) { return reinterpret_cast<void*>(std::uintptr_t(i) << 32); };
  struct Case {
    const char* what;
    Shape s;
    MatrixOrder d_order = MatrixOrder::row_major;
    bool c_other_order = false;
    int64_t ld_extra = 0;
    DataType out = DataType::bf16;
    int w = 0;  // 256 / 224: the wide tile; 64: ping-pong 64x128 (f32 out; or m > n with A M-major,
                // transposed, the beta = 0 pick already); 0: the beta = 0 pick
    MatrixOrder a_order = MatrixOrder::row_major;
  };
  for (Case c : {Case{"m < n", {64, 28672, 4096}, R, false, 0, DataType::bf16, 256},
                 Case{"m > n", {28672, 64, 4096}, R, false, 0, DataType::bf16, 224},
                 Case{"m > n, A M-major", {28672, 64, 4096}, R, false, 0, DataType::bf16, 64, C},
                 Case{"m > n, A M-major, 156 tiles", {19968, 64, 4096}, R, false, 0, DataType::bf16, 64, C},
                 Case{"m > n, A M-major, f32 out", {28672, 64, 4096}, R, false, 0, DataType::f32, 0, C},
                 Case{"column-major D", {28672, 64, 4096}, C, false, 0, DataType::bf16, 256},
                 Case{"C in the other order", {64, 28672, 4096}, R, true},
                 Case{"C's rows 16-byte misaligned", {64, 28672, 4096}, R, false, 3},
                 Case{"f32 out", {64, 28672, 4096}, R, false, 0, DataType::f32, 64},
                 Case{"f32 out, m > n", {28672, 64, 4096}, R, false, 0, DataType::f32},
                 Case{"rows 16-byte aligned", {64, 28672, 4104}},
                 Case{"n = 48", {28672, 48, 4096}}}) {
    SCOPED_TRACE(c.what);
    GemmArgs args;
    args.m = c.s.m;
    args.n = c.s.n;
    args.k = c.s.k;
    args.input = DataType::bf16;
    args.output = c.out;
    args.accumulate = DataType::f32;
    args.a = {base(1), c.a_order, c.a_order == R ? c.s.k : c.s.m, 0};
    args.b = {base(2), C, c.s.k, 0};
    bool const drow = c.d_order == R;
    args.d = {base(3), c.d_order, drow ? c.s.n : c.s.m, 0};
    MatrixOrder const c_order = c.c_other_order ? (drow ? C : R) : c.d_order;
    args.c = {base(4), c_order, (c_order == R ? c.s.n : c.s.m) + c.ld_extra, 0};
    args.beta = 1.0f;
    if (!validate_arguments(args).ok() || !detail::can_implement_sm90_ws_gemm(args)) {
      ADD_FAILURE() << "not a valid Hopper problem: " << validate_arguments(args).message;
      continue;
    }
    args.beta = 0.0f;
    detail::Sm90WsVariant const at0 = detail::default_sm90_ws_variant(args);
    args.beta = 1.0f;
    detail::Sm90WsVariant const v = detail::default_sm90_ws_variant(args);
    if (c.w == 64 && c.s.m > c.s.n) {
      // m > n with A M-major: the beta = 0 pick is ping-pong 64x128
      // transposed with the TMA store already (SkinnyMnMajorPingPongSelection),
      // and C goes by TMA into it.
      EXPECT_TRUE(v == at0) << "the beta = 0 pick expected";
      EXPECT_TRUE(v.pingpong && v.tile_m == 64 && v.tile_n == 128 && v.transpose && v.tma_store);
      EXPECT_TRUE(detail::sm90_ws_reads_c_by_tma(args, v));
      continue;
    }
    EXPECT_FALSE(at0.tma_store) << "a direct-epilogue pick at beta = 0";
    if (c.w == 0) {
      EXPECT_TRUE(v == at0) << "the beta = 0 pick expected";
      EXPECT_FALSE(detail::sm90_ws_reads_c_by_tma(args, v));
      continue;
    }
    if (c.w == 64) {
      EXPECT_TRUE(v.pingpong);
      EXPECT_EQ(v.tile_m, 64);
      EXPECT_EQ(v.tile_n, 128);
      EXPECT_EQ(v.transpose, c.s.m > c.s.n);
    } else {
      EXPECT_EQ(v.tile_n, c.w);
      EXPECT_FALSE(v.pingpong);
      EXPECT_EQ(v.transpose, c.w == 224);
    }
    EXPECT_TRUE(v.tma_store);
    EXPECT_TRUE(detail::sm90_ws_reads_c_by_tma(args, v));
  }
}

// tf32 (f32 storage, 32-element K-blocks): the default launch on each kind
// of shape, explicit configurations, alpha/beta, column-major D, batches.
TEST(HopperGemm, Tf32) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  run_gemm<float, float>({129, 257, 65}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);
  run_gemm<float, float>({1000, 1000, 1000}, MatrixOrder::row_major, 1.5f, -0.5f, 1, def);
  run_gemm<float, float>({2048, 2048, 1024}, MatrixOrder::col_major, 1.0f, 0.0f, 1, def);
  run_gemm<float, float>({4096, 4096, 512}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);
  run_gemm<float, float>({16, 4096, 3000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, def);
  run_gemm<float, float>({300, 500, 200}, MatrixOrder::row_major, 1.0f, 0.5f, 3, def);
  for (int kind = 0; kind < 3; ++kind) {
    detail::Sm90WsVariant v;
    v.pingpong = kind == 1;
    v.tile_n = kind == 1 ? 128 : 256;
    v.tma_store = kind != 0;
    run_gemm<float, float>({1000, 1000, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
    run_gemm<float, float>({513, 1031, 200}, MatrixOrder::col_major, -2.0f, 0.25f, 1, v);
  }
}

// The five configurations the tf32 register path runs in: 0 cooperative
// 128x256 (direct epilogue), 1 ping-pong 128x128 and 2 ping-pong 64x128
// (TMA store), 3 cooperative 128x256 (TMA store), 4 narrow 128x64.
detail::Sm90WsVariant tf32_config(int kind) {
  detail::Sm90WsVariant v;
  v.pingpong = kind == 1 || kind == 2;
  v.tile_n = kind == 0 || kind == 3 ? 256 : kind == 4 ? 64 : 128;
  v.tile_m = kind == 2 ? 64 : 128;
  v.tma_store = kind != 0 && kind != 4;
  return v;
}

// tf32 with one M/N-major operand (read through registers as wgmma's A, the
// RS form): the default launch, which makes that operand A' (a column-major
// A directly; a row-major B by computing D^T = B^T A^T), on each kind of
// shape: cooperative 128x256 (TMA store), ping-pong 128x128 and 64x128,
// narrow tiles with split-K, an odd number of K-blocks, partial tiles in M
// (not a multiple of the 32-element boxes), N and K, alpha/beta, a
// column-major D, batches; then each configuration explicitly, and split-K.
TEST(HopperGemm, Tf32MnMajorOperand) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  for (auto [ao, bo] : {std::pair{C, C}, std::pair{R, R}}) {
    run_gemm<float, float>({129, 257, 65}, R, 1.0f, 0.0f, 1, def, ao, bo);
    run_gemm<float, float>({1000, 1000, 1000}, R, 1.5f, -0.5f, 1, def, ao, bo);
    run_gemm<float, float>({2048, 2048, 1024}, C, 1.0f, 0.0f, 1, def, ao, bo);
    run_gemm<float, float>({4096, 4096, 2048}, R, 1.0f, 0.0f, 1, def, ao, bo);
    run_gemm<float, float>({300, 500, 200}, R, 1.0f, 0.5f, 3, def, ao, bo);
    run_gemm<float, float>({1001, 777, 333}, C, -2.0f, 0.25f, 1, def, ao, bo);
  }
  // Skinny: the M/N-major operand is the large side (narrow tiles with
  // split-K; ping-pong 64x128 for a dimension in (64, 128]).
  run_gemm<float, float>({4096, 48, 3000}, R, 1.0f, 0.0f, 1, def, C, C);
  run_gemm<float, float>({48, 4096, 3000}, R, 1.0f, 0.0f, 1, def, R, R);
  run_gemm<float, float>({100, 4096, 1000}, R, 1.0f, 0.0f, 1, def, R, R);
  run_gemm<float, float>({4096, 100, 1000}, C, 1.0f, 0.0f, 1, def, C, C);
  // Explicit configurations, A column-major and D row-major (A' = A).
  for (int kind = 0; kind < 5; ++kind) {
    detail::Sm90WsVariant v = tf32_config(kind);
    run_gemm<float, float>({1000, 1000, 1000}, R, 1.0f, 0.0f, 1, v, C, C);
    run_gemm<float, float>({513, 1031, 200}, R, -2.0f, 0.25f, 2, v, C, C);
    v.splits = 3;
    run_gemm<float, float>({700, 600, 2000}, R, 1.0f, 0.5f, 1, v, C, C);
  }
  // B row-major with D column-major: the default orientation (D' = D^T)
  // already has B as A'; explicitly transposed for a row-major D.
  detail::Sm90WsVariant tr;
  tr.transpose = true;
  run_gemm<float, float>({777, 1000, 500}, R, 1.0f, 0.0f, 1, tr, R, R);
  run_gemm<float, float>({777, 1000, 500}, C, 1.0f, 0.0f, 1, detail::Sm90WsVariant{}, R, R);
}

// The same register path on small problems, each configuration once (and
// split-K), for compute-sanitizer's racecheck, which cannot finish the
// larger cases: the consumers' shared loads of A' against the producer's
// next TMA writes into the stage they release.
TEST(HopperGemm, Tf32MnMajorSmall) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  for (int kind = 0; kind < 5; ++kind) {
    detail::Sm90WsVariant v = tf32_config(kind);
    v.splits = kind == 4 ? 2 : 1;
    run_gemm<float, float>({200, 300, 300}, R, 1.0f, 0.5f, 1, v, C, C);
  }
  detail::Sm90WsVariant tr;
  tr.transpose = true;
  run_gemm<float, float>({150, 260, 170}, R, 1.0f, 0.0f, 1, tr, R, R);
}

// Tail split (split_tail): the tiles of the last, partly filled wave are cut
// into K-slices, the others run whole; every kernel configuration, both
// orientations, alpha/beta, batches. 4096x4096 with 128x256 tiles = 512
// tiles = 3 waves + 116 on 132 SMs (+ 104 on 78...): whatever the SM count,
// a non-zero tail is split unless the tiles fill whole waves.
TEST(HopperGemm, TailSplit) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  for (int kind = 0; kind < 4; ++kind) {
    detail::Sm90WsVariant v;
    v.pingpong = kind == 2;
    v.tile_n = kind == 2 ? 128 : kind == 3 ? 64 : 256;
    v.tma_store = kind == 1;
    v.split_tail = true;
    for (int sp : {2, 5}) {
      v.splits = sp;
      run_gemm<__nv_bfloat16, float>({4096, 4096, 1000}, MatrixOrder::row_major, 1.0f, 0.0f, 1, v);
      run_gemm<__nv_bfloat16, __nv_bfloat16>({2000, 3000, 777}, MatrixOrder::col_major, 1.5f, -0.5f, 1, v);
      run_gemm<__half, __half>({1000, 1100, 700}, MatrixOrder::row_major, 1.0f, 0.5f, 2, v);
    }
  }
  // The default picks it for 5120x5120x4096 (800 tiles of 128x256).
  run_gemm<__nv_bfloat16, __nv_bfloat16>({5120, 5120, 4096}, MatrixOrder::row_major, 1.0f, 0.0f, 1, {false, kDefaultLaunch});
}

// MN-major operands (16-bit): every A/B order with both D orders through
// the default launch (per-shape selection: cooperative 128x256 with the
// TMA-store epilogue, ping-pong 128x128, ping-pong 64x128, narrow tiles with
// split-K), and each configuration explicitly, both orientations: partial
// tiles in M, N and K, alpha/beta, batches.
TEST(HopperGemm, MnMajorOperands) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  for (MatrixOrder ao : {R, C})
    for (MatrixOrder bo : {R, C}) {
      if (ao == R && bo == C) continue;  // K-major: the tests above
      run_gemm<__nv_bfloat16, __nv_bfloat16>({1000, 1000, 1000}, R, 1.0f, 0.0f, 1, def, ao, bo);
      run_gemm<__nv_bfloat16, float>({4095, 4097, 4093}, C, 1.5f, -0.5f, 1, def, ao, bo);
      run_gemm<__half, __half>({2048, 2048, 2048}, R, 1.0f, 0.0f, 1, def, ao, bo);
      run_gemm<__nv_bfloat16, __nv_bfloat16>({128, 2048, 1024}, C, 1.0f, 0.0f, 1, def, ao, bo);
      run_gemm<__nv_bfloat16, float>({40, 1500, 3000}, R, 1.0f, 0.5f, 2, def, ao, bo);
      run_gemm<__half, float>({3000, 17, 2000}, C, 1.0f, 0.0f, 1, def, ao, bo);
    }
}

TEST(HopperGemm, MnMajorVariants) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  struct Kind {
    bool pingpong;
    int tile_n, tile_m;
    bool tma_store;
  };
  for (Kind kind : {Kind{false, 256, 128, true}, Kind{false, 256, 128, false}, Kind{true, 128, 128, true},
                    Kind{true, 128, 64, false}, Kind{true, 256, 128, false}, Kind{false, 128, 128, false},
                    Kind{false, 64, 128, false}, Kind{false, 32, 128, false}, Kind{false, 16, 128, false}})
    for (bool tr : {false, true}) {
      if (tr && kind.tma_store) continue;
      detail::Sm90WsVariant v;
      v.pingpong = kind.pingpong;
      v.tile_n = kind.tile_n;
      v.tile_m = kind.tile_m;
      v.tma_store = kind.tma_store;
      v.transpose = tr;
      for (MatrixOrder ao : {R, C})
        for (MatrixOrder bo : {R, C}) {
          if (ao == R && bo == C) continue;
          run_gemm<__nv_bfloat16, float>({300, 500, 200}, R, 1.0f, 0.5f, 2, v, ao, bo);
          run_gemm<__half, __half>({257, 129, 72}, C, 1.0f, 0.0f, 1, v, ao, bo);
        }
    }
  // Split-K over MN-major tiles.
  detail::Sm90WsVariant v;
  v.tile_n = 32;
  v.splits = 3;
  run_gemm<__nv_bfloat16, __nv_bfloat16>({20, 1000, 700}, R, 1.0f, 0.0f, 1, v, C, R);
  v.transpose = true;
  run_gemm<__nv_bfloat16, float>({20, 1000, 700}, C, 1.0f, 0.0f, 1, v, C, C);
}

// Small MN-major cases for memcheck (hopper.sh): one tile, one K-block.
TEST(HopperGemm, MnMajorSmall) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  MatrixOrder const R = MatrixOrder::row_major, C = MatrixOrder::col_major;
  detail::Sm90WsVariant const def{false, kDefaultLaunch};
  run_gemm<__nv_bfloat16, float>({1, 1, 1}, R, 1.0f, 0.0f, 1, def, C, R);
  run_gemm<__nv_bfloat16, float>({129, 257, 65}, R, 1.0f, 0.0f, 1, def, C, C);
  run_gemm<__half, __half>({16, 130, 200}, C, 1.0f, 0.5f, 2, def, R, R);
}

}  // namespace
