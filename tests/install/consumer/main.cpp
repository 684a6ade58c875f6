// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include <tessera/layout.hpp>

#include <cstdio>

int main() {
  using namespace tessera;
  auto layout = make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));
  std::printf("size=%d layout(1,2)=%d\n", static_cast<int>(size(layout)),
              static_cast<int>(layout(1, 2)));
  return 0;
}
