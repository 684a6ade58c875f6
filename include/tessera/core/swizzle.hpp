// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Swizzle<B,M,S>: an XOR permutation of offsets.
//   Offset bits  ...  [M+S, M+S+B) = yyy  ...  [M, M+B) = zzz  ...  [0, M) untouched
//   swizzle(o) = o ^ ((o & yyy_mask) >> S)      (a left shift by -S when S < 0)
// With |S| >= B the two ranges do not overlap, so the map is an involution:
// swizzle(swizzle(o)) == o. Static offsets give static results.

#include <cstdint>

#include "tessera/config.hpp"
#include "tessera/core/integral_constant.hpp"

namespace tessera {

// x >> s for s >= 0, x << -s for s < 0 (s static).
template <class T, auto s>
TESSERA_HOST_DEVICE constexpr auto shiftr(T const& x, C<s>) {
  if constexpr (s >= 0) return x >> C<s>{};
  else return x << C<-s>{};
}
template <class T, auto s>
TESSERA_HOST_DEVICE constexpr auto shiftl(T const& x, C<s>) {
  if constexpr (s >= 0) return x << C<s>{};
  else return x >> C<-s>{};
}

template <int BBits, int MBase, int SShift = BBits>
struct Swizzle {
  static constexpr int num_bits = BBits;
  static constexpr int num_base = MBase;
  static constexpr int num_shft = SShift;

  static_assert(num_bits >= 0, "Swizzle: BBits must be non-negative");
  static_assert(num_base >= 0, "Swizzle: MBase must be non-negative");
  static_assert((num_shft < 0 ? -num_shft : num_shft) >= num_bits,
                "Swizzle: |SShift| must be at least BBits [the yyy and zzz bit ranges would overlap]");

  using bit_msk = Int<(1 << num_bits) - 1>;
  using yyy_msk = Int<(bit_msk::value << (num_base + (num_shft > 0 ? num_shft : 0)))>;
  using zzz_msk = Int<(bit_msk::value << (num_base - (num_shft < 0 ? num_shft : 0)))>;
  using msk_sft = Int<num_shft>;

  static constexpr uint32_t swizzle_code = uint32_t(yyy_msk::value | zzz_msk::value);

  // The swizzled offset.
  // @post apply(apply(o)) == o
  template <class Offset>
  TESSERA_HOST_DEVICE constexpr static auto apply(Offset const& offset) {
    return offset ^ shiftr(offset & yyy_msk{}, msk_sft{});
  }
  template <class Offset>
  TESSERA_HOST_DEVICE constexpr auto operator()(Offset const& offset) const {
    return apply(offset);
  }

  template <int B, int M, int S>
  TESSERA_HOST_DEVICE constexpr auto operator==(Swizzle<B, M, S> const&) const {
    return bool_constant<B == BBits && M == MBase && S == SShift>{};
  }
};

template <class T>
struct is_swizzle : false_type {};
template <int B, int M, int S>
struct is_swizzle<Swizzle<B, M, S>> : true_type {};
template <class T>
inline constexpr bool is_swizzle_v = is_swizzle<std::remove_cvref_t<T>>::value;

// Swizzles are static: size and rank questions are answered by the layout they
// are composed with. The swizzle only permutes within blocks of 2^(M+S+B).
template <int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto cosize(Swizzle<B, M, S> const&) {
  return Int<(1 << (M + (S > 0 ? S : -S) + B))>{};
}

// Swizzle acting on elements of a type N times wider (upcast) or narrower
// (downcast): the bit positions move by log2(N).
template <int N, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto upcast(Swizzle<B, M, S> const&) {
  static_assert(N > 0 && (N & (N - 1)) == 0, "upcast: factor must be a power of two");
  constexpr int L = decltype(log_2(Int<N>{}))::value;
  static_assert(M >= L, "upcast: swizzle base M is smaller than log2(N) [the swizzle would cut through an element]");
  return Swizzle<B, M - L, S>{};
}
template <int N, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto downcast(Swizzle<B, M, S> const&) {
  static_assert(N > 0 && (N & (N - 1)) == 0, "downcast: factor must be a power of two");
  constexpr int L = decltype(log_2(Int<N>{}))::value;
  return Swizzle<B, M + L, S>{};
}

}  // namespace tessera
