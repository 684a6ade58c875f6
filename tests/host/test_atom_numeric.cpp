// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The atoms' element types: every binary16 value survives half -> float ->
// half; float -> half rounds to nearest even (checked against the two
// neighbouring halves of each probe); bf16 and tf32 round the same way.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include <tessera/atom/numeric.hpp>

namespace {

using tessera::bfloat16_t;
using tessera::half_t;
using tessera::tfloat32_t;

TEST(AtomNumeric, HalfRoundTripsEveryValue) {
  for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
    half_t const h = half_t::bitcast(std::uint16_t(bits));
    float const f = float(h);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(float(half_t(f)))) << std::hex << bits;
      continue;
    }
    EXPECT_EQ(half_t(f).storage, std::uint16_t(bits)) << std::hex << bits << " -> " << f;
  }
}

TEST(AtomNumeric, HalfKnownValues) {
  EXPECT_EQ(half_t(1.0f).storage, 0x3c00);
  EXPECT_EQ(half_t(-2.0f).storage, 0xc000);
  EXPECT_EQ(half_t(65504.0f).storage, 0x7bff);
  EXPECT_EQ(half_t(65520.0f).storage, 0x7c00);           // rounds up to inf
  EXPECT_EQ(half_t(5.9604645e-8f).storage, 0x0001);      // smallest subnormal
  EXPECT_EQ(half_t(2.9802322e-8f).storage, 0x0000);      // half of it: ties to even (0)
  EXPECT_EQ(half_t(1.0f + 1.0f / 2048).storage, 0x3c00);  // tie between 1 and 1+2^-10: even
  EXPECT_EQ(half_t(1.0f + 3.0f / 2048).storage, 0x3c02);  // tie: even is up
}

// Nearest-even against brute force over the two candidate halves.
TEST(AtomNumeric, HalfRoundsToNearestEven) {
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> dist(-70000.f, 70000.f);
  std::uniform_real_distribution<float> small(-1e-4f, 1e-4f);
  for (int i = 0; i < 200000; ++i) {
    float const f = (i % 2) ? dist(gen) : small(gen);
    half_t const h(f);
    float const got = float(h);
    if (std::isinf(got)) {
      EXPECT_GE(std::fabs(f), 65520.f);
      continue;
    }
    // Neighbours of the result must not be closer.
    half_t const up = half_t::bitcast(std::uint16_t(h.storage + 1));
    half_t const down = half_t::bitcast(std::uint16_t(h.storage - 1));
    double const e = std::fabs(double(got) - f);
    if ((h.storage & 0x7fff) != 0x7bff && (h.storage & 0x7fff) != 0) {
      EXPECT_LE(e, std::fabs(double(float(up)) - f)) << f;
      EXPECT_LE(e, std::fabs(double(float(down)) - f)) << f;
    }
  }
}

TEST(AtomNumeric, Bf16AndTf32) {
  EXPECT_EQ(bfloat16_t(1.0f).storage, 0x3f80);
  EXPECT_EQ(float(bfloat16_t(3.0f)), 3.0f);
  EXPECT_EQ(float(bfloat16_t(1.0f + 1.0f / 256)), 1.0f);          // tie -> even
  EXPECT_EQ(float(bfloat16_t(1.0f + 3.0f / 256)), 1.0f + 4.0f / 256);
  EXPECT_EQ(float(tfloat32_t(1.0f + 1.0f / 2048)), 1.0f);         // tie -> even (10-bit mantissa)
  EXPECT_EQ(float(tfloat32_t(1.0f + 3.0f / 2048)), 1.0f + 4.0f / 2048);
  std::uint32_t bits;
  float const t = float(tfloat32_t(3.14159265f));
  std::memcpy(&bits, &t, 4);
  EXPECT_EQ(bits & 0x1fffu, 0u);
}

}  // namespace
