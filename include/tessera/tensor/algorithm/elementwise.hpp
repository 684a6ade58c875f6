// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Element-wise algorithms over the index domain of a tensor.
//   fill(t, v)                    t(i) = v
//   clear(t)                      t(i) = T{}
//   transform(t, f)               t(i) = f(t(i))
//   transform(src, dst, f)        dst(i) = f(src(i))
//   transform(a, b, dst, f)       dst(i) = f(a(i), b(i))
//   axpby(alpha, x, beta, y)      y(i) = alpha * x(i) + beta * y(i)   (beta == 0 never reads y)
//   axpby(alpha, x, beta, y, p)   the same where p(i), y(i) untouched elsewhere
//   for_each(t, f)                f(t(i)) for i = 0, 1, ... (f may modify t(i))

#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/tensor_impl.hpp"

namespace tessera {

template <class TensorT, class V>
  requires is_tensor_v<TensorT>
TESSERA_HOST_DEVICE void fill(TensorT&& t, V const& v) {
  using T = typename std::remove_cvref_t<TensorT>::value_type;
  int const n = int(size(t.layout()));
  TESSERA_UNROLL
  for (int i = 0; i < n; ++i) t(i) = static_cast<T>(v);
}

template <class TensorT>
  requires is_tensor_v<TensorT>
TESSERA_HOST_DEVICE void clear(TensorT&& t) {
  using T = typename std::remove_cvref_t<TensorT>::value_type;
  fill(t, T{});
}

template <class TensorT, class F>
  requires is_tensor_v<TensorT>
TESSERA_HOST_DEVICE void transform(TensorT&& t, F&& f) {
  int const n = int(size(t.layout()));
  TESSERA_UNROLL
  for (int i = 0; i < n; ++i) t(i) = f(t(i));
}

template <class SE, class SL, class DstTensor, class F>
  requires is_tensor_v<DstTensor>
TESSERA_HOST_DEVICE void transform(Tensor<SE, SL> const& src, DstTensor&& dst, F&& f) {
  TESSERA_ASSERT(int(size(src.layout())) == int(size(dst.layout())));
  int const n = int(size(dst.layout()));
  TESSERA_UNROLL
  for (int i = 0; i < n; ++i) dst(i) = f(src(i));
}

template <class AE, class AL, class BE, class BL, class DstTensor, class F>
  requires is_tensor_v<DstTensor>
TESSERA_HOST_DEVICE void transform(Tensor<AE, AL> const& a, Tensor<BE, BL> const& b, DstTensor&& dst, F&& f) {
  TESSERA_ASSERT(int(size(a.layout())) == int(size(dst.layout())));
  TESSERA_ASSERT(int(size(b.layout())) == int(size(dst.layout())));
  int const n = int(size(dst.layout()));
  TESSERA_UNROLL
  for (int i = 0; i < n; ++i) dst(i) = f(a(i), b(i));
}

// CuTe's predicated epilogue form: only the indices i with pred(i) are
// read and written (pred: any callable of the index, e.g. a lambda over an
// identity tensor's coordinates, or a tensor of bools).
template <class Alpha, class XE, class XL, class Beta, class YTensor, class Pred>
  requires is_tensor_v<YTensor>
TESSERA_HOST_DEVICE void axpby(Alpha const& alpha, Tensor<XE, XL> const& x, Beta const& beta, YTensor&& y,
                               Pred const& pred) {
  using T = typename std::remove_cvref_t<YTensor>::value_type;
  TESSERA_ASSERT(int(size(x.layout())) == int(size(y.layout())));
  int const n = int(size(y.layout()));
  if (beta == Beta(0)) {
    TESSERA_UNROLL
    for (int i = 0; i < n; ++i)
      if (pred(i)) y(i) = static_cast<T>(alpha * x(i));
  } else {
    TESSERA_UNROLL
    for (int i = 0; i < n; ++i)
      if (pred(i)) y(i) = static_cast<T>(alpha * x(i) + beta * y(i));
  }
}

template <class Alpha, class XE, class XL, class Beta, class YTensor>
  requires is_tensor_v<YTensor>
TESSERA_HOST_DEVICE void axpby(Alpha const& alpha, Tensor<XE, XL> const& x, Beta const& beta, YTensor&& y) {
  axpby(alpha, x, beta, y, [](int) { return true; });
}

// CuTe's for_each over a tensor: f(t(i)) for every index in order. (Without
// this overload the tuple for_each of core/tuple.hpp would take a tensor as
// one leaf and call f once on the whole tensor.)
template <class TensorT, class F>
  requires is_tensor_v<TensorT>
TESSERA_HOST_DEVICE constexpr void for_each(TensorT&& t, F&& f) {
  int const n = int(size(t.layout()));
  TESSERA_UNROLL
  for (int i = 0; i < n; ++i) f(t(i));
}

}  // namespace tessera
