// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Every argument rule of tessera::gemm, checked on the pure host functions of
// tessera/gemm/api.hpp (no GPU, no runtime library). Pointers are addresses
// inside a host array: validation never dereferences them.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tessera/gemm/api.hpp"

namespace {

using tessera::DataType;
using tessera::GemmArgs;
using tessera::MatrixOrder;
using tessera::StatusCode;

// A byte arena big enough for every operand below, 256-byte aligned.
struct Arena {
  std::vector<std::uint64_t> words = std::vector<std::uint64_t>(1 << 20);
  char* at(std::size_t byte) { return reinterpret_cast<char*>(words.data()) + byte; }
};

// A valid TN problem: A row-major MxK, B column-major KxN, C and D row-major
// MxN, each in its own region of the arena.
GemmArgs valid_args(Arena& arena, DataType type = DataType::f32, std::int64_t m = 33,
                    std::int64_t n = 17, std::int64_t k = 9) {
  GemmArgs g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.input = type;
  g.beta = 0.5f;
  g.a = {arena.at(0), MatrixOrder::row_major, k, 0};
  g.b = {arena.at(1 << 18), MatrixOrder::col_major, k, 0};
  g.c = {arena.at(2 << 18), MatrixOrder::row_major, n, 0};
  g.d = {arena.at(3 << 18), MatrixOrder::row_major, n, 0};
  return g;
}

StatusCode code_of(const GemmArgs& g) { return tessera::validate_arguments(g).code; }

TEST(GemmArgs, ValidProblemPassesForEveryLayout) {
  Arena arena;
  for (MatrixOrder oa : {MatrixOrder::row_major, MatrixOrder::col_major})
    for (MatrixOrder ob : {MatrixOrder::row_major, MatrixOrder::col_major})
      for (MatrixOrder od : {MatrixOrder::row_major, MatrixOrder::col_major}) {
        GemmArgs g = valid_args(arena);
        g.a.order = oa;
        g.a.ld = oa == MatrixOrder::row_major ? g.k : g.m;
        g.b.order = ob;
        g.b.ld = ob == MatrixOrder::row_major ? g.n : g.k;
        g.c.order = g.d.order = od;
        g.c.ld = g.d.ld = od == MatrixOrder::row_major ? g.n : g.m;
        auto s = tessera::validate_arguments(g);
        EXPECT_TRUE(s.ok()) << s.message;
      }
}

TEST(GemmArgs, NegativeSizesAndStridesAreRejected) {
  Arena arena;
  for (int which = 0; which < 4; ++which) {
    GemmArgs g = valid_args(arena);
    (which == 0 ? g.m : which == 1 ? g.n : which == 2 ? g.k : g.batch_count) = -1;
    auto s = tessera::validate_arguments(g);
    EXPECT_EQ(s.code, StatusCode::invalid_size) << which;
    EXPECT_NE(s.message.find("negative"), std::string::npos) << s.message;
  }
  GemmArgs g = valid_args(arena);
  g.b.batch_stride = -4;
  EXPECT_EQ(code_of(g), StatusCode::invalid_size);
  g = valid_args(arena);
  g.a.ld = -1;
  EXPECT_EQ(code_of(g), StatusCode::invalid_size);
}

TEST(GemmArgs, EmptyProblemsAreNoOpsEvenWithNullPointers) {
  for (int which = 0; which < 3; ++which) {
    GemmArgs g;  // every pointer null
    g.m = which == 0 ? 0 : 5;
    g.n = which == 1 ? 0 : 5;
    g.k = 5;
    g.batch_count = which == 2 ? 0 : 1;
    EXPECT_TRUE(tessera::validate_arguments(g).ok()) << which;
  }
}

TEST(GemmArgs, KZeroNeedsNoAOrB) {
  Arena arena;
  GemmArgs g = valid_args(arena);
  g.k = 0;
  g.a = {};
  g.b = {};
  EXPECT_TRUE(tessera::validate_arguments(g).ok()) << tessera::validate_arguments(g).message;
  g.c.data = nullptr;  // beta != 0 reads C
  EXPECT_EQ(code_of(g), StatusCode::null_pointer);
}

TEST(GemmArgs, NullPointers) {
  Arena arena;
  for (char which : {'A', 'B', 'C', 'D'}) {
    GemmArgs g = valid_args(arena);
    if (which == 'A') g.a.data = nullptr;
    if (which == 'B') g.b.data = nullptr;
    if (which == 'C') g.c.data = nullptr;
    if (which == 'D') g.d.data = nullptr;
    auto s = tessera::validate_arguments(g);
    EXPECT_EQ(s.code, StatusCode::null_pointer) << which;
    EXPECT_NE(s.message.find(std::string(1, which) + " is null"), std::string::npos) << s.message;
  }
}

TEST(GemmArgs, BetaZeroNeverNeedsC) {
  Arena arena;
  GemmArgs g = valid_args(arena);
  g.beta = 0.0f;
  g.c = {};  // null, ld 0: not checked because not read
  EXPECT_TRUE(tessera::validate_arguments(g).ok());
  g.c.data = g.d.data;  // even overlapping D, with another ld: never read
  g.c.ld = 1;
  EXPECT_TRUE(tessera::validate_arguments(g).ok());
}

TEST(GemmArgs, LeadingDimensionSmallerThanTheMatrix) {
  Arena arena;
  struct Case {
    char op;
    MatrixOrder order;
  };
  for (Case c : {Case{'A', MatrixOrder::row_major}, Case{'A', MatrixOrder::col_major},
                 Case{'B', MatrixOrder::row_major}, Case{'B', MatrixOrder::col_major},
                 Case{'C', MatrixOrder::row_major}, Case{'C', MatrixOrder::col_major},
                 Case{'D', MatrixOrder::row_major}, Case{'D', MatrixOrder::col_major}}) {
    GemmArgs g = valid_args(arena);
    // Row length (row-major) or column length (column-major) of each operand.
    auto need = [&](std::int64_t rows, std::int64_t cols) {
      return c.order == MatrixOrder::row_major ? cols : rows;
    };
    tessera::MatrixDesc* desc = c.op == 'A' ? &g.a : c.op == 'B' ? &g.b : &g.c;
    std::int64_t required = c.op == 'A' ? need(g.m, g.k) : c.op == 'B' ? need(g.k, g.n) : need(g.m, g.n);
    if (c.op == 'D') {
      g.d.order = c.order;
      g.d.ld = required - 1;
    } else {
      desc->order = c.order;
      desc->ld = required - 1;
    }
    if (c.op == 'C' || c.op == 'D') {  // keep the other of C/D valid
      tessera::MatrixDesc* other = c.op == 'C' ? nullptr : &g.c;
      if (other != nullptr) {
        other->order = c.order;
        other->ld = required;
      } else {
        g.d.order = c.order;
        g.d.ld = required;
      }
    }
    auto s = tessera::validate_arguments(g);
    EXPECT_EQ(s.code, StatusCode::bad_leading_dimension) << c.op << int(c.order);
    EXPECT_NE(s.message.find(std::string(1, c.op) + ": ld"), std::string::npos) << s.message;
    // Exactly the extent is fine, and so is anything larger.
    if (c.op == 'D') g.d.ld = required; else desc->ld = required;
    EXPECT_TRUE(tessera::validate_arguments(g).ok()) << c.op << tessera::validate_arguments(g).message;
    if (c.op == 'D') g.d.ld = required + 7; else desc->ld = required + 7;
    EXPECT_TRUE(tessera::validate_arguments(g).ok()) << c.op;
  }
}

TEST(GemmArgs, EmptyKDoesNotCheckAOrB) {
  Arena arena;
  GemmArgs g = valid_args(arena);
  g.k = 0;
  g.a.ld = 0;  // A and B are not read when K == 0
  g.b.data = arena.at(3);
  EXPECT_TRUE(tessera::validate_arguments(g).ok());
  g.k = 1;  // now they are: ld 0 < row length 1
  EXPECT_EQ(code_of(g), StatusCode::bad_leading_dimension);
  g.a.ld = 1;
  EXPECT_EQ(code_of(g), StatusCode::misaligned_pointer);
}

TEST(GemmArgs, SupportedTypeCombinations) {
  using D = DataType;
  struct Row {
    D in, out, acc;
    bool ok;
  };
  for (Row r : {Row{D::f32, D::f32, D::f32, true}, Row{D::tf32, D::f32, D::f32, true},
                Row{D::f16, D::f16, D::f32, true}, Row{D::f16, D::f32, D::f32, true},
                Row{D::f16, D::f16, D::f16, true}, Row{D::bf16, D::bf16, D::f32, true},
                Row{D::bf16, D::f32, D::f32, true}, Row{D::f32, D::f16, D::f32, false},
                Row{D::f32, D::bf16, D::f32, false}, Row{D::tf32, D::tf32, D::f32, false},
                Row{D::f16, D::bf16, D::f32, false}, Row{D::bf16, D::f16, D::f32, false},
                Row{D::bf16, D::bf16, D::f16, false}, Row{D::f16, D::f32, D::f16, false},
                Row{D::f32, D::f32, D::f16, false}, Row{D::deduce, D::f32, D::f32, false},
                Row{D::f16, D::f16, D::bf16, false}}) {
    Arena arena;
    GemmArgs g = valid_args(arena, r.in);
    g.output = r.out;
    g.accumulate = r.acc;
    auto s = tessera::validate_arguments(g);
    EXPECT_EQ(s.ok(), r.ok) << to_string(r.in) << "->" << to_string(r.out) << " acc "
                            << to_string(r.acc) << ": " << s.message;
    if (!r.ok) {
      EXPECT_EQ(s.code, StatusCode::unsupported_types);
    }
  }
}

TEST(GemmArgs, OutputTypeDefaults) {
  GemmArgs g;
  for (auto [in, out] : {std::pair{DataType::f32, DataType::f32}, {DataType::tf32, DataType::f32},
                         {DataType::f16, DataType::f16}, {DataType::bf16, DataType::bf16}}) {
    g.input = in;
    EXPECT_EQ(tessera::resolved_output(g), out);
  }
  g.input = DataType::bf16;
  g.output = DataType::f32;
  EXPECT_EQ(tessera::resolved_output(g), DataType::f32);
}

TEST(GemmArgs, TypesAreCheckedEvenForEmptyProblems) {
  GemmArgs g;
  g.m = 0;
  g.input = DataType::bf16;
  g.accumulate = DataType::f16;
  EXPECT_EQ(code_of(g), StatusCode::unsupported_types);
}

TEST(GemmArgs, PointersMustBeElementAligned) {
  Arena arena;
  // Misaligned by whole elements is allowed (the generic kernel handles it).
  GemmArgs g = valid_args(arena, DataType::f16);
  g.a.data = arena.at(2);
  g.b.data = arena.at((1 << 18) + 6);
  g.d.data = arena.at((3 << 18) + 2);
  EXPECT_TRUE(tessera::validate_arguments(g).ok());
  // Not a multiple of the element size: rejected, operand named.
  for (char which : {'A', 'B', 'C', 'D'}) {
    GemmArgs h = valid_args(arena, DataType::f32);
    if (which == 'A') h.a.data = arena.at(2);
    if (which == 'B') h.b.data = arena.at((1 << 18) + 1);
    if (which == 'C') h.c.data = arena.at((2 << 18) + 3);
    if (which == 'D') h.d.data = arena.at((3 << 18) + 2);
    auto s = tessera::validate_arguments(h);
    EXPECT_EQ(s.code, StatusCode::misaligned_pointer) << which;
    EXPECT_EQ(s.message.find(std::string("tessera::gemm: ") + which), 0u) << s.message;
  }
}

TEST(GemmArgs, DOverlappingAOrBIsRejected) {
  Arena arena;
  GemmArgs g = valid_args(arena);
  // A occupies [0, 33*9*4) bytes; D placed to overlap its last element.
  std::int64_t const a_bytes = g.m * g.k * 4;
  g.d.data = arena.at(static_cast<std::size_t>(a_bytes - 4));
  EXPECT_EQ(code_of(g), StatusCode::aliasing);
  // One element later: disjoint.
  g.d.data = arena.at(static_cast<std::size_t>(a_bytes));
  EXPECT_TRUE(tessera::validate_arguments(g).ok()) << tessera::validate_arguments(g).message;
  // D exactly B.
  g = valid_args(arena);
  g.d.data = arena.at(1 << 18);  // where B is
  auto s = tessera::validate_arguments(g);
  EXPECT_EQ(s.code, StatusCode::aliasing);
  EXPECT_NE(s.message.find("D overlaps B"), std::string::npos) << s.message;
  // D ending just where A begins (D before A).
  g = valid_args(arena);
  g.a.data = arena.at(4096 + 1024);
  g.d.data = arena.at(4096 + 1024 - static_cast<std::size_t>(g.m * g.n * 4));
  EXPECT_TRUE(tessera::validate_arguments(g).ok());
  g.d.data = arena.at(4096 + 1024 - static_cast<std::size_t>(g.m * g.n * 4) + 4);
  EXPECT_EQ(code_of(g), StatusCode::aliasing);
}

TEST(GemmArgs, OverlapUsesTheBatchedExtent) {
  Arena arena;
  GemmArgs g = valid_args(arena);
  g.batch_count = 3;
  g.a.batch_stride = g.m * g.k;
  g.b.batch_stride = g.k * g.n;
  g.c.batch_stride = g.m * g.n;
  g.d.batch_stride = g.m * g.n;
  // D right after A's first batch but inside its third.
  g.d.data = arena.at(static_cast<std::size_t>(2 * g.m * g.k * 4));
  EXPECT_EQ(code_of(g), StatusCode::aliasing);
  g.d.data = arena.at(static_cast<std::size_t>(3 * g.m * g.k * 4));
  EXPECT_TRUE(tessera::validate_arguments(g).ok()) << tessera::validate_arguments(g).message;
}

TEST(GemmArgs, InPlaceCIsAllowedOnlyWhenIdentical) {
  Arena arena;
  GemmArgs g = valid_args(arena);
  g.c = g.d.view();
  EXPECT_TRUE(tessera::validate_arguments(g).ok());
  g.c.ld = g.d.ld + 1;  // same pointer, different shape: a race
  EXPECT_EQ(code_of(g), StatusCode::aliasing);
  g = valid_args(arena);
  g.c = g.d.view();
  g.c.order = MatrixOrder::col_major;
  g.c.ld = g.m;
  EXPECT_EQ(code_of(g), StatusCode::aliasing);
}

TEST(GemmArgs, BatchedDNeedsAStride) {
  Arena arena;
  GemmArgs g = valid_args(arena);
  g.batch_count = 2;
  g.c.batch_stride = 0;  // broadcasting A, B and C is fine
  g.d.batch_stride = 0;
  auto s = tessera::validate_arguments(g);
  EXPECT_EQ(s.code, StatusCode::invalid_size);
  EXPECT_NE(s.message.find("batch stride 0"), std::string::npos) << s.message;
  g.d.batch_stride = g.m * g.n;
  EXPECT_TRUE(tessera::validate_arguments(g).ok()) << tessera::validate_arguments(g).message;
}

TEST(GemmArgs, SpanElements) {
  tessera::MatrixDesc d{nullptr, MatrixOrder::row_major, 10, 100};
  EXPECT_EQ(tessera::span_elements(d, {3, 4}, 1), 2 * 10 + 4);
  EXPECT_EQ(tessera::span_elements(d, {3, 4}, 2), 100 + 2 * 10 + 4);
  d.order = MatrixOrder::col_major;
  EXPECT_EQ(tessera::span_elements(d, {3, 4}, 1), 3 * 10 + 3);
  EXPECT_EQ(tessera::span_elements(d, {0, 4}, 1), 0);
}

TEST(GemmArgs, SpanElementsOverflowIsMinusOne) {
  tessera::MatrixDesc d{nullptr, MatrixOrder::row_major, INT64_MAX / 2, 0};
  EXPECT_EQ(tessera::span_elements(d, {3, 4}, 1), -1);
  d.ld = 4;
  d.batch_stride = INT64_MAX / 2;
  EXPECT_EQ(tessera::span_elements(d, {3, 4}, 3), -1);
  EXPECT_EQ(tessera::span_elements(d, {3, 4}, 2), INT64_MAX / 2 + 2 * 4 + 4);
}

// An ld or batch stride whose span wraps int64 or the address space is
// refused before the aliasing rules read a wrapped range (a wrapped D range
// once looked empty, so D on top of A passed).
TEST(GemmArgs, UnaddressableSpanIsRefused) {
  Arena arena;
  GemmArgs g = valid_args(arena, DataType::f32, 2, 2, 2);
  g.a.ld = (std::int64_t(1) << 62) - 4;  // (m-1)*ld + k = 2^62 - 2 elements fit, times 4 bytes do not
  g.d.data = const_cast<void*>(g.a.data);
  auto s = tessera::validate_arguments(g);
  EXPECT_EQ(s.code, StatusCode::invalid_size) << s.message;
  EXPECT_NE(s.message.find("A: ld"), std::string::npos) << s.message;
  g = valid_args(arena, DataType::f32, 2, 2, 2);
  g.d.ld = std::int64_t(1) << 62;  // D's rows would wrap onto each other
  EXPECT_EQ(code_of(g), StatusCode::invalid_size);
  g = valid_args(arena, DataType::f32, 2, 2, 2);
  g.batch_count = 3;
  g.d.batch_stride = INT64_MAX / 2;
  EXPECT_EQ(code_of(g), StatusCode::invalid_size);
  g.d.batch_stride = 4;
  EXPECT_TRUE(tessera::validate_arguments(g).ok()) << tessera::validate_arguments(g).message;
}

// batches_overlap against the element sets themselves, over every small
// (order, rows, cols, ld, stride, batch count).
TEST(GemmArgs, BatchOverlapMatchesTheElementSets) {
  int checked = 0, overlapping = 0;
  for (MatrixOrder o : {MatrixOrder::row_major, MatrixOrder::col_major})
    for (std::int64_t rows = 1; rows <= 4; ++rows)
      for (std::int64_t cols = 1; cols <= 4; ++cols) {
        std::int64_t const inner = o == MatrixOrder::row_major ? cols : rows;
        std::int64_t const outer = o == MatrixOrder::row_major ? rows : cols;
        for (std::int64_t ld = inner; ld <= inner + 5; ++ld)
          for (std::int64_t stride = 0; stride <= 40; ++stride)
            for (std::int64_t batches = 1; batches <= 6; ++batches) {
              tessera::MatrixDesc const d{nullptr, o, ld, stride};
              std::vector<int> owner(size_t(batches * stride + outer * ld + 1), -1);
              bool shared = false;
              for (std::int64_t b = 0; b < batches; ++b)
                for (std::int64_t q = 0; q < outer; ++q)
                  for (std::int64_t r = 0; r < inner; ++r) {
                    int& w = owner[size_t(b * stride + q * ld + r)];
                    if (w >= 0 && w != int(b)) shared = true;
                    w = int(b);
                  }
              ASSERT_EQ(tessera::detail::batches_overlap(d, {rows, cols}, batches), shared)
                  << "order " << int(o) << " " << rows << "x" << cols << " ld " << ld << " stride " << stride
                  << " batches " << batches;
              ++checked;
              overlapping += shared;
            }
      }
  EXPECT_GT(overlapping, checked / 10);  // the corpus has both answers in bulk
  EXPECT_GT(checked - overlapping, checked / 10);
}

TEST(GemmArgs, BatchOverlapCostsNoLoopOverBatches) {
  // 2^31 - 1 batches of a 3x1 row-major matrix, one element apart, ld 2^40:
  // they never meet, and the answer comes from floor sums, not a loop.
  tessera::MatrixDesc const d{nullptr, MatrixOrder::row_major, std::int64_t(1) << 40, 1};
  EXPECT_FALSE(tessera::detail::batches_overlap(d, {3, 1}, INT32_MAX));
  tessera::MatrixDesc const e{nullptr, MatrixOrder::row_major, std::int64_t(1) << 20, 1};
  EXPECT_TRUE(tessera::detail::batches_overlap(e, {3, 1}, (std::int64_t(1) << 20) + 1));
  EXPECT_FALSE(tessera::detail::batches_overlap(e, {3, 1}, std::int64_t(1) << 20));
}

TEST(GemmArgs, OverlappingDBatchesAreAliasing) {
  Arena arena;
  GemmArgs g = valid_args(arena, DataType::f32, 4, 4, 4);
  g.batch_count = 2;
  g.d.batch_stride = 1;  // batch 1 starts one element into batch 0
  auto s = tessera::validate_arguments(g);
  EXPECT_EQ(s.code, StatusCode::aliasing);
  EXPECT_NE(s.message.find("share elements"), std::string::npos) << s.message;
  // Interleaved rows: ld 2n, stride n keeps two batches apart...
  g.d.ld = 8;
  g.d.batch_stride = 4;
  EXPECT_TRUE(tessera::validate_arguments(g).ok()) << tessera::validate_arguments(g).message;
  // ... but not three (batch 2's row 0 is batch 0's row 1).
  g.batch_count = 3;
  EXPECT_EQ(code_of(g), StatusCode::aliasing);
}

TEST(GemmArgs, InPlaceIgnoresWhatDoesNotMatter) {
  Arena arena;
  GemmArgs g = valid_args(arena);
  g.c = g.d.view();
  g.c.batch_stride = 0;
  g.d.batch_stride = 16;  // one batch: the stride is never used
  EXPECT_TRUE(tessera::validate_arguments(g).ok()) << tessera::validate_arguments(g).message;
  g.batch_count = 2;
  g.d.batch_stride = g.m * g.n;
  EXPECT_EQ(code_of(g), StatusCode::aliasing);  // now C's batch 1 is D's batch 0
  g = valid_args(arena, DataType::f32, 1, 17, 9);
  g.c = g.d.view();
  g.c.ld = g.n + 3;  // one stored row: ld is never used
  EXPECT_TRUE(tessera::validate_arguments(g).ok()) << tessera::validate_arguments(g).message;
  g.m = 2;
  EXPECT_EQ(code_of(g), StatusCode::aliasing);
}

TEST(GemmArgs, NoDevice) {
  EXPECT_TRUE(tessera::validate_device(80).ok());
  auto s = tessera::validate_device(0, "no driver");
  EXPECT_EQ(s.code, StatusCode::no_device);
  EXPECT_EQ(s.message, "tessera::gemm: no CUDA device: no driver");
}

TEST(GemmArgs, KernelArchitectureRange) {
  tessera::GemmKernelInfo hopper{"sm90_wgmma_test", 90, 90, ""};
  tessera::GemmKernelInfo ampere{"sm80_tc_test", 80, 0, ""};
  EXPECT_TRUE(tessera::validate_kernel_architecture(ampere, 80).ok());
  EXPECT_TRUE(tessera::validate_kernel_architecture(ampere, 90).ok());
  EXPECT_TRUE(tessera::validate_kernel_architecture(hopper, 90).ok());
  auto s = tessera::validate_kernel_architecture(hopper, 80);
  EXPECT_EQ(s.code, StatusCode::unsupported_architecture);
  EXPECT_NE(s.message.find("needs sm_90..sm_90, the device is sm_80"), std::string::npos) << s.message;
  EXPECT_EQ(tessera::validate_kernel_architecture(hopper, 100).code,
            StatusCode::unsupported_architecture);
  EXPECT_EQ(tessera::validate_kernel_architecture(ampere, 75).code,
            StatusCode::unsupported_architecture);
}

// validate_kernel_device: the architecture range first, then the build's
// device code (sm90_ws_gemm's body exists only in an sm_90a image).
const char* code_missing() { return "no sm_90a image"; }
const char* code_present() { return nullptr; }

TEST(GemmArgs, KernelDeviceCode) {
  tessera::GemmKernel k;
  k.info = {"sm90_wgmma_test", 90, 90, ""};
  EXPECT_TRUE(tessera::validate_kernel_device(k, 90).ok());  // no hook: the range decides
  k.missing_device_code = &code_present;
  EXPECT_TRUE(tessera::validate_kernel_device(k, 90).ok());
  k.missing_device_code = &code_missing;
  auto s = tessera::validate_kernel_device(k, 90);
  EXPECT_EQ(s.code, StatusCode::unsupported_architecture);
  EXPECT_EQ(s.message, "tessera::gemm: kernel sm90_wgmma_test cannot run on this sm_90 device: no sm_90a image");
  s = tessera::validate_kernel_device(k, 80);  // the range is checked first
  EXPECT_NE(s.message.find("needs sm_90..sm_90"), std::string::npos) << s.message;
}

TEST(GemmArgs, ValidationIsPureAndStable) {
  // Same arguments, same answer; the arena is never written.
  Arena arena;
  arena.words[5] = 0x1234;
  GemmArgs g = valid_args(arena);
  g.d.data = arena.at(0);  // where A is
  auto s1 = tessera::validate_arguments(g);
  auto s2 = tessera::validate_arguments(g);
  EXPECT_EQ(s1.code, s2.code);
  EXPECT_EQ(s1.message, s2.message);
  EXPECT_EQ(arena.words[5], 0x1234u);
}

}  // namespace
