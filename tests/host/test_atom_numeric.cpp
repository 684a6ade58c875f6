// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The atoms' element types: every binary16 value survives half -> float ->
// half; float -> half rounds to nearest even (checked against the two
// neighbouring halves of each probe); bf16 and tf32 round the same way;
// the 8-bit floats: every finite code survives decode -> encode, midpoints
// between neighbours round to the even code, the rest to the nearer one,
// overflow and infinities saturate, NaN stays NaN.

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

// Fp8: the laws above over all 256 codes, and fixed answers.
template <class T>
void check_fp8(std::uint8_t max_code, float max_value, bool has_inf) {
  auto code = [](float f) { return T(f).storage; };
  for (int c = 0; c < 256; ++c) {
    float const v = float(T::bitcast(std::uint8_t(c)));
    if (std::isnan(v)) {
      EXPECT_EQ(code(v) & 0x7f, 0x7f) << c;
      continue;
    }
    if (std::isinf(v)) {
      EXPECT_EQ(code(v), std::uint8_t((c & 0x80) | max_code)) << "infinity saturates";
      continue;
    }
    EXPECT_EQ(code(v), std::uint8_t(c)) << "round trip of code " << c;
  }
  for (int c = 0; c < max_code; ++c) {  // positive neighbours c, c + 1
    float const lo = float(T::bitcast(std::uint8_t(c))), hi = float(T::bitcast(std::uint8_t(c + 1)));
    float const mid = 0.5f * (lo + hi);  // exact: both are short binary fractions
    EXPECT_EQ(code(mid), std::uint8_t((c % 2 == 0) ? c : c + 1)) << "tie between " << lo << " and " << hi;
    EXPECT_EQ(code(std::nextafter(mid, 0.f)), std::uint8_t(c)) << lo;
    EXPECT_EQ(code(std::nextafter(mid, 1e30f)), std::uint8_t(c + 1)) << hi;
    EXPECT_EQ(code(-mid), std::uint8_t(0x80 | ((c % 2 == 0) ? c : c + 1)));
  }
  EXPECT_EQ(float(T::bitcast(max_code)), max_value);
  EXPECT_EQ(code(max_value * 1.5f), max_code) << "overflow saturates";
  EXPECT_EQ(code(-1e30f), std::uint8_t(0x80 | max_code));
  EXPECT_EQ(code(1e-30f), 0);
  EXPECT_TRUE(std::isnan(float(T(std::nanf("")))));
  EXPECT_EQ(has_inf, std::isinf(float(T::bitcast(std::uint8_t(max_code + 1)))));
}

TEST(AtomNumeric, Fp8E4M3) {
  check_fp8<tessera::float_e4m3_t>(0x7e, 448.f, false);
  EXPECT_EQ(tessera::float_e4m3_t(1.0f).storage, 0x38);
  EXPECT_EQ(tessera::float_e4m3_t(-2.0f).storage, 0xc0);
  EXPECT_EQ(tessera::float_e4m3_t(0.001953125f).storage, 0x01);  // 2^-9, the smallest subnormal
  EXPECT_EQ(float(tessera::float_e4m3_t::bitcast(0x08)), 0.015625f);  // 2^-6, the smallest normal
}

TEST(AtomNumeric, Fp8E5M2) {
  check_fp8<tessera::float_e5m2_t>(0x7b, 57344.f, true);
  EXPECT_EQ(tessera::float_e5m2_t(1.0f).storage, 0x3c);
  EXPECT_EQ(tessera::float_e5m2_t(1.5f).storage, 0x3e);
  EXPECT_EQ(tessera::float_e5m2_t(1.52587890625e-05f).storage, 0x01);  // 2^-16
}

}  // namespace
