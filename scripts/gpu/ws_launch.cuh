// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The problem the Hopper drivers that link the runtime time (ws_timeline.cu,
// clock_under_load.cu): bf16 TN as `tessera bench` runs it (A row-major and
// B column-major, both K-contiguous; D row-major; f32 accumulation), and its
// default sm90_ws_gemm launch, which exits the driver if it fails.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <tessera/gemm/sm90_ws_gemm.cuh>

inline tessera::GemmArgs bf16_tn_args(int m, int n, int k, const void* a, const void* b, void* d) {
  using namespace tessera;
  GemmArgs args;
  args.m = m;
  args.n = n;
  args.k = k;
  args.input = args.output = DataType::bf16;
  args.accumulate = DataType::f32;
  args.a = MatrixDesc{a, MatrixOrder::row_major, k, 0};
  args.b = MatrixDesc{b, MatrixOrder::col_major, k, 0};
  args.d = MutableMatrixDesc{d, MatrixOrder::row_major, n, 0};
  return args;
}

inline void launch_default_or_exit(const tessera::GemmArgs& args) {
  tessera::Status const s = tessera::detail::launch_sm90_ws_gemm(args, nullptr);
  if (!s.ok()) {
    std::printf("launch: %s\n", s.message.c_str());
    std::exit(1);
  }
}
