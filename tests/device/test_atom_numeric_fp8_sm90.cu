// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// float_e4m3_t / float_e5m2_t (tessera/atom/numeric.hpp) against the
// hardware's own conversions: every one of the 256 codes decoded by
// cvt.rn.f16x2.{e4m3x2,e5m2x2} must equal the host decode (NaN for NaN),
// and floats encoded by cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 must give the
// host encoder's codes: fresh random values over the whole range, every
// midpoint between neighbouring codes and its two float neighbours,
// overflow, infinities, zeros and NaN. Skips unless the device is sm_90.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <tessera/atom/numeric.hpp>

#include "device_test.cuh"

namespace {

using tessera::test::DevBuf;
using tessera::test::upload;

// out[c] = the hardware's value of code c, as f16 bits (every fp8 value is an f16 value).
template <bool kE4M3>
__global__ void decode_all(std::uint16_t* out) {
  int const c = int(threadIdx.x);
  std::uint16_t const pair = std::uint16_t(c | (c << 8));
  std::uint32_t h2;
  if constexpr (kE4M3)
    asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(h2) : "h"(pair));
  else
    asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(h2) : "h"(pair));
  out[c] = std::uint16_t(h2 & 0xffffu);
}

template <bool kE4M3>
__global__ void encode_all(const float* in, std::uint8_t* out, int n) {
  int const i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  std::uint16_t pair;
  if constexpr (kE4M3)
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(pair) : "f"(0.f), "f"(in[i]));
  else
    asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(pair) : "f"(0.f), "f"(in[i]));
  out[i] = std::uint8_t(pair & 0xffu);  // the second source lands in the low byte
}

float half_bits_to_float(std::uint16_t b) {
  __half h;
  std::memcpy(&h, &b, 2);
  return __half2float(h);
}

template <class T, bool kE4M3>
void check_against_hardware() {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  DevBuf dec;
  TESSERA_TEST_CUDA(cudaMalloc(&dec.p, 256 * 2));
  decode_all<kE4M3><<<1, 256>>>(dec.as<std::uint16_t>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  std::vector<std::uint16_t> hw(256);
  TESSERA_TEST_CUDA(cudaMemcpy(hw.data(), dec.p, 512, cudaMemcpyDeviceToHost));
  for (int c = 0; c < 256; ++c) {
    float const want = float(T::bitcast(std::uint8_t(c)));
    float const got = half_bits_to_float(hw[c]);
    if (std::isnan(want)) EXPECT_TRUE(std::isnan(got)) << "code " << c;
    else EXPECT_EQ(got, want) << "code " << c;
  }

  std::vector<float> probes;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> mag(-20.f, 17.f);
  for (int i = 0; i < 20000; ++i) probes.push_back((i % 2 ? -1.f : 1.f) * std::exp2(mag(rng)));
  for (int c = 0; c < 255; ++c) {
    float const lo = float(T::bitcast(std::uint8_t(c))), hi = float(T::bitcast(std::uint8_t(c + 1)));
    if (!std::isfinite(lo) || !std::isfinite(hi) || (c & 0x80) != ((c + 1) & 0x80)) continue;
    float const mid = 0.5f * (lo + hi);
    for (float v : {mid, std::nextafter(mid, 0.f), std::nextafter(mid, 1e30f)}) {
      probes.push_back(v);
      probes.push_back(-v);
    }
  }
  for (float v : {0.f, -0.f, 1e30f, -1e30f, INFINITY, -INFINITY, 1e-30f}) probes.push_back(v);
  int const n = int(probes.size());
  DevBuf din, dout;
  ASSERT_NO_FATAL_FAILURE(upload(din, probes));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, n));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xAA, n));  // poison
  encode_all<kE4M3><<<(n + 255) / 256, 256>>>(din.as<float>(), dout.as<std::uint8_t>(), n);
  TESSERA_TEST_CUDA(cudaGetLastError());
  std::vector<std::uint8_t> got(n);
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dout.p, n, cudaMemcpyDeviceToHost));
  int mismatches = 0;
  for (int i = 0; i < n; ++i)
    if (got[i] != T(probes[i]).storage && ++mismatches <= 10)
      ADD_FAILURE() << probes[i] << ": hardware 0x" << std::hex << int(got[i]) << ", host 0x" << int(T(probes[i]).storage);
  EXPECT_EQ(mismatches, 0) << "of " << n << " probes";
}

TEST(AtomNumericFp8, E4M3MatchesTheHardware) { check_against_hardware<tessera::float_e4m3_t, true>(); }
TEST(AtomNumericFp8, E5M2MatchesTheHardware) { check_against_hardware<tessera::float_e5m2_t, false>(); }

}  // namespace
