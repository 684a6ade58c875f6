// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: as_position_independent_swizzle_tensor: needs a Swizzle o offset o layout over an smem pointer
//
// The swizzle_ptr form exists for shared memory only: a swizzled layout over
// a plain pointer has no such form.

#include <tessera/tensor.hpp>

using namespace tessera;

int main() {
  static float buf[64];
  auto t = make_tensor(buf, composition(Swizzle<2, 2, 3>{}, Layout<Shape<_8, _8>, Stride<_8, _1>>{}));
  auto p = as_position_independent_swizzle_tensor(t);
  return int(size(p));
}
