// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Tensor = Engine + Layout: element c lives at data()[layout(c)].
// @law t(c) == t.data()[t.layout()(c)] for every coordinate c in the domain
// @law t(c0, _)(c1) == t(c0, c1)  (slicing with _ keeps a view of the same data)

#include <cstddef>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/engine.hpp"
#include "tessera/tensor/pointer.hpp"
#include "tessera/tensor/swizzle_layout.hpp"
#include "tessera/tensor/swizzle_ptr.hpp"

namespace tessera {

template <class Engine, class LayoutT>
struct Tensor;

template <class T> struct is_tensor : std::false_type {};
template <class E, class L> struct is_tensor<Tensor<E, L>> : std::true_type {};
template <class T> struct is_tensor<T const> : is_tensor<T> {};
template <class T> struct is_tensor<T&> : is_tensor<T> {};
template <class T> struct is_tensor<T&&> : is_tensor<T> {};
template <class T> inline constexpr bool is_tensor_v = is_tensor<T>::value;

// Whether L is static and maps index i to offset i: elements stored in index
// order, as in a register fragment from make_tensor<T>(shape) and its slices
// that fix the trailing modes (what the wgmma wrappers reinterpret as
// registers).
template <class L>
constexpr bool is_compact_identity() {
  if constexpr (!(is_static_v<typename L::shape_type> && is_static_v<typename L::stride_type>)) {
    return false;
  } else {
    constexpr int n = decltype(size(L{}))::value;
    for (int i = 0; i < n; ++i)
      if (int(L{}(i)) != i) return false;
    return true;
  }
}

namespace detail {
template <class T> struct is_plain_layout : std::false_type {};
template <class S, class D> struct is_plain_layout<Layout<S, D>> : std::true_type {};
template <class T> struct is_composed : std::false_type {};
template <class A, class O, class B> struct is_composed<ComposedLayout<A, O, B>> : std::true_type {};
template <class T> struct is_swizzle : std::false_type {};
template <int B, int M, int S> struct is_swizzle<Swizzle<B, M, S>> : std::true_type {};
template <class T>
inline constexpr bool is_any_layout_v = is_plain_layout<T>::value || is_composed<T>::value;

// Whether some leaf of the coordinate is not `_` (the slice fixes a mode).
template <class T> struct has_non_underscore : bool_constant<!is_underscore_v<T>> {};
template <class... T> struct has_non_underscore<tuple<T...>> : bool_constant<(false || ... || has_non_underscore<T>::value)> {};

// (sub-layout, pointer offset) of a slice. A swizzled layout Sw o off o L
// sliced at a coordinate that fixes some modes becomes a plain layout when
// that is exact (swizzle_decay: the pointer moves by Sw(off + offset), the
// strides that cross the swizzle's bits become Sw(off + offset + s) - Sw(...));
// otherwise it stays composed, the fixed part moved into its offset.
template <class Coord, class L>
TESSERA_HOST_DEVICE constexpr auto slice_for_tensor(Coord const& c, L const& l) {
  if constexpr (is_composed<L>::value) {
    using A = std::remove_cvref_t<decltype(l.layout_a())>;
    if constexpr (is_swizzle<A>::value && has_non_underscore<Coord>::value) {
      auto so = slice_and_offset(c, l.layout_b());
      auto const& sliced = get<0>(so);
      auto const t = l.offset() + get<1>(so);
      using Diced = decltype(make_layout(dice(c, l.layout_b().shape()), dice(c, l.layout_b().stride())));
      using O = std::remove_cvref_t<decltype(l.offset())>;
      using Sliced = std::remove_cvref_t<decltype(get<0>(so))>;
      constexpr decay_plan plan = swizzle_decay_plan<A, O, Diced, Sliced>();
      if constexpr (plan.ok) {
        return make_tuple(apply_decay<A, plan>(sliced, t), A::apply(t));
      } else {
        return make_tuple(composition(l.layout_a(), t, sliced), Int<0>{});
      }
    } else {
      return make_tuple(slice(c, l), Int<0>{});
    }
  } else {
    return slice_and_offset(c, l);
  }
}
}  // namespace detail

template <class Engine, class LayoutT>
struct Tensor {
  using engine_type = Engine;
  using layout_type = LayoutT;
  using iterator = typename Engine::iterator;
  using value_type = typename Engine::value_type;
  using element_type = typename Engine::element_type;
  using reference = typename Engine::reference;
  static constexpr int rank = LayoutT::rank;

  [[no_unique_address]] LayoutT layout_;
  Engine engine_;

  TESSERA_HOST_DEVICE constexpr Tensor() : layout_{}, engine_{} {}
  TESSERA_HOST_DEVICE constexpr Tensor(Engine const& e, LayoutT const& l) : layout_(l), engine_(e) {}

  TESSERA_HOST_DEVICE constexpr LayoutT const& layout() const { return layout_; }
  TESSERA_HOST_DEVICE constexpr Engine& engine() { return engine_; }
  TESSERA_HOST_DEVICE constexpr Engine const& engine() const { return engine_; }
  TESSERA_HOST_DEVICE constexpr decltype(auto) shape() const { return layout_.shape(); }
  TESSERA_HOST_DEVICE constexpr decltype(auto) stride() const { return layout_.stride(); }
  // The member spelling, so that a layout type defined after this header (ZipLayout) answers too.
  TESSERA_HOST_DEVICE constexpr auto size() const { return layout_.size(); }
  TESSERA_HOST_DEVICE constexpr auto data() { return engine_.begin(); }
  TESSERA_HOST_DEVICE constexpr auto data() const { return engine_.begin(); }

  // Element access; t[c] never slices.
  template <class Coord>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator[](Coord const& c) {
    return data()[layout_(c)];
  }
  template <class Coord>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator[](Coord const& c) const {
    return data()[layout_(c)];
  }

  // t(c): an element, or -- when c holds a _ -- the sub-tensor over the _ modes.
  template <class Coord>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(Coord const& c) {
    if constexpr (has_underscore_v<Coord>) {
      auto [sliced, offset] = detail::slice_for_tensor(c, layout_);
      return Tensor<ViewEngine<decltype(data() + offset)>, decltype(sliced)>{
          ViewEngine<decltype(data() + offset)>{data() + offset}, sliced};
    } else {
      return data()[layout_(c)];
    }
  }
  template <class Coord>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(Coord const& c) const {
    if constexpr (has_underscore_v<Coord>) {
      auto [sliced, offset] = detail::slice_for_tensor(c, layout_);
      return Tensor<ViewEngine<decltype(data() + offset)>, decltype(sliced)>{
          ViewEngine<decltype(data() + offset)>{data() + offset}, sliced};
    } else {
      return data()[layout_(c)];
    }
  }
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) {
    return operator()(make_coord(c0, c1, cs...));
  }
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return operator()(make_coord(c0, c1, cs...));
  }

  // A view with the layout composed with `tilers` (composition per mode).
  template <class... Tilers>
  TESSERA_HOST_DEVICE constexpr auto compose(Tilers const&... tilers) const {
    auto l = composition(layout_, tilers...);
    return Tensor<ViewEngine<decltype(data())>, decltype(l)>{ViewEngine<decltype(data())>{data()}, l};
  }
};

// ---- make_tensor ------------------------------------------------------------

namespace detail {
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto layout_from_args(Args const&... args) {
  if constexpr (sizeof...(Args) == 1 && (is_any_layout_v<Args> && ...)) {
    return (args, ...);
  } else {
    return make_layout(args...);
  }
}

// A swizzled layout stays in the tensor, CuTe's form `smem_ptr o Sw o off o L`
// (as_position_independent_swizzle_tensor gives the other form, the swizzle
// in the pointer).
template <class Iter, class L>
TESSERA_HOST_DEVICE constexpr auto make_view(Iter const& it, L const& l) {
  return Tensor<ViewEngine<Iter>, L>{ViewEngine<Iter>{it}, l};
}
}  // namespace detail

// Non-owning view: make_tensor(ptr, layout), make_tensor(ptr, shape, stride), make_tensor(ptr, shape).
template <class Iter, class... Args>
  requires tensor_iterator<Iter>
TESSERA_HOST_DEVICE constexpr auto make_tensor(Iter it, Args const&... args) {
  static_assert(sizeof...(Args) >= 1, "make_tensor: a view needs a layout, or a shape (and stride)");
  return detail::make_view(it, detail::layout_from_args(args...));
}

// Owning tensor (register fragment): make_tensor<T>(layout), make_tensor<T>(shape[, stride]).
template <class T, class... Args>
  requires(!tensor_iterator<T>)
TESSERA_HOST_DEVICE constexpr auto make_tensor(Args const&... args) {
  auto l = detail::layout_from_args(args...);
  using L = decltype(l);
  static_assert(is_static<L>::value, "make_tensor<T>: an owning tensor needs a static layout [use make_tensor(ptr, layout) for dynamic ones]");
  constexpr std::size_t n = std::size_t(decltype(cosize(l))::value);
  return Tensor<ArrayEngine<T, n>, L>{ArrayEngine<T, n>{}, l};
}

namespace detail {
template <class L, class Iter>
inline constexpr bool swizzle_ptr_convertible_v = [] {
  if constexpr (is_composed<L>::value) {
    return is_swizzle<std::remove_cvref_t<decltype(std::declval<L const&>().layout_a())>>::value && is_smem<Iter>::value;
  } else {
    return false;
  }
}();

// Whether t's base address is aligned to its swizzle's period (what the
// swizzle_ptr form needs: there the swizzle acts on absolute addresses).
template <class E, class L>
TESSERA_HOST_DEVICE bool swizzle_base_aligned(Tensor<E, L> const& t) {
  using A = std::remove_cvref_t<decltype(t.layout().layout_a())>;
  using Iter = std::remove_cvref_t<decltype(t.data())>;
  using Sp = swizzle_params<A>;
  constexpr int sh = Sp::shift > 0 ? Sp::shift : 0;
  constexpr std::uintptr_t period = (std::uintptr_t(1) << (Sp::bits + Sp::base + sh)) * sizeof(typename Iter::value_type);
  return reinterpret_cast<std::uintptr_t>(raw_pointer_cast(t.data())) % period == 0;
}

template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto to_swizzle_ptr_tensor(Tensor<E, L> const& t) {
  using A = std::remove_cvref_t<decltype(t.layout().layout_a())>;
  auto p = make_swizzle_ptr(t.data() + t.layout().offset(), A{});
  auto b = t.layout().layout_b();
  return Tensor<ViewEngine<decltype(p)>, decltype(b)>{ViewEngine<decltype(p)>{p}, b};
}
}  // namespace detail

// The swizzle of a swizzled shared-memory tensor moved into its pointer
// (Sw<B,M,S>_smem_ptr o L): slices and partitions then act on the plain L
// and copy() can vectorise through the pointer. The swizzle then acts on the
// absolute address, so the base must be aligned to the swizzle period
// (checked with TESSERA_ASSERT). A tensor without a composed layout comes back as it is.
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto as_position_independent_swizzle_tensor(Tensor<E, L> const& t) {
  if constexpr (detail::is_composed<L>::value) {
    static_assert(detail::swizzle_ptr_convertible_v<L, std::remove_cvref_t<decltype(t.data())>>,
                  "as_position_independent_swizzle_tensor: needs a Swizzle o offset o layout over an smem pointer");
    TESSERA_ASSERT(detail::swizzle_base_aligned(t) &&
                   "as_position_independent_swizzle_tensor: swizzled smem base must be aligned to the swizzle period");
    return detail::to_swizzle_ptr_tensor(t);
  } else {
    return t;
  }
}

// An owning tensor with the shape of `t`, compact strides ordered like t's (make_layout_like).
template <class NewT = void, class E, class L>
TESSERA_HOST_DEVICE constexpr auto make_tensor_like(Tensor<E, L> const& t) {
  using T = std::conditional_t<std::is_void_v<NewT>, typename E::value_type, NewT>;
  return make_tensor<T>(make_layout_like(t.layout()));
}
template <class NewT, class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_tensor_like(Layout<S, D> const& l) {
  return make_tensor<NewT>(make_layout_like(l));
}

// An owning register fragment shaped like `t`: mode 0 compact first, the rest after (make_fragment_like).
template <class NewT = void, class E, class L>
TESSERA_HOST_DEVICE constexpr auto make_fragment_like(Tensor<E, L> const& t) {
  using T = std::conditional_t<std::is_void_v<NewT>, typename E::value_type, NewT>;
  return make_tensor<T>(make_fragment_like(t.layout()));
}
template <class NewT, class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_fragment_like(Layout<S, D> const& l) {
  return make_tensor<NewT>(make_fragment_like(l));
}

// ---- free accessors (CuTe spelling) ----------------------------------------

template <int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto layout(Tensor<E, L> const& t) {
  if constexpr (sizeof...(Is) == 0) {
    return t.layout();
  } else {
    return layout<Is...>(t.layout());
  }
}
template <int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto shape(Tensor<E, L> const& t) { return shape<Is...>(t.layout()); }
template <int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto stride(Tensor<E, L> const& t) { return stride<Is...>(t.layout()); }
template <int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto size(Tensor<E, L> const& t) { return size<Is...>(t.layout()); }
template <int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto rank(Tensor<E, L> const& t) { return rank<Is...>(t.layout()); }
template <int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto depth(Tensor<E, L> const& t) { return depth<Is...>(t.layout()); }
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto cosize(Tensor<E, L> const& t) { return cosize(t.layout()); }

// ---- printing ---------------------------------------------------------------

// print(t): "ptr o layout", e.g. gmem_ptr[16b](0x505600000) o (_128,_64,64):(4096,_1,_64).
template <class E, class L>
TESSERA_HOST_DEVICE void print(Tensor<E, L> const& t) {
  print(t.data());
  printf(" o ");
  print(t.layout());
}

}  // namespace tessera
