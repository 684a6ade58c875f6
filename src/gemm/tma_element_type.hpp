// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The TMA element type of a GEMM storage type, for the tensor maps the
// GEMM launchers encode (operands and D): sm90_ws_gemm.cu, and
// sm80_tensorop.cu's TMA-fed variant. `deduce` is not a storage type: the
// callers pass inputs and resolved outputs only.

#include <cuda.h>

#include <tessera/gemm/api.hpp>

namespace tessera::detail {

inline CUtensorMapDataType tma_element_type(DataType t) {
  switch (t) {
    case DataType::bf16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case DataType::f16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case DataType::tf32: return CU_TENSOR_MAP_DATA_TYPE_TFLOAT32;
    case DataType::f32:
    case DataType::deduce: break;
  }
  return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
}

}  // namespace tessera::detail
