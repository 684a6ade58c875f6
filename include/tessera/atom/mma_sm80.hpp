// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Ampere warp-level mma.sync atoms (row.col = TN: A is K-major, B is K-major).
//
// The operation structs are visible to a host compiler, so TiledMMAs built
// from them can be partitioned and printed on the host; their fma() exists
// only under nvcc and issues the instruction through tessera::arch, which
// fails the build for a target older than the instruction needs.
//
// Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8k*"): with
// lane = 4*group + tig (group = lane/4 in [0,8), tig = lane%4 in [0,4)) and
// E = 32/bits(A) elements per 32-bit register,
//   A (16 x K):  row = group + 8*i,        col = E*tig + e + 4E*j
//   B (K x 8):   row = E*tig + e + 4E*j,   col = group
//   C (16 x 8):  row = group + 8*i,        col = 2*tig + e
// where e walks the elements inside one register, i the two row halves and j
// the register groups along K. Value order is e fastest, then i, then j.
// m8n8k4.f64 is the 8-row case: A row = group, col = tig; C col = 2*tig + e.

#include <cstdint>

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

// Layouts of mma.m16n8kK with kBits-wide A/B elements and 32-bit-per-element
// or packed-16-bit accumulators (the C layout is the same for both).
template <int kBits, int kK>
struct sm80_16x8_layouts {
  static constexpr int kE = 32 / kBits;       // elements per 32-bit register
  static constexpr int kJ = kK / (4 * kE);    // register groups along K
  static_assert(kE * 4 * kJ == kK, "sm80_16x8_layouts: K must be a multiple of 4 elements per register group");
  // (T32,V) -> (M16,K): offset m + 16*k
  using ALayout = warp_tv_layout<16 * kE, 1, vmode<kE, 16>, vmode<2, 8>, vmode<kJ, 16 * 4 * kE>>;
  // (T32,V) -> (N8,K): offset n + 8*k
  using BLayout = warp_tv_layout<8 * kE, 1, vmode<kE, 8>, vmode<kJ, 8 * 4 * kE>>;
  // (T32,V4) -> (M16,N8): offset m + 16*n
  using CLayout = warp_tv_layout<32, 1, vmode<2, 16>, vmode<2, 8>>;
};

}  // namespace detail

// One mma.sync of shape kM x kN x kK with element types D, A, B, C.
// ArchD..ArchC are the operand kinds of tessera::arch::MmaSync.
template <int kM, int kN, int kK, class D, class A, class B, class C>
struct SM80_MMA_TN {
  static constexpr int kElemsA = 32 / (8 * int(sizeof(A)));  // per 32-bit register (1 for f64)
  static constexpr int kRegBitsAB = sizeof(A) == 8 ? 64 : 32;
  using RegA = std::conditional_t<sizeof(A) == 8, double, std::uint32_t>;
  using RegD = std::conditional_t<sizeof(D) == 2, std::uint32_t, std::conditional_t<sizeof(D) == 8, double, float>>;
  using DRegisters = RegD[kM * kN * 8 * int(sizeof(D)) / (32 * 8 * int(sizeof(RegD)))];
  using ARegisters = RegA[kM * kK * 8 * int(sizeof(A)) / (32 * 8 * int(sizeof(RegA)))];
  using BRegisters = RegA[kN * kK * 8 * int(sizeof(B)) / (32 * 8 * int(sizeof(RegA)))];
  using CRegisters = RegD[kM * kN * 8 * int(sizeof(C)) / (32 * 8 * int(sizeof(RegD)))];

#if defined(__CUDACC__)
  template <class T>
  using arch_kind = std::conditional_t<
      std::is_same_v<T, half_t>, arch::F16,
      std::conditional_t<std::is_same_v<T, bfloat16_t>, arch::BF16,
                         std::conditional_t<std::is_same_v<T, tfloat32_t>, arch::TF32,
                                            std::conditional_t<std::is_same_v<T, float>, arch::F32, arch::F64>>>>;
  using Instruction = arch::MmaSync<kM, kN, kK, arch_kind<D>, arch_kind<A>, arch_kind<B>, arch_kind<C>>;

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

// m16n8kK: every 16-row form.
template <int kK, class D, class A, class B, class C>
struct MMA_Traits<SM80_MMA_TN<16, 8, kK, D, A, B, C>> {
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = C;

  using Shape_MNK = Shape<_16, _8, Int<kK>>;
  using ThrID = Layout<_32>;
  using ALayout = typename detail::sm80_16x8_layouts<8 * int(sizeof(A)), kK>::ALayout;  // (T32,V) -> (M16,K)
  using BLayout = typename detail::sm80_16x8_layouts<8 * int(sizeof(B)), kK>::BLayout;  // (T32,V) -> (N8,K)
  using CLayout = typename detail::sm80_16x8_layouts<8 * int(sizeof(A)), kK>::CLayout;  // (T32,V4) -> (M16,N8)
};

// m8n8k4.f64.
template <class D, class A, class B, class C>
struct MMA_Traits<SM80_MMA_TN<8, 8, 4, D, A, B, C>> {
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = C;

  using Shape_MNK = Shape<_8, _8, _4>;
  using ThrID = Layout<_32>;
  using ALayout = detail::warp_tv_layout<8, 1>;                // (T32,V1) -> (M8,K4)
  using BLayout = detail::warp_tv_layout<8, 1>;                // (T32,V1) -> (N8,K4)
  using CLayout = detail::warp_tv_layout<16, 1, detail::vmode<2, 8>>;  // (T32,V2) -> (M8,N8)
};

}  // namespace tessera
