// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Fixed-size arrays usable in device code (std::array's members are not
// __device__ under nvcc without --expt-relaxed-constexpr):
//
//   array<T, N>                      N elements, value semantics
//   array_aligned<T, N, Alignment>   the same, aligned to Alignment bytes
//                                    (16 by default): shared-memory storage
//                                    for a tile, e.g.
//     struct SharedStorage {
//       array_aligned<bfloat16_t, cosize_v<SmemLayoutA>, 1024> A;  // 128B swizzle period
//       array_aligned<bfloat16_t, cosize_v<SmemLayoutB>, 1024> B;
//     };
//     Tensor sA = make_tensor(make_smem_ptr(storage.A.data()), SmemLayoutA{});

#include <cstddef>

#include "tessera/config.hpp"

namespace tessera {

template <class T, std::size_t N>
struct array {
  static_assert(N > 0, "array: N must be positive [a zero-element tile has no storage]");
  using value_type = T;
  using size_type = std::size_t;
  using reference = T&;
  using const_reference = T const&;
  using pointer = T*;
  using const_pointer = T const*;
  using iterator = T*;
  using const_iterator = T const*;

  T elems_[N];

  TESSERA_HOST_DEVICE static constexpr std::size_t size() { return N; }
  TESSERA_HOST_DEVICE static constexpr std::size_t max_size() { return N; }
  TESSERA_HOST_DEVICE static constexpr bool empty() { return false; }

  TESSERA_HOST_DEVICE constexpr T& operator[](std::size_t i) { return elems_[i]; }
  TESSERA_HOST_DEVICE constexpr T const& operator[](std::size_t i) const { return elems_[i]; }
  TESSERA_HOST_DEVICE constexpr T& front() { return elems_[0]; }
  TESSERA_HOST_DEVICE constexpr T const& front() const { return elems_[0]; }
  TESSERA_HOST_DEVICE constexpr T& back() { return elems_[N - 1]; }
  TESSERA_HOST_DEVICE constexpr T const& back() const { return elems_[N - 1]; }

  TESSERA_HOST_DEVICE constexpr T* data() { return elems_; }
  TESSERA_HOST_DEVICE constexpr T const* data() const { return elems_; }
  TESSERA_HOST_DEVICE constexpr T* begin() { return elems_; }
  TESSERA_HOST_DEVICE constexpr T const* begin() const { return elems_; }
  TESSERA_HOST_DEVICE constexpr T* end() { return elems_ + N; }
  TESSERA_HOST_DEVICE constexpr T const* end() const { return elems_ + N; }

  TESSERA_HOST_DEVICE constexpr void fill(T const& value) {
    for (std::size_t i = 0; i < N; ++i) elems_[i] = value;
  }
  TESSERA_HOST_DEVICE constexpr void clear() { fill(T(0)); }

  friend TESSERA_HOST_DEVICE constexpr bool operator==(array const& a, array const& b) {
    for (std::size_t i = 0; i < N; ++i)
      if (!(a.elems_[i] == b.elems_[i])) return false;
    return true;
  }
};

// An array whose first element is aligned to Alignment bytes (the struct
// holding it inherits the alignment, so a shared-memory struct laid out from
// a 1024-aligned base keeps every member aligned).
// @post alignof(array_aligned<T, N, A>) == A and sizeof is a multiple of A
template <class T, std::size_t N, std::size_t Alignment = 16>
struct alignas(Alignment) array_aligned : array<T, N> {
  static_assert((Alignment & (Alignment - 1)) == 0, "array_aligned: the alignment must be a power of two");
  static_assert(Alignment >= alignof(T), "array_aligned: the alignment must be at least the element's own");
};

}  // namespace tessera
