// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.

// Every mma.sync form in tessera/arch/sm80/mma.cuh against an fp64 host
// reference (the integer forms: an exact int64 one). One warp loads A (M x K,
// row-major), B (K x N) and C (M x N) from global memory into registers
// following the PTX ISA fragment maps below, issues one instruction, and
// writes D back through the accumulator map. A wrong map or a wrong wrapper
// (operand order, register packing, signedness) gives an O(1) relative error
// (integer forms: a mismatch); correct code gives rounding-level error (none).

#include <gtest/gtest.h>

#include "device_test.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <tessera/arch/sm80/mma.cuh>

namespace {

using namespace tessera::arch;


// ---------------------------------------------------------------------------
// Fragment maps, from the PTX ISA "Matrix Fragments for mma.mMnNkK" tables.
// g = lane / 4 (groupID), t = lane % 4 (threadID_in_group), i = the element
// index within this thread's fragment (for 16-bit operands register i/2, low
// half for even i; for 8-bit ones register i/4, byte i%4). Each returns
// (row, col) of the element in A (M x K), B (K x N) or C/D (M x N).
// ---------------------------------------------------------------------------
struct RowCol {
  int row;
  int col;
};

// A, f16/bf16, m16n8k8 (i < 4) and m16n8k16 (i < 8):
//   row = g + 8 * bit1(i), col = 2t + bit0(i) + 8 * bit2(i)
__host__ __device__ constexpr RowCol frag_a_16bit(int lane, int i) {
  return {lane / 4 + 8 * ((i >> 1) & 1), 2 * (lane % 4) + (i & 1) + 8 * (i >> 2)};
}
// B, f16/bf16, k8 (i < 2) and k16 (i < 4): row (k) = 2t + bit0(i) + 8 * bit1(i), col (n) = g
__host__ __device__ constexpr RowCol frag_b_16bit(int lane, int i) {
  return {2 * (lane % 4) + (i & 1) + 8 * (i >> 1), lane / 4};
}
// A, tf32, m16n8k4 (i < 2) and m16n8k8 (i < 4): row = g + 8 * bit0(i), col = t + 4 * bit1(i)
__host__ __device__ constexpr RowCol frag_a_tf32(int lane, int i) {
  return {lane / 4 + 8 * (i & 1), lane % 4 + 4 * (i >> 1)};
}
// B, tf32, k4 (i < 1) and k8 (i < 2): row (k) = t + 4i, col (n) = g
__host__ __device__ constexpr RowCol frag_b_tf32(int lane, int i) { return {lane % 4 + 4 * i, lane / 4}; }
// C/D of every m16n8 shape (i < 4): row = g + 8 * bit1(i), col = 2t + bit0(i)
__host__ __device__ constexpr RowCol frag_c_m16n8(int lane, int i) {
  return {lane / 4 + 8 * (i >> 1), 2 * (lane % 4) + (i & 1)};
}
// m8n8k4 f64: A (i < 1) row = g, col = t; B row (k) = t, col (n) = g;
// C/D (i < 2) row = g, col = 2t + i
__host__ __device__ constexpr RowCol frag_a_f64(int lane, int) { return {lane / 4, lane % 4}; }
__host__ __device__ constexpr RowCol frag_b_f64(int lane, int) { return {lane % 4, lane / 4}; }
__host__ __device__ constexpr RowCol frag_c_m8n8(int lane, int i) { return {lane / 4, 2 * (lane % 4) + i}; }
// A, s8/u8: m8n8k16 (i < 4) row = g, col = 4t + i; m16n8k16 (i < 8) row = g
// for i < 4, g + 8 otherwise, col = 4t + (i & 3); m16n8k32 (i < 16) row = g
// for i < 4 or 8 <= i < 12, g + 8 otherwise, col = 4t + (i & 3) + 16 for
// i >= 8. All three: row = g + 8 * bit2(i), col = 4t + (i & 3) + 16 * bit3(i).
__host__ __device__ constexpr RowCol frag_a_8bit(int lane, int i) {
  return {lane / 4 + 8 * ((i >> 2) & 1), 4 * (lane % 4) + (i & 3) + 16 * (i >> 3)};
}
// B, s8/u8: k16 (i < 4) row (k) = 4t + i; k32 (i < 8) row = 4t + (i & 3) + 16
// for i >= 4; col (n) = g.
__host__ __device__ constexpr RowCol frag_b_8bit(int lane, int i) {
  return {4 * (lane % 4) + (i & 3) + 16 * (i >> 2), lane / 4};
}

// The maps must be bijections from (lane, i) onto the matrix; check on host.
template <class Map>
bool is_bijection(Map map, int rows, int cols, int elems_per_thread) {
  std::vector<int> hits(rows * cols, 0);
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < elems_per_thread; ++i) {
      const RowCol rc = map(lane, i);
      if (rc.row < 0 || rc.row >= rows || rc.col < 0 || rc.col >= cols) return false;
      ++hits[rc.row * cols + rc.col];
    }
  }
  for (int h : hits) {
    if (h != 1) return false;
  }
  return true;
}

template <class Kind>
__host__ __device__ constexpr RowCol frag_a(int lane, int i) {
  if constexpr (std::is_same_v<Kind, TF32>) {
    return frag_a_tf32(lane, i);
  } else if constexpr (detail::is_int8_kind_v<Kind>) {
    return frag_a_8bit(lane, i);
  } else if constexpr (std::is_same_v<Kind, F64>) {
    return frag_a_f64(lane, i);
  } else {
    return frag_a_16bit(lane, i);
  }
}
template <class Kind>
__host__ __device__ constexpr RowCol frag_b(int lane, int i) {
  if constexpr (std::is_same_v<Kind, TF32>) {
    return frag_b_tf32(lane, i);
  } else if constexpr (detail::is_int8_kind_v<Kind>) {
    return frag_b_8bit(lane, i);
  } else if constexpr (std::is_same_v<Kind, F64>) {
    return frag_b_f64(lane, i);
  } else {
    return frag_b_16bit(lane, i);
  }
}
// The accumulator map depends on the shape only: 8 or 16 rows.
template <int kM>
__host__ __device__ constexpr RowCol frag_c(int lane, int i) {
  if constexpr (kM == 8) {
    return frag_c_m8n8(lane, i);
  } else {
    return frag_c_m16n8(lane, i);
  }
}

// Host value type: double for F64 operands, the integer type itself for the
// integer kinds, float for the rest (values are pre-rounded on the host to
// what the operand kind can hold exactly).
template <class Kind>
using host_t = std::conditional_t<
    std::is_same_v<Kind, F64>, double,
    std::conditional_t<std::is_same_v<Kind, S8>, int8_t,
                       std::conditional_t<std::is_same_v<Kind, U8>, uint8_t,
                                          std::conditional_t<std::is_same_v<Kind, S32>, int32_t, float>>>>;

// Packs or unpacks one element of an operand register.
template <class Kind>
__device__ void put_elem(typename detail::mma_operand<Kind>::reg* regs, int i, host_t<Kind> v) {
  if constexpr (std::is_same_v<Kind, F16> || std::is_same_v<Kind, BF16>) {
    uint16_t bits;
    if constexpr (std::is_same_v<Kind, F16>) {
      bits = __half_as_ushort(__float2half_rn(v));
    } else {
      bits = __bfloat16_as_ushort(__float2bfloat16_rn(v));
    }
    uint32_t& r = regs[i / 2];
    r = (i % 2 == 0) ? ((r & 0xffff0000u) | bits) : ((r & 0x0000ffffu) | (uint32_t{bits} << 16));
  } else if constexpr (detail::is_int8_kind_v<Kind>) {
    uint32_t& r = regs[i / 4];
    int const shift = 8 * (i % 4);
    r = (r & ~(0xffu << shift)) | (uint32_t{static_cast<uint8_t>(v)} << shift);
  } else if constexpr (std::is_same_v<Kind, TF32>) {
    regs[i] = __float_as_uint(v);
  } else if constexpr (std::is_same_v<Kind, S32>) {
    regs[i] = static_cast<uint32_t>(v);
  } else {
    regs[i] = v;
  }
}
template <class Kind>
__device__ host_t<Kind> get_elem(const typename detail::mma_operand<Kind>::reg* regs, int i) {
  if constexpr (std::is_same_v<Kind, F16>) {
    const uint32_t r = regs[i / 2];
    return __half2float(__ushort_as_half(static_cast<uint16_t>(i % 2 == 0 ? r & 0xffffu : r >> 16)));
  } else if constexpr (std::is_same_v<Kind, S32>) {
    return static_cast<int32_t>(regs[i]);
  } else {
    return regs[i];
  }
}

template <int kM, class Op, class D, class A, class B, class C, bool kInPlace>
__global__ void mma_kernel(const host_t<A>* gA, const host_t<B>* gB, const host_t<C>* gC, host_t<D>* gD,
                           int m_dim, int n_dim, int k_dim) {
  constexpr int kElemsA = Op::kRegsA * detail::mma_operand<A>::kElemsPerReg;
  constexpr int kElemsB = Op::kRegsB * detail::mma_operand<B>::kElemsPerReg;
  constexpr int kElemsC = Op::kRegsC * detail::mma_operand<C>::kElemsPerReg;
  constexpr int kElemsD = Op::kRegsD * detail::mma_operand<D>::kElemsPerReg;
  const int lane = static_cast<int>(threadIdx.x);
  typename Op::FragA a{};
  typename Op::FragB b{};
  typename Op::FragC c{};
  typename Op::FragD d{};
  for (int i = 0; i < kElemsA; ++i) {
    const RowCol rc = frag_a<A>(lane, i);
    put_elem<A>(a, i, gA[rc.row * k_dim + rc.col]);
  }
  for (int i = 0; i < kElemsB; ++i) {
    const RowCol rc = frag_b<B>(lane, i);
    put_elem<B>(b, i, gB[rc.row * n_dim + rc.col]);
  }
  for (int i = 0; i < kElemsC; ++i) {
    const RowCol rc = frag_c<kM>(lane, i);
    put_elem<C>(c, i, gC[rc.row * n_dim + rc.col]);
  }
  if constexpr (kInPlace) {
    // Accumulate in place: d aliases c (only when D and C have the same kind).
    Op::fma(c, a, b, c);
    for (int i = 0; i < kElemsC; ++i) {
      const RowCol rc = frag_c<kM>(lane, i);
      gD[rc.row * n_dim + rc.col] = get_elem<C>(c, i);
    }
  } else {
    Op::fma(d, a, b, c);
    for (int i = 0; i < kElemsD; ++i) {
      const RowCol rc = frag_c<kM>(lane, i);
      gD[rc.row * n_dim + rc.col] = get_elem<D>(d, i);
    }
  }
  (void)m_dim;
}

// Round a float to what the operand kind represents exactly.
template <class Kind>
host_t<Kind> round_to(double v) {
  if constexpr (std::is_same_v<Kind, F16>) {
    return __half2float(__float2half_rn(static_cast<float>(v)));
  } else if constexpr (std::is_same_v<Kind, BF16>) {
    return __bfloat162float(__float2bfloat16_rn(static_cast<float>(v)));
  } else if constexpr (std::is_same_v<Kind, TF32>) {
    // Round to nearest even at 10 explicit mantissa bits; the hardware then
    // ignores the (zero) low 13 bits.
    const float f = static_cast<float>(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0xfffu + ((u >> 13) & 1u);
    u &= 0xffffe000u;
    float r;
    std::memcpy(&r, &u, 4);
    return r;
  } else {
    return static_cast<host_t<Kind>>(v);
  }
}

template <class Kind>
const char* kind_name() {
  if constexpr (std::is_same_v<Kind, F16>) return "f16";
  if constexpr (std::is_same_v<Kind, BF16>) return "bf16";
  if constexpr (std::is_same_v<Kind, TF32>) return "tf32";
  if constexpr (std::is_same_v<Kind, F32>) return "f32";
  if constexpr (std::is_same_v<Kind, F64>) return "f64";
  if constexpr (std::is_same_v<Kind, S8>) return "s8";
  if constexpr (std::is_same_v<Kind, U8>) return "u8";
  if constexpr (std::is_same_v<Kind, S32>) return "s32";
  return "?";
}

// Why this GPU cannot run the form's kernel (no device, too old, no image
// in this binary), or empty when it can: the tests skip loudly with it.
template <class Op, class Kernel>
std::string why_not_runnable(Kernel kernel) {
  return tessera::test::why_kernel_cannot_run(kernel, Op::kMinArch);
}

// Map sanity on the host: each fragment map covers its matrix exactly once.
template <int kM, int kN, int kK, class A, class B>
void expect_fragment_maps() {
  ASSERT_TRUE(is_bijection(frag_a<A>, kM, kK, kM * kK / 32)) << "A fragment map is not a bijection";
  ASSERT_TRUE(is_bijection(frag_b<B>, kK, kN, kK * kN / 32)) << "B fragment map is not a bijection";
  ASSERT_TRUE(is_bijection(frag_c<kM>, kM, kN, kM * kN / 32)) << "C fragment map is not a bijection";
}

// Runs one form over `trials` fresh random inputs; fails on error > bound.
template <int kM, int kN, int kK, class D, class A, class B, class C, bool kInPlace = false>
void check_form(double bound, int trials = 4) {
  using Op = MmaSync<kM, kN, kK, D, A, B, C>;
  auto kernel = mma_kernel<kM, Op, D, A, B, C, kInPlace>;
  if (std::string const why = why_not_runnable<Op>(kernel); !why.empty()) GTEST_SKIP() << why;
  ASSERT_NO_FATAL_FAILURE((expect_fragment_maps<kM, kN, kK, A, B>()));

  using TA = host_t<A>;
  using TB = host_t<B>;
  using TC = host_t<C>;
  using TD = host_t<D>;
  std::random_device entropy;
  const unsigned seed = entropy();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);

  TA* dA;
  TB* dB;
  TC* dC;
  TD* dD;
  TESSERA_TEST_CUDA(cudaMalloc(&dA, sizeof(TA) * kM * kK));
  TESSERA_TEST_CUDA(cudaMalloc(&dB, sizeof(TB) * kK * kN));
  TESSERA_TEST_CUDA(cudaMalloc(&dC, sizeof(TC) * kM * kN));
  TESSERA_TEST_CUDA(cudaMalloc(&dD, sizeof(TD) * kM * kN));

  for (int trial = 0; trial < trials; ++trial) {
    std::vector<TA> hA(kM * kK);
    std::vector<TB> hB(kK * kN);
    std::vector<TC> hC(kM * kN);
    for (auto& v : hA) v = round_to<A>(dist(gen));
    for (auto& v : hB) v = round_to<B>(dist(gen));
    for (auto& v : hC) v = round_to<C>(dist(gen));
    TESSERA_TEST_CUDA(cudaMemcpy(dA, hA.data(), sizeof(TA) * hA.size(), cudaMemcpyHostToDevice));
    TESSERA_TEST_CUDA(cudaMemcpy(dB, hB.data(), sizeof(TB) * hB.size(), cudaMemcpyHostToDevice));
    TESSERA_TEST_CUDA(cudaMemcpy(dC, hC.data(), sizeof(TC) * hC.size(), cudaMemcpyHostToDevice));
    // Poison D: all-ones bytes are NaN in float and double.
    TESSERA_TEST_CUDA(cudaMemset(dD, 0xff, sizeof(TD) * kM * kN));

    kernel<<<1, 32>>>(dA, dB, dC, dD, kM, kN, kK);
    TESSERA_TEST_CUDA(cudaGetLastError());
    TESSERA_TEST_CUDA(cudaDeviceSynchronize());

    std::vector<TD> hD(kM * kN);
    TESSERA_TEST_CUDA(cudaMemcpy(hD.data(), dD, sizeof(TD) * hD.size(), cudaMemcpyDeviceToHost));

    double err2 = 0.0;
    double ref2 = 0.0;
    for (int m = 0; m < kM; ++m) {
      for (int n = 0; n < kN; ++n) {
        double ref = static_cast<double>(hC[m * kN + n]);
        for (int k = 0; k < kK; ++k) ref += static_cast<double>(hA[m * kK + k]) * static_cast<double>(hB[k * kN + n]);
        const double got = static_cast<double>(hD[m * kN + n]);
        ASSERT_TRUE(std::isfinite(got)) << "D(" << m << "," << n << ") not written (poison left) in trial " << trial;
        err2 += (got - ref) * (got - ref);
        ref2 += ref * ref;
      }
    }
    const double rel = std::sqrt(err2 / ref2);
    EXPECT_LE(rel, bound) << "m" << kM << "n" << kN << "k" << kK << " " << kind_name<D>() << "." << kind_name<A>()
                          << "." << kind_name<B>() << "." << kind_name<C>() << (kInPlace ? " (in place)" : "")
                          << ": relative norm error " << rel << " in trial " << trial;
  }
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  cudaFree(dD);
}

// Bounds: f16/bf16/tf32 products are exact in fp32 and the sums are short, so
// fp32 accumulation stays near fp32 rounding (1e-5 leaves headroom for the
// tensor cores' truncating adder); an f16 accumulator rounds D to 11
// significant bits (2^-11 ~ 4.9e-4 per element); f64 is exact to ~1e-16.
constexpr double kBoundF32Acc = 1e-5;
constexpr double kBoundF16Acc = 2e-3;
constexpr double kBoundF64 = 1e-13;

TEST(ArchMmaSm80, M16N8K8_F16F16F16F16) { check_form<16, 8, 8, F16, F16, F16, F16>(kBoundF16Acc); }
TEST(ArchMmaSm80, M16N8K8_F32F16F16F32) { check_form<16, 8, 8, F32, F16, F16, F32>(kBoundF32Acc); }
TEST(ArchMmaSm80, M16N8K8_F32BF16BF16F32) { check_form<16, 8, 8, F32, BF16, BF16, F32>(kBoundF32Acc); }
TEST(ArchMmaSm80, M16N8K16_F16F16F16F16) { check_form<16, 8, 16, F16, F16, F16, F16>(kBoundF16Acc); }
TEST(ArchMmaSm80, M16N8K16_F32F16F16F32) { check_form<16, 8, 16, F32, F16, F16, F32>(kBoundF32Acc); }
TEST(ArchMmaSm80, M16N8K16_F32BF16BF16F32) { check_form<16, 8, 16, F32, BF16, BF16, F32>(kBoundF32Acc); }
TEST(ArchMmaSm80, M16N8K4_F32TF32TF32F32) { check_form<16, 8, 4, F32, TF32, TF32, F32>(kBoundF32Acc); }
TEST(ArchMmaSm80, M16N8K8_F32TF32TF32F32) { check_form<16, 8, 8, F32, TF32, TF32, F32>(kBoundF32Acc); }
TEST(ArchMmaSm80, M8N8K4_F64F64F64F64) { check_form<8, 8, 4, F64, F64, F64, F64>(kBoundF64); }

// Integer forms: exact. Fresh random s8/u8 operands over their whole range
// except 0 (a zero would hide a misplaced element), C random int32 and D
// compared element for element with an int64 reference.
// NOTE: |A*B| per element is at most 32 * 255 * 255 < 2^21 (u8 x u8, k32), so
// C stays within +-(2^31 - 2^22): no sum overflows s32, where a form without
// .satfinite would wrap and the reference would have to model it.
constexpr int32_t kIntCBound = INT32_MAX - (1 << 22);

template <class Kind>
host_t<Kind> random_int8(std::mt19937& gen) {
  constexpr int kLo = std::is_same_v<Kind, S8> ? -128 : 0;
  constexpr int kHi = std::is_same_v<Kind, S8> ? 127 : 255;
  std::uniform_int_distribution<int> dist(kLo, kHi);
  int v = 0;
  while (v == 0) v = dist(gen);
  return static_cast<host_t<Kind>>(v);
}

template <int kM, int kN, int kK, class A, class B, bool kInPlace = false>
void check_int_form(int trials = 4) {
  using Op = MmaSync<kM, kN, kK, S32, A, B, S32>;
  auto kernel = mma_kernel<kM, Op, S32, A, B, S32, kInPlace>;
  if (std::string const why = why_not_runnable<Op>(kernel); !why.empty()) GTEST_SKIP() << why;
  ASSERT_NO_FATAL_FAILURE((expect_fragment_maps<kM, kN, kK, A, B>()));

  using TA = host_t<A>;
  using TB = host_t<B>;
  std::random_device entropy;
  const unsigned seed = entropy();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> cdist(-kIntCBound, kIntCBound);

  tessera::test::DevBuf dA, dB, dC, dD;
  TESSERA_TEST_CUDA(cudaMalloc(&dA.p, sizeof(TA) * kM * kK));
  TESSERA_TEST_CUDA(cudaMalloc(&dB.p, sizeof(TB) * kK * kN));
  TESSERA_TEST_CUDA(cudaMalloc(&dC.p, sizeof(int32_t) * kM * kN));
  TESSERA_TEST_CUDA(cudaMalloc(&dD.p, sizeof(int32_t) * kM * kN));

  for (int trial = 0; trial < trials; ++trial) {
    std::vector<TA> hA(kM * kK);
    std::vector<TB> hB(kK * kN);
    std::vector<int32_t> hC(kM * kN);
    for (auto& v : hA) v = random_int8<A>(gen);
    for (auto& v : hB) v = random_int8<B>(gen);
    for (auto& v : hC) v = cdist(gen);
    TESSERA_TEST_CUDA(cudaMemcpy(dA.p, hA.data(), sizeof(TA) * hA.size(), cudaMemcpyHostToDevice));
    TESSERA_TEST_CUDA(cudaMemcpy(dB.p, hB.data(), sizeof(TB) * hB.size(), cudaMemcpyHostToDevice));
    TESSERA_TEST_CUDA(cudaMemcpy(dC.p, hC.data(), sizeof(int32_t) * hC.size(), cudaMemcpyHostToDevice));
    // Poison D: all-ones bytes, -1 in every element.
    TESSERA_TEST_CUDA(cudaMemset(dD.p, 0xff, sizeof(int32_t) * kM * kN));

    kernel<<<1, 32>>>(dA.as<TA>(), dB.as<TB>(), dC.as<int32_t>(), dD.as<int32_t>(), kM, kN, kK);
    TESSERA_TEST_CUDA(cudaGetLastError());
    TESSERA_TEST_CUDA(cudaDeviceSynchronize());

    std::vector<int32_t> hD(kM * kN);
    TESSERA_TEST_CUDA(cudaMemcpy(hD.data(), dD.p, sizeof(int32_t) * hD.size(), cudaMemcpyDeviceToHost));

    int mismatches = 0;
    for (int m = 0; m < kM; ++m) {
      for (int n = 0; n < kN; ++n) {
        int64_t ref = hC[m * kN + n];
        for (int k = 0; k < kK; ++k) ref += int64_t{hA[m * kK + k]} * int64_t{hB[k * kN + n]};
        ASSERT_TRUE(ref >= INT32_MIN && ref <= INT32_MAX) << "test bug: reference overflows s32";
        if (hD[m * kN + n] != ref && ++mismatches <= 8) {
          ADD_FAILURE() << "m" << kM << "n" << kN << "k" << kK << " s32." << kind_name<A>() << "." << kind_name<B>()
                        << ".s32" << (kInPlace ? " (in place)" : "") << ": D(" << m << "," << n << ") = "
                        << hD[m * kN + n] << ", expected " << ref << " in trial " << trial;
        }
      }
    }
    EXPECT_EQ(mismatches, 0) << "of " << kM * kN << " elements in trial " << trial;
  }
}

TEST(ArchMmaSm80, M8N8K16_S32S8S8S32) { check_int_form<8, 8, 16, S8, S8>(); }
TEST(ArchMmaSm80, M8N8K16_S32S8U8S32) { check_int_form<8, 8, 16, S8, U8>(); }
TEST(ArchMmaSm80, M8N8K16_S32U8S8S32) { check_int_form<8, 8, 16, U8, S8>(); }
TEST(ArchMmaSm80, M8N8K16_S32U8U8S32) { check_int_form<8, 8, 16, U8, U8>(); }
TEST(ArchMmaSm80, M16N8K16_S32S8S8S32) { check_int_form<16, 8, 16, S8, S8>(); }
TEST(ArchMmaSm80, M16N8K16_S32S8U8S32) { check_int_form<16, 8, 16, S8, U8>(); }
TEST(ArchMmaSm80, M16N8K16_S32U8S8S32) { check_int_form<16, 8, 16, U8, S8>(); }
TEST(ArchMmaSm80, M16N8K16_S32U8U8S32) { check_int_form<16, 8, 16, U8, U8>(); }
TEST(ArchMmaSm80, M16N8K32_S32S8S8S32) { check_int_form<16, 8, 32, S8, S8>(); }
TEST(ArchMmaSm80, M16N8K32_S32S8U8S32) { check_int_form<16, 8, 32, S8, U8>(); }
TEST(ArchMmaSm80, M16N8K32_S32U8S8S32) { check_int_form<16, 8, 32, U8, S8>(); }
TEST(ArchMmaSm80, M16N8K32_S32U8U8S32) { check_int_form<16, 8, 32, U8, U8>(); }
TEST(ArchMmaSm80, M8N8K16_S32S8S8S32_InPlace) { check_int_form<8, 8, 16, S8, S8, true>(); }
TEST(ArchMmaSm80, M16N8K32_S32S8S8S32_InPlace) { check_int_form<16, 8, 32, S8, S8, true>(); }

// d aliasing c (the usual accumulate-in-place call).
TEST(ArchMmaSm80, M16N8K16_F32F16F16F32_InPlace) {
  check_form<16, 8, 16, F32, F16, F16, F32, true>(kBoundF32Acc);
}
TEST(ArchMmaSm80, M16N8K16_F16F16F16F16_InPlace) {
  check_form<16, 8, 16, F16, F16, F16, F16, true>(kBoundF16Acc);
}
TEST(ArchMmaSm80, M8N8K4_F64_InPlace) { check_form<8, 8, 4, F64, F64, F64, F64, true>(kBoundF64); }

// The named functions must issue the same instruction as MmaSync<...>::fma:
// same random registers in, bit-identical registers out, for all nine.
struct NamedInputs {
  uint32_t h[4];  // packed f16 pairs (finite, also finite read as bf16)
  uint32_t t[4];  // tf32 bit patterns
  float f[4];     // fp32 accumulators
  double x[2];    // f64 operands
};

__device__ unsigned long long bits_of(uint32_t r) { return r; }
__device__ unsigned long long bits_of(float r) { return __float_as_uint(r); }
__device__ unsigned long long bits_of(double r) { return static_cast<unsigned long long>(__double_as_longlong(r)); }

template <class Op, class Fn>
__device__ int compare_named(Fn named, const typename Op::FragA& a, const typename Op::FragB& b,
                             const typename Op::FragC& c) {
  typename Op::FragD d1{};
  typename Op::FragD d2{};
  named(d1, a, b, c);
  Op::fma(d2, a, b, c);
  int mismatches = 0;
  for (int i = 0; i < Op::kRegsD; ++i) {
    if (bits_of(d1[i]) != bits_of(d2[i])) ++mismatches;
  }
  return mismatches;
}

__global__ void named_kernel(const NamedInputs* in, int* mismatches) {
  const NamedInputs& v = in[threadIdx.x];
  const uint32_t a2[2] = {v.h[0], v.h[1]};
  const uint32_t a4[4] = {v.h[0], v.h[1], v.h[2], v.h[3]};
  const uint32_t b1[1] = {v.h[2]};
  const uint32_t b2[2] = {v.h[2], v.h[3]};
  const uint32_t c2[2] = {v.h[1], v.h[3]};
  const uint32_t ta2[2] = {v.t[0], v.t[1]};
  const uint32_t ta4[4] = {v.t[0], v.t[1], v.t[2], v.t[3]};
  const uint32_t tb1[1] = {v.t[2]};
  const uint32_t tb2[2] = {v.t[2], v.t[3]};
  const float c4[4] = {v.f[0], v.f[1], v.f[2], v.f[3]};
  const double xa[1] = {v.x[0]};
  const double xb[1] = {v.x[1]};
  const double xc[2] = {v.x[1], v.x[0]};
  int n = 0;
  n += compare_named<Mma_m16n8k8_f16f16f16f16>(mma_m16n8k8_f16f16f16f16, a2, b1, c2);
  n += compare_named<Mma_m16n8k8_f32f16f16f32>(mma_m16n8k8_f32f16f16f32, a2, b1, c4);
  n += compare_named<Mma_m16n8k8_f32bf16bf16f32>(mma_m16n8k8_f32bf16bf16f32, a2, b1, c4);
  n += compare_named<Mma_m16n8k16_f16f16f16f16>(mma_m16n8k16_f16f16f16f16, a4, b2, c2);
  n += compare_named<Mma_m16n8k16_f32f16f16f32>(mma_m16n8k16_f32f16f16f32, a4, b2, c4);
  n += compare_named<Mma_m16n8k16_f32bf16bf16f32>(mma_m16n8k16_f32bf16bf16f32, a4, b2, c4);
  n += compare_named<Mma_m16n8k4_f32tf32tf32f32>(mma_m16n8k4_f32tf32tf32f32, ta2, tb1, c4);
  n += compare_named<Mma_m16n8k8_f32tf32tf32f32>(mma_m16n8k8_f32tf32tf32f32, ta4, tb2, c4);
  n += compare_named<Mma_m8n8k4_f64f64f64f64>(mma_m8n8k4_f64f64f64f64, xa, xb, xc);
  mismatches[threadIdx.x] = n;
}

TEST(ArchMmaSm80, NamedFunctionsMatchTemplate) {
  TESSERA_TEST_REQUIRE_KERNEL(named_kernel, 80);
  std::random_device entropy;
  const unsigned seed = entropy();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<NamedInputs> h_in(32);
  for (auto& v : h_in) {
    for (auto& r : v.h) {
      const uint32_t lo = __half_as_ushort(__float2half_rn(static_cast<float>(dist(gen))));
      const uint32_t hi = __half_as_ushort(__float2half_rn(static_cast<float>(dist(gen))));
      r = lo | (hi << 16);
    }
    for (auto& r : v.t) {
      const float f = round_to<TF32>(dist(gen));
      std::memcpy(&r, &f, 4);
    }
    for (auto& f : v.f) f = static_cast<float>(dist(gen));
    for (auto& x : v.x) x = dist(gen);
  }
  NamedInputs* d_in;
  int* d_mis;
  TESSERA_TEST_CUDA(cudaMalloc(&d_in, sizeof(NamedInputs) * 32));
  TESSERA_TEST_CUDA(cudaMalloc(&d_mis, sizeof(int) * 32));
  TESSERA_TEST_CUDA(cudaMemcpy(d_in, h_in.data(), sizeof(NamedInputs) * 32, cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemset(d_mis, 0xff, sizeof(int) * 32));
  named_kernel<<<1, 32>>>(d_in, d_mis);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<int> mis(32);
  TESSERA_TEST_CUDA(cudaMemcpy(mis.data(), d_mis, sizeof(int) * 32, cudaMemcpyDeviceToHost));
  cudaFree(d_in);
  cudaFree(d_mis);
  for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(mis[lane], 0) << "lane " << lane;
}

// The maps themselves, independent of a GPU: bijections onto their matrices.
TEST(ArchMmaSm80, FragmentMapsAreBijections) {
  EXPECT_TRUE(is_bijection(frag_a_16bit, 16, 8, 4));
  EXPECT_TRUE(is_bijection(frag_a_16bit, 16, 16, 8));
  EXPECT_TRUE(is_bijection(frag_b_16bit, 8, 8, 2));
  EXPECT_TRUE(is_bijection(frag_b_16bit, 16, 8, 4));
  EXPECT_TRUE(is_bijection(frag_a_tf32, 16, 4, 2));
  EXPECT_TRUE(is_bijection(frag_a_tf32, 16, 8, 4));
  EXPECT_TRUE(is_bijection(frag_b_tf32, 4, 8, 1));
  EXPECT_TRUE(is_bijection(frag_b_tf32, 8, 8, 2));
  EXPECT_TRUE(is_bijection(frag_c_m16n8, 16, 8, 4));
  EXPECT_TRUE(is_bijection(frag_a_f64, 8, 4, 1));
  EXPECT_TRUE(is_bijection(frag_b_f64, 4, 8, 1));
  EXPECT_TRUE(is_bijection(frag_c_m8n8, 8, 8, 2));
  EXPECT_TRUE(is_bijection(frag_a_8bit, 8, 16, 4));
  EXPECT_TRUE(is_bijection(frag_a_8bit, 16, 16, 8));
  EXPECT_TRUE(is_bijection(frag_a_8bit, 16, 32, 16));
  EXPECT_TRUE(is_bijection(frag_b_8bit, 16, 8, 4));
  EXPECT_TRUE(is_bijection(frag_b_8bit, 32, 8, 8));
  // Spot values from the PTX ISA figures: lane 5 is g=1, t=1.
  EXPECT_EQ(frag_a_16bit(5, 7).row, 9);
  EXPECT_EQ(frag_a_16bit(5, 7).col, 11);
  EXPECT_EQ(frag_b_16bit(5, 3).row, 11);
  EXPECT_EQ(frag_b_16bit(5, 3).col, 1);
  EXPECT_EQ(frag_a_tf32(5, 3).row, 9);
  EXPECT_EQ(frag_a_tf32(5, 3).col, 5);
  // m16n8k32 s8: a13 of lane 5 is (g + 8, 4t + 1 + 16), b6 is (4t + 2 + 16, g).
  EXPECT_EQ(frag_a_8bit(5, 13).row, 9);
  EXPECT_EQ(frag_a_8bit(5, 13).col, 21);
  EXPECT_EQ(frag_b_8bit(5, 6).row, 22);
  EXPECT_EQ(frag_b_8bit(5, 6).col, 1);
}

}  // namespace
