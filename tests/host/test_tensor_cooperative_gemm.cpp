// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// cooperative_gemm run on the host one thread at a time (each thread owns a
// disjoint part of C, so the sequential run computes what the block does):
// C = alpha A B^T + beta C against an fp64 reference, with
//   - UniversalFMA over 16x16 threads on a 32x48x8 problem, K-major A and
//     N-major B (a run-time stride);
//   - beta == 0 over a NaN-poisoned C (C must not be read);
//   - load and store transforms (negate A, square the stored value);
//   - the register-accumulator form rC += A B^T, rC pre-filled with nonzero
//     values and accumulated twice, its fragments made both ways
//     (thr.partition_fragment_C(sC) and partition_fragment_C(mma, shape)),
//     every (m,n) owned by exactly one thread.
// The tensor-core forms run in tests/device/test_cooperative_gemm.cu.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

#include "host_test.hpp"

using namespace tessera;

namespace {

using tessera::test::random_floats;

template <class Mma, class TA, class TB, class TC, class AOp, class BOp, class CLoad, class CStore>
void run_all_threads(Mma const& mma, float alpha, TA const& sA, TB const& sB, float beta, TC const& sC, AOp a,
                     BOp b, CLoad cl, CStore cs) {
  for (int t = 0; t < int(size(mma)); ++t) cooperative_gemm(std::uint32_t(t), mma, alpha, sA, sB, beta, sC, a, b, cl, cs);
}

double rel_norm(std::vector<double> const& want, std::vector<float> const& got) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    num += (want[i] - got[i]) * (want[i] - got[i]);
    den += want[i] * want[i];
  }
  return std::sqrt(num / den);
}

}  // namespace

TEST(CooperativeGemm, UniversalFmaAgainstReference) {
  constexpr int M = 32, N = 48, K = 8;
  auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
  auto a = random_floats(M * K, 1), b = random_floats(N * K, 2), c0 = random_floats(M * N, 3);
  for (float beta : {0.0f, -0.5f}) {
    std::vector<float> c = c0;
    if (beta == 0.0f) std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());
    auto sA = make_tensor(a.data(), make_shape(Int<M>{}, Int<K>{}), make_stride(Int<K>{}, _1{}));  // K-major
    auto sB = make_tensor(b.data(), make_shape(Int<N>{}, Int<K>{}), make_stride(_1{}, N));       // N-major, run-time stride
    auto sC = make_tensor(c.data(), make_shape(Int<M>{}, Int<N>{}));
    run_all_threads(mma, 1.5f, sA, sB, beta, sC, identity{}, identity{}, identity{}, identity{});
    std::vector<double> want(M * N);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        double acc = 0;
        for (int k = 0; k < K; ++k) acc += double(a[m * K + k]) * double(b[n + N * k]);
        want[m + M * n] = 1.5 * acc + (beta == 0.0f ? 0.0 : double(beta) * double(c0[m + M * n]));
      }
    EXPECT_LT(rel_norm(want, c), 1e-6) << "beta " << beta;
  }
}

TEST(CooperativeGemm, LoadAndStoreTransforms) {
  constexpr int M = 16, N = 16, K = 4;
  auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_8, _8, _1>>{});
  auto a = random_floats(M * K, 4), b = random_floats(N * K, 5), c0 = random_floats(M * N, 6);
  std::vector<float> c = c0;
  auto sA = make_tensor(a.data(), make_shape(Int<M>{}, Int<K>{}));
  auto sB = make_tensor(b.data(), make_shape(Int<N>{}, Int<K>{}));
  auto sC = make_tensor(c.data(), make_shape(Int<M>{}, Int<N>{}));
  run_all_threads(mma, 1.0f, sA, sB, 2.0f, sC, negate{}, identity{}, identity{}, square{});
  std::vector<double> want(M * N);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double acc = 0;
      for (int k = 0; k < K; ++k) acc += -double(a[m + M * k]) * double(b[n + N * k]);
      double const v = acc + 2.0 * double(c0[m + M * n]);
      want[m + M * n] = v * v;
    }
  EXPECT_LT(rel_norm(want, c), 1e-6);
}

namespace {

// Each thread's accumulator for an (M,N) tile of `mma`, pre-filled with
// c0(m,n), then rC += A B^T run `times` times (a_load applied to A); what
// the threads hold afterwards is gathered into c (column-major M x N), and
// owners(m,n) counts the threads holding (m,n).
template <bool kFromShape, int M, int N, class Mma, class TA, class TB, class ALoad>
void run_register_form(Mma const& mma, TA const& sA, TB const& sB, std::vector<float> const& c0, int times,
                       ALoad a_load, std::vector<float>& c, std::vector<int>& owners) {
  c.assign(M * N, std::numeric_limits<float>::quiet_NaN());
  owners.assign(M * N, 0);
  auto cC = make_identity_tensor(make_shape(Int<M>{}, Int<N>{}));  // (M,N) -> (m,n)
  for (int t = 0; t < int(size(mma)); ++t) {
    auto thr = mma.get_slice(t);
    auto tCcC = thr.partition_C(cC);  // (MMA, MMA_M, MMA_N) -> (m,n)
    auto rC = [&] {
      if constexpr (kFromShape) {
        return partition_fragment_C(mma, make_shape(Int<M>{}, Int<N>{}));
      } else {
        std::vector<float> scratch(M * N);
        return thr.partition_fragment_C(make_tensor(make_smem_ptr(scratch.data()), make_shape(Int<M>{}, Int<N>{})));
      }
    }();
    static_assert(std::is_same_v<typename decltype(rC)::value_type, float>);
    for (int i = 0; i < int(size(rC)); ++i) {
      auto const mn = tCcC(i);
      rC(i) = c0[get<0>(mn) + M * get<1>(mn)];
    }
    for (int r = 0; r < times; ++r) cooperative_gemm(std::uint32_t(t), mma, sA, sB, rC, a_load, identity{});
    for (int i = 0; i < int(size(rC)); ++i) {
      auto const mn = tCcC(i);
      int const at = get<0>(mn) + M * get<1>(mn);
      c[at] = rC(i);
      ++owners[at];
    }
  }
}

}  // namespace

TEST(CooperativeGemm, RegisterAccumulatorAddsTwice) {
  constexpr int M = 32, N = 48, K = 8;
  auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
  auto a = random_floats(M * K, 7), b = random_floats(N * K, 8), c0 = random_floats(M * N, 9);
  for (float& x : c0) x += (x < 0 ? -1.0f : 1.0f);  // nonzero: |c0| >= 1
  auto sA = make_tensor(a.data(), make_shape(Int<M>{}, Int<K>{}), make_stride(Int<K>{}, _1{}));  // K-major
  auto sB = make_tensor(b.data(), make_shape(Int<N>{}, Int<K>{}), make_stride(_1{}, N));       // N-major, run-time stride
  std::vector<double> want(M * N);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double acc = 0;
      for (int k = 0; k < K; ++k) acc += double(a[m * K + k]) * double(b[n + N * k]);
      want[m + M * n] = double(c0[m + M * n]) + 2.0 * acc;
    }
  std::vector<float> c;
  std::vector<int> owners;
  run_register_form<false, M, N>(mma, sA, sB, c0, 2, identity{}, c, owners);
  EXPECT_EQ(std::count(owners.begin(), owners.end(), 1), M * N) << "every (m,n) held by exactly one thread";
  EXPECT_LT(rel_norm(want, c), 1e-6) << "thr.partition_fragment_C(sC)";
  run_register_form<true, M, N>(mma, sA, sB, c0, 2, identity{}, c, owners);
  EXPECT_EQ(std::count(owners.begin(), owners.end(), 1), M * N);
  EXPECT_LT(rel_norm(want, c), 1e-6) << "partition_fragment_C(mma, shape)";
}

// Atoms of 2x2x1 values per thread over 4x2 threads (tile 8x4): each thread
// holds several values per atom and several atoms along M and N; A loaded
// through negate.
TEST(CooperativeGemm, RegisterAccumulatorSeveralValuesPerThread) {
  constexpr int M = 16, N = 16, K = 4;
  auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_4, _2, _1>>{},
                            make_tile(Layout<Shape<_4, _2>, Stride<_2, _1>>{}, Layout<_4>{}, _1{}));
  auto a = random_floats(M * K, 10), b = random_floats(N * K, 11), c0 = random_floats(M * N, 12);
  for (float& x : c0) x += (x < 0 ? -1.0f : 1.0f);
  auto sA = make_tensor(a.data(), make_shape(Int<M>{}, Int<K>{}));
  auto sB = make_tensor(b.data(), make_shape(Int<N>{}, Int<K>{}));
  std::vector<double> want(M * N);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double acc = 0;
      for (int k = 0; k < K; ++k) acc += -double(a[m + M * k]) * double(b[n + N * k]);
      want[m + M * n] = double(c0[m + M * n]) + 2.0 * acc;
    }
  std::vector<float> c;
  std::vector<int> owners;
  run_register_form<true, M, N>(mma, sA, sB, c0, 2, negate{}, c, owners);
  EXPECT_EQ(std::count(owners.begin(), owners.end(), 1), M * N);
  EXPECT_LT(rel_norm(want, c), 1e-6);
}
