// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The element types the MMA and copy atoms name: half_t, bfloat16_t,
// tfloat32_t, float_e4m3_t, float_e5m2_t. Host-visible (a plain C++ compiler sees 16/32-bit storage with
// software conversions); under nvcc the device pass converts with the same
// round-to-nearest-even rule, so host references and device data agree bit
// for bit.
//
// NOTE: these live under atom/ because nothing else in the tree defined them
// when the atoms were written; if tensor/ grows its own numeric types, this
// header should become an include of those.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include <tessera/config.hpp>

namespace tessera {

namespace detail {

TESSERA_HOST_DEVICE inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
TESSERA_HOST_DEVICE inline float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// IEEE binary32 -> binary16, round to nearest even, with subnormals, inf, nan.
TESSERA_HOST_DEVICE inline std::uint16_t float_to_half_bits(float f) {
  const std::uint32_t x = float_bits(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) {  // inf or nan
    return static_cast<std::uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
  }
  if (absx >= 0x477ff000u) {  // rounds to >= 65520: overflow to inf
    return static_cast<std::uint16_t>(sign | 0x7c00u);
  }
  if (absx < 0x38800000u) {  // below the smallest normal half (2^-14): subnormal or zero
    if (absx < 0x33000000u) return static_cast<std::uint16_t>(sign);  // < 2^-25 rounds to 0
    const std::uint32_t exp = absx >> 23;
    const std::uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - exp;  // 14 + (127 - exp) - 1 ... into 10-bit field
    std::uint32_t h = mant >> (shift);
    const std::uint32_t rem = mant & ((1u << shift) - 1u);
    const std::uint32_t half_ulp = 1u << (shift - 1u);
    if (rem > half_ulp || (rem == half_ulp && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = ((absx - 0x38000000u) >> 13);  // rebias 127 -> 15
  const std::uint32_t rem = absx & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

TESSERA_HOST_DEVICE inline float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = (static_cast<std::uint32_t>(h) & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  if (exp == 0x1fu) return bits_float(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    if (mant == 0) return bits_float(sign);
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while ((mant & 0x400u) == 0);
    return bits_float(sign | ((112u - static_cast<std::uint32_t>(e)) << 23) | ((mant & 0x3ffu) << 13));
  }
  return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
}

TESSERA_HOST_DEVICE inline std::uint16_t float_to_bf16_bits(float f) {
  const std::uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  const std::uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>((x + rounding) >> 16);
}

}  // namespace detail

// IEEE binary16.
struct half_t {
  std::uint16_t storage = 0;
  half_t() = default;
  // NOTE: on the device one cvt instruction each way (the same RNE result
  // as the bit arithmetic, which costs ~20 instructions per value); the
  // host keeps the portable form.
  TESSERA_HOST_DEVICE explicit half_t(float f) {
#if defined(__CUDA_ARCH__)
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(storage) : "f"(f));
#else
    storage = detail::float_to_half_bits(f);
#endif
  }
  TESSERA_HOST_DEVICE explicit half_t(double d) : half_t(static_cast<float>(d)) {}
  TESSERA_HOST_DEVICE explicit half_t(int i) : half_t(static_cast<float>(i)) {}
  TESSERA_HOST_DEVICE static half_t bitcast(std::uint16_t bits) {
    half_t h;
    h.storage = bits;
    return h;
  }
  TESSERA_HOST_DEVICE operator float() const {
#if defined(__CUDA_ARCH__)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(storage));
    return f;
#else
    return detail::half_bits_to_float(storage);
#endif
  }
};

// bfloat16: the upper 16 bits of a binary32, rounded to nearest even.
struct bfloat16_t {
  std::uint16_t storage = 0;
  bfloat16_t() = default;
  TESSERA_HOST_DEVICE explicit bfloat16_t(float f) : storage(detail::float_to_bf16_bits(f)) {}
  TESSERA_HOST_DEVICE explicit bfloat16_t(double d) : bfloat16_t(static_cast<float>(d)) {}
  TESSERA_HOST_DEVICE explicit bfloat16_t(int i) : bfloat16_t(static_cast<float>(i)) {}
  TESSERA_HOST_DEVICE operator float() const { return detail::bits_float(static_cast<std::uint32_t>(storage) << 16); }
};

// tf32: binary32 storage whose low 13 mantissa bits the tensor cores ignore.
// Construction rounds to the nearest tf32 value so host references see the
// operand the hardware multiplies.
struct tfloat32_t {
  std::uint32_t storage = 0;
  tfloat32_t() = default;
  TESSERA_HOST_DEVICE explicit tfloat32_t(float f) {
    std::uint32_t x = detail::float_bits(f);
    if ((x & 0x7fffffffu) < 0x7f800000u) x = (x + 0xfffu + ((x >> 13) & 1u)) & 0xffffe000u;
    storage = x;
  }
  TESSERA_HOST_DEVICE explicit tfloat32_t(double d) : tfloat32_t(static_cast<float>(d)) {}
  TESSERA_HOST_DEVICE operator float() const { return detail::bits_float(storage); }
};

namespace detail {

// 8-bit floats with kE exponent and kM mantissa bits, bias kBias, the
// largest finite code kMaxCode, and whether the all-ones exponent encodes
// infinity (e5m2) or only the top code NaN (e4m3). Conversion from float
// rounds to nearest even and saturates to the largest finite magnitude
// (PTX's cvt.rn.satfinite: infinities too); NaN stays NaN (code 0x7F).
template <int kE, int kM, int kBias, std::uint8_t kMaxCode, bool kHasInf>
struct fp8_format {
  TESSERA_HOST_DEVICE static std::uint8_t encode(float f) {
    std::uint32_t const x = float_bits(f);
    std::uint8_t const sign = std::uint8_t((x >> 24) & 0x80u);
    std::uint32_t const a = x & 0x7fffffffu;
    if (a > 0x7f800000u) return std::uint8_t(sign | 0x7fu);  // NaN
    if (a >= 0x7f800000u) return std::uint8_t(sign | kMaxCode);  // +-inf saturates
    if (a < 0x00800000u) return sign;                        // below float's normals: rounds to 0
    int const exp = int(a >> 23) - 127;
    std::uint32_t const mant = (a & 0x7fffffu) | 0x800000u;  // 24-bit significand
    int const te = exp > 1 - kBias ? exp : 1 - kBias;        // the target's exponent (subnormal floor)
    int const shift = 23 - kM + (te - exp);                  // significand bits dropped
    if (shift > 25) return sign;
    std::uint32_t r = mant >> shift;
    std::uint32_t const rem = mant & ((1u << shift) - 1u);
    std::uint32_t const half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u))) ++r;
    // r counts units of 2^(te - kM); the code is continuous across the
    // subnormal/normal boundary and a carry into the next binade.
    std::uint32_t code = (std::uint32_t(te + kBias - 1) << kM) + r;
    if (code > kMaxCode) code = kMaxCode;
    return std::uint8_t(sign | code);
  }
  TESSERA_HOST_DEVICE static float decode(std::uint8_t c) {
    std::uint32_t const mag = c & 0x7fu;
    int const ef = int(mag >> kM);
    std::uint32_t const mant = mag & ((1u << kM) - 1u);
    float v;
    if (kHasInf && ef == (1 << kE) - 1) {
      v = mant == 0 ? bits_float(0x7f800000u) : bits_float(0x7fc00000u);
    } else if (!kHasInf && mag == 0x7fu) {
      v = bits_float(0x7fc00000u);
    } else {
      // (2^kM + mant) * 2^(ef - kBias - kM) for normals, mant * 2^(1 - kBias - kM) below.
      float const sig = float(ef == 0 ? mant : (1u << kM) + mant);
      int const e2 = (ef == 0 ? 1 : ef) - kBias - kM;
      v = sig * bits_float(std::uint32_t(127 + e2) << 23);
    }
    return (c & 0x80u) ? -v : v;
  }
};

using e4m3_format = fp8_format<4, 3, 7, 0x7e, false>;   // max 448, no infinities
using e5m2_format = fp8_format<5, 2, 15, 0x7b, true>;   // max 57344

}  // namespace detail

// OCP 8-bit floats, what wgmma's .e4m3 / .e5m2 operands read: one storage
// byte in the given detail::fp8_format.
template <class Format>
struct float8_t {
  std::uint8_t storage = 0;
  float8_t() = default;
  TESSERA_HOST_DEVICE explicit float8_t(float f) : storage(Format::encode(f)) {}
  TESSERA_HOST_DEVICE explicit float8_t(double d) : float8_t(static_cast<float>(d)) {}
  TESSERA_HOST_DEVICE static float8_t bitcast(std::uint8_t bits) {
    float8_t v;
    v.storage = bits;
    return v;
  }
  TESSERA_HOST_DEVICE operator float() const { return Format::decode(storage); }
};

using float_e4m3_t = float8_t<detail::e4m3_format>;
using float_e5m2_t = float8_t<detail::e5m2_format>;

// The narrow floating-point element types above.
template <class T>
struct is_narrow_float : std::false_type {};
template <> struct is_narrow_float<half_t> : std::true_type {};
template <> struct is_narrow_float<bfloat16_t> : std::true_type {};
template <> struct is_narrow_float<tfloat32_t> : std::true_type {};
template <class Format> struct is_narrow_float<float8_t<Format>> : std::true_type {};

// print(v) as printf's %f, as for float; pretty_print(v) in CuTe's table
// widths (tessera/core/print.hpp): tf32 %10.2e as float, the 16- and 8-bit
// floats %8.2f. (Same parameter form as the generic overloads there, so the
// constraint decides.)
template <class T>
  requires is_narrow_float<T>::value
TESSERA_HOST_DEVICE void print(T const& v) {
  printf("%f", static_cast<double>(float(v)));
}
template <class T>
  requires is_narrow_float<T>::value
TESSERA_HOST_DEVICE void pretty_print(T const& v) {
  if constexpr (std::is_same_v<T, tfloat32_t>) printf("%10.2e", static_cast<double>(float(v)));
  else printf("%8.2f", static_cast<double>(float(v)));
}

// 128 bits moved as one unit (vectorized copies, cp.async of 16 bytes).
struct alignas(16) uint128_t {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
};

static_assert(sizeof(uint128_t) == 16 && sizeof(half_t) == 2 && sizeof(bfloat16_t) == 2 && sizeof(tfloat32_t) == 4 &&
                  sizeof(float_e4m3_t) == 1 && sizeof(float_e5m2_t) == 1,
              "numeric: element types must have their storage size");

}  // namespace tessera
