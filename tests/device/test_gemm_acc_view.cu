// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The laws of the packed f16 accumulator helpers (f16_accumulator.cuh) and of
// the accumulator views the Hopper kernel's epilogues read through
// (acc_view.cuh), checked on the host (no GPU needed, so they also run in
// CI) over generated corpora: every 32-bit pattern class of packed f16 pairs
// and random f32 values, the seed printed on failure. The kernels run the
// same functions on the device (HopperGemm.F16Accumulation*).
// No kernels here: the device passes (sm_80, sm_90a) compile nothing but
// this guard, and the host pass does all the work (tests/CMakeLists.txt,
// "host-only .cu tests").
#if !defined(__CUDA_ARCH__)

#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include <tessera/gemm/acc_view.cuh>

namespace {

using tessera::kernels::F16AccView;
using tessera::kernels::F32AccView;
using tessera::kernels::narrow_f16_pair;
using tessera::kernels::widen_f16_block;
using tessera::kernels::widen_f16_pair;

// The f32 value of f16 bit pattern `bits`, decoded from the IEEE fields (an
// independent reference: no CUDA conversion involved).
float f16_bits_value(uint16_t bits) {
  int const sign = bits >> 15, exp = (bits >> 10) & 0x1f, frac = bits & 0x3ff;
  float v;
  if (exp == 0) v = std::ldexp(float(frac), -24);  // subnormal (or zero)
  else if (exp == 31) v = frac ? NAN : INFINITY;
  else v = std::ldexp(float(1024 + frac), exp - 25);
  return sign ? -v : v;
}

// a and b are the same value, or both NaN.
bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

uint32_t seed() {
  static uint32_t const s = std::random_device{}();
  return s;
}

// Law: widen_f16_pair(r) is (value of the low half, value of the high half),
// for every pattern of each half (all 65536 in turn, paired with a random
// other half).
TEST(F16Accumulator, WidenIsLowHalfThenHighHalf) {
  SCOPED_TRACE(::testing::Message() << "seed " << seed());
  std::mt19937 rng(seed());
  for (uint32_t h = 0; h < 65536; ++h) {
    uint32_t const other = rng() & 0xffffu;
    float2 const lo = widen_f16_pair(h | (other << 16));
    float2 const hi = widen_f16_pair(other | (h << 16));
    ASSERT_TRUE(same(lo.x, f16_bits_value(uint16_t(h))) && same(lo.y, f16_bits_value(uint16_t(other))))
        << "low half 0x" << std::hex << h;
    ASSERT_TRUE(same(hi.y, f16_bits_value(uint16_t(h))) && same(hi.x, f16_bits_value(uint16_t(other))))
        << "high half 0x" << std::hex << h;
  }
  // widen_f16_block: register i's two values at 2i and 2i + 1.
  uint32_t block[64];
  float v[128];
  for (uint32_t& r : block) r = rng();
  widen_f16_block(block, v);
  for (int i = 0; i < 64; ++i) {
    float2 const f = widen_f16_pair(block[i]);
    ASSERT_TRUE(same(v[2 * i], f.x) && same(v[2 * i + 1], f.y)) << "register " << i;
  }
}

// Laws: narrow_f16_pair(x, y) puts x's nearest f16 in the low half and y's
// in the high half; widen_f16_pair(narrow_f16_pair(x, y)) == (x, y) when both
// are f16 values.
TEST(F16Accumulator, NarrowRoundsEachValueAndInvertsWiden) {
  SCOPED_TRACE(::testing::Message() << "seed " << seed());
  std::mt19937 rng(seed());
  std::uniform_real_distribution<float> u(-70000.0f, 70000.0f);
  for (int i = 0; i < 100000; ++i) {
    float const x = i % 2 ? u(rng) : u(rng) * 1e-4f, y = u(rng);
    uint32_t const r = narrow_f16_pair(x, y);
    uint16_t const lo = uint16_t(r & 0xffffu), hi = uint16_t(r >> 16);
    __half const hx = __float2half_rn(x), hy = __float2half_rn(y);
    uint16_t bx, by;
    std::memcpy(&bx, &hx, 2);
    std::memcpy(&by, &hy, 2);
    ASSERT_EQ(lo, bx) << "x " << x;
    ASSERT_EQ(hi, by) << "y " << y;
    // Round to nearest: no f16 value lies strictly closer to x than the result.
    float const vx = f16_bits_value(lo);
    if (std::isfinite(vx)) {
      float const up = f16_bits_value(uint16_t(lo + 1)), down = f16_bits_value(uint16_t(lo - 1));
      if (std::isfinite(up) && (lo & 0x7fff) != 0x7bff) ASSERT_LE(std::fabs(vx - x), std::fabs(up - x) * 1.0000001f);
      if (std::isfinite(down) && (lo & 0x7fff) != 0) ASSERT_LE(std::fabs(vx - x), std::fabs(down - x) * 1.0000001f);
    }
  }
  for (uint32_t h = 0; h < 65536; h += 7) {
    float const a = f16_bits_value(uint16_t(h)), b = f16_bits_value(uint16_t(65535 - h));
    if (std::isnan(a) || std::isnan(b)) continue;
    float2 const back = widen_f16_pair(narrow_f16_pair(a, b));
    ASSERT_TRUE(back.x == a && back.y == b) << "pattern 0x" << std::hex << h;
    ASSERT_EQ(std::signbit(back.x), std::signbit(a));  // -0 stays -0
  }
}

// Laws of both views over a 128-value block (a 64x256 wgmma accumulator):
// view[i] is fragment value i (F16AccView: value i % 2 of register i / 2);
// after set4(i, v), view[4i + j] is v's component j (exact in an
// F32AccView, its nearest f16 in an F16AccView) and no other value moved.
TEST(AccView, IndexesFragmentValuesAndSet4WritesFourOfThem) {
  SCOPED_TRACE(::testing::Message() << "seed " << seed());
  std::mt19937 rng(seed());
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  constexpr int kValues = 128;
  float f32[kValues];
  uint32_t f16[kValues / 2];
  for (int trial = 0; trial < 200; ++trial) {
    for (float& v : f32) v = u(rng);
    for (int r = 0; r < kValues / 2; ++r) f16[r] = narrow_f16_pair(u(rng), u(rng));
    F32AccView<kValues> const a32{f32};
    F16AccView<kValues> const a16{f16};
    for (int i = 0; i < kValues; ++i) {
      ASSERT_EQ(a32[i], f32[i]);
      uint16_t const half = uint16_t(i % 2 == 0 ? f16[i / 2] & 0xffffu : f16[i / 2] >> 16);
      ASSERT_EQ(a16[i], f16_bits_value(half)) << "value " << i;
    }
    int const q = int(rng() % (kValues / 4));
    float4 const v = make_float4(u(rng), u(rng), u(rng), u(rng));
    float before32[kValues], before16[kValues];
    for (int i = 0; i < kValues; ++i) {
      before32[i] = a32[i];
      before16[i] = a16[i];
    }
    a32.set4(q, v);
    a16.set4(q, v);
    float const want[4] = {v.x, v.y, v.z, v.w};
    for (int i = 0; i < kValues; ++i) {
      if (i / 4 == q) {
        ASSERT_EQ(a32[i], want[i % 4]);
        ASSERT_EQ(a16[i], __half2float(__float2half_rn(want[i % 4]))) << "value " << i;
      } else {
        ASSERT_EQ(a32[i], before32[i]) << "value " << i << " moved by set4(" << q << ")";
        ASSERT_EQ(a16[i], before16[i]) << "value " << i << " moved by set4(" << q << ")";
      }
    }
  }
}

}  // namespace

#endif  // !defined(__CUDA_ARCH__)
