// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Sub-byte elements and their packed storage, CuTe's names:
//
//   int4b_t, uint4b_t, int2b_t, uint2b_t, uint1b_t   integer_subbyte<Bits, Signed>
//   subbyte_iterator<T>     iterator over packed elements (a byte address and
//                           an element index inside the byte)
//   subbyte_reference<T>    what *it gives: reads and writes one element's bits
//   array_subbyte<T, N>     N packed elements, ceil(N * Bits / 8) bytes
//
// Packing: element i of a run starting at byte p, element slot s occupies bits
// [(s + i) * Bits mod 8, + Bits) of byte p + (s + i) * Bits / 8 -- element 0
// in the low bits, the order CUTLASS and the PTX sub-byte MMA fragments use.
// Bits divides 8, so no element straddles two bytes.
//
// make_tensor<int4b_t>(layout) owns packed storage (ArrayEngine), and
// recast<int4b_t>(byte tensor) / recast_ptr<int4b_t>(uint8_t*) view bytes as
// elements. A write is a read-modify-write of its byte: two threads writing
// different elements of one byte race (give each thread whole bytes).
//
// @law writing element i changes only element i
// @law (it + m) + n == it + (m + n), (it + n) - it == n, for every int m, n

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/core/recast.hpp"

namespace tessera {

// A Bits-wide integer (Bits = 1, 2 or 4) held in the low bits of a byte.
// Constructing from an int keeps the low Bits bits (a narrowing cast, as
// for int8_t); reading sign-extends a signed one.
template <int Bits, bool Signed>
struct integer_subbyte {
  static_assert(Bits == 1 || Bits == 2 || Bits == 4, "integer_subbyte: Bits must be 1, 2 or 4 (a divisor of 8 below 8)");
  static_assert(!(Signed && Bits == 1), "integer_subbyte: a signed 1-bit integer has no positive values");
  using storage_type = std::uint8_t;
  static constexpr int kBits = Bits;
  static constexpr bool kSigned = Signed;
  static constexpr std::uint8_t kMask = std::uint8_t((1u << Bits) - 1u);
  static constexpr int kMin = Signed ? -(1 << (Bits - 1)) : 0;
  static constexpr int kMax = Signed ? (1 << (Bits - 1)) - 1 : (1 << Bits) - 1;

  storage_type storage;

  integer_subbyte() = default;
  TESSERA_HOST_DEVICE constexpr explicit integer_subbyte(int v) : storage(std::uint8_t(unsigned(v) & kMask)) {}

  TESSERA_HOST_DEVICE static constexpr integer_subbyte from_bits(std::uint8_t bits) {
    integer_subbyte r{};
    r.storage = std::uint8_t(bits & kMask);
    return r;
  }
  TESSERA_HOST_DEVICE constexpr std::uint8_t bits() const { return std::uint8_t(storage & kMask); }

  TESSERA_HOST_DEVICE constexpr operator int() const {
    int const u = int(storage & kMask);
    if constexpr (Signed) return (u & (1 << (Bits - 1))) ? u - (1 << Bits) : u;
    else return u;
  }

  friend TESSERA_HOST_DEVICE constexpr bool operator==(integer_subbyte a, integer_subbyte b) {
    return a.bits() == b.bits();
  }
};

using int4b_t = integer_subbyte<4, true>;
using uint4b_t = integer_subbyte<4, false>;
using int2b_t = integer_subbyte<2, true>;
using uint2b_t = integer_subbyte<2, false>;
using uint1b_t = integer_subbyte<1, false>;

template <class T>
struct is_subbyte : std::false_type {};
template <int B, bool S>
struct is_subbyte<integer_subbyte<B, S>> : std::true_type {};
template <class T>
struct is_subbyte<T const> : is_subbyte<T> {};
template <class T>
inline constexpr bool is_subbyte_v = is_subbyte<T>::value;

template <int B, bool S>
struct sizeof_bits<integer_subbyte<B, S>> : std::integral_constant<std::size_t, std::size_t(B)> {};

template <int B, bool S>
TESSERA_HOST_DEVICE void print(integer_subbyte<B, S> v) {
  printf("%d", int(v));
}
template <int B, bool S>
TESSERA_HOST_DEVICE void pretty_print(integer_subbyte<B, S> v) {
  printf("%5d", int(v));
}

template <class CharT, class Traits, int B, bool S>
std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, integer_subbyte<B, S> v) {
  return os << int(v);
}

// One packed element: a byte and the element's slot in it.
template <class T>
struct subbyte_reference {
  using value_type = std::remove_cv_t<T>;
  using byte_type = std::conditional_t<std::is_const_v<T>, std::uint8_t const, std::uint8_t>;
  static constexpr int kBits = value_type::kBits;

  byte_type* byte_;
  int slot_;

  TESSERA_HOST_DEVICE constexpr value_type get() const {
    return value_type::from_bits(std::uint8_t(*byte_ >> (slot_ * kBits)));
  }
  TESSERA_HOST_DEVICE constexpr operator value_type() const { return get(); }
  TESSERA_HOST_DEVICE constexpr explicit operator int() const { return int(get()); }

  TESSERA_HOST_DEVICE constexpr subbyte_reference const& operator=(value_type v) const
    requires(!std::is_const_v<T>)
  {
    std::uint8_t const shift = std::uint8_t(slot_ * kBits);
    *byte_ = std::uint8_t((*byte_ & ~(value_type::kMask << shift)) | (v.bits() << shift));
    return *this;
  }
  TESSERA_HOST_DEVICE constexpr subbyte_reference const& operator=(subbyte_reference const& o) const
    requires(!std::is_const_v<T>)
  {
    return *this = o.get();
  }
  template <class U>
  TESSERA_HOST_DEVICE constexpr subbyte_reference const& operator=(subbyte_reference<U> const& o) const
    requires(!std::is_const_v<T>)
  {
    return *this = o.get();
  }
};

template <class CharT, class Traits, class T>
std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, subbyte_reference<T> const& r) {
  return os << int(r.get());
}
template <class T>
TESSERA_HOST_DEVICE void print(subbyte_reference<T> const& r) {
  print(r.get());
}
template <class T>
TESSERA_HOST_DEVICE void pretty_print(subbyte_reference<T> const& r) {
  pretty_print(r.get());
}

// Random access over packed elements.
template <class T>
struct subbyte_iterator {
  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  using reference = subbyte_reference<T>;
  using byte_type = std::conditional_t<std::is_const_v<T>, std::uint8_t const, std::uint8_t>;
  static constexpr int kPerByte = 8 / value_type::kBits;

  byte_type* byte_;
  int slot_;  // in [0, kPerByte)

  TESSERA_HOST_DEVICE constexpr subbyte_iterator() : byte_(nullptr), slot_(0) {}
  TESSERA_HOST_DEVICE constexpr explicit subbyte_iterator(byte_type* p, int slot = 0) : byte_(p), slot_(slot) {}
  template <class U>
    requires(std::is_const_v<T> && std::is_same_v<std::remove_cv_t<U>, value_type>)
  TESSERA_HOST_DEVICE constexpr subbyte_iterator(subbyte_iterator<U> const& o) : byte_(o.byte_), slot_(o.slot_) {}

  TESSERA_HOST_DEVICE constexpr reference operator*() const { return reference{byte_, slot_}; }
  template <class Index>
  TESSERA_HOST_DEVICE constexpr reference operator[](Index const& i) const { return *(*this + i); }

  template <class Index>
  TESSERA_HOST_DEVICE constexpr subbyte_iterator operator+(Index const& n) const {
    std::ptrdiff_t const e = std::ptrdiff_t(slot_) + static_cast<std::ptrdiff_t>(n);
    // floor division: a negative step moves to earlier bytes
    std::ptrdiff_t const q = e >= 0 ? e / kPerByte : -((-e + kPerByte - 1) / kPerByte);
    return subbyte_iterator{byte_ + q, int(e - q * kPerByte)};
  }
  template <class Index>
  TESSERA_HOST_DEVICE constexpr subbyte_iterator operator-(Index const& n) const {
    return *this + (-static_cast<std::ptrdiff_t>(n));
  }
  template <class Index>
  TESSERA_HOST_DEVICE constexpr subbyte_iterator& operator+=(Index const& n) {
    return *this = *this + n;
  }
  TESSERA_HOST_DEVICE constexpr subbyte_iterator& operator++() { return *this = *this + 1; }
  TESSERA_HOST_DEVICE constexpr std::ptrdiff_t operator-(subbyte_iterator const& o) const {
    return (byte_ - o.byte_) * kPerByte + (slot_ - o.slot_);
  }
  TESSERA_HOST_DEVICE constexpr bool operator==(subbyte_iterator const& o) const {
    return byte_ == o.byte_ && slot_ == o.slot_;
  }
  TESSERA_HOST_DEVICE constexpr bool operator!=(subbyte_iterator const& o) const { return !(*this == o); }
  TESSERA_HOST_DEVICE constexpr bool operator<(subbyte_iterator const& o) const { return (*this - o) < 0; }

  // The byte holding the current element (its slot is slot_).
  TESSERA_HOST_DEVICE constexpr byte_type* byte_address() const { return byte_; }
};

template <class T>
TESSERA_HOST_DEVICE void print(subbyte_iterator<T> const& it) {
  printf("subptr[%db](%p.%d)", int(std::remove_cv_t<T>::kBits), static_cast<void const*>(it.byte_),
         it.slot_ * int(std::remove_cv_t<T>::kBits));
}

// N packed elements.
template <class T, std::size_t N>
struct array_subbyte {
  static_assert(is_subbyte_v<T>, "array_subbyte: the element must be a sub-byte type such as int4b_t");
  static_assert(N > 0, "array_subbyte: N must be positive");
  using value_type = T;
  using reference = subbyte_reference<T>;
  using const_reference = subbyte_reference<T const>;
  using iterator = subbyte_iterator<T>;
  using const_iterator = subbyte_iterator<T const>;
  static constexpr std::size_t kBytes = (N * T::kBits + 7) / 8;

  std::uint8_t storage_[kBytes];

  TESSERA_HOST_DEVICE static constexpr std::size_t size() { return N; }
  TESSERA_HOST_DEVICE constexpr iterator begin() { return iterator{storage_}; }
  TESSERA_HOST_DEVICE constexpr const_iterator begin() const { return const_iterator{storage_}; }
  TESSERA_HOST_DEVICE constexpr iterator end() { return begin() + N; }
  TESSERA_HOST_DEVICE constexpr const_iterator end() const { return begin() + N; }
  TESSERA_HOST_DEVICE constexpr iterator data() { return begin(); }
  TESSERA_HOST_DEVICE constexpr const_iterator data() const { return begin(); }
  TESSERA_HOST_DEVICE constexpr std::uint8_t* raw_data() { return storage_; }
  TESSERA_HOST_DEVICE constexpr std::uint8_t const* raw_data() const { return storage_; }
  TESSERA_HOST_DEVICE constexpr reference operator[](std::size_t i) { return begin()[i]; }
  TESSERA_HOST_DEVICE constexpr const_reference operator[](std::size_t i) const { return begin()[i]; }
  TESSERA_HOST_DEVICE constexpr void fill(T v) {
    for (std::size_t i = 0; i < N; ++i) (*this)[i] = v;
  }
  TESSERA_HOST_DEVICE constexpr void clear() {
    for (std::size_t i = 0; i < kBytes; ++i) storage_[i] = 0;
  }
};

// Bytes seen as packed elements and back. From elements to bytes the
// iterator must sit at the start of a byte.
template <class NewT, class T>
  requires is_subbyte_v<NewT>
TESSERA_HOST_DEVICE constexpr auto recast_ptr(T* p) {
  static_assert(sizeof(T) == 1 || is_subbyte_v<T>, "recast_ptr: sub-byte elements are viewed from byte pointers");
  if constexpr (std::is_const_v<T>) {
    return subbyte_iterator<NewT const>{reinterpret_cast<std::uint8_t const*>(p)};
  } else {
    return subbyte_iterator<NewT>{reinterpret_cast<std::uint8_t*>(p)};
  }
}
template <class NewT, class T>
TESSERA_HOST_DEVICE constexpr auto recast_ptr(subbyte_iterator<T> const& it) {
  if constexpr (is_subbyte_v<NewT>) {
    using R = std::conditional_t<std::is_const_v<T>, NewT const, NewT>;
    TESSERA_ASSERT(it.slot_ * int(std::remove_cv_t<T>::kBits) % NewT::kBits == 0);
    return subbyte_iterator<R>{it.byte_, it.slot_ * int(std::remove_cv_t<T>::kBits) / NewT::kBits};
  } else {
    TESSERA_ASSERT(it.slot_ == 0);
    if constexpr (std::is_const_v<T>) return reinterpret_cast<NewT const*>(it.byte_);
    else return reinterpret_cast<NewT*>(it.byte_);
  }
}

}  // namespace tessera
