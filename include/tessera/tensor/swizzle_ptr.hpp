// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// A shared-memory pointer that carries a Swizzle<B,M,S> in its type.
//
// A swizzled smem tensor is made from ComposedLayout(Swizzle o offset o layout):
// the swizzle moves into the pointer and the tensor keeps the plain layout, so
// slicing and partitioning act on an ordinary Layout and print as the seed prints
// them: Sw<3,3,3>_smem_ptr[16b](0x...) o ((_8,_1),_8,_1,(_1,_3)):(...).
//
// The swizzle acts on the absolute address, counted in elements of the pointee:
//   *(p + i) == *(T*)(Sw(addr(p + i) / sizeof(T)) * sizeof(T))
// so Sw(base + off) == base + Sw(off) holds when the base address is aligned to
// 2^(B+M+max(S,0)) elements -- make_tensor(smem_ptr, ComposedLayout) checks this
// with TESSERA_ASSERT. 2^M consecutive elements stay consecutive, which is what
// lets copy() vectorise through the pointer.

#include <cstdint>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/pointer.hpp"

namespace tessera {

namespace detail {
template <class SwizzleT> struct swizzle_params;
template <int B, int M, int S>
struct swizzle_params<Swizzle<B, M, S>> {
  static constexpr int bits = B;
  static constexpr int base = M;
  static constexpr int shift = S;
};

template <class T>
constexpr int log2_size() {
  static_assert((sizeof(T) & (sizeof(T) - 1)) == 0, "swizzle_ptr: element size must be a power of two");
  int r = 0;
  while ((std::size_t(1) << r) < sizeof(T)) ++r;
  return r;
}

// Swizzle<B,M,S> applied to a byte address whose elements have 2^L bytes.
template <int B, int M, int S, int L>
TESSERA_HOST_DEVICE constexpr std::uintptr_t swizzle_bytes(std::uintptr_t a) {
  constexpr std::uintptr_t bit_msk = (std::uintptr_t(1) << B) - 1;
  constexpr int ylo = M + L + (S > 0 ? S : 0);
  constexpr std::uintptr_t yyy = bit_msk << ylo;
  if constexpr (S >= 0) {
    return a ^ ((a & yyy) >> S);
  } else {
    return a ^ ((a & yyy) << (-S));
  }
}
}  // namespace detail

template <class SwizzleT, class P>
struct swizzle_ptr {
  using iterator = P;
  using reference = typename P::reference;
  using element_type = typename P::element_type;
  using value_type = typename P::value_type;
  using swizzle_type = SwizzleT;

  P ptr_;  // the un-swizzled position

  TESSERA_HOST_DEVICE constexpr swizzle_ptr() : ptr_{} {}
  TESSERA_HOST_DEVICE constexpr explicit swizzle_ptr(P p) : ptr_(p) {}

  TESSERA_HOST_DEVICE constexpr P get() const { return ptr_; }

  // The address this position really lives at.
  TESSERA_HOST_DEVICE element_type* apply() const {
    using Sp = detail::swizzle_params<SwizzleT>;
    constexpr int L = detail::log2_size<value_type>();
    element_type* p = raw_pointer_cast(ptr_);
    auto a = reinterpret_cast<std::uintptr_t>(p);
    auto b = detail::swizzle_bytes<Sp::bits, Sp::base, Sp::shift, L>(a);
    // NOTE: applied as an offset from p rather than by casting b back to a
    // pointer, so the compiler keeps p's address space (st.shared, not generic st).
    return p + ((std::ptrdiff_t(b) - std::ptrdiff_t(a)) >> L);
  }

  TESSERA_HOST_DEVICE reference operator*() const { return *apply(); }
  template <class Index>
  TESSERA_HOST_DEVICE reference operator[](Index const& i) const { return *(*this + i); }
  template <class Index>
  TESSERA_HOST_DEVICE constexpr swizzle_ptr operator+(Index const& i) const { return swizzle_ptr{ptr_ + i}; }
  template <class Index>
  TESSERA_HOST_DEVICE constexpr swizzle_ptr& operator+=(Index const& i) {
    ptr_ = ptr_ + i;
    return *this;
  }
  TESSERA_HOST_DEVICE constexpr bool operator==(swizzle_ptr const& o) const { return ptr_ == o.ptr_; }
  TESSERA_HOST_DEVICE constexpr bool operator!=(swizzle_ptr const& o) const { return ptr_ != o.ptr_; }
};

template <class SwizzleT, class P> struct is_smem<swizzle_ptr<SwizzleT, P>> : is_smem<P> {};
template <class SwizzleT, class P> struct is_gmem<swizzle_ptr<SwizzleT, P>> : is_gmem<P> {};

template <class SwizzleT, class P>
TESSERA_HOST_DEVICE constexpr swizzle_ptr<SwizzleT, P> make_swizzle_ptr(P const& p, SwizzleT const&) {
  return swizzle_ptr<SwizzleT, P>{p};
}

template <class SwizzleT, class P>
TESSERA_HOST_DEVICE auto raw_pointer_cast(swizzle_ptr<SwizzleT, P> const& p) { return p.apply(); }

// Number of consecutive elements that stay consecutive through the swizzle: 2^M.
template <class P>
struct swizzle_run : std::integral_constant<int, (1 << 30)> {};
template <class SwizzleT, class P>
struct swizzle_run<swizzle_ptr<SwizzleT, P>>
    : std::integral_constant<int, (1 << detail::swizzle_params<SwizzleT>::base)> {};

// recast_ptr<U>: the same byte-level swizzle expressed in elements of U.
// @pre 2^M * sizeof(T) is a multiple of sizeof(U) (the swizzle does not split a U)
template <class NewT, class SwizzleT, class P>
TESSERA_HOST_DEVICE constexpr auto recast_ptr(swizzle_ptr<SwizzleT, P> const& p) {
  using Sp = detail::swizzle_params<SwizzleT>;
  constexpr int lo = detail::log2_size<typename P::value_type>();
  constexpr int ln = detail::log2_size<std::remove_cv_t<NewT>>();
  constexpr int m = Sp::base + lo - ln;
  static_assert(m >= 0, "recast_ptr: new element type is wider than the swizzle's unchanged run [recast to a narrower type]");
  using NewSw = Swizzle<Sp::bits, m, Sp::shift>;
  auto q = recast_ptr<NewT>(p.get());
  return swizzle_ptr<NewSw, decltype(q)>{q};
}

template <class SwizzleT, class P>
TESSERA_HOST_DEVICE void print(swizzle_ptr<SwizzleT, P> const& p) {
  print(SwizzleT{});
  printf("_");
  print(p.get());
}

}  // namespace tessera
