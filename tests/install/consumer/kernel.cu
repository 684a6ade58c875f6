// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Built (not run) by the install test when CUDA is enabled: the installed
// tessera::tessera must give nvcc C++20 and --expt-relaxed-constexpr.
#include <tessera/layout.hpp>

static_assert(__cplusplus >= 202002L, "consumer: tessera::tessera must compile CUDA sources as C++20");

__global__ void offsets_kernel(int* out) {
  using namespace tessera;
  auto layout = make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));
  int const i = static_cast<int>(threadIdx.x);
  out[i] = static_cast<int>(layout(i % 4, i / 4));
}
