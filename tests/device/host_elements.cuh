// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Host-side element access for GEMM device tests: operands of any API type
// held in byte buffers, read and written as double, and the offset of a
// logical (row, column) in a row- or column-major operand.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include <tessera/gemm/api.hpp>

namespace tessera::test {

// Element i of a buffer of `t` (f16, bf16, else f32 storage) set to v, rounded.
inline void store_elem(DataType t, void* base, std::int64_t i, double v) {
  switch (t) {
    case DataType::f16: static_cast<__half*>(base)[i] = __double2half(v); break;
    case DataType::bf16: static_cast<__nv_bfloat16*>(base)[i] = __double2bfloat16(v); break;
    default: static_cast<float*>(base)[i] = float(v); break;
  }
}

// Element i of a buffer of `t`, exactly, as double.
inline double load_elem(DataType t, const void* base, std::int64_t i) {
  switch (t) {
    case DataType::f16: return double(__half2float(static_cast<const __half*>(base)[i]));
    case DataType::bf16: return double(__bfloat162float(static_cast<const __nv_bfloat16*>(base)[i]));
    default: return double(static_cast<const float*>(base)[i]);
  }
}

// Offset of logical (r, c) in an operand stored with `order` and `ld`.
inline std::int64_t at(MatrixOrder order, std::int64_t ld, std::int64_t r, std::int64_t c) {
  return order == MatrixOrder::row_major ? r * ld + c : c * ld + r;
}

}  // namespace tessera::test
