// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Turing/Ampere warp-level mma.sync atoms (row.col = TN: A is K-major, B is
// K-major). SM80_MMA_TN covers every form tessera/arch/sm80/mma.cuh wraps;
// the SM75_ names are the forms that already exist on sm_75, and the minimum
// architecture a build enforces is the instruction's own (sm_75 for m16n8k8
// f16 and m8n8k16 s8/u8, whatever the name says).
//
// The operation structs are visible to a host compiler, so TiledMMAs built
// from them can be partitioned and printed on the host; their fma() exists
// only under nvcc and issues the instruction through tessera::arch, which
// fails the build for a target older than the instruction needs.
//
// Fragment layouts (PTX ISA, "Matrix Fragments for mma.mMnNkK"): with
// lane = 4*group + tig (group = lane/4 in [0,8), tig = lane%4 in [0,4)) and
// E = 32/bits(A) elements per 32-bit register (1 for f64's 64-bit ones),
//   A (M x K):  row = group + 8*i,        col = E*tig + e + 4E*j
//   B (K x 8):  row = E*tig + e + 4E*j,   col = group
//   C (M x 8):  row = group + 8*i,        col = 2*tig + e
// where e walks the elements inside one register, i the M/8 row halves and j
// the register groups along K. Value order is e fastest, then i, then j.
// M = 8 (m8n8k4 f64, m8n8k16 s8/u8) has no second row half: A row = group,
// col = E*tig + e; C col = 2*tig + e. The s8/u8 tables (E = 4) read the same:
// m16n8k32 A row = group for a0..a3 and a8..a11, col = 4*tig + (i & 3)
// (+16 from a8 on); B row = 4*tig + (i & 3) (+16 from b4 on).

#include <cstdint>
#include <type_traits>

#include <tessera/atom/mma_traits.hpp>

#if defined(__CUDACC__)
#include <tessera/arch/sm80/mma.cuh>
#endif

namespace tessera {

namespace detail {

// One (size, stride) value mode; modes of size 1 are dropped by squeeze_modes.
template <int kSize, int kStride>
struct vmode {};

template <class... Modes>
struct vmode_list {};

template <class Kept, class... Rest>
struct squeeze_modes_impl;

template <class... Kept>
struct squeeze_modes_impl<vmode_list<Kept...>> {
  using type = vmode_list<Kept...>;
};
template <class... Kept, int kSize, int kStride, class... Rest>
struct squeeze_modes_impl<vmode_list<Kept...>, vmode<kSize, kStride>, Rest...> {
  using type = typename squeeze_modes_impl<
      std::conditional_t<kSize == 1, vmode_list<Kept...>, vmode_list<Kept..., vmode<kSize, kStride>>>,
      Rest...>::type;
};

// The value sub-layout as (shape, stride): no modes -> _1:_0, one mode -> a
// scalar mode, several -> a tuple (so the printed form matches the PTX tables
// without spurious 1s).
template <class List>
struct value_modes;
template <>
struct value_modes<vmode_list<>> {
  using shape = _1;
  using stride = _0;
};
template <int kS, int kD>
struct value_modes<vmode_list<vmode<kS, kD>>> {
  using shape = Int<kS>;
  using stride = Int<kD>;
};
template <int... kS, int... kD>
  requires(sizeof...(kS) > 1)
struct value_modes<vmode_list<vmode<kS, kD>...>> {
  using shape = Shape<Int<kS>...>;
  using stride = Stride<Int<kD>...>;
};

// (T32,V) -> coordinate, thread mode (tig, group) with the given strides.
template <int kTigStride, int kGroupStride, class... Modes>
using warp_tv_layout =
    Layout<Shape<Shape<_4, _8>, typename value_modes<typename squeeze_modes_impl<vmode_list<>, Modes...>::type>::shape>,
           Stride<Stride<Int<kTigStride>, Int<kGroupStride>>,
                  typename value_modes<typename squeeze_modes_impl<vmode_list<>, Modes...>::type>::stride>>;

// Layouts of mma.mMn8kK (M = 8 or 16) with kBits-wide A/B elements. The C
// layout is the same for 32-bit accumulators and packed 16-bit ones.
template <int kM, int kBits, int kK>
struct sm80_mma_layouts {
  static_assert(kM == 8 || kM == 16, "sm80_mma_layouts: mma.sync shapes have M = 8 or 16");
  static_assert(kBits != 64 || (kM == 8 && kK == 4), "sm80_mma_layouts: f64 is wrapped as m8n8k4 only");
  static constexpr int kE = kBits >= 32 ? 1 : 32 / kBits;  // elements per register
  static constexpr int kI = kM / 8;                        // row halves
  static constexpr int kJ = kK / (4 * kE);                 // register groups along K
  static_assert(kE * 4 * kJ == kK, "sm80_mma_layouts: K must be a multiple of 4 elements per register group");
  // (T32,V) -> (M,K): offset m + M*k
  using ALayout = warp_tv_layout<kM * kE, 1, vmode<kE, kM>, vmode<kI, 8>, vmode<kJ, kM * 4 * kE>>;
  // (T32,V) -> (N8,K): offset n + 8*k
  using BLayout = warp_tv_layout<8 * kE, 1, vmode<kE, 8>, vmode<kJ, 8 * 4 * kE>>;
  // (T32,V) -> (M,N8): offset m + M*n
  using CLayout = warp_tv_layout<2 * kM, 1, vmode<2, kM>, vmode<kI, 8>>;
};

}  // namespace detail

// One mma.sync of shape kM x kN x kK with element types D, A, B, C
// (half_t, bfloat16_t, tfloat32_t, float, double, int8_t, uint8_t, int32_t).
template <int kM, int kN, int kK, class D, class A, class B, class C>
struct SM80_MMA_TN {
  static constexpr int kElemsA = 32 / (8 * int(sizeof(A)));  // per 32-bit register (1 for f64)
  static constexpr int kRegBitsAB = sizeof(A) == 8 ? 64 : 32;
  using RegA = std::conditional_t<sizeof(A) == 8, double, std::uint32_t>;
  // float and double accumulators sit in their own register class; packed
  // f16 pairs and s32 values in 32-bit integer registers.
  using RegD = std::conditional_t<std::is_same_v<D, double>, double,
                                  std::conditional_t<std::is_same_v<D, float>, float, std::uint32_t>>;
  using DRegisters = RegD[kM * kN * 8 * int(sizeof(D)) / (32 * 8 * int(sizeof(RegD)))];
  using ARegisters = RegA[kM * kK * 8 * int(sizeof(A)) / (32 * 8 * int(sizeof(RegA)))];
  using BRegisters = RegA[kN * kK * 8 * int(sizeof(B)) / (32 * 8 * int(sizeof(RegA)))];
  using CRegisters = RegD[kM * kN * 8 * int(sizeof(C)) / (32 * 8 * int(sizeof(RegD)))];

#if defined(__CUDACC__)
  template <class T>
  using arch_kind = std::conditional_t<
      std::is_same_v<T, half_t>, arch::F16,
      std::conditional_t<
          std::is_same_v<T, bfloat16_t>, arch::BF16,
          std::conditional_t<
              std::is_same_v<T, tfloat32_t>, arch::TF32,
              std::conditional_t<
                  std::is_same_v<T, float>, arch::F32,
                  std::conditional_t<
                      std::is_same_v<T, std::int8_t>, arch::S8,
                      std::conditional_t<std::is_same_v<T, std::uint8_t>, arch::U8,
                                         std::conditional_t<std::is_same_v<T, std::int32_t>, arch::S32,
                                                            arch::F64>>>>>>>;
  using Instruction = arch::MmaSync<kM, kN, kK, arch_kind<D>, arch_kind<A>, arch_kind<B>, arch_kind<C>>;
  static_assert(std::is_same_v<DRegisters, typename Instruction::FragD> &&
                    std::is_same_v<ARegisters, typename Instruction::FragA> &&
                    std::is_same_v<BRegisters, typename Instruction::FragB> &&
                    std::is_same_v<CRegisters, typename Instruction::FragC>,
                "SM80_MMA_TN: register arrays differ from the instruction's fragments");

  // d = a * b + c. PTX: mma.sync.aligned.m{kM}n{kN}k{kK}.row.col; sm_75/sm_80+ (see arch/sm80/mma.cuh).
  __device__ static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b, CRegisters const& c) {
    Instruction::fma(d, a, b, c);
  }
#endif
};

// The CuTe names.
using SM80_16x8x8_F16F16F16F16_TN = SM80_MMA_TN<16, 8, 8, half_t, half_t, half_t, half_t>;
using SM80_16x8x16_F16F16F16F16_TN = SM80_MMA_TN<16, 8, 16, half_t, half_t, half_t, half_t>;
using SM80_16x8x8_F32F16F16F32_TN = SM80_MMA_TN<16, 8, 8, float, half_t, half_t, float>;
using SM80_16x8x16_F32F16F16F32_TN = SM80_MMA_TN<16, 8, 16, float, half_t, half_t, float>;
using SM80_16x8x8_F32BF16BF16F32_TN = SM80_MMA_TN<16, 8, 8, float, bfloat16_t, bfloat16_t, float>;
using SM80_16x8x16_F32BF16BF16F32_TN = SM80_MMA_TN<16, 8, 16, float, bfloat16_t, bfloat16_t, float>;
using SM80_16x8x4_F32TF32TF32F32_TN = SM80_MMA_TN<16, 8, 4, float, tfloat32_t, tfloat32_t, float>;
using SM80_16x8x8_F32TF32TF32F32_TN = SM80_MMA_TN<16, 8, 8, float, tfloat32_t, tfloat32_t, float>;
using SM80_8x8x4_F64F64F64F64_TN = SM80_MMA_TN<8, 8, 4, double, double, double, double>;

// Integer forms: s8/u8 A and B (either signedness each), s32 accumulators.
using SM80_8x8x16_S32S8S8S32_TN = SM80_MMA_TN<8, 8, 16, std::int32_t, std::int8_t, std::int8_t, std::int32_t>;
using SM80_8x8x16_S32S8U8S32_TN = SM80_MMA_TN<8, 8, 16, std::int32_t, std::int8_t, std::uint8_t, std::int32_t>;
using SM80_8x8x16_S32U8S8S32_TN = SM80_MMA_TN<8, 8, 16, std::int32_t, std::uint8_t, std::int8_t, std::int32_t>;
using SM80_8x8x16_S32U8U8S32_TN = SM80_MMA_TN<8, 8, 16, std::int32_t, std::uint8_t, std::uint8_t, std::int32_t>;
using SM80_16x8x16_S32S8S8S32_TN = SM80_MMA_TN<16, 8, 16, std::int32_t, std::int8_t, std::int8_t, std::int32_t>;
using SM80_16x8x16_S32S8U8S32_TN = SM80_MMA_TN<16, 8, 16, std::int32_t, std::int8_t, std::uint8_t, std::int32_t>;
using SM80_16x8x16_S32U8S8S32_TN = SM80_MMA_TN<16, 8, 16, std::int32_t, std::uint8_t, std::int8_t, std::int32_t>;
using SM80_16x8x16_S32U8U8S32_TN = SM80_MMA_TN<16, 8, 16, std::int32_t, std::uint8_t, std::uint8_t, std::int32_t>;
using SM80_16x8x32_S32S8S8S32_TN = SM80_MMA_TN<16, 8, 32, std::int32_t, std::int8_t, std::int8_t, std::int32_t>;
using SM80_16x8x32_S32S8U8S32_TN = SM80_MMA_TN<16, 8, 32, std::int32_t, std::int8_t, std::uint8_t, std::int32_t>;
using SM80_16x8x32_S32U8S8S32_TN = SM80_MMA_TN<16, 8, 32, std::int32_t, std::uint8_t, std::int8_t, std::int32_t>;
using SM80_16x8x32_S32U8U8S32_TN = SM80_MMA_TN<16, 8, 32, std::int32_t, std::uint8_t, std::uint8_t, std::int32_t>;

// The Turing names CuTe also has: the same instructions, sm_75+.
using SM75_16x8x8_F32F16F16F32_TN = SM80_16x8x8_F32F16F16F32_TN;
using SM75_8x8x16_S32S8S8S32_TN = SM80_8x8x16_S32S8S8S32_TN;

// Every form: mMn8kK, M = 8 or 16.
template <int kM, int kK, class D, class A, class B, class C>
struct MMA_Traits<SM80_MMA_TN<kM, 8, kK, D, A, B, C>> {
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = C;

  using Shape_MNK = Shape<Int<kM>, _8, Int<kK>>;
  using ThrID = Layout<_32>;
  using ALayout = typename detail::sm80_mma_layouts<kM, 8 * int(sizeof(A)), kK>::ALayout;  // (T32,V) -> (M,K)
  using BLayout = typename detail::sm80_mma_layouts<kM, 8 * int(sizeof(B)), kK>::BLayout;  // (T32,V) -> (N8,K)
  using CLayout = typename detail::sm80_mma_layouts<kM, 8 * int(sizeof(A)), kK>::CLayout;  // (T32,V) -> (M,N8)
};

}  // namespace tessera
