// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// mma.sync: warp-wide matrix multiply-accumulate D = A * B + C on the tensor
// cores, A row-major (M x K) and B column-major (K x N) -- "row.col", the TN
// GEMM case.
//
//   mma.sync.aligned.<shape>.row.col.<dtype>.<atype>.<btype>.<ctype> d, a, b, c;
//
// Supported here (shape, D/A/B/C types, minimum architecture):
//   m16n8k8   f16.f16.f16.f16      sm_75
//   m16n8k8   f32.f16.f16.f32      sm_75
//   m16n8k8   f32.bf16.bf16.f32    sm_80
//   m16n8k16  f16.f16.f16.f16      sm_80
//   m16n8k16  f32.f16.f16.f32      sm_80
//   m16n8k16  f32.bf16.bf16.f32    sm_80
//   m16n8k4   f32.tf32.tf32.f32    sm_80
//   m16n8k8   f32.tf32.tf32.f32    sm_80
//   m8n8k4    f64.f64.f64.f64      sm_80
//   m8n8k16   s32.{s8,u8}.{s8,u8}.s32   sm_75
//   m16n8k16  s32.{s8,u8}.{s8,u8}.s32   sm_80
//   m16n8k32  s32.{s8,u8}.{s8,u8}.s32   sm_80
// (the integer forms: A and B signedness chosen independently, four
// combinations per shape; without .satfinite)
//
// Registers per thread: f16/bf16 operands pack two elements per uint32_t,
// tf32 one element per uint32_t (an fp32 bit pattern whose low 13 mantissa
// bits are ignored), s8/u8 four elements per uint32_t (element 0 in the low
// byte), f32 accumulators are float, s32 accumulators are uint32_t holding the
// two's-complement bits, f64 operands are double.
// Which matrix element each register holds (the fragment layout) is the PTX
// ISA's "Matrix Fragments for mma.mMnNkK" table; tests/device/
// test_arch_sm80_mma.cu encodes those maps and checks every form against an
// fp64 (integer forms: exact int64) reference.

#include <cstdint>
#include <type_traits>

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

// Operand kinds for mma_sync.
struct F16 {};
struct BF16 {};
struct TF32 {};
struct F32 {};
struct F64 {};
struct S8 {};
struct U8 {};
struct S32 {};

namespace detail {

// Register type and elements per register of one operand kind.
template <class Kind>
struct mma_operand;
template <>
struct mma_operand<F16> {
  using reg = uint32_t;
  static constexpr int kElemsPerReg = 2;
};
template <>
struct mma_operand<BF16> {
  using reg = uint32_t;
  static constexpr int kElemsPerReg = 2;
};
template <>
struct mma_operand<TF32> {
  using reg = uint32_t;
  static constexpr int kElemsPerReg = 1;
};
template <>
struct mma_operand<F32> {
  using reg = float;
  static constexpr int kElemsPerReg = 1;
};
template <>
struct mma_operand<F64> {
  using reg = double;
  static constexpr int kElemsPerReg = 1;
};
template <>
struct mma_operand<S8> {
  using reg = uint32_t;
  static constexpr int kElemsPerReg = 4;
};
template <>
struct mma_operand<U8> {
  using reg = uint32_t;
  static constexpr int kElemsPerReg = 4;
};
// NOTE: uint32_t, not int32_t, as CuTe's integer atoms declare their
// accumulator registers; MMA_Atom::call moves int32_t values in and out
// bit for bit.
template <>
struct mma_operand<S32> {
  using reg = uint32_t;
  static constexpr int kElemsPerReg = 1;
};

template <int kM, int kN, int kK>
struct mma_shape {};

template <class Kind>
inline constexpr bool is_int8_kind_v = std::is_same_v<Kind, S8> || std::is_same_v<Kind, U8>;

// Minimum architecture (75, 80) of a shape/type combination, 0 when PTX has
// no such mma.sync (or Tessera does not wrap it). The PTX ISA's target notes:
// m16n8k8 f16 and m8n8k16 s8/u8 from sm_75; m16n8k16/m16n8k32 s8/u8, bf16,
// tf32, m16n8k16 f16 and m8n8k4 f64 from sm_80.
template <int kM, int kN, int kK, class D, class A, class B, class C>
constexpr int mma_min_arch() {
  constexpr bool k16x8x8 = kM == 16 && kN == 8 && kK == 8;
  constexpr bool k16x8x16 = kM == 16 && kN == 8 && kK == 16;
  constexpr bool k16x8x32 = kM == 16 && kN == 8 && kK == 32;
  constexpr bool k16x8x4 = kM == 16 && kN == 8 && kK == 4;
  constexpr bool k8x8x4 = kM == 8 && kN == 8 && kK == 4;
  constexpr bool k8x8x16 = kM == 8 && kN == 8 && kK == 16;
  constexpr bool kHalfIn = std::is_same_v<A, F16> && std::is_same_v<B, F16>;
  constexpr bool kBf16In = std::is_same_v<A, BF16> && std::is_same_v<B, BF16>;
  constexpr bool kTf32In = std::is_same_v<A, TF32> && std::is_same_v<B, TF32>;
  constexpr bool kF64All = std::is_same_v<D, F64> && std::is_same_v<A, F64> && std::is_same_v<B, F64> &&
                           std::is_same_v<C, F64>;
  constexpr bool kAccF16 = std::is_same_v<D, F16> && std::is_same_v<C, F16>;
  constexpr bool kAccF32 = std::is_same_v<D, F32> && std::is_same_v<C, F32>;
  constexpr bool kInt8In = is_int8_kind_v<A> && is_int8_kind_v<B>;
  constexpr bool kAccS32 = std::is_same_v<D, S32> && std::is_same_v<C, S32>;
  if (k16x8x8 && kHalfIn && (kAccF16 || kAccF32)) return 75;
  if (k8x8x16 && kInt8In && kAccS32) return 75;
  if ((k16x8x16 || k16x8x32) && kInt8In && kAccS32) return 80;
  if (k16x8x8 && kBf16In && kAccF32) return 80;
  if (k16x8x16 && kHalfIn && (kAccF16 || kAccF32)) return 80;
  if (k16x8x16 && kBf16In && kAccF32) return 80;
  if ((k16x8x4 || k16x8x8) && kTf32In && kAccF32) return 80;
  if (k8x8x4 && kF64All) return 80;
  return 0;
}

}  // namespace detail

// One mma.sync instruction: shape kM x kN x kK, operand kinds D, A, B, C.
// FragA/FragB/FragC/FragD are this thread's register arrays.
template <int kM, int kN, int kK, class D, class A, class B, class C>
struct MmaSync {
  static constexpr int kMinArch = detail::mma_min_arch<kM, kN, kK, D, A, B, C>();
  static_assert(kMinArch != 0,
                "mma_sync: no mma.sync for this shape and operand kinds [see the table in "
                "tessera/arch/sm80/mma.cuh]");

  using RegD = typename detail::mma_operand<D>::reg;
  using RegA = typename detail::mma_operand<A>::reg;
  using RegB = typename detail::mma_operand<B>::reg;
  using RegC = typename detail::mma_operand<C>::reg;
  static constexpr int kRegsA = kM * kK / 32 / detail::mma_operand<A>::kElemsPerReg;
  static constexpr int kRegsB = kK * kN / 32 / detail::mma_operand<B>::kElemsPerReg;
  static constexpr int kRegsC = kM * kN / 32 / detail::mma_operand<C>::kElemsPerReg;
  static constexpr int kRegsD = kM * kN / 32 / detail::mma_operand<D>::kElemsPerReg;
  using FragA = RegA[kRegsA];
  using FragB = RegB[kRegsB];
  using FragC = RegC[kRegsC];
  using FragD = RegD[kRegsD];

  // d = a * b + c. d may alias c. All 32 lanes must call it.
  __device__ static __forceinline__ void fma(FragD& d, const FragA& a, const FragB& b, const FragC& c) {
#if TESSERA_DEVICE_PASS
    if constexpr (kMinArch == 75) {
#if TESSERA_SM75_ENABLED
      issue(d, a, b, c);
#else
      tessera_error_requires_sm75_or_newer();
#endif
    } else {
#if TESSERA_SM80_ENABLED
      issue(d, a, b, c);
#else
      tessera_error_requires_sm80_or_newer();
#endif
    }
#else
    (void)d;
    (void)a;
    (void)b;
    (void)c;
#endif
  }

 private:
  // The asm statements differ only in the opcode string and the operand
  // pattern (registers per operand, register class); one macro per pattern.
#define TESSERA_MMA_ASM_D2U_A2_B1_C2U(OPCODE)                                                    \
  asm volatile(OPCODE " {%0, %1}, {%2, %3}, {%4}, {%5, %6};\n"                                  \
               : "=r"(d[0]), "=r"(d[1])                                                         \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]))
#define TESSERA_MMA_ASM_D4F_A2_B1_C4F(OPCODE)                                                    \
  asm volatile(OPCODE " {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};\n"                 \
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                 \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]))
#define TESSERA_MMA_ASM_D2U_A4_B2_C2U(OPCODE)                                                    \
  asm volatile(OPCODE " {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};\n"                      \
               : "=r"(d[0]), "=r"(d[1])                                                         \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]),   \
                 "r"(c[1]))
#define TESSERA_MMA_ASM_D4F_A4_B2_C4F(OPCODE)                                                    \
  asm volatile(OPCODE " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"  \
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                 \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]),   \
                 "f"(c[1]), "f"(c[2]), "f"(c[3]))
#define TESSERA_MMA_ASM_D2D_A1_B1_C2D(OPCODE)                                                    \
  asm volatile(OPCODE " {%0, %1}, {%2}, {%3}, {%4, %5};\n"                                      \
               : "=d"(d[0]), "=d"(d[1])                                                         \
               : "d"(a[0]), "d"(b[0]), "d"(c[0]), "d"(c[1]))
#define TESSERA_MMA_ASM_D2U_A1_B1_C2U(OPCODE)                                                    \
  asm volatile(OPCODE " {%0, %1}, {%2}, {%3}, {%4, %5};\n"                                      \
               : "=r"(d[0]), "=r"(d[1])                                                         \
               : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]))
#define TESSERA_MMA_ASM_D4U_A2_B1_C4U(OPCODE)                                                    \
  asm volatile(OPCODE " {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};\n"                 \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                 \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
#define TESSERA_MMA_ASM_D4U_A4_B2_C4U(OPCODE)                                                    \
  asm volatile(OPCODE " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"  \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                 \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]),   \
                 "r"(c[1]), "r"(c[2]), "r"(c[3]))
// The four signedness combinations of one integer shape: the opcode is
// "mma.sync.aligned.<SHAPE>.row.col.s32.<atype>.<btype>.s32".
#define TESSERA_MMA_ASM_INT8(PATTERN, SHAPE)                                                     \
  if constexpr (std::is_same_v<A, S8> && std::is_same_v<B, S8>) {                               \
    PATTERN("mma.sync.aligned." SHAPE ".row.col.s32.s8.s8.s32");                                \
  } else if constexpr (std::is_same_v<A, S8>) {                                                  \
    PATTERN("mma.sync.aligned." SHAPE ".row.col.s32.s8.u8.s32");                                \
  } else if constexpr (std::is_same_v<B, S8>) {                                                  \
    PATTERN("mma.sync.aligned." SHAPE ".row.col.s32.u8.s8.s32");                                \
  } else {                                                                                       \
    PATTERN("mma.sync.aligned." SHAPE ".row.col.s32.u8.u8.s32");                                \
  }

  __device__ static __forceinline__ void issue(FragD& d, const FragA& a, const FragB& b, const FragC& c) {
    constexpr bool kAccF16 = std::is_same_v<D, F16>;
    constexpr bool kBf16 = std::is_same_v<A, BF16>;
    if constexpr (std::is_same_v<A, F64>) {
      TESSERA_MMA_ASM_D2D_A1_B1_C2D("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
    } else if constexpr (detail::is_int8_kind_v<A> && kM == 8) {
      TESSERA_MMA_ASM_INT8(TESSERA_MMA_ASM_D2U_A1_B1_C2U, "m8n8k16")
    } else if constexpr (detail::is_int8_kind_v<A> && kK == 16) {
      TESSERA_MMA_ASM_INT8(TESSERA_MMA_ASM_D4U_A2_B1_C4U, "m16n8k16")
    } else if constexpr (detail::is_int8_kind_v<A>) {
      TESSERA_MMA_ASM_INT8(TESSERA_MMA_ASM_D4U_A4_B2_C4U, "m16n8k32")
    } else if constexpr (std::is_same_v<A, TF32> && kK == 4) {
      TESSERA_MMA_ASM_D4F_A2_B1_C4F("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32");
    } else if constexpr (std::is_same_v<A, TF32>) {
      TESSERA_MMA_ASM_D4F_A4_B2_C4F("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
    } else if constexpr (kK == 8 && kAccF16) {
      TESSERA_MMA_ASM_D2U_A2_B1_C2U("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16");
    } else if constexpr (kK == 8 && kBf16) {
      TESSERA_MMA_ASM_D4F_A2_B1_C4F("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32");
    } else if constexpr (kK == 8) {
      TESSERA_MMA_ASM_D4F_A2_B1_C4F("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
    } else if constexpr (kAccF16) {
      TESSERA_MMA_ASM_D2U_A4_B2_C2U("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
    } else if constexpr (kBf16) {
      TESSERA_MMA_ASM_D4F_A4_B2_C4F("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
    } else {
      TESSERA_MMA_ASM_D4F_A4_B2_C4F("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    }
  }

#undef TESSERA_MMA_ASM_D2U_A2_B1_C2U
#undef TESSERA_MMA_ASM_D4F_A2_B1_C4F
#undef TESSERA_MMA_ASM_D2U_A4_B2_C2U
#undef TESSERA_MMA_ASM_D4F_A4_B2_C4F
#undef TESSERA_MMA_ASM_D2D_A1_B1_C2D
#undef TESSERA_MMA_ASM_D2U_A1_B1_C2U
#undef TESSERA_MMA_ASM_D4U_A2_B1_C4U
#undef TESSERA_MMA_ASM_D4U_A4_B2_C4U
#undef TESSERA_MMA_ASM_INT8
};

// d = a * b + c with one mma.sync of the given shape and operand kinds.
template <int kM, int kN, int kK, class D, class A, class B, class C, class Op = MmaSync<kM, kN, kK, D, A, B, C>>
__device__ __forceinline__ void mma_sync(typename Op::FragD& d, const typename Op::FragA& a,
                                         const typename Op::FragB& b, const typename Op::FragC& c) {
  Op::fma(d, a, b, c);
}

// Named instructions: mma_<shape>_<d><a><b><c>(d, a, b, c).
using Mma_m16n8k8_f16f16f16f16 = MmaSync<16, 8, 8, F16, F16, F16, F16>;
using Mma_m16n8k8_f32f16f16f32 = MmaSync<16, 8, 8, F32, F16, F16, F32>;
using Mma_m16n8k8_f32bf16bf16f32 = MmaSync<16, 8, 8, F32, BF16, BF16, F32>;
using Mma_m16n8k16_f16f16f16f16 = MmaSync<16, 8, 16, F16, F16, F16, F16>;
using Mma_m16n8k16_f32f16f16f32 = MmaSync<16, 8, 16, F32, F16, F16, F32>;
using Mma_m16n8k16_f32bf16bf16f32 = MmaSync<16, 8, 16, F32, BF16, BF16, F32>;
using Mma_m16n8k4_f32tf32tf32f32 = MmaSync<16, 8, 4, F32, TF32, TF32, F32>;
using Mma_m16n8k8_f32tf32tf32f32 = MmaSync<16, 8, 8, F32, TF32, TF32, F32>;
using Mma_m8n8k4_f64f64f64f64 = MmaSync<8, 8, 4, F64, F64, F64, F64>;
// The integer forms, reached through their aliases:
// Mma_m16n8k32_s32s8s8s32::fma(d, a, b, c).
using Mma_m8n8k16_s32s8s8s32 = MmaSync<8, 8, 16, S32, S8, S8, S32>;
using Mma_m8n8k16_s32s8u8s32 = MmaSync<8, 8, 16, S32, S8, U8, S32>;
using Mma_m8n8k16_s32u8s8s32 = MmaSync<8, 8, 16, S32, U8, S8, S32>;
using Mma_m8n8k16_s32u8u8s32 = MmaSync<8, 8, 16, S32, U8, U8, S32>;
using Mma_m16n8k16_s32s8s8s32 = MmaSync<16, 8, 16, S32, S8, S8, S32>;
using Mma_m16n8k16_s32s8u8s32 = MmaSync<16, 8, 16, S32, S8, U8, S32>;
using Mma_m16n8k16_s32u8s8s32 = MmaSync<16, 8, 16, S32, U8, S8, S32>;
using Mma_m16n8k16_s32u8u8s32 = MmaSync<16, 8, 16, S32, U8, U8, S32>;
using Mma_m16n8k32_s32s8s8s32 = MmaSync<16, 8, 32, S32, S8, S8, S32>;
using Mma_m16n8k32_s32s8u8s32 = MmaSync<16, 8, 32, S32, S8, U8, S32>;
using Mma_m16n8k32_s32u8s8s32 = MmaSync<16, 8, 32, S32, U8, S8, S32>;
using Mma_m16n8k32_s32u8u8s32 = MmaSync<16, 8, 32, S32, U8, U8, S32>;

// PTX: mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16; sm_75+.
__device__ __forceinline__ void mma_m16n8k8_f16f16f16f16(uint32_t (&d)[2], const uint32_t (&a)[2],
                                                         const uint32_t (&b)[1], const uint32_t (&c)[2]) {
  Mma_m16n8k8_f16f16f16f16::fma(d, a, b, c);
}
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32; sm_75+.
__device__ __forceinline__ void mma_m16n8k8_f32f16f16f32(float (&d)[4], const uint32_t (&a)[2],
                                                         const uint32_t (&b)[1], const float (&c)[4]) {
  Mma_m16n8k8_f32f16f16f32::fma(d, a, b, c);
}
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32; sm_80+.
__device__ __forceinline__ void mma_m16n8k8_f32bf16bf16f32(float (&d)[4], const uint32_t (&a)[2],
                                                           const uint32_t (&b)[1], const float (&c)[4]) {
  Mma_m16n8k8_f32bf16bf16f32::fma(d, a, b, c);
}
// PTX: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16; sm_80+.
__device__ __forceinline__ void mma_m16n8k16_f16f16f16f16(uint32_t (&d)[2], const uint32_t (&a)[4],
                                                          const uint32_t (&b)[2], const uint32_t (&c)[2]) {
  Mma_m16n8k16_f16f16f16f16::fma(d, a, b, c);
}
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32; sm_80+.
__device__ __forceinline__ void mma_m16n8k16_f32f16f16f32(float (&d)[4], const uint32_t (&a)[4],
                                                          const uint32_t (&b)[2], const float (&c)[4]) {
  Mma_m16n8k16_f32f16f16f32::fma(d, a, b, c);
}
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32; sm_80+.
__device__ __forceinline__ void mma_m16n8k16_f32bf16bf16f32(float (&d)[4], const uint32_t (&a)[4],
                                                            const uint32_t (&b)[2], const float (&c)[4]) {
  Mma_m16n8k16_f32bf16bf16f32::fma(d, a, b, c);
}
// PTX: mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32; sm_80+.
__device__ __forceinline__ void mma_m16n8k4_f32tf32tf32f32(float (&d)[4], const uint32_t (&a)[2],
                                                           const uint32_t (&b)[1], const float (&c)[4]) {
  Mma_m16n8k4_f32tf32tf32f32::fma(d, a, b, c);
}
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32; sm_80+.
__device__ __forceinline__ void mma_m16n8k8_f32tf32tf32f32(float (&d)[4], const uint32_t (&a)[4],
                                                           const uint32_t (&b)[2], const float (&c)[4]) {
  Mma_m16n8k8_f32tf32tf32f32::fma(d, a, b, c);
}
// PTX: mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64; sm_80+.
__device__ __forceinline__ void mma_m8n8k4_f64f64f64f64(double (&d)[2], const double (&a)[1],
                                                        const double (&b)[1], const double (&c)[2]) {
  Mma_m8n8k4_f64f64f64f64::fma(d, a, b, c);
}

}  // namespace tessera::arch
