// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// cuBLAS computing the same GemmArgs (same types, layouts, batch strides):
// cublasGemmStridedBatchedEx with CUBLAS_COMPUTE_32F (f32, f16 and bf16 with
// f32 accumulation), CUBLAS_COMPUTE_32F_FAST_TF32 (tf32) and
// CUBLAS_COMPUTE_16F (f16 accumulation). Row-major D is computed as the
// column-major D^T = op(B)^T op(A)^T, so no operand is copied; when beta != 0
// and C is not D, C is first copied into D (cuBLAS updates in place).
#pragma once

#include "tessera/gemm/api.hpp"

namespace tessera {

class CublasReference {
 public:
  CublasReference();
  ~CublasReference();
  CublasReference(const CublasReference&) = delete;
  CublasReference& operator=(const CublasReference&) = delete;

  // Status of handle creation; run() fails with it when not ok.
  [[nodiscard]] const Status& status() const { return status_; }

  // Enqueue D = alpha*op(A)*op(B) + beta*C on `stream` (arguments validated here).
  Status run(const GemmArgs& args, gemm_stream_t stream = nullptr);

 private:
  void* handle_ = nullptr;  // cublasHandle_t
  Status status_;
};

}  // namespace tessera
