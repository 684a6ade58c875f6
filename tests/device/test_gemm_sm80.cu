// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The Ampere tensor-core GEMM (sm80_tensorop) against an fp64 reference:
// every input/output/accumulate combination x the four operand orders x
// shapes with residues, padded and odd leading dimensions, misaligned
// pointers, batches, alpha/beta, beta == 0 with C null, and each mainloop
// variant. D is poisoned (all bytes 0xFF = NaN) before every run; the padding
// between D's rows/columns must still be poison afterwards.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <tessera/gemm/sm80_tensorop.hpp>

#include "device_test.cuh"
#include "host_elements.cuh"

namespace {

using tessera::DataType;
using tessera::GemmArgs;
using tessera::MatrixOrder;
using tessera::kernels::Sm80Variant;

constexpr MatrixOrder R = MatrixOrder::row_major;
constexpr MatrixOrder C = MatrixOrder::col_major;

using tessera::test::at;
using tessera::test::load_elem;
using tessera::test::store_elem;

// ---- fp64 reference on the device ---------------------------------------
// D(b,i,j) = alpha * sum_k A(b,i,k) B(b,k,j) + beta * C(b,i,j), all dense
// row-major doubles.
__global__ void reference_gemm(int m, int n, int k, int batch, const double* a, const double* b,
                               const double* c, double alpha, double beta, double* d) {
  int const j = int(blockIdx.x * blockDim.x + threadIdx.x);
  int const i = int(blockIdx.y);
  int const z = int(blockIdx.z);
  if (j >= n || i >= m || z >= batch) return;
  const double* ar = a + (std::int64_t(z) * m + i) * k;
  const double* bz = b + std::int64_t(z) * k * n;
  double s = 0.0;
  for (int kk = 0; kk < k; ++kk) s = fma(ar[kk], bz[std::int64_t(kk) * n + j], s);
  std::int64_t const o = (std::int64_t(z) * m + i) * n + j;
  d[o] = alpha * s + (c != nullptr ? beta * c[o] : 0.0);
}

// ---- one test case --------------------------------------------------------

struct Case {
  std::string name;
  DataType in, out, acc;
  MatrixOrder a_order, b_order, d_order, c_order;
  std::int64_t m, n, k;
  std::int64_t pad = 0;     // extra elements on every leading dimension
  std::int64_t offset = 0;  // elements added to every base pointer (misalignment)
  float alpha = 1.0f, beta = 0.0f;
  int batch = 1;
  Sm80Variant variant = Sm80Variant::automatic;
  int tail_splits = tessera::kernels::kSm80TailSplitAuto;
};

// Relative Frobenius-norm error bound for the precision of a case.
double tolerance(const Case& c) {
  if (c.in == DataType::tf32) return 4e-3;                          // tf32 operands (2^-11 rounding)
  if (c.acc == DataType::f16)                                       // f16 partial sums, one rounding
    return 2.5e-3 * std::sqrt(double(c.k) / 16.0) + 2e-3;           // per k16 mma: grows like sqrt(K)
  if (c.out == DataType::f16) return 2e-3;                          // f16 output rounding 2^-11
  if (c.out == DataType::bf16) return 1e-2;                         // bf16 output rounding 2^-8
  return 1e-4;                                                      // f32 out, exact 16-bit products
}

using DeviceBuffer = tessera::test::DevBuf;

void run_case(const Case& cs) {
  std::int64_t const in_b = tessera::size_of(cs.in);
  std::int64_t const out_b = tessera::size_of(cs.out);
  std::int64_t const m = cs.m, n = cs.n, k = cs.k;
  // Stored shapes: A is m x k, B is k x n, C/D m x n.
  auto ld_of = [&](MatrixOrder o, std::int64_t rows, std::int64_t cols) {
    return (o == R ? cols : rows) + cs.pad;
  };
  auto outer_of = [&](MatrixOrder o, std::int64_t rows, std::int64_t cols) { return o == R ? rows : cols; };
  std::int64_t const lda = ld_of(cs.a_order, m, k), ldb = ld_of(cs.b_order, k, n);
  std::int64_t const ldc = ld_of(cs.c_order, m, n), ldd = ld_of(cs.d_order, m, n);
  std::int64_t const sa = lda * outer_of(cs.a_order, m, k), sb = ldb * outer_of(cs.b_order, k, n);
  std::int64_t const sc = ldc * outer_of(cs.c_order, m, n), sd = ldd * outer_of(cs.d_order, m, n);
  std::int64_t const na = sa * cs.batch + cs.offset, nb = sb * cs.batch + cs.offset;
  std::int64_t const nc = sc * cs.batch + cs.offset, nd = sd * cs.batch + cs.offset;

  std::mt19937 rng(12345u + unsigned(m * 7 + n * 13 + k * 17));
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<unsigned char> ha(std::size_t(na * in_b)), hb(std::size_t(nb * in_b)), hc(std::size_t(nc * out_b));
  for (std::int64_t i = 0; i < na; ++i) store_elem(cs.in, ha.data(), i, dist(rng));
  for (std::int64_t i = 0; i < nb; ++i) store_elem(cs.in, hb.data(), i, dist(rng));
  for (std::int64_t i = 0; i < nc; ++i) store_elem(cs.out, hc.data(), i, dist(rng));

  // Logical dense fp64 copies of exactly what the kernel reads.
  bool const use_c = cs.beta != 0.0f;
  std::vector<double> ra(std::size_t(cs.batch * m * k)), rb(std::size_t(cs.batch * k * n)),
      rc(std::size_t(cs.batch * m * n));
  for (int z = 0; z < cs.batch; ++z) {
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t kk = 0; kk < k; ++kk)
        ra[std::size_t((z * m + i) * k + kk)] = load_elem(cs.in, ha.data(), cs.offset + z * sa + at(cs.a_order, lda, i, kk));
    for (std::int64_t kk = 0; kk < k; ++kk)
      for (std::int64_t j = 0; j < n; ++j)
        rb[std::size_t((z * k + kk) * n + j)] = load_elem(cs.in, hb.data(), cs.offset + z * sb + at(cs.b_order, ldb, kk, j));
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        rc[std::size_t((z * m + i) * n + j)] = load_elem(cs.out, hc.data(), cs.offset + z * sc + at(cs.c_order, ldc, i, j));
  }

  DeviceBuffer da, db, dc, dd, gra, grb, grc, grd;
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(da, ha));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(db, hb));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(dc, hc));
  TESSERA_TEST_CUDA(cudaMalloc(&dd.p, std::size_t(nd * out_b)));
  TESSERA_TEST_CUDA(cudaMemset(dd.p, 0xFF, std::size_t(nd * out_b)));  // poison: NaN in every type

  GemmArgs args;
  args.m = m;
  args.n = n;
  args.k = k;
  args.batch_count = cs.batch;
  args.input = cs.in;
  args.output = cs.out;
  args.accumulate = cs.acc;
  args.alpha = cs.alpha;
  args.beta = cs.beta;
  args.a = {static_cast<char*>(da.p) + cs.offset * in_b, cs.a_order, lda, sa};
  args.b = {static_cast<char*>(db.p) + cs.offset * in_b, cs.b_order, ldb, sb};
  // beta == 0: C is never read; pass null to prove it.
  args.c = {use_c ? static_cast<char*>(dc.p) + cs.offset * out_b : nullptr, cs.c_order, ldc, sc};
  args.d = {static_cast<char*>(dd.p) + cs.offset * out_b, cs.d_order, ldd, sd};

  ASSERT_TRUE(tessera::validate_arguments(args).ok()) << tessera::validate_arguments(args).message;
  ASSERT_TRUE(tessera::kernels::sm80_tensorop_can_implement(args));
  tessera::Status const st = tessera::kernels::sm80_tensorop_launch_variant(args, cs.variant, nullptr, 0, cs.tail_splits);
  if ((cs.variant == Sm80Variant::tile128x256 || tessera::kernels::is_tuning_variant(cs.variant)) &&
      st.code == tessera::StatusCode::cannot_implement && st.message.find("shared memory") != std::string::npos)
    GTEST_SKIP() << "this tile does not fit this device's shared memory: " << st.message;
  if (cs.variant == Sm80Variant::t128x128_tma && tessera::current_sm() / 10 != 9)
    GTEST_SKIP() << "the TMA-fed variant runs on sm_90 devices only: " << st.message;
  ASSERT_TRUE(st.ok()) << st.message;
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());

  // Reference.
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(gra, ra));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(grb, rb));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(grc, rc));
  TESSERA_TEST_CUDA(cudaMalloc(&grd.p, rc.size() * sizeof(double)));
  dim3 const grid(unsigned((n + 127) / 128), unsigned(m), unsigned(cs.batch));
  reference_gemm<<<grid, 128>>>(int(m), int(n), int(k), cs.batch, static_cast<double*>(gra.p),
                                static_cast<double*>(grb.p), use_c ? static_cast<double*>(grc.p) : nullptr,
                                cs.alpha, cs.beta, static_cast<double*>(grd.p));
  TESSERA_TEST_CUDA(cudaGetLastError());
  std::vector<double> ref(rc.size());
  TESSERA_TEST_CUDA(cudaMemcpy(ref.data(), grd.p, ref.size() * sizeof(double), cudaMemcpyDeviceToHost));
  std::vector<unsigned char> hd(std::size_t(nd * out_b));
  TESSERA_TEST_CUDA(cudaMemcpy(hd.data(), dd.p, hd.size(), cudaMemcpyDeviceToHost));

  // Compare, and mark which stored elements D owns.
  std::vector<char> owned(std::size_t(nd), 0);
  double err2 = 0.0, ref2 = 0.0;
  std::int64_t nonfinite = 0;
  for (int z = 0; z < cs.batch; ++z)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        std::int64_t const o = cs.offset + z * sd + at(cs.d_order, ldd, i, j);
        owned[std::size_t(o)] = 1;
        double const got = load_elem(cs.out, hd.data(), o);
        double const want = ref[std::size_t((z * m + i) * n + j)];
        if (!std::isfinite(got)) ++nonfinite;
        err2 += (got - want) * (got - want);
        ref2 += want * want;
      }
  EXPECT_EQ(nonfinite, 0) << "elements of D left unwritten (poison) or not finite";
  double const rel = std::sqrt(err2 / (ref2 > 0 ? ref2 : 1.0));
  EXPECT_LT(rel, tolerance(cs)) << "relative norm error";
  std::int64_t clobbered = 0;
  for (std::int64_t o = 0; o < nd; ++o) {
    if (owned[std::size_t(o)]) continue;
    for (std::int64_t b = 0; b < out_b; ++b)
      if (hd[std::size_t(o * out_b + b)] != 0xFF) {
        ++clobbered;
        break;
      }
  }
  EXPECT_EQ(clobbered, 0) << "elements outside D (padding / before the offset) were written";
  std::printf("[ sm80 ] %-44s rel_err %.3e (bound %.0e)\n", cs.name.c_str(), rel, tolerance(cs));
}

// ---- the case list ----------------------------------------------------------

struct TypeCombo {
  const char* name;
  DataType in, out, acc;
};
constexpr TypeCombo kTypes[] = {
    {"f16_f16", DataType::f16, DataType::f16, DataType::f32},
    {"f16_f32", DataType::f16, DataType::f32, DataType::f32},
    {"bf16_bf16", DataType::bf16, DataType::bf16, DataType::f32},
    {"bf16_f32", DataType::bf16, DataType::f32, DataType::f32},
    {"f16_f16acc16", DataType::f16, DataType::f16, DataType::f16},
    {"tf32_f32", DataType::tf32, DataType::f32, DataType::f32},
};
struct LayoutCombo {
  const char* name;  // cuBLAS op letters for column-major storage
  MatrixOrder a, b;
};
constexpr LayoutCombo kLayouts[] = {{"tn", R, C}, {"nn", C, C}, {"nt", C, R}, {"tt", R, R}};

// A case of kind t with A, B, D and C stored in the given orders (padding,
// offset, batch and tail split at their defaults).
Case make_case(std::string name, const TypeCombo& t, MatrixOrder a, MatrixOrder b, MatrixOrder d, MatrixOrder c_order,
               std::int64_t m, std::int64_t n, std::int64_t k, float alpha, float beta,
               Sm80Variant variant = Sm80Variant::automatic) {
  Case c;
  c.name = std::move(name);
  c.in = t.in;
  c.out = t.out;
  c.acc = t.acc;
  c.a_order = a;
  c.b_order = b;
  c.d_order = d;
  c.c_order = c_order;
  c.m = m;
  c.n = n;
  c.k = k;
  c.alpha = alpha;
  c.beta = beta;
  c.variant = variant;
  return c;
}

// A TN case (A row-major, B column-major) with C stored like D.
Case tn_case(std::string name, const TypeCombo& t, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
             float beta, MatrixOrder d, Sm80Variant variant) {
  return make_case(std::move(name), t, R, C, d, d, m, n, k, alpha, beta, variant);
}

// f16 in and out with f32 accumulation: the kind every variant has.
constexpr TypeCombo kF16F32Acc = kTypes[0];

std::vector<Case> all_cases() {
  std::vector<Case> v;
  struct Shape {
    const char* name;
    std::int64_t m, n, k, pad, offset;
    float alpha, beta;
    MatrixOrder d, c;
  };
  const Shape shapes[] = {
      {"128cube", 128, 128, 128, 0, 0, 1.0f, 0.0f, R, R},
      {"odd257x129x77", 257, 129, 77, 0, 0, 1.25f, 0.5f, C, C},
      {"big1000", 1000, 1000, 1000, 0, 0, 1.0f, 0.0f, C, C},
      {"ldpad200x136x72", 200, 136, 72, 8, 0, -0.75f, 1.5f, R, C},
      {"ldodd77x45x99", 77, 45, 99, 3, 0, 1.0f, 0.25f, C, R},
      {"ptroff130x70x90", 130, 70, 90, 0, 1, 2.0f, 0.0f, R, R},
  };
  for (const TypeCombo& t : kTypes)
    for (const LayoutCombo& l : kLayouts)
      for (const Shape& s : shapes) {
        Case c = make_case(std::string(t.name) + "_" + l.name + "_" + s.name, t, l.a, l.b, s.d, s.c, s.m, s.n, s.k,
                           s.alpha, s.beta);
        c.pad = s.pad;
        c.offset = s.offset;
        v.push_back(c);
      }
  // Each variant explicitly, f16 -> f32 accumulate (the kind that has them all),
  // on a shape with residues in M, N and K and several k-tiles.
  const Sm80Variant variants[] = {Sm80Variant::tile128x256, Sm80Variant::tile128x128, Sm80Variant::scalar,
                                  Sm80Variant::pipelined, Sm80Variant::single_stage};
  for (Sm80Variant var : variants)
    for (const LayoutCombo& l : kLayouts) {
      // 296 x 520 x 264: 16-byte aligned leading dimensions in every order.
      v.push_back(make_case(std::string("variant_") + tessera::kernels::to_string(var) + "_" + l.name, kF16F32Acc, l.a,
                            l.b, R, R, 296, 520, 264, 0.5f, -1.0f, var));
    }
  // Other kinds through the explicit 128x256 / scalar variants.
  for (const TypeCombo& t : kTypes) {
    Case c = make_case(std::string("variant_scalar_") + t.name + "_nt", t, C, R, C, C, 190, 260, 152, 1.0f, 0.0f,
                       Sm80Variant::scalar);
    v.push_back(c);
    if (t.in != DataType::tf32) {
      c.name = std::string("variant_tile128x256_") + t.name + "_tn";
      c.a_order = R;
      c.b_order = C;
      c.variant = Sm80Variant::tile128x256;
      v.push_back(c);
    }
  }
  // The tuning candidates (f16 TN only), f32 and f16 accumulation, residues
  // in M, N and K, several k-tiles, a column-major D (operands swapped).
  const Sm80Variant tuning[] = {Sm80Variant::t128x128_s4, Sm80Variant::t128x128_w8, Sm80Variant::t128x256_s3,
                                Sm80Variant::t256x128_s3, Sm80Variant::t256x128_s4, Sm80Variant::t128x256_w4,
                                Sm80Variant::t128x128_spread, Sm80Variant::t128x256_spread, Sm80Variant::t128x256_w4s2,
                                Sm80Variant::t128x128_tma, Sm80Variant::t128x128_ws};
  for (Sm80Variant var : tuning)
    for (DataType acc : {DataType::f32, DataType::f16}) {
      bool const acc16_only = var == Sm80Variant::t128x256_w4 || var == Sm80Variant::t128x256_w4s2 ||
                              var == Sm80Variant::t128x128_ws;
      if (acc16_only && acc == DataType::f32) continue;  // f16 accumulation only
      bool const acc16 = acc == DataType::f16;
      v.push_back(tn_case(std::string("variant_") + tessera::kernels::to_string(var) + (acc16 ? "_acc16" : "_acc32"),
                          acc16 ? kTypes[4] : kF16F32Acc, 296, 520, 264, 0.5f, acc16 ? 0.0f : -1.0f, acc16 ? C : R,
                          var));
    }
  // Strided batches (grid.y), one per input kind.
  for (const TypeCombo& t : kTypes) {
    Case c = tn_case(std::string("batch3_") + t.name + "_tn", t, 136, 200, 96, 1.0f, 0.5f, C, Sm80Variant::automatic);
    c.batch = 3;
    v.push_back(c);
  }
  // The Tensor/TiledCopy/TiledMMA kernel (Sm80Variant::tiled): every 16-bit
  // kind, TN with D in both orders (a column-major D swaps the operands,
  // which stay K-major), residues in M, N and K, padded leading dimensions,
  // alpha/beta, beta == 0 with C null, batches, one k-tile and many.
  for (const TypeCombo& t : kTypes) {
    if (t.in == DataType::tf32) continue;
    struct TiledShape {
      const char* name;
      std::int64_t m, n, k, pad;
      float alpha, beta;
      MatrixOrder d;
      int batch;
    };
    const TiledShape tiled_shapes[] = {
        {"296x520x264", 296, 520, 264, 0, 0.5f, -1.0f, R, 1},
        {"296x520x264_dcol", 296, 520, 264, 0, 1.0f, 0.0f, C, 1},
        {"ldpad200x136x72", 200, 136, 72, 8, -0.75f, 1.5f, C, 1},
        {"k8_130x70x8", 130, 70, 8, 0, 1.0f, 0.25f, R, 1},
        {"batch3_136x200x96", 136, 200, 96, 0, 1.0f, 0.5f, C, 3},
    };
    for (const TiledShape& s : tiled_shapes) {
      Case c = tn_case(std::string("tiled_") + t.name + "_tn_" + s.name, t, s.m, s.n, s.k, s.alpha, s.beta, s.d,
                       Sm80Variant::tiled);
      c.pad = s.pad;
      c.batch = s.batch;
      v.push_back(c);
    }
  }
  // The seed's problem, scaled down 4x in each of M, N (TN, f16, f16 accumulate).
  {
    Case c = tn_case("seed_tn_hgemm_1280x1280x4096", kTypes[4], 1280, 1280, 4096, 1.0f, 0.0f, C,
                     Sm80Variant::automatic);
    v.push_back(c);
    c.name = "tiled_seed_tn_hgemm_1280x1280x4096";  // the same through the Tensor/TiledMMA kernel
    c.variant = Sm80Variant::tiled;
    v.push_back(c);
    // The same with every tile cut into 16 K-slices of 4 k-tiles (fewer
    // tiles than a wave: the whole grid is "tail"), both kernels.
    c.name = "split16_seed_tn_hgemm_1280x1280x4096";
    c.variant = Sm80Variant::tile128x128;
    c.tail_splits = 16;
    v.push_back(c);
    c.name = "split16_tiled_seed_tn_hgemm_1280x1280x4096";
    c.variant = Sm80Variant::tiled;
    v.push_back(c);
    // The seed tile fed by TMA (sm_90 only), whole and in 16 K-slices.
    c.name = "split16_tma_seed_tn_hgemm_1280x1280x4096";
    c.variant = Sm80Variant::t128x128_tma;
    v.push_back(c);
    c.name = "tma_seed_tn_hgemm_1280x1280x4096";
    c.tail_splits = tessera::kernels::kSm80TailSplitAuto;
    v.push_back(c);
    // The seed tile fed by a copy warp, the same two.
    c.name = "ws_seed_tn_hgemm_1280x1280x4096";
    c.variant = Sm80Variant::t128x128_ws;
    v.push_back(c);
    c.name = "split16_ws_seed_tn_hgemm_1280x1280x4096";
    c.tail_splits = 16;
    v.push_back(c);
  }
  // Tail split (sm80_split.hpp), forced: every kind that has a split
  // instantiation (TN, 128x128), both kernels, slices of unequal length
  // (the last one shorter), K residues inside the last slice, alpha/beta
  // with C, both D orders. Each split case leaves the per-stream workspace
  // zero for the next one, or the next split case's sums come out wrong.
  {
    struct SplitShape {
      const char* name;
      TypeCombo t;
      Sm80Variant variant;
      std::int64_t m, n, k;
      int splits;
      float alpha, beta;
      MatrixOrder d;
    };
    const SplitShape split_shapes[] = {
        // 5 k-tiles in 3 slices of 2, 2, 1.
        {"f16_f32acc_296x520x264_s4", kTypes[0], Sm80Variant::tile128x128, 296, 520, 264, 4, 0.5f, -1.0f, R},
        {"tiled_f16_f32acc_296x520x264_s4", kTypes[0], Sm80Variant::tiled, 296, 520, 264, 4, 0.5f, -1.0f, C},
        // 4 k-tiles (the last 8 deep) in 4 slices of 1.
        {"bf16_200x136x200_s5", kTypes[2], Sm80Variant::tile128x128, 200, 136, 200, 5, 1.0f, 0.25f, C},
        {"tiled_bf16_f32_200x136x200_s5", kTypes[3], Sm80Variant::tiled, 200, 136, 200, 5, 1.0f, 0.25f, R},
        {"f16acc_136x264x520_s3", kTypes[4], Sm80Variant::tile128x128, 136, 264, 520, 3, 1.0f, 0.0f, R},
        {"tiled_f16acc_136x264x520_s3", kTypes[4], Sm80Variant::tiled, 136, 264, 520, 3, -1.0f, 0.5f, C},
        // tf32: 32-element k-tiles, 4 of them in 2 slices.
        {"tf32_130x260x100_s2", kTypes[5], Sm80Variant::tile128x128, 130, 260, 100, 2, 1.0f, 0.5f, R},
        // 289 tiles, more than a wave on a GPU with up to 144 SMs x 2 CTAs:
        // whole tiles first, then the tiles after the last full wave split
        // (forced: with 4 k-tiles the automatic rule would not split).
        {"tail_f16acc_2176x2176x256", kTypes[4], Sm80Variant::automatic, 2176, 2176, 256, 4, 1.0f, 0.0f, R},
        {"tail_f16_f32acc_2176x2176x256", kTypes[0], Sm80Variant::tile128x128, 2176, 2176, 256, 4, 1.0f, 0.5f, C},
        {"tail_tiled_bf16_2176x2176x256", kTypes[2], Sm80Variant::tiled, 2176, 2176, 256, 4, 1.0f, 0.0f, R},
        // The TMA-fed seed tile (sm_90 only): uneven slices, K residues
        // (TMA's zero fill), both D orders, the tail of a grid.
        {"tma_f16acc_136x264x520_s3", kTypes[4], Sm80Variant::t128x128_tma, 136, 264, 520, 3, -1.0f, 0.5f, R},
        {"tma_f16_f32acc_296x520x264_s4", kTypes[0], Sm80Variant::t128x128_tma, 296, 520, 264, 4, 0.5f, -1.0f, C},
        {"tail_tma_f16acc_2176x2176x256", kTypes[4], Sm80Variant::t128x128_tma, 2176, 2176, 256, 4, 1.0f, 0.5f, R},
        // The copy-warp seed tile (f16 accumulation): the same, K residues
        // through cp.async's zero fill.
        {"ws_f16acc_136x264x520_s3", kTypes[4], Sm80Variant::t128x128_ws, 136, 264, 520, 3, -1.0f, 0.5f, C},
        {"tail_ws_f16acc_2176x2176x256", kTypes[4], Sm80Variant::t128x128_ws, 2176, 2176, 256, 4, 1.0f, 0.5f, R},
        // Unsplit, fewer k-tiles than stages: two (the second 40 deep), so
        // no copy warp waits on an "empty" barrier, and one.
        {"ws_f16acc_200x136x104_s1", kTypes[4], Sm80Variant::t128x128_ws, 200, 136, 104, 1, 1.0f, 0.25f, R},
        {"ws_f16acc_130x260x64_s1", kTypes[4], Sm80Variant::t128x128_ws, 130, 260, 64, 1, 0.5f, 0.0f, C},
        // Unsplit, as many k-tiles as stages (no "empty" wait yet) and one
        // more (the first wait, and each MMA warp's "full" barrier of stage
        // 0 in its second phase).
        {"ws_f16acc_200x264x192_s1", kTypes[4], Sm80Variant::t128x128_ws, 200, 264, 192, 1, 1.0f, 0.5f, R},
        {"ws_f16acc_264x200x256_s1", kTypes[4], Sm80Variant::t128x128_ws, 264, 200, 256, 1, -0.5f, 0.0f, C},
    };
    for (const SplitShape& s : split_shapes) {
      Case c = tn_case(std::string("split_") + s.name, s.t, s.m, s.n, s.k, s.alpha, s.beta, s.d, s.variant);
      c.tail_splits = s.splits;
      v.push_back(c);
    }
  }
  return v;
}

class Sm80Gemm : public ::testing::TestWithParam<Case> {};

TEST_P(Sm80Gemm, MatchesFp64Reference) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  run_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(All, Sm80Gemm, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// A 16-byte variant asked to run misaligned operands refuses instead of
// reading out of bounds or faulting.
TEST(Sm80GemmErrors, AlignedVariantRejectsMisalignedOperands) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  DeviceBuffer a, b, d;
  ASSERT_EQ(cudaMalloc(&a.p, 64 * 64 * 2 + 16), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b.p, 64 * 64 * 2 + 16), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d.p, 64 * 64 * 2), cudaSuccess);
  GemmArgs args;
  args.m = args.n = args.k = 64;
  args.input = DataType::f16;
  args.a = {static_cast<char*>(a.p) + 2, R, 64, 0};
  args.b = {b.p, C, 64, 0};
  args.d = {d.p, R, 64, 0};
  tessera::Status const st =
      tessera::kernels::sm80_tensorop_launch_variant(args, Sm80Variant::tile128x128, nullptr);
  EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement) << st.message;
  EXPECT_TRUE(tessera::kernels::sm80_tensorop_launch_variant(args, Sm80Variant::scalar, nullptr).ok());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// A tail split asked of a variant that has no split instantiation (the
// 128x256 tile, an M/N-major operand), or a split count below 1, is refused
// with a message naming the rule, and D stays untouched.
TEST(Sm80GemmErrors, TailSplitRefusedWhereItDoesNotExist) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  DeviceBuffer a, b, d;
  ASSERT_EQ(cudaMalloc(&a.p, 256 * 256 * 2), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b.p, 256 * 256 * 2), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d.p, 256 * 256 * 2), cudaSuccess);
  ASSERT_EQ(cudaMemset(a.p, 0x3C, 256 * 256 * 2), cudaSuccess);  // 0x3C3C: 1.06 in f16
  ASSERT_EQ(cudaMemset(b.p, 0x3C, 256 * 256 * 2), cudaSuccess);
  ASSERT_EQ(cudaMemset(d.p, 0xFF, 256 * 256 * 2), cudaSuccess);
  GemmArgs args;
  args.m = args.n = args.k = 256;
  args.input = DataType::f16;
  args.a = {a.p, R, 256, 0};
  args.b = {b.p, C, 256, 0};
  args.d = {d.p, R, 256, 0};
  using tessera::kernels::sm80_tensorop_launch_variant;
  tessera::Status st = sm80_tensorop_launch_variant(args, Sm80Variant::tile128x256, nullptr, 0, 4);
  if (st.message.find("shared memory") == std::string::npos) {  // the 128x256 tile fits this device
    EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement);
    EXPECT_NE(st.message.find("tail split"), std::string::npos) << st.message;
  }
  args.b = {b.p, R, 256, 0};  // N-major B
  st = sm80_tensorop_launch_variant(args, Sm80Variant::tile128x128, nullptr, 0, 4);
  EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement);
  EXPECT_NE(st.message.find("K-major"), std::string::npos) << st.message;
  args.b = {b.p, C, 256, 0};
  st = sm80_tensorop_launch_variant(args, Sm80Variant::tile128x128, nullptr, 0, 0);
  EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement);
  EXPECT_NE(st.message.find("tail_splits"), std::string::npos) << st.message;
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<unsigned char> hd(256 * 256 * 2);
  ASSERT_EQ(cudaMemcpy(hd.data(), d.p, hd.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(std::all_of(hd.begin(), hd.end(), [](unsigned char x) { return x == 0xFF; }))
      << "a refused launch wrote D";
}

// The TMA-fed tuning variant runs one matrix at a time, on sm_90 devices
// only, and the copy-warp one one matrix at a time: a batch (or a TMA-fed
// launch elsewhere) is refused with a message naming the rule, and D stays
// untouched.
TEST(Sm80GemmErrors, TmaVariantRefusesWhatItDoesNotCover) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  DeviceBuffer a, b, d;
  ASSERT_EQ(cudaMalloc(&a.p, 2 * 128 * 128 * 2), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b.p, 2 * 128 * 128 * 2), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d.p, 2 * 128 * 128 * 2), cudaSuccess);
  ASSERT_EQ(cudaMemset(d.p, 0xFF, 2 * 128 * 128 * 2), cudaSuccess);
  GemmArgs args;
  args.m = args.n = args.k = 128;
  args.batch_count = 2;
  args.input = DataType::f16;
  args.a = {a.p, R, 128, 128 * 128};
  args.b = {b.p, C, 128, 128 * 128};
  args.d = {d.p, R, 128, 128 * 128};
  bool const sm90 = tessera::current_sm() / 10 == 9;
  tessera::Status st = tessera::kernels::sm80_tensorop_launch_variant(args, Sm80Variant::t128x128_tma, nullptr);
  EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement);
  EXPECT_NE(st.message.find(sm90 ? "not batches" : "sm_90 devices only"), std::string::npos) << st.message;
  if (!sm90) {
    args.batch_count = 1;
    st = tessera::kernels::sm80_tensorop_launch_variant(args, Sm80Variant::t128x128_tma, nullptr);
    EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement);
    EXPECT_NE(st.message.find("sm_90 devices only"), std::string::npos) << st.message;
  }
  args.batch_count = 2;
  args.accumulate = DataType::f16;  // the copy-warp variant's only accumulation
  st = tessera::kernels::sm80_tensorop_launch_variant(args, Sm80Variant::t128x128_ws, nullptr);
  EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement);
  EXPECT_NE(st.message.find("t128x128_ws computes one matrix, not batches"), std::string::npos) << st.message;
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<unsigned char> hd(2 * 128 * 128 * 2);
  ASSERT_EQ(cudaMemcpy(hd.data(), d.p, hd.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(std::all_of(hd.begin(), hd.end(), [](unsigned char x) { return x == 0xFF; })) << "D was written";
}

// The copy-warp variant exists with f16 accumulation only: f32 accumulation
// is refused as not instantiated, and nothing runs.
TEST(Sm80GemmErrors, CopyWarpVariantIsF16AccumulationOnly) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  DeviceBuffer a, b, d;
  ASSERT_EQ(cudaMalloc(&a.p, 128 * 128 * 2), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b.p, 128 * 128 * 2), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d.p, 128 * 128 * 2), cudaSuccess);
  ASSERT_EQ(cudaMemset(d.p, 0xFF, 128 * 128 * 2), cudaSuccess);
  GemmArgs args;
  args.m = args.n = args.k = 128;
  args.input = DataType::f16;
  args.accumulate = DataType::f32;
  args.a = {a.p, R, 128, 0};
  args.b = {b.p, C, 128, 0};
  args.d = {d.p, R, 128, 0};
  EXPECT_FALSE(tessera::kernels::sm80_tensorop_variant_covers(args, Sm80Variant::t128x128_ws));
  tessera::Status const st = tessera::kernels::sm80_tensorop_launch_variant(args, Sm80Variant::t128x128_ws, nullptr);
  EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement);
  EXPECT_NE(st.message.find("not instantiated"), std::string::npos) << st.message;
  args.accumulate = DataType::f16;
  EXPECT_TRUE(tessera::kernels::sm80_tensorop_variant_covers(args, Sm80Variant::t128x128_ws));
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<unsigned char> hd(128 * 128 * 2);
  ASSERT_EQ(cudaMemcpy(hd.data(), d.p, hd.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(std::all_of(hd.begin(), hd.end(), [](unsigned char x) { return x == 0xFF; })) << "D was written";
}

// The TMA-fed and copy-warp kernels have no batch loop: covers() says no to
// a batch and yes to the same problem as one matrix. Needs no GPU (covers()
// asks the device nothing for a named variant; the addresses are read for
// their alignment only).
TEST(Sm80GemmCoverage, OneMatrixVariantsRefuseBatches) {
  GemmArgs args;
  args.m = args.n = args.k = 128;
  args.batch_count = 2;
  args.input = DataType::f16;
  args.accumulate = DataType::f16;
  void* const pa = reinterpret_cast<void*>(std::uintptr_t(1) << 20);
  void* const pb = reinterpret_cast<void*>(std::uintptr_t(1) << 21);
  void* const pd = reinterpret_cast<void*>(std::uintptr_t(1) << 22);
  args.a = {pa, R, 128, 128 * 128};
  args.b = {pb, C, 128, 128 * 128};
  args.d = {pd, R, 128, 128 * 128};
  for (Sm80Variant const v : {Sm80Variant::t128x128_tma, Sm80Variant::t128x128_ws}) {
    args.batch_count = 2;
    EXPECT_FALSE(tessera::kernels::sm80_tensorop_variant_covers(args, v)) << tessera::kernels::to_string(v);
    args.batch_count = 1;
    EXPECT_TRUE(tessera::kernels::sm80_tensorop_variant_covers(args, v)) << tessera::kernels::to_string(v);
  }
  // The cp.async seed tile, which loops over the batch, covers both.
  args.batch_count = 2;
  EXPECT_TRUE(tessera::kernels::sm80_tensorop_variant_covers(args, Sm80Variant::tile128x128));
}

// `automatic` takes the TMA-fed seed tile exactly where it was measured
// faster (sm_90, f16 accumulation, both operands K-major, one matrix, K > 0)
// and keeps the cp.async tiles everywhere else.
TEST(Sm80GemmDefault, TakesTheTmaFedTileOnlyWhereItWasMeasured) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  using tessera::kernels::sm80_tensorop_chosen_variant;
  bool const sm90 = tessera::current_sm() / 10 == 9;
  // Never dereferenced: the choice reads addresses for their alignment only.
  void* const pa = reinterpret_cast<void*>(std::uintptr_t(1) << 20);
  void* const pb = reinterpret_cast<void*>(std::uintptr_t(1) << 21);
  void* const pd = reinterpret_cast<void*>(std::uintptr_t(1) << 22);
  GemmArgs args;
  args.m = args.n = 5120;
  args.k = 4096;
  args.input = DataType::f16;
  args.output = DataType::f16;
  args.accumulate = DataType::f16;
  args.a = {pa, R, 4096, 0};
  args.b = {pb, C, 4096, 0};
  args.d = tessera::MutableMatrixDesc{pd, R, 5120, 0};
  Sm80Variant const tma_or_seed = sm90 ? Sm80Variant::t128x128_tma : Sm80Variant::tile128x128;
  EXPECT_EQ(sm80_tensorop_chosen_variant(args), tma_or_seed) << "f16 TN, f16 accumulation";
  args.d = tessera::MutableMatrixDesc{pd, C, 5120, 0};  // D^T = B^T A^T: both operands still K-major
  EXPECT_EQ(sm80_tensorop_chosen_variant(args), tma_or_seed) << "f16 TN, column-major D";
  args.a = {pa, C, 5120, 0};  // NN: kernel B' (A) M-major
  EXPECT_NE(sm80_tensorop_chosen_variant(args), Sm80Variant::t128x128_tma) << "NN";
  args.a = {pa, R, 4096, 0};
  args.d = tessera::MutableMatrixDesc{pd, R, 5120, 0};
  args.accumulate = DataType::f32;
  EXPECT_NE(sm80_tensorop_chosen_variant(args), Sm80Variant::t128x128_tma) << "f32 accumulation (unmeasured)";
  args.accumulate = DataType::f16;
  args.batch_count = 2;
  args.a.batch_stride = args.b.batch_stride = 5120 * 4096;
  args.d.batch_stride = 5120 * 5120;
  EXPECT_EQ(sm80_tensorop_chosen_variant(args), Sm80Variant::tile128x128) << "batches";
  args.batch_count = 1;
  args.k = 0;
  EXPECT_EQ(sm80_tensorop_chosen_variant(args), Sm80Variant::tile128x128) << "K = 0";
  args.k = 4096;
  args.a.ld = 4097;  // rows 2-byte aligned
  EXPECT_EQ(sm80_tensorop_chosen_variant(args), Sm80Variant::scalar) << "misaligned A";
  args.a.ld = 4096;
  args.input = DataType::bf16;
  args.output = DataType::bf16;
  args.accumulate = DataType::f32;
  EXPECT_NE(sm80_tensorop_chosen_variant(args), Sm80Variant::t128x128_tma) << "bf16";
  args.input = DataType::f32;  // full f32: not this kernel's
  args.output = DataType::f32;
  EXPECT_EQ(sm80_tensorop_chosen_variant(args), Sm80Variant::automatic) << "f32 inputs";
}

// The tiled variant covers 16-bit TN only: other orders, tf32 and misaligned
// operands are refused with a message naming the rule, and nothing runs.
TEST(Sm80GemmErrors, TiledVariantRefusesWhatItDoesNotCover) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  DeviceBuffer a, b, d;
  ASSERT_EQ(cudaMalloc(&a.p, 64 * 64 * 4 + 16), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b.p, 64 * 64 * 4 + 16), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d.p, 64 * 64 * 4), cudaSuccess);
  ASSERT_EQ(cudaMemset(d.p, 0xFF, 64 * 64 * 4), cudaSuccess);
  GemmArgs args;
  args.m = args.n = args.k = 64;
  args.input = DataType::f16;
  args.a = {a.p, C, 64, 0};  // M-major A: not K-major
  args.b = {b.p, C, 64, 0};
  args.d = {d.p, R, 64, 0};
  tessera::Status st = tessera::kernels::sm80_tensorop_launch_variant(args, Sm80Variant::tiled, nullptr);
  EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement);
  EXPECT_NE(st.message.find("K-major"), std::string::npos) << st.message;
  args.a = {a.p, R, 64, 0};
  args.input = DataType::tf32;
  st = tessera::kernels::sm80_tensorop_launch_variant(args, Sm80Variant::tiled, nullptr);
  EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement);
  EXPECT_NE(st.message.find("16-bit"), std::string::npos) << st.message;
  args.input = DataType::f16;
  args.a = {static_cast<char*>(a.p) + 2, R, 64, 0};
  st = tessera::kernels::sm80_tensorop_launch_variant(args, Sm80Variant::tiled, nullptr);
  EXPECT_EQ(st.code, tessera::StatusCode::cannot_implement);
  EXPECT_NE(st.message.find("16-byte aligned"), std::string::npos) << st.message;
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<unsigned char> hd(64 * 64 * 4);
  ASSERT_EQ(cudaMemcpy(hd.data(), d.p, hd.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(std::all_of(hd.begin(), hd.end(), [](unsigned char x) { return x == 0xFF; })) << "D was written";
}

// Full-precision f32 is not a tensor-core kind: the kernel declines it so the
// registry falls back to the SIMT kernel.
TEST(Sm80GemmErrors, DeclinesFullPrecisionF32) {
  GemmArgs args;
  args.m = args.n = args.k = 64;
  args.input = DataType::f32;
  EXPECT_FALSE(tessera::kernels::sm80_tensorop_can_implement(args));
  args.input = DataType::tf32;
  EXPECT_TRUE(tessera::kernels::sm80_tensorop_can_implement(args));
}

}  // namespace
