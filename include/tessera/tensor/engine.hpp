// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Engines: where a Tensor's elements live.
//   ArrayEngine<T, N>   owns N elements (registers in a kernel); begin() is a T*.
//   ViewEngine<Iter>    borrows an iterator (T*, gmem_ptr, smem_ptr, swizzle_ptr, ...).

#include <cstddef>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/tensor/subbyte.hpp"

namespace tessera {

template <class Iter>
struct iterator_traits_of {
  using reference = decltype(*std::declval<Iter const&>());
  using element_type = std::remove_reference_t<reference>;
  using value_type = std::remove_cv_t<element_type>;
};
// An iterator whose reference is a proxy (subbyte_iterator, or a tagged
// pointer around one) names its element type itself.
template <class Iter>
  requires requires { typename Iter::element_type; }
struct iterator_traits_of<Iter> {
  using reference = decltype(*std::declval<Iter const&>());
  using element_type = typename Iter::element_type;
  using value_type = std::remove_cv_t<element_type>;
};

// Something a Tensor can be viewed through: dereferences and offsets.
template <class Iter>
concept tensor_iterator = requires(Iter const& it) {
  *it;
  it + 1;
};

namespace detail {
// Alignment of an owning fragment: 16 bytes when the array is at least that
// wide, so that recast<uint128_t> of a register fragment is legal.
template <class T, std::size_t N>
constexpr std::size_t array_alignment() {
  std::size_t a = alignof(T);
  std::size_t bytes = sizeof(T) * N;
  while (a < 16 && bytes % (a * 2) == 0) a *= 2;
  return a;
}
}  // namespace detail

template <class T, std::size_t N>
struct ArrayEngine {
  static_assert(N > 0, "ArrayEngine: an owning tensor needs cosize > 0");
  using iterator = T*;
  using const_iterator = T const*;
  using reference = T&;
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  static constexpr std::size_t kSize = N;

  alignas(detail::array_alignment<T, N>()) T storage_[N];

  TESSERA_HOST_DEVICE constexpr T* begin() { return storage_; }
  TESSERA_HOST_DEVICE constexpr T const* begin() const { return storage_; }
  TESSERA_HOST_DEVICE constexpr T* end() { return storage_ + N; }
  TESSERA_HOST_DEVICE constexpr T const* end() const { return storage_ + N; }
  TESSERA_HOST_DEVICE constexpr T* data() { return storage_; }
  TESSERA_HOST_DEVICE constexpr T const* data() const { return storage_; }
  TESSERA_HOST_DEVICE static constexpr std::size_t size() { return N; }
};

// Sub-byte elements (int4b_t, ...) owned packed: N elements in
// ceil(N * bits / 8) bytes, reached through subbyte_iterator.
template <class T, std::size_t N>
  requires is_subbyte_v<T>
struct ArrayEngine<T, N> {
  using iterator = subbyte_iterator<T>;
  using const_iterator = subbyte_iterator<T const>;
  using reference = subbyte_reference<T>;
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  static constexpr std::size_t kSize = N;

  alignas(detail::array_alignment<std::uint8_t, array_subbyte<T, N>::kBytes>()) array_subbyte<T, N> storage_;

  TESSERA_HOST_DEVICE constexpr iterator begin() { return storage_.begin(); }
  TESSERA_HOST_DEVICE constexpr const_iterator begin() const { return storage_.begin(); }
  TESSERA_HOST_DEVICE constexpr iterator end() { return storage_.end(); }
  TESSERA_HOST_DEVICE constexpr const_iterator end() const { return storage_.end(); }
  TESSERA_HOST_DEVICE constexpr iterator data() { return storage_.begin(); }
  TESSERA_HOST_DEVICE constexpr const_iterator data() const { return storage_.begin(); }
  TESSERA_HOST_DEVICE static constexpr std::size_t size() { return N; }
};

namespace detail {
// Whether an engine owns its elements (a view made from such a tensor points
// into it, so the tensor must outlive the view).
template <class E> struct is_owning_engine : std::false_type {};
template <class T, std::size_t N> struct is_owning_engine<ArrayEngine<T, N>> : std::true_type {};
template <class E> inline constexpr bool is_owning_engine_v = is_owning_engine<E>::value;
}  // namespace detail

template <class Iter>
struct ViewEngine {
  using iterator = Iter;
  using const_iterator = Iter;
  using reference = typename iterator_traits_of<Iter>::reference;
  using element_type = typename iterator_traits_of<Iter>::element_type;
  using value_type = typename iterator_traits_of<Iter>::value_type;

  Iter it_;

  TESSERA_HOST_DEVICE constexpr ViewEngine() : it_{} {}
  TESSERA_HOST_DEVICE constexpr explicit ViewEngine(Iter it) : it_(it) {}
  TESSERA_HOST_DEVICE constexpr Iter begin() const { return it_; }
};

}  // namespace tessera
