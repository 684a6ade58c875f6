// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Coordinate tensors, for predication.
//
//   cA = make_identity_tensor(shape(mA));   cA(c) == c for every coordinate c of mA
//   tAcA = local_partition(cA, thr, tid);   partitioned exactly like tAgA = local_partition(gA, thr, tid)
//   copy_if([&](int i) { return elem_less(tAcA(i), shape(mA)); }, tAgA, tArA);
//
// The iterator holds a coordinate tuple; the layout's strides are unit bases
// (E<0>, E<1>, ... printed _1@0, _1@1), so an offset is a coordinate too and
// partitions of a residue tile keep out-of-bounds coordinates out of bounds
// (they never wrap into the next column as a linear index would).

#include <cstdio>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/engine.hpp"
#include "tessera/tensor/tensor_impl.hpp"

namespace tessera {

namespace detail {
// a + b on coordinates: tuples element-wise (the shorter padded with _0),
// a ScaledBasis as the coordinate tuple it stands for.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto coord_add(A const& a, B const& b) {
  if constexpr (is_scaled_basis_v<B>) {
    return coord_add(a, as_arithmetic_tuple(b));
  } else if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    constexpr int na = tuple_size_v<A>;
    constexpr int nb = tuple_size_v<B>;
    constexpr int n = na > nb ? na : nb;
    return [&]<int... I>(seq<I...>) {
      return make_tuple([&]() {
        if constexpr (I < na && I < nb) return coord_add(get<I>(a), get<I>(b));
        else if constexpr (I < na) return get<I>(a);
        else return get<I>(b);
      }()...);
    }(make_seq<n>{});
  } else if constexpr (is_tuple_v<A>) {
    // An integer offset into a coordinate is only ever a zero (no basis involved).
    return a;
  } else if constexpr (is_tuple_v<B>) {
    return coord_add(make_tuple(a), b);
  } else {
    return a + b;
  }
}

template <class T>
TESSERA_HOST_DEVICE constexpr auto zeros_like(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return transform(t, [](auto const& x) { return zeros_like(x); });
  } else {
    return Int<0>{};
  }
}
}  // namespace detail

// An iterator whose value is a coordinate: *(it + off) == coord + off.
template <class CoordT>
struct coord_iterator {
  using value_type = CoordT;
  using element_type = CoordT const;
  using reference = CoordT;

  CoordT coord_;

  TESSERA_HOST_DEVICE constexpr coord_iterator() : coord_{} {}
  TESSERA_HOST_DEVICE constexpr explicit coord_iterator(CoordT const& c) : coord_(c) {}

  TESSERA_HOST_DEVICE constexpr CoordT operator*() const { return coord_; }
  template <class Off>
  TESSERA_HOST_DEVICE constexpr auto operator+(Off const& off) const {
    auto c = detail::coord_add(coord_, off);
    return coord_iterator<decltype(c)>{c};
  }
  template <class Off>
  TESSERA_HOST_DEVICE constexpr auto operator[](Off const& off) const {
    return *(*this + off);
  }
};

template <class CoordT>
TESSERA_HOST_DEVICE void print(coord_iterator<CoordT> const& it) {
  printf("ArithTuple");
  print(it.coord_);
}

// cA(c) == c for every coordinate c of `shape` (hierarchical coordinates keep their nesting).
template <class ShapeT>
TESSERA_HOST_DEVICE constexpr auto make_identity_tensor(ShapeT const& shape) {
  auto start = detail::zeros_like(shape);
  auto l = make_layout(shape, make_basis_like(shape));
  using It = coord_iterator<decltype(start)>;
  return Tensor<ViewEngine<It>, decltype(l)>{ViewEngine<It>{It{start}}, l};
}

// CuTe's counting tensor: t(c) == layout(c), counted from the codomain's
// zero (coprofile(layout)): an integer for integer strides, a coordinate for
// basis strides. make_counting_tensor(make_layout(shape)) numbers the
// elements of shape in colexicographic order.
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_counting_tensor(Layout<S, D> const& layout) {
  auto start = coprofile(layout);
  using It = coord_iterator<decltype(start)>;
  return Tensor<ViewEngine<It>, Layout<S, D>>{ViewEngine<It>{It{start}}, layout};
}

// t(c) == layout(c) as a coordinate, for a layout whose strides are bases
// (e.g. a TV layout composed with an identity layout).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_coord_tensor(Layout<S, D> const& layout) {
  using It = coord_iterator<tuple<>>;
  return Tensor<ViewEngine<It>, Layout<S, D>>{ViewEngine<It>{It{}}, layout};
}

}  // namespace tessera
