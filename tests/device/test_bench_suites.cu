// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The benchmark's problem lists and argument parsing (bench/gemm_bench.hpp),
// host only: the default suite is the issue's 15 shapes in its order, `all`
// adds the midsize group, every quick list is part of its full list, and
// malformed shapes and --beta values are refused without touching the
// output.
// No kernels here: the device passes (sm_80, sm_90a) compile nothing but
// this guard, and the host pass does all the work (tests/CMakeLists.txt,
// "host-only .cu tests").
#if !defined(__CUDA_ARCH__)

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gemm_bench.hpp"

namespace {

using tessera::bench::Shape;
using tessera::bench::suite_shapes;

bool same(const Shape& a, const Shape& b) { return a.m == b.m && a.n == b.n && a.k == b.k && a.group == b.group; }

bool contains(const std::vector<Shape>& v, const Shape& s) {
  return std::any_of(v.begin(), v.end(), [&](const Shape& x) { return same(x, s); });
}

TEST(BenchSuites, DefaultIsTheIssueList) {
  struct Expect {
    std::int64_t m, n, k;
    const char* group;
  };
  Expect const expected[] = {{1024, 1024, 1024, "square"},  {2048, 2048, 2048, "square"},  {4096, 4096, 4096, "square"},
                             {8192, 8192, 8192, "square"},  {16384, 16384, 16384, "square"}, {5120, 5120, 4096, "seed"},
                             {4096, 6144, 4096, "llm"},     {4096, 28672, 4096, "llm"},     {4096, 4096, 14336, "llm"},
                             {16384, 8192, 1024, "llm"},    {128, 8192, 8192, "skinny"},    {64, 28672, 4096, "skinny"},
                             {16, 4096, 14336, "skinny"},   {4095, 4097, 4093, "odd"},      {1000, 1000, 1000, "odd"}};
  std::vector<Shape> const d = suite_shapes("default", false);
  ASSERT_EQ(d.size(), std::size(expected));
  for (std::size_t i = 0; i < d.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(same(d[i], Shape{expected[i].m, expected[i].n, expected[i].k, expected[i].group}));
  }
}

TEST(BenchSuites, AllIsDefaultThenMidsize) {
  std::vector<Shape> const d = suite_shapes("default", false);
  std::vector<Shape> const mid = suite_shapes("midsize", false);
  std::vector<Shape> const all = suite_shapes("all", false);
  ASSERT_FALSE(mid.empty());
  ASSERT_EQ(all.size(), d.size() + mid.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(same(all[i], i < d.size() ? d[i] : mid[i - d.size()]));
  }
  for (const Shape& s : mid) {
    EXPECT_EQ(s.group, "midsize");
    EXPECT_FALSE(contains(d, s)) << s.m << "x" << s.n << "x" << s.k << " is already in the default suite";
  }
}

TEST(BenchSuites, QuickListsArePartOfTheFullOnes) {
  for (const char* suite : {"default", "square", "seed", "llm", "skinny", "odd", "midsize", "all"}) {
    SCOPED_TRACE(suite);
    std::vector<Shape> const full = suite_shapes(suite, false);
    std::vector<Shape> const quick = suite_shapes(suite, true);
    EXPECT_FALSE(full.empty());
    EXPECT_FALSE(quick.empty());
    EXPECT_LE(quick.size(), full.size());
    for (const Shape& s : quick) EXPECT_TRUE(contains(full, s)) << s.m << "x" << s.n << "x" << s.k;
  }
  EXPECT_TRUE(suite_shapes("nonesuch", false).empty());
  EXPECT_TRUE(suite_shapes("", true).empty());
}

TEST(BenchSuites, ParseShape) {
  Shape s;
  ASSERT_TRUE(tessera::bench::parse_shape("4095x4097X4093", &s));
  EXPECT_TRUE(same(s, Shape{4095, 4097, 4093, "custom"}));
  Shape const before{7, 8, 9, "untouched"};
  for (const char* bad : {"", "4096", "4096x4096", "4096x4096x", "x4096x4096x4096", "4096x4096x4096x1", "0x1x1",
                          "1x0x1", "1x1x0", "-1x1x1", "1 x1x1", "1x1x1 ", "12345678901234567x1x1"}) {
    SCOPED_TRACE(bad);
    Shape out = before;
    EXPECT_FALSE(tessera::bench::parse_shape(bad, &out));
    EXPECT_TRUE(same(out, before));
  }
}

TEST(BenchSuites, ParseBeta) {
  struct Good {
    const char* text;
    float value;
  };
  for (Good const g : {Good{"1", 1.0f}, Good{"0", 0.0f}, Good{"-0.5", -0.5f}, Good{"2e-1", 0.2f}, Good{"+3", 3.0f}}) {
    SCOPED_TRACE(g.text);
    float out = 7.0f;
    ASSERT_TRUE(tessera::bench::parse_beta(g.text, &out));
    EXPECT_EQ(out, g.value);
  }
  for (const char* bad : {"", " 1", "1 ", "1x", "beta", "inf", "-inf", "nan", "1e39", "-1e39", "0x"}) {
    SCOPED_TRACE(bad);
    float out = 7.0f;
    EXPECT_FALSE(tessera::bench::parse_beta(bad, &out));
    EXPECT_EQ(out, 7.0f);
  }
}

// The timed runs' input sets: paired with cuBLAS, the stream partner 0, row
// 0, partner 1, row 1, ... reads sets 0, 1, 2, 3, ...: a row's run never
// reads the set its partner has just read (which would hand it a warm L2;
// session 28, run 254: 3.5% at 1024^3), and each set comes back only after
// every other one. Alone, a row reads set j.
TEST(BenchPairing, EveryRunReadsTheNextSet) {
  using tessera::bench::partner_run_set;
  using tessera::bench::row_run_set;
  std::int64_t k = 0;  // position in the interleaved stream
  for (std::int64_t j = 0; j < 1000; ++j) {
    EXPECT_EQ(partner_run_set(j), k++) << "partner run " << j;
    EXPECT_EQ(row_run_set(j, true), k++) << "paired row run " << j;
    EXPECT_EQ(row_run_set(j, false), j) << "unpaired row run " << j;
  }
  for (std::int64_t sets = 2; sets <= 64; ++sets)
    for (std::int64_t j = 0; j < 200; ++j) {
      ASSERT_NE(partner_run_set(j) % sets, row_run_set(j, true) % sets) << sets << " sets, run " << j;
      ASSERT_NE(row_run_set(j, true) % sets, partner_run_set(j + 1) % sets) << sets << " sets, run " << j;
    }
}

}  // namespace

#endif  // !defined(__CUDA_ARCH__)
