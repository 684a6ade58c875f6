// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// One warpgroup runs wgmma.mma_async m64nNkK over a K of one swizzle row
// (32, 64 or 128 bytes: 1, 2 or 4 instructions, the descriptor start address
// advanced 32 bytes per instruction, the first with scale-d = 0 over poisoned
// accumulators), with A (64 x K) and B (N x K), both K-major, written into
// shared memory in the swizzled canonical layout by ordinary stores
// (fence.proxy.async before the barrier). The accumulator fragments are
// mapped back to (row, column) with the documented fragment map and compared
// with an fp64 reference on the host. RS variants take A from registers in
// the mma.sync-style fragment. MnMajorSS runs the transposed (MN-major)
// 16-bit forms on tiles laid out by Tessera layouts. Skips unless the device
// is sm_90.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <tessera/arch/sm90/fence.cuh>
#include <tessera/arch/sm90/gmma_desc.hpp>
#include <tessera/arch/sm90/gmma_layout.hpp>
#include <tessera/arch/sm90/mbarrier.cuh>
#include <tessera/arch/sm90/wgmma.cuh>
#include <tessera/atom/sync_sm90.cuh>

#include "device_test.cuh"

namespace {

using namespace tessera::arch;

enum class Elem { bf16, f16, tf32, e4m3, s8 };
int elem_bytes(Elem e) { return e == Elem::tf32 ? 4 : (e == Elem::e4m3 || e == Elem::s8) ? 1 : 2; }

__host__ __device__ constexpr GmmaSwizzle swizzle_of(int span) {
  return span == 128 ? GmmaSwizzle::b128 : span == 64 ? GmmaSwizzle::b64 : GmmaSwizzle::b32;
}

// a: 64 rows x kSpan bytes, b: N rows x kSpan bytes, both logical row-major
// (K contiguous). d_out: 128 threads x kRegsD accumulator registers.
// kCuteNames: the SS form sequenced with CuTe's names (tessera/atom/
// sync_sm90.cuh), the accumulators fenced as a register Tensor.
template <class Family, int N, int kSpan, bool kRS, bool kCuteNames = false>
__global__ void wgmma_atom_kernel(const uint8_t* a, const uint8_t* b, uint32_t* d_out, int elem_size) {
  using Mma = Wgmma<Family, N>;
  using C = typename Mma::CRegister;
  __shared__ __align__(1024) uint8_t buf[1024 + 64 * 128 + 256 * 128];
  uint32_t const raw = smem_u32(buf);
  uint8_t* const sA = buf + ((1024u - (raw & 1023u)) & 1023u);
  uint8_t* const sB = sA + 64 * 128;
  constexpr uint32_t kMask = kSpan == 128 ? 7 : kSpan == 64 ? 3 : 1;
  auto swz = [](uint32_t l) { return l ^ (((l >> 7) & kMask) << 4); };
  int const t = int(threadIdx.x);
  for (int c = t; c < 64 * kSpan / 16; c += 128)
    *reinterpret_cast<uint4*>(sA + swz(16u * c)) = reinterpret_cast<const uint4*>(a)[c];
  for (int c = t; c < N * kSpan / 16; c += 128)
    *reinterpret_cast<uint4*>(sB + swz(16u * c)) = reinterpret_cast<const uint4*>(b)[c];
  fence_proxy_async_shared_cta();
  __syncthreads();

  C d[Mma::kRegsD];
#pragma unroll
  for (int i = 0; i < Mma::kRegsD; ++i) {
    uint32_t const nan = 0x7fc00000u;  // poison: the first instruction has scale-d = 0
    std::memcpy(&d[i], &nan, 4);
  }
  static_assert(!(kCuteNames && kRS), "the CuTe-names case runs the SS form");
  uint32_t const a_addr = kCuteNames ? tessera::cast_smem_ptr_to_uint(sA) : smem_u32(sA);
  uint32_t const b_addr = kCuteNames ? tessera::cast_smem_ptr_to_uint(sB) : smem_u32(sB);
  GmmaDescriptor const da = make_gmma_desc(a_addr, swizzle_of(kSpan), 16, 8 * kSpan);
  GmmaDescriptor const db = make_gmma_desc(b_addr, swizzle_of(kSpan), 16, 8 * kSpan);
  int const w = t / 32, g = (t % 32) / 4, q = t % 4;
  // RS: every K step's A fragment (32 bytes of K) is in registers before the
  // first wgmma. Registers hold 4 bytes of row g / g+8 at byte offset 4q /
  // 4q+16 of the step, per the m16nXk A-fragment of mma.sync (for 2-byte:
  // elements 2q, 2q+1 and 2q+8, 2q+9; for tf32: element q and q+4). Loading
  // them between wgmmas would make ptxas inject a warpgroup.arrive (C7519).
  constexpr int kSteps = kSpan / 32;
  uint32_t af[kSteps][4];
  if constexpr (kRS) {
    int const r0 = 16 * w + g, r1 = r0 + 8;
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      int const k0 = 32 * s + 4 * q, k1 = k0 + 16;
      std::memcpy(&af[s][0], a + r0 * kSpan + k0, 4);
      std::memcpy(&af[s][1], a + r1 * kSpan + k0, 4);
      std::memcpy(&af[s][2], a + r0 * kSpan + k1, 4);
      std::memcpy(&af[s][3], a + r1 * kSpan + k1, 4);
      wgmma_fence_operand(af[s]);
    }
  }
  [[maybe_unused]] auto acc = tessera::make_tensor(&d[0], tessera::make_layout(tessera::Int<Mma::kRegsD>{}));
  if constexpr (kCuteNames) {
    tessera::warpgroup_fence_operand(acc);
    tessera::warpgroup_arrive();
  } else {
    wgmma_fence();
  }
#pragma unroll
  for (int s = 0; s < kSteps; ++s) {
    if constexpr (kRS)
      Mma::template rs<0>(d, af[s], db.advanced(32u * s).desc, s == 0 ? 0 : 1);
    else
      Mma::template ss<0, 0>(d, da.advanced(32u * s).desc, db.advanced(32u * s).desc, s == 0 ? 0 : 1);
  }
  if constexpr (kCuteNames) {
    tessera::warpgroup_commit_batch();
    tessera::warpgroup_wait<0>();
    tessera::warpgroup_fence_operand(acc);
  } else {
    wgmma_commit_group();
    wgmma_wait_group<0>();
    wgmma_fence_operand(d);
  }
  (void)elem_size;
#pragma unroll
  for (int i = 0; i < Mma::kRegsD; ++i) std::memcpy(&d_out[t * Mma::kRegsD + i], &d[i], 4);
}

double decode(Elem e, const uint8_t* p) {
  switch (e) {
    case Elem::bf16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      uint32_t u = uint32_t(h) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    case Elem::f16: {
      __half h;
      std::memcpy(&h, p, 2);
      return double(__half2float(h));
    }
    case Elem::tf32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case Elem::e4m3: {
      uint8_t const v = *p;
      int const s = v >> 7, ex = (v >> 3) & 15, m = v & 7;
      double const mag = ex == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1.0 + m / 8.0, ex - 7);
      return s ? -mag : mag;
    }
    case Elem::s8: return double(int8_t(*p));
  }
  return 0;
}

// Random K-major bytes: rows x span bytes of element type e, never all zero.
std::vector<uint8_t> random_operand(Elem e, int rows, int span, std::mt19937& rng) {
  std::vector<uint8_t> v(size_t(rows) * span);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  int const eb = elem_bytes(e);
  for (size_t i = 0; i < v.size(); i += eb) {
    float const x = u(rng);
    switch (e) {
      case Elem::bf16: {
        __nv_bfloat16 h = __float2bfloat16(x);
        std::memcpy(&v[i], &h, 2);
        break;
      }
      case Elem::f16: {
        __half h = __float2half(x);
        std::memcpy(&v[i], &h, 2);
        break;
      }
      case Elem::tf32: {  // exactly representable in tf32: low 13 mantissa bits clear
        uint32_t bits;
        std::memcpy(&bits, &x, 4);
        bits &= 0xffffe000u;
        std::memcpy(&v[i], &bits, 4);
        break;
      }
      case Elem::e4m3: {  // finite: exponent field 1..14 (no NaN 0x7f/0xff)
        uint8_t const s = rng() & 1, ex = uint8_t(1 + rng() % 14), m = rng() & 7;
        v[i] = uint8_t((s << 7) | (ex << 3) | m);
        break;
      }
      case Elem::s8: v[i] = uint8_t(int8_t(int(rng() % 255) - 127)); break;
    }
  }
  return v;
}

// The 64 x N result (row-major, into got) from the warpgroup's accumulator
// registers hd[thread * R + r], by the fragment map at the top of
// wgmma.cuh.
void unpack_accumulators(const std::vector<uint32_t>& hd, int R, int N, bool f16_acc, bool s32_acc,
                         std::vector<double>& got) {
  for (int t = 0; t < 128; ++t) {
    int const w = t / 32, g = (t % 32) / 4, q = t % 4;
    for (int r = 0; r < R; ++r) {
      uint32_t const bits = hd[t * R + r];
      if (f16_acc) {
        int const j = r / 2, h = r % 2, row = 16 * w + g + 8 * h, col = 8 * j + 2 * q;
        __half lo, hi;
        uint16_t l16 = uint16_t(bits & 0xffff), h16 = uint16_t(bits >> 16);
        std::memcpy(&lo, &l16, 2);
        std::memcpy(&hi, &h16, 2);
        got[row * N + col] = __half2float(lo);
        got[row * N + col + 1] = __half2float(hi);
      } else {
        int const j = r / 4, rr = r % 4, row = 16 * w + g + 8 * (rr / 2), col = 8 * j + 2 * q + (rr % 2);
        double v;
        if (s32_acc) {
          v = double(int32_t(bits));
        } else {
          float f;
          std::memcpy(&f, &bits, 4);
          v = f;
        }
        got[row * N + col] = v;
      }
    }
  }
}

// Copies `a` and `b` to the device, poisons 128 x R accumulator words, runs
// `launch(da, db, dd)` (one warpgroup) and fills `hd` with the result.
template <class Launch>
void run_on_warpgroup(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int R, Launch launch,
                      std::vector<uint32_t>* hd) {
  tessera::test::DevBuf da, db, dd;
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(da, a));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(db, b));
  TESSERA_TEST_CUDA(cudaMalloc(&dd.p, 128 * R * 4));
  TESSERA_TEST_CUDA(cudaMemset(dd.p, 0xff, 128 * R * 4));
  launch(da.as<const uint8_t>(), db.as<const uint8_t>(), dd.as<uint32_t>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  hd->assign(size_t(128) * R, 0u);
  TESSERA_TEST_CUDA(cudaMemcpy(hd->data(), dd.p, hd->size() * 4, cudaMemcpyDeviceToHost));
}

// Error bound: |D - ref| <= tol * (1 + |ref|) per element and relative
// norm error <= tol, unless `fp8_step` > 0: then the fp8 accumulation model
// below replaces both.
template <class Family, int N, int kSpan, bool kRS, bool kCuteNames = false>
void run_atom(Elem e, bool f16_acc, bool s32_acc, double tol, double fp8_step = 0.0) {
  using Mma = Wgmma<Family, N>;
  SCOPED_TRACE(testing::Message() << "m64n" << N << "k" << Mma::kK << (kRS ? " RS" : " SS") << " span " << kSpan);
  std::mt19937 rng(1234 + N + kSpan);
  std::vector<uint8_t> ha = random_operand(e, 64, kSpan, rng), hb = random_operand(e, N, kSpan, rng);
  int const R = Mma::kRegsD;
  std::vector<uint32_t> hd;
  run_on_warpgroup(
      ha, hb, R,
      [&](const uint8_t* da, const uint8_t* db, uint32_t* dd) {
        wgmma_atom_kernel<Family, N, kSpan, kRS, kCuteNames><<<1, 128>>>(da, db, dd, elem_bytes(e));
      },
      &hd);
  if (testing::Test::HasFatalFailure()) return;

  int const eb = elem_bytes(e), K = kSpan / eb;
  std::vector<double> ref(64 * N, 0.0), got(64 * N, std::nan("")), abs_sum(64 * N, 0.0);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0, sa = 0;
      for (int k = 0; k < K; ++k) {
        double const p = decode(e, &ha[size_t(i) * kSpan + k * eb]) * decode(e, &hb[size_t(j) * kSpan + k * eb]);
        s += p;
        sa += std::fabs(p);
      }
      ref[i * N + j] = s;
      abs_sum[i * N + j] = sa;
    }
  unpack_accumulators(hd, R, N, f16_acc, s32_acc, got);
  // fp8 model: each wgmma instruction (K/32 of them for 8-bit inputs) adds
  // its products into the accumulator through an adder that keeps about 14
  // significant bits, i.e. a relative error of at most 2^-13 of the
  // magnitude being formed, which is at most S = sum_k |a_k b_k|; allowing
  // two such roundings per instruction (the products' alignment inside the
  // instruction and the accumulation) gives |D - ref| <= (K/32) * 2^-12 * S.
  double const fp8_allow = fp8_step > 0.0 ? fp8_step * (K / 32) : 0.0;
  double num = 0, den = 0, sum_abs2 = 0;
  int shown = 0;
  for (int i = 0; i < 64 * N; ++i) {
    double const diff = got[i] - ref[i];
    num += diff * diff;
    den += ref[i] * ref[i];
    sum_abs2 += abs_sum[i] * abs_sum[i];
    double const allow = fp8_step > 0.0 ? fp8_allow * abs_sum[i] : tol * (1.0 + std::fabs(ref[i]));
    if (!(std::fabs(diff) <= allow) && shown++ < 6)
      ADD_FAILURE() << "D(" << i / N << ", " << i % N << ") = " << got[i] << ", reference " << ref[i]
                    << ", allowed error " << allow;
  }
  double const rel = std::sqrt(num / den);
  double const rel_bound = fp8_step > 0.0 ? fp8_allow * std::sqrt(sum_abs2 / den) : tol;
  EXPECT_LE(rel, rel_bound) << "relative norm error " << rel;
  if (s32_acc) EXPECT_EQ(num, 0.0) << "integer wgmma must be exact";
}

TEST(HopperWgmma, Bf16SS) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_atom<F32BF16BF16, 64, 128, false>(Elem::bf16, false, false, 1e-5);
  run_atom<F32BF16BF16, 64, 64, false>(Elem::bf16, false, false, 1e-5);
  run_atom<F32BF16BF16, 64, 32, false>(Elem::bf16, false, false, 1e-5);
  run_atom<F32BF16BF16, 8, 128, false>(Elem::bf16, false, false, 1e-5);
  run_atom<F32BF16BF16, 256, 128, false>(Elem::bf16, false, false, 1e-5);
  run_atom<F32BF16BF16, 136, 128, false>(Elem::bf16, false, false, 1e-5);
}

// The same SS atoms sequenced with CuTe's names (warpgroup_arrive,
// warpgroup_commit_batch, warpgroup_wait<0>, warpgroup_fence_operand on a
// register Tensor, cast_smem_ptr_to_uint), as seed 002's mainloop writes them.
TEST(HopperWgmma, CuteSynchronisationNames) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_atom<F32BF16BF16, 128, 128, false, true>(Elem::bf16, false, false, 1e-5);
  run_atom<F32F16F16, 64, 64, false, true>(Elem::f16, false, false, 1e-5);
}

TEST(HopperWgmma, F16SS) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_atom<F32F16F16, 64, 128, false>(Elem::f16, false, false, 1e-5);
  run_atom<F32F16F16, 256, 64, false>(Elem::f16, false, false, 1e-5);
  run_atom<F16F16F16, 64, 128, false>(Elem::f16, true, false, 5e-3);
  run_atom<F16F16F16, 256, 128, false>(Elem::f16, true, false, 5e-3);
}

TEST(HopperWgmma, Tf32SS) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_atom<F32TF32TF32, 64, 128, false>(Elem::tf32, false, false, 1e-5);
  run_atom<F32TF32TF32, 8, 32, false>(Elem::tf32, false, false, 1e-5);
  run_atom<F32TF32TF32, 256, 128, false>(Elem::tf32, false, false, 1e-5);
}

TEST(HopperWgmma, RegisterA) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_atom<F32BF16BF16, 128, 128, true>(Elem::bf16, false, false, 1e-5);
  run_atom<F32F16F16, 64, 64, true>(Elem::f16, false, false, 1e-5);
  run_atom<F32TF32TF32, 64, 128, true>(Elem::tf32, false, false, 1e-5);
}

// fp8 bound. Hopper's fp8 wgmma does not accumulate in full f32: the
// DeepSeek-V3 technical report (arXiv 2412.19437, section 3.3.2, "Increasing
// Accumulation Precision") measured that fp8 GEMM accumulation on H800 keeps
// only about 14 bits. GPU run 2 (H200) saw a relative norm error of 2.3e-4 at
// K = 128 (4 instructions) against the fp64 reference, about 2^-12, where a
// full-f32 accumulation gives ~1e-7. Hence the model in run_atom: unit 2^-12
// per instruction on S = sum_k |a_k b_k| (fp8_step = 2^-12). A wrong fragment
// or descriptor still fails: its error is of the order of the values
// themselves (random signs: |ref| ~ S / sqrt(K)), some 100x over the bound
// (1e-3 S) at K = 128. int8 stays exact.
TEST(HopperWgmma, Fp8AndInt8SS) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  double const fp8_step = std::ldexp(1.0, -12);
  run_atom<F32E4M3E4M3, 64, 128, false>(Elem::e4m3, false, false, 0.0, fp8_step);
  run_atom<F32E4M3E4M3, 256, 128, false>(Elem::e4m3, false, false, 0.0, fp8_step);
  run_atom<S32S8S8, 64, 128, false>(Elem::s8, false, true, 1e-12);
  run_atom<S32S8S8, 128, 64, false>(Elem::s8, false, true, 1e-12);
}

TEST(HopperWgmma, DescriptorFields) {
  // Pure bit arithmetic; runs without a GPU.
  bool ok = false;
  GmmaDescriptor d = make_gmma_desc(0x12400, GmmaSwizzle::b128, 16, 1024, &ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(d.start_address(), 0x12400u);
  EXPECT_EQ(d.leading_byte_offset(), 16u);
  EXPECT_EQ(d.stride_byte_offset(), 1024u);
  EXPECT_EQ(d.swizzle(), GmmaSwizzle::b128);
  EXPECT_EQ(d.desc >> 62, 1u);
  EXPECT_EQ(d.advanced(32).start_address(), 0x12420u);
  (void)make_gmma_desc(0x12480, GmmaSwizzle::b128, 16, 1024, &ok);  // not 1024-aligned
  EXPECT_FALSE(ok);
  (void)make_gmma_desc(0x12480, GmmaSwizzle::interleave, 128, 256, &ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(make_gmma_desc(0x200, GmmaSwizzle::b32, 16, 256).desc >> 62, 3u);
  EXPECT_EQ(make_gmma_desc(0x200, GmmaSwizzle::b64, 16, 512).desc >> 62, 2u);
}

// Descriptors from Tessera layouts: the canonical K-major tiles are
// recognised, the descriptor equals the one built from the swizzle mode, and
// near misses are rejected. Host only.
TEST(HopperWgmma, DescriptorFromLayout) {
  using namespace tessera;
  auto const rows64 = make_layout(make_shape(Int<64>{}, Int<64>{}), make_stride(Int<64>{}, Int<1>{}));
  auto const sw128 = make_composed_layout(Swizzle<3, 3, 3>{}, Int<0>{}, rows64);  // bf16/f16, 128B
  static_assert(gmma_swizzle_of<2>(decltype(sw128){}) == GmmaSwizzle::b128);
  static_assert(is_gmma_k_major_canonical<2>(decltype(sw128){}, GmmaSwizzle::b128),
                "Sw<3,3,3> o (64,64):(64,1) must be the 128B K-major canonical layout for 16-bit elements");
  bool ok = false;
  GmmaDescriptor const d = make_gmma_desc_k_major<2>(0x4000, sw128, &ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(d.desc, make_gmma_desc(0x4000, GmmaSwizzle::b128, 16, 1024).desc);
  EXPECT_EQ(d.desc, (make_gmma_desc_k_major<GmmaSwizzle::b128, 128>(0x4000).desc));

  auto const sw64 = make_composed_layout(
      Swizzle<2, 3, 3>{}, Int<0>{}, make_layout(make_shape(Int<16>{}, Int<32>{}), make_stride(Int<32>{}, Int<1>{})));
  EXPECT_EQ(gmma_swizzle_of<2>(sw64), GmmaSwizzle::b64);
  EXPECT_TRUE(is_gmma_k_major_canonical<2>(sw64, GmmaSwizzle::b64));
  EXPECT_EQ(make_gmma_desc_k_major<2>(0x4000, sw64).stride_byte_offset(), 512u);
  auto const sw32_tf32 = make_composed_layout(
      Swizzle<1, 2, 3>{}, Int<0>{}, make_layout(make_shape(Int<8>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{})));
  EXPECT_EQ(gmma_swizzle_of<4>(sw32_tf32), GmmaSwizzle::b32);
  EXPECT_TRUE(is_gmma_k_major_canonical<4>(sw32_tf32, GmmaSwizzle::b32));
  // Hierarchical rows ((8,8),64):((64,512),1): the same function, accepted.
  auto const hier = make_composed_layout(
      Swizzle<3, 3, 3>{}, Int<0>{},
      make_layout(make_shape(make_shape(Int<8>{}, Int<8>{}), Int<64>{}),
                  make_stride(make_stride(Int<64>{}, Int<512>{}), Int<1>{})));
  EXPECT_TRUE(is_gmma_k_major_canonical<2>(hier, GmmaSwizzle::b128));
  // Near misses.
  EXPECT_FALSE(is_gmma_k_major_canonical<2>(rows64, GmmaSwizzle::b128)) << "unswizzled";
  auto const padded = make_composed_layout(
      Swizzle<3, 3, 3>{}, Int<0>{}, make_layout(make_shape(Int<64>{}, Int<64>{}), make_stride(Int<72>{}, Int<1>{})));
  EXPECT_FALSE(is_gmma_k_major_canonical<2>(padded, GmmaSwizzle::b128)) << "padded rows";
  EXPECT_EQ(gmma_swizzle_of<2>(make_composed_layout(Swizzle<3, 4, 3>{}, Int<0>{}, rows64)), GmmaSwizzle::interleave)
      << "a byte-unit swizzle used on 16-bit element offsets";
  EXPECT_FALSE(is_gmma_k_major_canonical<4>(sw128, GmmaSwizzle::b128)) << "wrong element size";
  (void)make_gmma_desc_k_major<2>(0x4000 + 128, sw128, &ok);
  EXPECT_FALSE(ok) << "start address not 1024-byte aligned";
}

// ---- MN-major operands (16-bit only: the tnspA/tnspB immediates) ----
//
// Shared-memory tiles of K = 64 (four k16 instructions) as Tessera layouts
// (mn, k) -> element offset: K-major Sw<3,3,3> o (X, 64):(64, 1); MN-major
// in atoms of W = min(128, 2X) bytes of M/N, each atom 64 K rows of W bytes,
// atoms 64 * W bytes apart (what TMA boxes of (W bytes, 64) leave).
template <bool kMn, int X>
auto operand_layout() {
  using namespace tessera;
  if constexpr (!kMn) {
    return make_composed_layout(Swizzle<3, 3, 3>{}, Int<0>{},
                                make_layout(make_shape(Int<X>{}, Int<64>{}), make_stride(Int<64>{}, Int<1>{})));
  } else if constexpr (X >= 64) {
    static_assert(X % 64 == 0);
    return make_composed_layout(
        Swizzle<3, 3, 3>{}, Int<0>{},
        make_layout(make_shape(make_shape(Int<64>{}, Int<X / 64>{}), Int<64>{}),
                    make_stride(make_stride(Int<1>{}, Int<64 * 64>{}), Int<64>{})));
  } else {
    static_assert(X == 32 || X == 16);
    return make_composed_layout(Swizzle<X == 32 ? 2 : 1, 3, 3>{}, Int<0>{},
                                make_layout(make_shape(Int<X>{}, Int<64>{}), make_stride(Int<1>{}, Int<X>{})));
  }
}

// a_img: 8 KiB, b_img: b_bytes, both already in their shared-memory layout.
// da0/db0: descriptors at shared address 0, moved to the tiles here; the
// k-th instruction advances them by k * a_step / b_step bytes.
template <class Family, int N, int kTA, int kTB>
__global__ void wgmma_major_kernel(const uint8_t* a_img, const uint8_t* b_img, int b_bytes, uint64_t da0,
                                   uint32_t a_step, uint64_t db0, uint32_t b_step, uint32_t* d_out) {
  using Mma = Wgmma<Family, N>;
  using C = typename Mma::CRegister;
  __shared__ __align__(1024) uint8_t buf[1024 + 64 * 128 + 256 * 128];
  uint32_t const raw = smem_u32(buf);
  uint8_t* const sA = buf + ((1024u - (raw & 1023u)) & 1023u);
  uint8_t* const sB = sA + 64 * 128;
  int const t = int(threadIdx.x);
  for (int c = t; c < 64 * 128 / 16; c += 128)
    reinterpret_cast<uint4*>(sA)[c] = reinterpret_cast<const uint4*>(a_img)[c];
  for (int c = t; c < b_bytes / 16; c += 128)
    reinterpret_cast<uint4*>(sB)[c] = reinterpret_cast<const uint4*>(b_img)[c];
  fence_proxy_async_shared_cta();
  __syncthreads();
  C d[Mma::kRegsD];
#pragma unroll
  for (int i = 0; i < Mma::kRegsD; ++i) {
    uint32_t const nan = 0x7fc00000u;
    std::memcpy(&d[i], &nan, 4);
  }
  GmmaDescriptor const da = GmmaDescriptor{da0}.advanced(smem_u32(sA));
  GmmaDescriptor const db = GmmaDescriptor{db0}.advanced(smem_u32(sB));
  wgmma_fence();
#pragma unroll
  for (int s = 0; s < 4; ++s)
    Mma::template ss<kTA, kTB>(d, da.advanced(a_step * s).desc, db.advanced(b_step * s).desc, s == 0 ? 0 : 1);
  wgmma_commit_group();
  wgmma_wait_group<0>();
  wgmma_fence_operand(d);
#pragma unroll
  for (int i = 0; i < Mma::kRegsD; ++i) std::memcpy(&d_out[t * Mma::kRegsD + i], &d[i], 4);
}

// The descriptor (at address 0) and per-k16 step of a tile with layout `l`.
template <bool kMn, class L>
void operand_desc(L const& l, uint64_t* desc, uint32_t* step) {
  bool ok = false;
  GmmaDescriptor const d = kMn ? make_gmma_desc_mn_major<2>(0, l, &ok) : make_gmma_desc_k_major<2>(0, l, &ok);
  EXPECT_TRUE(ok) << (kMn ? "MN" : "K") << "-major tile layout is not canonical";
  *desc = d.desc;
  *step = kMn ? 16u * gmma_swizzle_bytes(d.swizzle()) : 32u;
}

template <class Family, int N, bool kMnA, bool kMnB>
void run_major(Elem e, bool f16_acc, double tol) {
  using Mma = Wgmma<Family, N>;
  SCOPED_TRACE(testing::Message() << "m64n" << N << "k16 A " << (kMnA ? "MN" : "K") << "-major, B "
                                  << (kMnB ? "MN" : "K") << "-major");
  std::mt19937 rng(77 + N + 2 * kMnA + kMnB);
  // Logical operands, K contiguous: A(i, k) at i * 128 + 2k, B(j, k) likewise.
  std::vector<uint8_t> ha = random_operand(e, 64, 128, rng), hb = random_operand(e, N, 128, rng);
  auto const la = operand_layout<kMnA, 64>();
  auto const lb = operand_layout<kMnB, N>();
  std::vector<uint8_t> ia(64 * 128), ib(size_t(N) * 128);
  for (int k = 0; k < 64; ++k) {
    for (int i = 0; i < 64; ++i) std::memcpy(&ia[2 * size_t(la(i, k))], &ha[size_t(i) * 128 + 2 * k], 2);
    for (int j = 0; j < N; ++j) std::memcpy(&ib[2 * size_t(lb(j, k))], &hb[size_t(j) * 128 + 2 * k], 2);
  }
  uint64_t da0 = 0, db0 = 0;
  uint32_t a_step = 0, b_step = 0;
  operand_desc<kMnA>(la, &da0, &a_step);
  operand_desc<kMnB>(lb, &db0, &b_step);
  int const R = Mma::kRegsD;
  std::vector<uint32_t> hd;
  run_on_warpgroup(
      ia, ib, R,
      [&](const uint8_t* da, const uint8_t* db, uint32_t* dd) {
        wgmma_major_kernel<Family, N, kMnA ? 1 : 0, kMnB ? 1 : 0>
            <<<1, 128>>>(da, db, int(ib.size()), da0, a_step, db0, b_step, dd);
      },
      &hd);
  if (testing::Test::HasFatalFailure()) return;
  std::vector<double> got(64 * N, std::nan(""));
  unpack_accumulators(hd, R, N, f16_acc, false, got);
  double num = 0, den = 0;
  int shown = 0;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < 64; ++k)
        ref += decode(e, &ha[size_t(i) * 128 + 2 * k]) * decode(e, &hb[size_t(j) * 128 + 2 * k]);
      double const diff = got[i * N + j] - ref;
      num += diff * diff;
      den += ref * ref;
      if (!(std::fabs(diff) <= tol * (1.0 + std::fabs(ref))) && shown++ < 6)
        ADD_FAILURE() << "D(" << i << ", " << j << ") = " << got[i * N + j] << ", reference " << ref;
    }
  EXPECT_LE(std::sqrt(num / den), tol) << "relative norm error";
}

// Every transposition case; B spans 1 to 4 128B atoms (N = 64..256, the
// LBO between atoms) or one 64B / 32B atom (N = 32, 16).
TEST(HopperWgmma, MnMajorSS) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  run_major<F32BF16BF16, 256, true, false>(Elem::bf16, false, 1e-5);
  run_major<F32BF16BF16, 256, false, true>(Elem::bf16, false, 1e-5);
  run_major<F32BF16BF16, 256, true, true>(Elem::bf16, false, 1e-5);
  run_major<F32BF16BF16, 128, true, true>(Elem::bf16, false, 1e-5);
  run_major<F32BF16BF16, 64, false, true>(Elem::bf16, false, 1e-5);
  run_major<F32BF16BF16, 32, true, true>(Elem::bf16, false, 1e-5);
  run_major<F32BF16BF16, 16, false, true>(Elem::bf16, false, 1e-5);
  run_major<F32F16F16, 128, true, false>(Elem::f16, false, 1e-5);
  run_major<F16F16F16, 64, true, true>(Elem::f16, true, 5e-3);
}

// MN-major canonical tiles from Tessera layouts: the atom stride comes from
// the layout, near misses are rejected. Host only.
TEST(HopperWgmma, MnMajorDescriptorFromLayout) {
  using namespace tessera;
  auto const two_atoms = operand_layout<true, 128>();
  static_assert(is_gmma_mn_major_canonical<2>(decltype(operand_layout<true, 64>()){}, GmmaSwizzle::b128),
                "Sw<3,3,3> o ((64,1),64):((1,4096),64) must be the 128B MN-major canonical layout");
  EXPECT_TRUE(is_gmma_mn_major_canonical<2>(two_atoms, GmmaSwizzle::b128));
  bool ok = false;
  GmmaDescriptor const d = make_gmma_desc_mn_major<2>(0x8000, two_atoms, &ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(d.leading_byte_offset(), 8192u) << "LBO: bytes between the two 64-element atoms";
  EXPECT_EQ(d.stride_byte_offset(), 1024u) << "SBO: bytes between 8-row K groups";
  EXPECT_EQ(d.desc, make_gmma_desc_mn_major<GmmaSwizzle::b128>(0x8000, 8192).desc);
  GmmaDescriptor const d32 = make_gmma_desc_mn_major<2>(0, operand_layout<true, 16>(), &ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(d32.swizzle(), GmmaSwizzle::b32);
  EXPECT_EQ(d32.stride_byte_offset(), 256u);
  // Near misses: a K-major tile, atoms 4 KiB + 16 B apart, an unswizzled tile.
  EXPECT_FALSE(is_gmma_mn_major_canonical<2>(operand_layout<false, 64>(), GmmaSwizzle::b128));
  auto const skewed = make_composed_layout(
      Swizzle<3, 3, 3>{}, Int<0>{},
      make_layout(make_shape(make_shape(Int<64>{}, Int<2>{}), Int<64>{}),
                  make_stride(make_stride(Int<1>{}, Int<64 * 64 + 8>{}), Int<64>{})));
  EXPECT_FALSE(is_gmma_mn_major_canonical<2>(skewed, GmmaSwizzle::b128)) << "atoms off the swizzle pattern";
  auto const plain = make_layout(make_shape(Int<64>{}, Int<64>{}), make_stride(Int<1>{}, Int<64>{}));
  EXPECT_FALSE(is_gmma_mn_major_canonical<2>(plain, GmmaSwizzle::b128)) << "unswizzled";
  (void)make_gmma_desc_mn_major<2>(0x8000 + 512, two_atoms, &ok);
  EXPECT_FALSE(ok) << "start address not 1024-byte aligned";
}

}  // namespace
