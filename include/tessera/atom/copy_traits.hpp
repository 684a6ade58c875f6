// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Copy_Traits<Op>: how a copy operation spreads its bits over threads.
//
//   ThrID       atom thread index -> hardware thread
//   SrcLayout   (thr, bit) -> bit offset in the atom's reference image, source side
//   DstLayout   (thr, bit) -> bit offset, destination side
//   RefLayout   the side whose (thr, val) order the TiledCopy tiles with
//
// Layouts are in bits so one set of traits serves every element type; a
// Copy_Atom<Traits, T> re-expresses them in units of T.
//
// Each traits class also provides copy_unpack(traits, src, dst), which turns
// the (V)-shaped source and destination tensors of one atom into the
// operation's arguments.

#include <cstring>
#include <type_traits>

#include <tessera/atom/numeric.hpp>
#include <tessera/layout.hpp>
#include <tessera/tensor/swizzle_ptr.hpp>

namespace tessera {

template <class CopyOperation, class... CopyOpArgs>
struct Copy_Traits {
  static_assert(sizeof(CopyOperation) == 0,
                "Copy_Traits: no traits for this copy operation [include tessera/atom.hpp]");
};

namespace detail {

template <class T>
inline constexpr int bits_of = 8 * int(sizeof(T));

// True when the tensor's elements 0..N-1 are consecutive in memory (so the
// atom can move them as one N-element unit): a stride-1 layout, and a
// swizzled pointer that keeps at least N consecutive elements together.
template <class TensorT>
constexpr bool values_contiguous() {
  using L = std::remove_cvref_t<decltype(std::declval<TensorT>().layout())>;
  using Iter = typename std::remove_cvref_t<TensorT>::iterator;
  if constexpr (swizzle_run<Iter>::value < decltype(size(L{}))::value) {
    return false;
  } else if constexpr (requires { coalesce(L{}); }) {
    using C = decltype(coalesce(L{}));
    if constexpr (requires { C::rank; } && decltype(rank(C{}))::value == 1 && is_static<C>::value) {
      return std::remove_cvref_t<decltype(size(C{}))>::value == 1 || std::remove_cvref_t<decltype(stride(C{}))>::value == 1;
    } else {
      return false;
    }
  } else {
    return false;
  }
}

template <class TensorT>
using tensor_value_t = std::remove_cv_t<typename std::remove_cvref_t<TensorT>::value_type>;

// Gathers the first sizeof(Regs)/sizeof(value) values of a tensor into a
// register array (bit-exact).
template <class Regs, class TensorT>
TESSERA_HOST_DEVICE void gather_bits(Regs& regs, TensorT const& t) {
  using V = tensor_value_t<TensorT>;
  constexpr int kVals = int(sizeof(Regs) / sizeof(V));
  static_assert(kVals * sizeof(V) == sizeof(Regs), "copy: register bits are not a whole number of values");
  V vals[kVals];
  TESSERA_UNROLL
  for (int i = 0; i < kVals; ++i) vals[i] = t(i);
  std::memcpy(&regs, &vals[0], sizeof(Regs));
}

template <class Regs, class TensorT>
TESSERA_HOST_DEVICE void scatter_bits(Regs const& regs, TensorT&& t) {
  using V = tensor_value_t<TensorT>;
  constexpr int kVals = int(sizeof(Regs) / sizeof(V));
  static_assert(kVals * sizeof(V) == sizeof(Regs), "copy: register bits are not a whole number of values");
  V vals[kVals];
  std::memcpy(&vals[0], &regs, sizeof(Regs));
  TESSERA_UNROLL
  for (int i = 0; i < kVals; ++i) t(i) = vals[i];
}

}  // namespace detail

// One thread copies one S to one D (e.g. uint128_t: a 16-byte vector access).
template <class S, class D = S>
struct UniversalCopy {
  using SRegisters = S[1];
  using DRegisters = D[1];
  static_assert(sizeof(S) == sizeof(D), "UniversalCopy: source and destination units differ in size");

  TESSERA_HOST_DEVICE static void copy(S const& src, D& dst) { dst = src; }
};

template <class S, class D>
struct Copy_Traits<UniversalCopy<S, D>> {
  using ThrID = Layout<_1>;
  using SrcLayout = Layout<Shape<_1, Int<detail::bits_of<S>>>>;  // (T1,bits) -> bit
  using DstLayout = Layout<Shape<_1, Int<detail::bits_of<D>>>>;
  using RefLayout = SrcLayout;

  template <class STensor, class DTensor>
  TESSERA_HOST_DEVICE static void copy_unpack(Copy_Traits const&, STensor const& src, DTensor&& dst) {
    if constexpr (detail::values_contiguous<STensor>() && detail::values_contiguous<DTensor>()) {
      UniversalCopy<S, D>::copy(*reinterpret_cast<S const*>(&src(0)), *reinterpret_cast<D*>(&dst(0)));
    } else {
      S s;
      D d;
      detail::gather_bits(s, src);
      UniversalCopy<S, D>::copy(s, d);
      detail::scatter_bits(d, dst);
    }
  }
};

// Element-by-element copy the compiler may vectorize up to kMaxVecBits
// (the alignment the caller guarantees).
template <int kMaxVecBits = 128>
struct AutoVectorizingCopyWithAssumedAlignment {
  static_assert(kMaxVecBits == 8 || kMaxVecBits == 16 || kMaxVecBits == 32 || kMaxVecBits == 64 ||
                    kMaxVecBits == 128,
                "AutoVectorizingCopyWithAssumedAlignment: alignment must be 8..128 bits, a power of two");
};
using AutoVectorizingCopy = AutoVectorizingCopyWithAssumedAlignment<128>;
// Assumes nothing about alignment.
using DefaultCopy = AutoVectorizingCopyWithAssumedAlignment<8>;

template <int kMaxVecBits>
struct Copy_Traits<AutoVectorizingCopyWithAssumedAlignment<kMaxVecBits>> {
  using ThrID = Layout<_1>;
  // One thread, one element of any width: (T1,V1) in units of the element
  // once recast (a single bit here stays a single value after upcast).
  using SrcLayout = Layout<Shape<_1, _1>>;
  using DstLayout = Layout<Shape<_1, _1>>;
  using RefLayout = SrcLayout;

  template <class STensor, class DTensor>
  TESSERA_HOST_DEVICE static void copy_unpack(Copy_Traits const&, STensor const& src, DTensor&& dst) {
    constexpr int kN = decltype(size(src))::value;
    TESSERA_UNROLL
    for (int i = 0; i < kN; ++i) dst(i) = src(i);
  }
};

}  // namespace tessera
