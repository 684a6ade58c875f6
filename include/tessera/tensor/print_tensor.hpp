// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Printing a tensor's values, in CuTe's format.
//
//   print_tensor(t)         the header "ptr o layout:" (as print(t)), then the values
//   print_tensor(t, false)  the values only
//   os << t                 the layout on a line, then the values, 9 characters each
//
// The values: rank 1 a column; rank 2 a table, rows = mode 0, columns =
// mode 1; rank 3 one table per index of mode 2, separated by a line of
// 5 * size<1> dashes; rank 4 one rank-3 block per index of mode 3,
// separated by a line of '='. Each value goes through pretty_print
// (tessera/core/print.hpp), which gives CuTe's widths. Where CuTe prints
// nothing, rank 5 and up, Tessera folds the modes from 3 on into mode 3
// and prints the rank-4 form.

#include <cstdio>
#include <iomanip>
#include <ostream>
#include <string>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/partition.hpp"
#include "tessera/tensor/tensor_impl.hpp"

namespace tessera {

namespace detail {
// Values of the rank-1..4 tensor t through `value(v)`, `rule(c, n)` printing
// a separator line of n characters c, and `endl()`.
template <class TensorT, class Value, class Rule, class Endl>
TESSERA_HOST_DEVICE void walk_tensor_table(TensorT const& t, Value const& value, Rule const& rule, Endl const& endl) {
  constexpr int R = std::remove_cvref_t<decltype(t.layout())>::rank;
  Underscore const _{};
  if constexpr (R <= 1) {
    for (int i = 0; i < int(size(t.layout())); ++i) {
      value(t(i));
      endl();
    }
  } else if constexpr (R == 2) {
    for (int m = 0; m < int(size<0>(t.layout())); ++m) {
      for (int n = 0; n < int(size<1>(t.layout())); ++n) value(t(m, n));
      endl();
    }
  } else if constexpr (R == 3) {
    for (int k = 0; k < int(size<2>(t.layout())); ++k) {
      if (k > 0) rule('-', int(size<1>(t.layout())));
      walk_tensor_table(t(_, _, k), value, rule, endl);
    }
  } else if constexpr (R == 4) {
    for (int p = 0; p < int(size<3>(t.layout())); ++p) {
      if (p > 0) rule('=', int(size<1>(t.layout())));
      walk_tensor_table(t(_, _, _, p), value, rule, endl);
    }
  } else {
    walk_tensor_table(group_modes<3, R>(t), value, rule, endl);
  }
}
}  // namespace detail

template <class E, class L>
TESSERA_HOST_DEVICE void print_tensor(Tensor<E, L> const& t, bool print_type = true) {
  if (print_type) {
    print(t);
    printf(":\n");
  }
  detail::walk_tensor_table(
      t, [](auto const& v) { pretty_print(v); },
      [](char c, int columns) {
        for (int i = 0; i < 5 * columns; ++i) printf("%c", c);
        printf("\n");
      },
      [] { printf("\n"); });
}

template <class E, class L>
std::ostream& operator<<(std::ostream& os, Tensor<E, L> const& t) {
  constexpr int kWidth = 9;
  os << t.layout() << "\n";
  detail::walk_tensor_table(
      t,
      [&](auto const& v) {
        // int8_t and uint8_t are character types to an ostream; as tensor
        // values (integer MMA fragments) they are numbers.
        using V = std::remove_cvref_t<decltype(v)>;
        if constexpr (std::is_same_v<V, signed char> || std::is_same_v<V, unsigned char>) {
          os << std::setw(kWidth) << int(v);
        } else {
          os << std::setw(kWidth) << v;
        }
      },
      [&](char c, int columns) { os << std::string(size_t(kWidth * columns), c) << "\n"; }, [&] { os << "\n"; });
  return os;
}

}  // namespace tessera
