// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// simt_sgemm (fp32 FFMA GEMM) against an fp64 host reference, for every tile
// configuration the benchmark times: the four A/B orders x both D orders x
// C stored like or unlike D, odd shapes and residues in M, N and K, K == 0,
// ld > extent, pointers misaligned to 4 bytes (not 16), beta == 0 with
// C == nullptr, in-place C == D, batches. Inputs are fresh random numbers
// (the seed is printed on failure); D is poisoned with NaN bytes before every
// run, and the padding between D's rows/columns must still be poison after.
// The same cases run simt_tiled_sgemm (simt_tiled.cuh: the kernel written
// with Tensors, TiledCopy and TiledMMA) with the default configuration, and
// as the library runs it (32-deep k tiles for aligned M/N-major operands).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <tessera/gemm/simt_sgemm.cuh>
#include <tessera/gemm/simt_tiled.cuh>

#include "device_test.cuh"

namespace {

using tessera::GemmArgs;
using tessera::MatrixOrder;
namespace simt = tessera::kernels::simt;

constexpr MatrixOrder R = MatrixOrder::row_major;
constexpr MatrixOrder C = MatrixOrder::col_major;

// One test problem. Leading dimensions are the minimum plus `pad_*`;
// `off_*` shifts each pointer by that many floats (1..3: 4-byte aligned only).
struct Case {
  std::int64_t m, n, k;
  MatrixOrder oa = R, ob = R, oc = R, od = R;
  float alpha = 1.0f, beta = 0.0f;
  std::int64_t pad_a = 0, pad_b = 0, pad_c = 0, pad_d = 0;
  int off_a = 0, off_b = 0, off_c = 0, off_d = 0;
  bool c_null = false;   // beta must be 0
  bool in_place = false; // C is D
  std::int64_t batch = 1;

  std::string describe() const {
    auto o = [](MatrixOrder x) { return x == R ? "R" : "C"; };
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " orders A" + o(oa) + " B" +
           o(ob) + " C" + o(oc) + " D" + o(od) + " alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta) +
           " pads " + std::to_string(pad_a) + "," + std::to_string(pad_b) + "," + std::to_string(pad_c) + "," +
           std::to_string(pad_d) + " offsets " + std::to_string(off_a) + "," + std::to_string(off_b) + "," +
           std::to_string(off_c) + "," + std::to_string(off_d) + (c_null ? " C=null" : "") +
           (in_place ? " C=D" : "") + " batch " + std::to_string(batch);
  }
};

// A host matrix as stored: rows x cols, `order`, leading dimension `ld`,
// `batch` matrices `stride` apart.
struct Stored {
  std::int64_t rows, cols, ld, stride, batch;
  MatrixOrder order;
  std::int64_t index(std::int64_t b, std::int64_t r, std::int64_t c) const {
    return b * stride + (order == R ? r * ld + c : c * ld + r);
  }
  std::int64_t elements() const {
    std::int64_t const outer = order == R ? rows : cols;
    return batch * stride + outer * ld;  // generous: covers the padding
  }
};

Stored stored(std::int64_t rows, std::int64_t cols, MatrixOrder order, std::int64_t pad, std::int64_t batch) {
  std::int64_t const inner = order == R ? cols : rows;
  std::int64_t const outer = order == R ? rows : cols;
  std::int64_t const ld = std::max<std::int64_t>(inner, 1) + pad;
  return {rows, cols, ld, ld * std::max<std::int64_t>(outer, 1) + 4, batch, order};
}

std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

// simt_tiled_sgemm with configuration Cfg (a test type beside the bare
// configurations, which run simt_sgemm).
template <class Cfg>
struct Tiled {};

template <class Cfg>
struct Launcher {
  static tessera::Status launch(const GemmArgs& args) { return simt::sgemm_launch<Cfg>(args, nullptr); }
};
template <class Cfg>
struct Launcher<Tiled<Cfg>> {
  static tessera::Status launch(const GemmArgs& args) { return simt::tiled_sgemm_launch<Cfg>(args, nullptr); }
};
// simt_tiled_sgemm as registered: SgemmDeepK for the 16-byte M/N copy pair,
// SgemmDefault for every other form.
struct Library {};
template <>
struct Launcher<Library> {
  static tessera::Status launch(const GemmArgs& args) { return simt::tiled_sgemm_library_launch(args, nullptr); }
};

// The four matrices of `cs` as stored (C is D when in place).
struct CaseStorage {
  Stored a, b, c, d;
};
CaseStorage storage(const Case& cs) {
  Stored const d = stored(cs.m, cs.n, cs.od, cs.pad_d, cs.batch);
  return {stored(cs.m, cs.k, cs.oa, cs.pad_a, cs.batch), stored(cs.k, cs.n, cs.ob, cs.pad_b, cs.batch),
          cs.in_place ? d : stored(cs.m, cs.n, cs.oc, cs.pad_c, cs.batch), d};
}

// The GemmArgs of `cs` over allocations da..dd holding `st` (each pointer
// shifted by the case's off_*).
GemmArgs case_args(const Case& cs, const CaseStorage& st, float* da, float* db, float* dc, float* dd) {
  GemmArgs args;
  args.m = cs.m;
  args.n = cs.n;
  args.k = cs.k;
  args.batch_count = cs.batch;
  args.alpha = cs.alpha;
  args.beta = cs.beta;
  args.a = {da + cs.off_a, cs.oa, st.a.ld, cs.batch > 1 ? st.a.stride : 0};
  args.b = {db + cs.off_b, cs.ob, st.b.ld, cs.batch > 1 ? st.b.stride : 0};
  args.d = {dd + cs.off_d, cs.od, st.d.ld, cs.batch > 1 ? st.d.stride : 0};
  if (cs.in_place)
    args.c = args.d.view();
  else if (!cs.c_null)
    args.c = {dc + cs.off_c, cs.oc, st.c.ld, cs.batch > 1 ? st.c.stride : 0};
  else
    args.c = {nullptr, cs.oc, st.c.ld, 0};
  return args;
}

template <class Cfg>
void run_case(const Case& cs) {
  SCOPED_TRACE(cs.describe());
  std::uint32_t const seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);

  CaseStorage const st = storage(cs);
  Stored const &sa = st.a, &sb = st.b, &sc = st.c, &sd = st.d;

  std::vector<float> ha(sa.elements()), hb(sb.elements()), hc(sc.elements());
  for (float& x : ha) x = dist(rng);
  for (float& x : hb) x = dist(rng);
  for (float& x : hc) x = dist(rng);
  float const poison = [] {
    float f;
    std::uint32_t const u = 0xFFFFFFFFu;
    std::memcpy(&f, &u, 4);
    return f;
  }();
  // In place, D starts as C; otherwise D starts as NaN poison everywhere.
  std::vector<float> hd0 = cs.in_place ? hc : std::vector<float>(sd.elements(), poison);

  float *da = nullptr, *db = nullptr, *dc = nullptr, *dd = nullptr;
  TESSERA_TEST_CUDA(cudaMalloc(&da, (ha.size() + 4) * 4));
  TESSERA_TEST_CUDA(cudaMalloc(&db, (hb.size() + 4) * 4));
  TESSERA_TEST_CUDA(cudaMalloc(&dc, (hc.size() + 4) * 4));
  TESSERA_TEST_CUDA(cudaMalloc(&dd, (hd0.size() + 4) * 4));
  TESSERA_TEST_CUDA(cudaMemcpy(da + cs.off_a, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemcpy(db + cs.off_b, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemcpy(dc + cs.off_c, hc.data(), hc.size() * 4, cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemcpy(dd + cs.off_d, hd0.data(), hd0.size() * 4, cudaMemcpyHostToDevice));

  GemmArgs const args = case_args(cs, st, da, db, dc, dd);

  tessera::Status const v = tessera::validate_arguments(args);
  ASSERT_TRUE(v.ok()) << v.message;
  ASSERT_TRUE(simt::sgemm_can_implement(args));
  tessera::Status const s = Launcher<Cfg>::launch(args);
  ASSERT_TRUE(s.ok()) << s.message;
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());

  std::vector<float> hd(hd0.size());
  TESSERA_TEST_CUDA(cudaMemcpy(hd.data(), dd + cs.off_d, hd.size() * 4, cudaMemcpyDeviceToHost));
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dd);

  // fp64 reference and relative Frobenius error; every non-output element of
  // D's allocation must be untouched.
  std::vector<char> is_out(hd.size(), 0);
  // NOTE: the error is measured against the magnitude of the terms,
  // |alpha| sum |a b| + |beta c| per element (the quantity fp32 rounding
  // scales with), not against |D|: run 18 (H100) drew a 1x1x1 case where
  // alpha a b nearly cancelled beta c, and a correct fp32 result was 1e-5
  // off relative to the tiny |D|.
  double err2 = 0.0, ref2 = 0.0, mag2 = 0.0;
  std::int64_t non_finite = 0;
  for (std::int64_t b = 0; b < cs.batch; ++b)
    for (std::int64_t i = 0; i < cs.m; ++i)
      for (std::int64_t j = 0; j < cs.n; ++j) {
        double acc = 0.0, mag = 0.0;
        for (std::int64_t kk = 0; kk < cs.k; ++kk) {
          double const prod = double(ha[sa.index(b, i, kk)]) * double(hb[sb.index(b, kk, j)]);
          acc += prod;
          mag += std::fabs(prod);
        }
        double ref = double(cs.alpha) * acc;
        mag *= std::fabs(double(cs.alpha));
        if (cs.beta != 0.0f) {
          ref += double(cs.beta) * double(hc[sc.index(b, i, j)]);
          mag += std::fabs(double(cs.beta) * double(hc[sc.index(b, i, j)]));
        }
        mag2 += mag * mag;
        std::int64_t const di = sd.index(b, i, j);
        is_out[di] = 1;
        double const got = hd[di];
        if (!std::isfinite(got)) ++non_finite;
        err2 += (got - ref) * (got - ref);
        ref2 += ref * ref;
      }
  ASSERT_EQ(non_finite, 0) << "non-finite outputs (poison left or C read when beta == 0)";
  double const rel = std::sqrt(err2) / std::max(std::sqrt(mag2), 1e-30);
  // fp32 accumulation of K products: the error grows like eps * sqrt(K).
  double const bound = 4.0 * 1.2e-7 * std::sqrt(double(std::max<std::int64_t>(cs.k, 16)));
  if (ref2 > 0.0)
    EXPECT_LE(rel, bound) << "Frobenius error relative to the terms' magnitude";
  else
    EXPECT_EQ(err2, 0.0) << "the reference is all zeros (alpha*0 + 0*C); so must D be";
  std::int64_t touched = 0;
  for (std::size_t e = 0; e < hd.size(); ++e)
    if (!is_out[e] && bits(hd[e]) != bits(hd0[e])) ++touched;
  EXPECT_EQ(touched, 0) << "elements outside D (padding, gaps between batches) were written";
}

template <class Cfg>
class SimtSgemm : public ::testing::Test {};

// Every configuration the benchmark (scripts/gpu/simt.sh) times by default;
// the first is SgemmDefault, the registered one. Sgemm128x128x32S2WalkBands
// (SgemmDeepK) runs through `Library`. (The retired ones,
// scripts/gpu/simt_retired_configs.hpp,
// are checked by simt.sh: its emulation, ids 2 and 4-7, and its comparison
// with cuBLAS's result when SIMT_CFG_IDS times them.)
using Configs = ::testing::Types<simt::Sgemm128x128x16S4WalkBands, simt::Sgemm128x128x16, simt::Sgemm128x128x16S4,
                                 simt::Sgemm128x128x16K, simt::Sgemm128x128x16WalkCols,
                                 simt::Sgemm128x128x16WalkBands, simt::Sgemm256x128x16WalkRows,
                                 Tiled<simt::SgemmDefault>, Library>;
static_assert(std::is_same_v<simt::SgemmDefault, simt::Sgemm128x128x16S4WalkBands>,
              "test_simt_sgemm: the first tested configuration must be the shipped default");
TYPED_TEST_SUITE(SimtSgemm, Configs);

TYPED_TEST(SimtSgemm, EveryOrderWithResidues) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  for (MatrixOrder oa : {R, C})
    for (MatrixOrder ob : {R, C})
      for (MatrixOrder od : {R, C})
        for (MatrixOrder oc : {R, C}) {
          Case cs{131, 77, 45, oa, ob, oc, od};
          cs.alpha = 0.75f;
          cs.beta = -0.5f;
          run_case<TypeParam>(cs);
        }
}

TYPED_TEST(SimtSgemm, OddShapes) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  const std::int64_t shapes[][3] = {{1, 1, 1},     {1, 257, 3},  {255, 1, 9},  {3, 5, 7},    {129, 131, 17},
                                    {128, 128, 8}, {256, 256, 64}, {257, 263, 301}, {64, 300, 2}, {300, 64, 1}};
  for (auto const& s : shapes)
    for (MatrixOrder oa : {R, C})
      for (MatrixOrder ob : {R, C}) {
        Case cs{s[0], s[1], s[2], oa, ob, R, oa == ob ? R : C};
        cs.beta = 0.25f;
        run_case<TypeParam>(cs);
      }
}

TYPED_TEST(SimtSgemm, KZeroIsBetaC) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  Case cs{70, 90, 0};
  cs.beta = 1.5f;
  run_case<TypeParam>(cs);
  cs.beta = 0.0f;  // D = 0
  cs.c_null = true;
  run_case<TypeParam>(cs);
}

TYPED_TEST(SimtSgemm, LeadingDimensionsAboveExtent) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  for (MatrixOrder oa : {R, C})
    for (MatrixOrder ob : {R, C}) {
      Case cs{150, 140, 67, oa, ob, C, R};
      cs.pad_a = 3;  // ld % 4 != 0: the 16-byte path must step aside
      cs.pad_b = 4;
      cs.pad_c = 7;
      cs.pad_d = 9;
      cs.beta = 2.0f;
      run_case<TypeParam>(cs);
    }
}

TYPED_TEST(SimtSgemm, MisalignedPointers) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  for (MatrixOrder oa : {R, C})
    for (MatrixOrder ob : {R, C})
      for (MatrixOrder od : {R, C}) {
        Case cs{133, 129, 41, oa, ob, od, od};
        cs.off_a = 1;
        cs.off_b = 3;
        cs.off_c = 2;
        cs.off_d = 1;
        cs.beta = 0.5f;
        run_case<TypeParam>(cs);
      }
}

TYPED_TEST(SimtSgemm, BetaZeroNeverReadsC) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  for (MatrixOrder od : {R, C}) {
    Case cs{200, 136, 33, R, C, od, od};
    cs.c_null = true;
    cs.alpha = -1.25f;
    run_case<TypeParam>(cs);
  }
}

TYPED_TEST(SimtSgemm, InPlaceAndBatched) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  Case cs{96, 160, 40, C, R, R, R};
  cs.in_place = true;
  cs.beta = 1.0f;
  run_case<TypeParam>(cs);
  Case bt{65, 130, 36, R, C, C, C};
  bt.batch = 3;
  bt.beta = -1.0f;
  bt.off_b = 2;
  run_case<TypeParam>(bt);
  Case aligned{64, 128, 36, C, R, C, C};  // 16-byte copies and stores across batches
  aligned.batch = 2;
  aligned.beta = 0.5f;
  run_case<TypeParam>(aligned);
}

// K-contiguous operands with 16-byte aligned rows: the K-major path
// (vec16_k) for Sgemm128x128x16K, elem_k for the others. K residues inside
// a 16-byte chunk, M/N residues, every order.
TYPED_TEST(SimtSgemm, KContiguousAligned) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  for (MatrixOrder oa : {R, C})
    for (MatrixOrder ob : {R, C})
      for (MatrixOrder od : {R, C}) {
        Case cs{133, 75, 45, oa, ob, od, od};
        cs.pad_a = 3;                   // ld 48 (row-major) or 136
        cs.pad_b = ob == C ? 3 : 1;     // ld 48 (column-major) or 76
        cs.pad_c = 1;
        cs.beta = -0.75f;
        run_case<TypeParam>(cs);
      }
  Case big{260, 200, 1000, R, C, C, C};  // many k tiles, 1000 % 16 == 8
  big.beta = 0.5f;
  run_case<TypeParam>(big);
  Case mx{64, 96, 40, R, R, R, R};  // K-major A next to a misaligned N-contiguous B
  mx.off_b = 1;
  run_case<TypeParam>(mx);
  Case my{64, 96, 40, C, C, R, R};  // misaligned M-contiguous A next to a K-major B
  my.off_a = 1;
  run_case<TypeParam>(my);
  Case bt{70, 66, 52, R, C, R, R};  // batches of K-major tiles
  bt.batch = 3;
  bt.beta = 1.0f;
  run_case<TypeParam>(bt);
}

// Host-only (no GPU needed): the operand modes plan_sgemm picks. 16-byte
// aligned K-contiguous operands get vec16_k only from a configuration with
// kVec16K (exactly Sgemm128x128x16K among the tested ones), elem_k otherwise;
// the kernel is instantiated for vec16_k only there.
TEST(SimtSgemmPlan, Vec16KOnlyWhereTheConfigOptsIn) {
  alignas(16) static float buf[4 * 64 * 64];
  auto args_for = [&](MatrixOrder oa, MatrixOrder ob, int off) {
    GemmArgs a;
    a.m = 64;
    a.n = 64;
    a.k = 64;
    a.a = {buf + off, oa, 64, 0};
    a.b = {buf + 64 * 64, ob, 64, 0};
    a.c = {buf + 2 * 64 * 64, R, 64, 0};
    a.d = {buf + 3 * 64 * 64, R, 64, 0};
    return a;
  };
  using simt::OperandMode;
  GemmArgs const tn = args_for(R, C, 0);  // Ak K-contiguous, Bk K-contiguous, all aligned
  auto const dflt = simt::detail::plan_sgemm(tn, simt::SgemmDefault::kVec16K);
  EXPECT_EQ(dflt.mode_a, OperandMode::elem_k);
  EXPECT_EQ(dflt.mode_b, OperandMode::elem_k);
  auto const kcfg = simt::detail::plan_sgemm(tn, simt::Sgemm128x128x16K::kVec16K);
  EXPECT_EQ(kcfg.mode_a, OperandMode::vec16_k);
  EXPECT_EQ(kcfg.mode_b, OperandMode::vec16_k);
  auto const mis = simt::detail::plan_sgemm(args_for(R, C, 1), true);  // A misaligned: elem_k even so
  EXPECT_EQ(mis.mode_a, OperandMode::elem_k);
  EXPECT_EQ(mis.mode_b, OperandMode::vec16_k);
  auto const nt = simt::detail::plan_sgemm(args_for(C, R, 0), simt::SgemmDefault::kVec16K);
  EXPECT_EQ(nt.mode_a, OperandMode::vec16);
  EXPECT_EQ(nt.mode_b, OperandMode::vec16);
  static_assert(!simt::SgemmDefault::kVec16K && simt::Sgemm128x128x16K::kVec16K && !simt::Sgemm128x128x16::kVec16K &&
                    !simt::Sgemm128x128x16S4::kVec16K && !simt::Sgemm128x128x16WalkCols::kVec16K &&
                    !simt::Sgemm128x128x16WalkBands::kVec16K && !simt::Sgemm128x128x16S4WalkBands::kVec16K &&
                    !simt::Sgemm256x128x16WalkRows::kVec16K,
                "test_simt_sgemm: exactly one configuration (Sgemm128x128x16K) opts into vec16_k");
  EXPECT_EQ(simt::detail::sgemm_function<simt::SgemmDefault>(OperandMode::vec16_k, OperandMode::vec16), nullptr);
  EXPECT_NE(simt::detail::sgemm_function<simt::Sgemm128x128x16K>(OperandMode::vec16_k, OperandMode::vec16), nullptr);
}

// Host-only: the library's launcher takes SgemmDeepK exactly where both
// operands are copied 16 bytes along M/N, and the default everywhere else.
TEST(SimtSgemmPlan, DeepKOnlyForTheSixteenByteMnPair) {
  alignas(16) static float buf[4 * 64 * 64 + 4];
  auto args_for = [&](MatrixOrder oa, MatrixOrder ob, MatrixOrder od, int off_a) {
    GemmArgs a;
    a.m = 64;
    a.n = 64;
    a.k = 64;
    a.a = {buf + off_a, oa, 64, 0};
    a.b = {buf + 64 * 64 + 4, ob, 64, 0};
    a.d = {buf + 2 * 64 * 64 + 4, od, 64, 0};
    return a;
  };
  using simt::OperandMode;
  const void* const deep = simt::detail::deep_k_function(OperandMode::vec16, OperandMode::vec16);
  ASSERT_NE(deep, nullptr);
  EXPECT_EQ(simt::detail::deep_k_function(OperandMode::vec16, OperandMode::elem_k), nullptr);
  EXPECT_EQ(simt::detail::deep_k_function(OperandMode::elem_mn, OperandMode::vec16), nullptr);
  for (MatrixOrder oa : {R, C})
    for (MatrixOrder ob : {R, C})
      for (MatrixOrder od : {R, C})
        for (int off : {0, 1}) {
          GemmArgs const args = args_for(oa, ob, od, off);
          // M/N-major in the kernel's orientation (D column-major swaps A and B).
          bool const a_mn = od == R ? oa == C : ob == R;
          bool const b_mn = od == R ? ob == R : oa == C;
          bool const a_aligned = od == R ? off == 0 : true;
          bool const b_aligned = od == R ? true : off == 0;
          bool const expect_deep = a_mn && b_mn && a_aligned && b_aligned;
          SCOPED_TRACE(std::string("A") + (oa == R ? "R" : "C") + " B" + (ob == R ? "R" : "C") + " D" +
                       (od == R ? "R" : "C") + " A offset " + std::to_string(off));
          EXPECT_EQ(simt::detail::deep_k_form(args), expect_deep);
          auto const shape = simt::tiled_sgemm_library_launch_shape(args);
          auto const dflt = simt::tiled_sgemm_launch_shape<simt::SgemmDefault>(args);
          if (expect_deep) {
            EXPECT_EQ(shape.function, deep);
            EXPECT_EQ(shape.dynamic_smem_bytes, simt::SgemmDeepK::kSmemBytes);
          } else {
            EXPECT_EQ(shape.function, dflt.function);
            EXPECT_EQ(shape.dynamic_smem_bytes, simt::SgemmDefault::kSmemBytes);
          }
        }
  // K: none (K = 0: the default), no more padded k than 16-deep tiles
  // (17-32 and 49-64 pad to the same k; 33-48 to 64 instead of 48), or at
  // most 1% more (K >= 1600).
  const std::pair<std::int64_t, bool> ks[] = {
      {0, false},  {1, false},  {16, false}, {17, true},    {31, true},   {32, true},
      {33, false}, {40, false}, {48, false}, {49, true},    {64, true},   {1000, false},
      {1599, true}, {1608, true}, {1609, true}, {4096, true}};
  for (auto const& [k, deep] : ks) {
    GemmArgs args = args_for(C, R, R, 0);
    args.k = k;
    EXPECT_EQ(simt::detail::deep_k_form(args), deep) << "K " << k;
  }
  static_assert(simt::SgemmDeepK::kBlockK == 32 && simt::SgemmDeepK::kSmemBytes == simt::SgemmDefault::kSmemBytes,
                "SgemmDeepK: 32-deep k tiles in the default's shared memory");
}

// SgemmDeepK through the library's launcher: aligned M/N-major operands with
// residues in M, N and K (K below, at and above one 32-deep tile), both D
// orders, alpha/beta, batches and C in place.
TEST(SimtSgemmDeepK, ResiduesBatchesAndBothDOrders) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  // run_case's arguments over 16-byte aligned stand-ins for its
  // allocations: each case must be one SgemmDeepK takes.
  auto run_deep = [](const Case& cs) {
    alignas(16) static float probe[4];
    GemmArgs const args = case_args(cs, storage(cs), probe, probe, probe, probe);
    EXPECT_TRUE(simt::detail::deep_k_form(args)) << cs.describe();
    run_case<Library>(cs);
  };
  // K residues 20, 31, 18 and 31 of a 32-deep tile (K 1617: past the 1%
  // padding line), and whole tiles.
  const std::int64_t shapes[][3] = {{128, 128, 32}, {64, 64, 20},     {64, 64, 31}, {132, 68, 50},
                                    {260, 388, 63}, {256, 384, 1617}, {4, 136, 96}, {200, 8, 64}};
  for (auto const& sh : shapes)
    for (MatrixOrder od : {R, C}) {
      Case cs{sh[0], sh[1], sh[2], C, R, od, od};
      cs.alpha = 0.75f;
      cs.beta = -0.5f;
      run_deep(cs);
    }
  Case bt{132, 260, 90, C, R, R, R};
  bt.batch = 3;
  bt.pad_a = 4;  // ld 136: still 16-byte rows
  bt.pad_b = 8;
  bt.beta = 1.5f;
  run_deep(bt);
  Case ip{96, 160, 60, C, R, R, R};
  ip.in_place = true;
  ip.beta = 1.0f;
  run_deep(ip);
}

TYPED_TEST(SimtSgemm, ManyKTiles) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  for (MatrixOrder oa : {R, C}) {
    Case cs{384, 320, 1003, oa, R, R, R};
    cs.beta = 0.5f;
    run_case<TypeParam>(cs);
  }
}

// Host-only: every FFMA walk (ffma_walk, the v4 configurations) visits each
// of the kM x kN accumulators exactly once per k step, for the thread tiles
// the configurations use; the serpentine walks share an operand between
// every two consecutive steps (the property they exist for).
template <int kOrder, int kM, int kN>
void check_walk(bool every_step_shares) {
  int seen[kM][kN] = {};
  int pi = -1, pj = -1, unshared = 0;
  for (int s = 0; s < kM * kN; ++s) {
    int i = -1, j = -1;
    simt::ffma_walk<kOrder, kM, kN>(s, i, j);
    ASSERT_TRUE(i >= 0 && i < kM && j >= 0 && j < kN) << "order " << kOrder << " step " << s << " -> (" << i << "," << j << ")";
    ++seen[i][j];
    if (s > 0 && i != pi && j != pj) ++unshared;
    pi = i;
    pj = j;
  }
  for (int i = 0; i < kM; ++i)
    for (int j = 0; j < kN; ++j) EXPECT_EQ(seen[i][j], 1) << "order " << kOrder << " (" << i << "," << j << ")";
  if (every_step_shares) EXPECT_EQ(unshared, 0) << "order " << kOrder << ": consecutive FFMAs without a common operand";
}

TEST(SimtSgemmWalk, EveryAccumulatorOncePerStep) {
  check_walk<0, 8, 8>(false);
  check_walk<1, 8, 8>(true);
  check_walk<2, 8, 8>(true);
  check_walk<3, 8, 8>(true);
  check_walk<4, 8, 8>(true);
  check_walk<1, 8, 16>(true);
  check_walk<1, 16, 8>(true);
  check_walk<2, 8, 16>(true);
  check_walk<3, 16, 8>(true);
  check_walk<4, 8, 16>(true);
  check_walk<5, 8, 8>(true);
  check_walk<6, 8, 8>(true);
  check_walk<5, 16, 8>(true);
  check_walk<6, 16, 8>(true);
  check_walk<5, 8, 16>(true);
  static_assert(simt::Sgemm128x128x16WalkCols::kFfmaOrder == 2 && simt::Sgemm128x128x16WalkBands::kFfmaOrder == 5 &&
                    simt::Sgemm128x128x16S4WalkBands::kFfmaOrder == 5 && simt::Sgemm256x128x16WalkRows::kFfmaOrder == 1 &&
                    simt::Sgemm128x128x16::kFfmaOrder == 0 && simt::SgemmDefault::kFfmaOrder == 5,
                "test_simt_sgemm: the v4 configurations use walks 2 (columns), 5 (row bands) and 1 (rows)");
}

// Host-only: simt_tiled_sgemm's TiledMMA, fragment copies and global ->
// shared copies give every thread the values simt_sgemm gives it: the
// accumulators (thr_m + rows(v,rm), thr_n + cols(e,rn)), the LDS.128
// addresses of its A/B fragments, and TileCopy's elem_k / vec16 / elem_mn
// element of every pass.
TEST(SimtTiledSgemm, ThreadOwnershipMatchesSimtSgemm) {
  using Cfg = simt::SgemmDefault;
  using simt::OperandMode;
  namespace ts = tessera;
  constexpr int kBM = Cfg::kBlockM, kBN = Cfg::kBlockN, kBK = Cfg::kBlockK;
  auto const mma = simt::detail::tiled_sgemm_mma<Cfg>();
  constexpr auto rows = Cfg::thr_rows();
  constexpr auto cols = Cfg::thr_cols();
  constexpr auto sA_layout = Cfg::smem_layout_a();  // (BLK_K,BLK_M,PIPE)
  auto const sA = ts::make_tensor(ts::make_smem_ptr(static_cast<float*>(nullptr)), ts::select<1, 0, 2>(sA_layout));
  auto const s2r_a = ts::make_tiled_copy_A(ts::Copy_Atom<ts::UniversalCopy<float4>, float>{}, mma);
  auto const s2r_b = ts::make_tiled_copy_B(ts::Copy_Atom<ts::UniversalCopy<float4>, float>{}, mma);
  auto const sB = ts::make_tensor(ts::make_smem_ptr(static_cast<float*>(nullptr)), ts::select<1, 0, 2>(Cfg::smem_layout_b()));
  auto const cD = ts::make_identity_tensor(ts::make_shape(ts::Int<kBM>{}, ts::Int<kBN>{}));
  for (int tid = 0; tid < Cfg::kThreads; ++tid) {
    int const warp = tid / 32, lane = tid % 32;
    int const thr_m = (warp / Cfg::kWarpsN) * Cfg::kWarpTileM + (lane / Cfg::kLanesN) * 4;
    int const thr_n = (warp % Cfg::kWarpsN) * Cfg::kWarpTileN + (lane % Cfg::kLanesN) * 4;
    auto const tC = mma.get_slice(tid).partition_C(cD);  // (1,(4,REP_M),(4,REP_N))
    for (int rm = 0; rm < Cfg::kRepM; ++rm)
      for (int v = 0; v < 4; ++v)
        for (int rn = 0; rn < Cfg::kRepN; ++rn)
          for (int e = 0; e < 4; ++e) {
            auto const c = tC(0, ts::make_coord(v, rm), ts::make_coord(e, rn));
            ASSERT_EQ(int(ts::get<0>(c)), thr_m + rows(v, rm)) << "thread " << tid;
            ASSERT_EQ(int(ts::get<1>(c)), thr_n + cols(e, rn)) << "thread " << tid;
          }
    // Fragment reads: 4 consecutive floats per copy, at the rows above.
    auto const tXsA = s2r_a.get_slice(tid).partition_S(sA);  // (CPY,CPY_M,BLK_K,PIPE)
    auto const tXsB = s2r_b.get_slice(tid).partition_S(sB);  // (CPY,CPY_N,BLK_K,PIPE)
    ASSERT_EQ(int(ts::size<0>(tXsA.layout())), 4 * Cfg::kRepM);
    for (int rm = 0; rm < Cfg::kRepM; ++rm)
      for (int v = 0; v < 4; ++v) {
        int const off = int(&tXsA(ts::make_coord(v, rm), 0, 3, 1) - static_cast<float*>(nullptr));
        ASSERT_EQ(off, int(sA_layout(3, thr_m + rows(v, rm), 1))) << "thread " << tid;
      }
    for (int rn = 0; rn < Cfg::kRepN; ++rn)
      for (int e = 0; e < 4; ++e) {
        int const off = int(&tXsB(ts::make_coord(e, rn), 0, 5, 2) - static_cast<float*>(nullptr));
        ASSERT_EQ(off, int(Cfg::smem_layout_b()(5, thr_n + cols(e, rn), 2))) << "thread " << tid;
      }
    // Global -> shared: the (mn, k) coordinates of every pass, as TileCopy's.
    auto const ck = simt::detail::tiled_sgemm_g2s<Cfg, OperandMode::elem_k, kBM>().get_slice(tid).partition_S(
        ts::make_identity_tensor(ts::make_shape(ts::Int<kBM>{}, ts::Int<kBK>{})));
    constexpr int kGroupsK = kBK / 8;
    int const k_mn = (warp / kGroupsK) * 4 + (tid / 8) % 4, k_k = (warp % kGroupsK) * 8 + tid % 8;
    ASSERT_EQ(int(ts::size(ck.layout())), kBM * kBK / Cfg::kThreads);
    for (int p = 0; p < int(ts::size(ck.layout())); ++p) {
      auto const c = ts::group_modes<1, 3>(ck)(0, p);
      ASSERT_EQ(int(ts::get<0>(c)), k_mn + p * (Cfg::kThreads / kBK)) << "elem_k thread " << tid << " pass " << p;
      ASSERT_EQ(int(ts::get<1>(c)), k_k) << "elem_k thread " << tid << " pass " << p;
    }
    auto const cv = simt::detail::tiled_sgemm_g2s<Cfg, OperandMode::vec16, kBN>().get_slice(tid).partition_S(
        ts::make_identity_tensor(ts::make_shape(ts::Int<kBN>{}, ts::Int<kBK>{})));
    for (int p = 0; p < int(ts::size(ts::group_modes<1, 3>(cv).layout()) / 4); ++p) {
      auto const c = ts::group_modes<1, 3>(cv)(0, p);
      ASSERT_EQ(int(ts::get<0>(c)), (tid % (kBN / 4)) * 4) << "vec16 thread " << tid;
      ASSERT_EQ(int(ts::get<1>(c)), tid / (kBN / 4) + p * (Cfg::kThreads / (kBN / 4))) << "vec16 thread " << tid;
    }
    auto const cm = ts::group_modes<1, 3>(simt::detail::tiled_sgemm_g2s<Cfg, OperandMode::elem_mn, kBM>().get_slice(tid).partition_S(
        ts::make_identity_tensor(ts::make_shape(ts::Int<kBM>{}, ts::Int<kBK>{}))));
    std::vector<std::pair<int, int>> got, want;
    for (int p = 0; p < int(ts::size(cm.layout())); ++p) got.push_back({int(ts::get<0>(cm(0, p))), int(ts::get<1>(cm(0, p)))});
    int const warps = Cfg::kThreads / 32;
    for (int p = 0; p < kBM * kBK / Cfg::kThreads; ++p)
      want.push_back({tid % 32 + (warps * p) / kBK * 32, tid / 32 + (warps * p) % kBK});
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    ASSERT_EQ(got, want) << "elem_mn thread " << tid;
  }
}

}  // namespace
