// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Compiled by plain `g++ -std=c++20 -I include` (tests/headers): the layout
// algebra must build without CUDA headers and be usable, not just parse.
#include <tessera/layout.hpp>

#if defined(__CUDACC__) || defined(__CUDA_ARCH__)
#error "this check must run under a host compiler"
#endif

int plain_layout_check() {
  using namespace tessera;
  auto layout = make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));
  static_assert(decltype(size(layout))::value == 32, "plain_layout: size of (4,8):(8,1) is not 32");
  return static_cast<int>(layout(1, 2));
}
