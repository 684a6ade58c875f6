// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: TESSERA_STATIC_ASSERT_V: the condition is a run-time value, not a static C<b>
// Misuse: a run-time extent compared in a static assertion (it can only be checked at run time).
#include <tessera/cute_compat.hpp>
#include <tessera/layout.hpp>

using namespace tessera;

int misuse(int m) {
  auto shape = make_shape(m, _64{});
  CUTE_STATIC_ASSERT_V(size<0>(shape) == _128{});
  return int(size(shape));
}
