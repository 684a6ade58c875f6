// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Pointer tags: which memory an iterator points into, carried in its type.
//
//   gmem_ptr<T*>   global memory      make_gmem_ptr(p)    prints gmem_ptr[16b](0x...)
//   smem_ptr<T*>   shared memory      make_smem_ptr(p)    prints smem_ptr[16b](0x...)
//   rmem_ptr<T*>   registers (local)  make_rmem_ptr(p)    prints rmem_ptr[16b](0x...)
//   T*             untagged           (register fragments) prints ptr[16b](0x...)
//
// Atoms dispatch on the tag with is_gmem<P>, is_smem<P>, is_rmem<P> (an untagged
// pointer counts as register memory, as in CuTe). recast_ptr<U>(p) changes the
// element type and keeps the tag.

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/tensor/subbyte.hpp"

namespace tessera {

struct gmem_tag {};
struct smem_tag {};
struct rmem_tag {};

// An iterator P (usually T*) labelled with the memory space Tag.
namespace detail {
// What P points to: its own element_type when it names one (a proxy
// iterator such as subbyte_iterator), else what *p refers to.
template <class P>
struct pointee_of {
  using type = std::remove_reference_t<decltype(*std::declval<P const&>())>;
};
template <class P>
  requires requires { typename P::element_type; }
struct pointee_of<P> {
  using type = typename P::element_type;
};
}  // namespace detail

template <class P, class Tag>
struct tagged_ptr {
  using iterator = P;
  using reference = decltype(*std::declval<P const&>());
  using element_type = typename detail::pointee_of<P>::type;
  using value_type = std::remove_cv_t<element_type>;
  using memory_tag = Tag;

  P ptr_;

  TESSERA_HOST_DEVICE constexpr tagged_ptr() : ptr_{} {}
  TESSERA_HOST_DEVICE constexpr explicit tagged_ptr(P p) : ptr_(p) {}

  TESSERA_HOST_DEVICE constexpr P get() const { return ptr_; }
  TESSERA_HOST_DEVICE constexpr reference operator*() const { return *ptr_; }
  template <class Index>
  TESSERA_HOST_DEVICE constexpr reference operator[](Index const& i) const {
    return ptr_[static_cast<std::ptrdiff_t>(i)];
  }
  template <class Index>
  TESSERA_HOST_DEVICE constexpr tagged_ptr operator+(Index const& i) const {
    return tagged_ptr{ptr_ + static_cast<std::ptrdiff_t>(i)};
  }
  template <class Index>
  TESSERA_HOST_DEVICE constexpr tagged_ptr& operator+=(Index const& i) {
    ptr_ += static_cast<std::ptrdiff_t>(i);
    return *this;
  }
  TESSERA_HOST_DEVICE constexpr tagged_ptr& operator++() {
    ++ptr_;
    return *this;
  }
  TESSERA_HOST_DEVICE constexpr std::ptrdiff_t operator-(tagged_ptr const& o) const { return ptr_ - o.ptr_; }
  TESSERA_HOST_DEVICE constexpr bool operator==(tagged_ptr const& o) const { return ptr_ == o.ptr_; }
  TESSERA_HOST_DEVICE constexpr bool operator!=(tagged_ptr const& o) const { return ptr_ != o.ptr_; }
};

template <class P> using gmem_ptr = tagged_ptr<P, gmem_tag>;
template <class P> using smem_ptr = tagged_ptr<P, smem_tag>;
template <class P> using rmem_ptr = tagged_ptr<P, rmem_tag>;

// Memory-space traits. A swizzle_ptr (swizzle_ptr.hpp) forwards to what it wraps.
template <class P> struct is_gmem : std::false_type {};
template <class P> struct is_smem : std::false_type {};
template <class P> struct is_gmem<tagged_ptr<P, gmem_tag>> : std::true_type {};
template <class P> struct is_smem<tagged_ptr<P, smem_tag>> : std::true_type {};
template <class P> struct is_gmem<P const> : is_gmem<P> {};
template <class P> struct is_smem<P const> : is_smem<P> {};
template <class P> struct is_gmem<P&> : is_gmem<P> {};
template <class P> struct is_smem<P&> : is_smem<P> {};
template <class P>
struct is_rmem : std::bool_constant<!(is_gmem<P>::value || is_smem<P>::value)> {};
namespace detail {
// Ptr is a tagged_ptr of memory space Tag (not a raw pointer, not a wrapper).
template <class Ptr, class Tag>
concept tagged_with = requires { typename Ptr::memory_tag; } && std::is_same_v<Ptr, tagged_ptr<typename Ptr::iterator, Tag>>;
}  // namespace detail

template <class P> inline constexpr bool is_gmem_v = is_gmem<P>::value;
template <class P> inline constexpr bool is_smem_v = is_smem<P>::value;
template <class P> inline constexpr bool is_rmem_v = is_rmem<P>::value;

template <class T>
TESSERA_HOST_DEVICE constexpr gmem_ptr<T*> make_gmem_ptr(T* p) { return gmem_ptr<T*>{p}; }
// Already tagged: unchanged. (Constrained rather than make_gmem_ptr(gmem_ptr<P>), so
// that make_gmem_ptr<T>(void*) never instantiates gmem_ptr<T> while choosing.)
template <class Ptr>
  requires detail::tagged_with<Ptr, gmem_tag>
TESSERA_HOST_DEVICE constexpr Ptr make_gmem_ptr(Ptr p) { return p; }
template <class T>
TESSERA_HOST_DEVICE constexpr gmem_ptr<T*> make_gmem_ptr(void* p) { return gmem_ptr<T*>{static_cast<T*>(p)}; }
template <class T>
TESSERA_HOST_DEVICE constexpr gmem_ptr<T const*> make_gmem_ptr(void const* p) {
  return gmem_ptr<T const*>{static_cast<T const*>(p)};
}

template <class T>
TESSERA_HOST_DEVICE constexpr smem_ptr<T*> make_smem_ptr(T* p) { return smem_ptr<T*>{p}; }
// Already tagged: unchanged. (Constrained rather than make_smem_ptr(smem_ptr<P>), so
// that make_smem_ptr<T>(void*) never instantiates smem_ptr<T> while choosing.)
template <class Ptr>
  requires detail::tagged_with<Ptr, smem_tag>
TESSERA_HOST_DEVICE constexpr Ptr make_smem_ptr(Ptr p) { return p; }
template <class T>
TESSERA_HOST_DEVICE constexpr smem_ptr<T*> make_smem_ptr(void* p) { return smem_ptr<T*>{static_cast<T*>(p)}; }
template <class T>
TESSERA_HOST_DEVICE constexpr smem_ptr<T const*> make_smem_ptr(void const* p) {
  return smem_ptr<T const*>{static_cast<T const*>(p)};
}

template <class T>
TESSERA_HOST_DEVICE constexpr rmem_ptr<T*> make_rmem_ptr(T* p) { return rmem_ptr<T*>{p}; }
// Already tagged: unchanged. (Constrained rather than make_rmem_ptr(rmem_ptr<P>), so
// that make_rmem_ptr<T>(void*) never instantiates rmem_ptr<T> while choosing.)
template <class Ptr>
  requires detail::tagged_with<Ptr, rmem_tag>
TESSERA_HOST_DEVICE constexpr Ptr make_rmem_ptr(Ptr p) { return p; }
template <class T>
TESSERA_HOST_DEVICE constexpr rmem_ptr<T*> make_rmem_ptr(void* p) { return rmem_ptr<T*>{static_cast<T*>(p)}; }

// Packed sub-byte elements from a byte address: make_gmem_ptr<int4b_t>(p).
template <class T>
  requires is_subbyte_v<T>
TESSERA_HOST_DEVICE constexpr gmem_ptr<subbyte_iterator<T>> make_gmem_ptr(void* p) {
  return gmem_ptr<subbyte_iterator<T>>{subbyte_iterator<T>{static_cast<std::uint8_t*>(p)}};
}
template <class T>
  requires is_subbyte_v<T>
TESSERA_HOST_DEVICE constexpr gmem_ptr<subbyte_iterator<T const>> make_gmem_ptr(void const* p) {
  return gmem_ptr<subbyte_iterator<T const>>{subbyte_iterator<T const>{static_cast<std::uint8_t const*>(p)}};
}
template <class T>
  requires is_subbyte_v<T>
TESSERA_HOST_DEVICE constexpr smem_ptr<subbyte_iterator<T>> make_smem_ptr(void* p) {
  return smem_ptr<subbyte_iterator<T>>{subbyte_iterator<T>{static_cast<std::uint8_t*>(p)}};
}

// The raw address an iterator dereferences (a swizzle_ptr applies its swizzle).
template <class T>
TESSERA_HOST_DEVICE constexpr T* raw_pointer_cast(T* p) { return p; }
template <class P, class Tag>
  requires requires(P const& q) { raw_pointer_cast(q); }
TESSERA_HOST_DEVICE constexpr auto raw_pointer_cast(tagged_ptr<P, Tag> const& p) { return raw_pointer_cast(p.get()); }

// Reinterpret the element type, keeping the memory tag: recast_ptr<uint32_t>(smem_half_ptr).
template <class NewT, class T>
TESSERA_HOST_DEVICE constexpr auto recast_ptr(T* p) {
  if constexpr (std::is_const_v<T>) {
    return reinterpret_cast<NewT const*>(p);
  } else {
    return reinterpret_cast<NewT*>(p);
  }
}
template <class NewT, class P, class Tag>
TESSERA_HOST_DEVICE constexpr auto recast_ptr(tagged_ptr<P, Tag> const& p) {
  using R = decltype(recast_ptr<NewT>(p.get()));
  return tagged_ptr<R, Tag>{recast_ptr<NewT>(p.get())};
}

// Width of one element in bits, as printed in ptr[16b].
template <class T>
inline constexpr int pointee_bits_v = int(sizeof(T) * 8);

// print: CuTe's notation, via printf so it also runs on the device.
template <class T>
TESSERA_HOST_DEVICE void print(T* p) {
  printf("ptr[%db](%p)", pointee_bits_v<std::remove_cv_t<T>>, static_cast<void const*>(p));
}
template <class P>
TESSERA_HOST_DEVICE void print(tagged_ptr<P, gmem_tag> const& p) { printf("gmem_"); print(p.get()); }
template <class P>
TESSERA_HOST_DEVICE void print(tagged_ptr<P, smem_tag> const& p) { printf("smem_"); print(p.get()); }
template <class P>
TESSERA_HOST_DEVICE void print(tagged_ptr<P, rmem_tag> const& p) { printf("rmem_"); print(p.get()); }

}  // namespace tessera
