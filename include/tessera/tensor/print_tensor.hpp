// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// print_tensor(t): the header "ptr o layout:" then the values, a column for
// rank 1, a 2-D table (rows = mode 0, columns = mode 1) for rank 2, and one table
// per index of the remaining modes for rank >= 3, separated by dashes.
// operator<<(os, t) writes the header line only, like print(t).

#include <cstdio>
#include <ostream>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/partition.hpp"
#include "tessera/tensor/tensor_impl.hpp"

namespace tessera {

namespace detail {
template <class T>
TESSERA_HOST_DEVICE void print_value(T const& v) {
  if constexpr (std::is_same_v<T, bool>) {
    printf(" %1d", int(v));
  } else if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      printf(" %6lld", static_cast<long long>(v));
    } else {
      printf(" %6llu", static_cast<unsigned long long>(v));
    }
  } else if constexpr (std::is_floating_point_v<T> || std::is_convertible_v<T, float>) {
    printf(" %10.3e", static_cast<double>(static_cast<float>(v)));
  } else {
    printf(" ");
    print(v);
  }
}

template <class TensorT>
TESSERA_HOST_DEVICE void print_table(TensorT const& t) {
  int const M = int(size<0>(t.layout()));
  int const N = int(size<1>(t.layout()));
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) print_value(t(m, n));
    printf("\n");
  }
}
}  // namespace detail

template <class E, class L>
TESSERA_HOST_DEVICE void print_tensor(Tensor<E, L> const& t) {
  print(t);
  printf(":\n");
  constexpr int R = L::rank;
  if constexpr (R <= 1) {
    int const n = int(size(t.layout()));
    for (int i = 0; i < n; ++i) {
      detail::print_value(t(i));
      printf("\n");
    }
  } else if constexpr (R == 2) {
    detail::print_table(t);
  } else {
    auto t3 = group_modes<2, R>(t);
    int const K = int(size<2>(t3.layout()));
    for (int k = 0; k < K; ++k) {
      if (k > 0) printf("----------\n");
      detail::print_table(t3(Underscore{}, Underscore{}, k));
    }
  }
}

template <class E, class L>
std::ostream& operator<<(std::ostream& os, Tensor<E, L> const& t) {
  char buf[96];
  detail::format_iterator(buf, int(sizeof(buf)), t.data());
  return os << buf << " o " << t.layout();
}

}  // namespace tessera
