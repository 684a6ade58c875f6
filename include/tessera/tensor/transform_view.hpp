// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Lazy element-wise views: lazy::transform(t, f)(c) == f(t(c)), computed at
// each access, nothing copied or stored.
//
//   Tensor pA = lazy::transform(tAcA, [&](auto c) { return elem_less(c, shape(mA)); });  // predicate tensor
//   copy_if(pA, tAgA, tArA);
//   Tensor nA = lazy::transform(rA, negate{});      // reads -rA(c)
//
// The view keeps t's layout over a transform_iter, so slicing, local_tile and
// local_partition give lazy views of the same slices of t:
// @law lazy::transform(t, f)(s) == lazy::transform(t(s), f) for a slice s (likewise the tilings)
// An f that returns a reference (e.g. to a member of the element) gives a
// writable view.

#include <cstdio>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/tensor/engine.hpp"
#include "tessera/tensor/tensor_impl.hpp"

namespace tessera {

// An iterator whose element at i is fn(*(ptr + i)).
template <class Fn, class Iter>
struct transform_iter {
  using iterator = Iter;
  using reference = decltype(std::declval<Fn const&>()(*std::declval<Iter const&>()));
  using element_type = std::remove_reference_t<reference>;
  using value_type = std::remove_cvref_t<reference>;

  Fn fn_;
  Iter ptr_;

  TESSERA_HOST_DEVICE constexpr transform_iter(Fn const& fn, Iter const& ptr) : fn_(fn), ptr_(ptr) {}

  TESSERA_HOST_DEVICE constexpr decltype(auto) operator*() const { return fn_(*ptr_); }
  template <class Off>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator[](Off const& off) const {
    return fn_(*(ptr_ + off));
  }
  template <class Off>
  TESSERA_HOST_DEVICE constexpr auto operator+(Off const& off) const {
    using NewIter = std::remove_cvref_t<decltype(ptr_ + off)>;
    return transform_iter<Fn, NewIter>(fn_, ptr_ + off);
  }
};

template <class Fn, class Iter>
TESSERA_HOST_DEVICE constexpr auto make_transform_iter(Fn const& fn, Iter const& ptr) {
  return transform_iter<Fn, Iter>(fn, ptr);
}

// "trans_" then the underlying iterator (CuTe's form).
template <class Fn, class Iter>
TESSERA_HOST_DEVICE void print(transform_iter<Fn, Iter> const& it) {
  printf("trans_");
  print(it.ptr_);
}

namespace lazy {

// A tensor whose element c is fn(t(c)), with t's layout. A view: over an
// owning fragment it points into the fragment, so pass the fragment itself
// (an lvalue), never a temporary.
template <class TensorT, class Fn>
  requires is_tensor_v<TensorT>
TESSERA_HOST_DEVICE constexpr auto transform(TensorT&& t, Fn const& fn) {
  static_assert(!std::is_rvalue_reference_v<TensorT&&> ||
                    !detail::is_owning_engine_v<typename std::remove_cvref_t<TensorT>::engine_type>,
                "lazy::transform: an owning tensor passed as a temporary would dangle [transform a named fragment]");
  using It = transform_iter<Fn, std::remove_cvref_t<decltype(t.data())>>;
  using L = typename std::remove_cvref_t<TensorT>::layout_type;
  return Tensor<ViewEngine<It>, L>{ViewEngine<It>{It{fn, t.data()}}, t.layout()};
}

}  // namespace lazy

}  // namespace tessera
