// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include "reference/cublas_reference.hpp"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <climits>
#include <string>

#include "reference/check.hpp"

namespace tessera {
namespace {

cudaDataType_t cuda_type(DataType t) {
  switch (t) {
    case DataType::f16: return CUDA_R_16F;
    case DataType::bf16: return CUDA_R_16BF;
    default: return CUDA_R_32F;
  }
}

Status cublas_status(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return {};
  return {StatusCode::cuda_error,
          std::string("cuBLAS ") + what + ": " + cublasGetStatusString(s)};
}

}  // namespace

CublasReference::CublasReference() {
  cublasHandle_t h = nullptr;
  status_ = cublas_status(cublasCreate(&h), "cublasCreate");
  handle_ = h;
}

CublasReference::~CublasReference() {
  if (handle_ != nullptr) cublasDestroy(static_cast<cublasHandle_t>(handle_));
}

Status CublasReference::run(const GemmArgs& args, gemm_stream_t stream) {
  if (!status_.ok()) return status_;
  if (Status s = validate_arguments(args); !s.ok()) return s;
  if (args.m == 0 || args.n == 0 || args.batch_count == 0) return {};
  if (args.m > INT_MAX || args.n > INT_MAX || args.k > INT_MAX || args.batch_count > INT_MAX ||
      args.a.ld > INT_MAX || args.b.ld > INT_MAX || args.d.ld > INT_MAX)
    return {StatusCode::invalid_size, "cuBLAS reference: sizes above INT_MAX"};
  auto h = static_cast<cublasHandle_t>(handle_);
  if (Status s = cublas_status(cublasSetStream(h, stream), "cublasSetStream"); !s.ok()) return s;

  DataType const out = resolved_output(args);
  bool const in_place = args.c.data == args.d.data && args.c.order == args.d.order &&
                        args.c.ld == args.d.ld && args.c.batch_stride == args.d.batch_stride;
  if (args.beta != 0.0f && !in_place)
    if (Status s = copy_matrix(args.c, args.d, args.m, args.n, args.batch_count, size_of(out), stream);
        !s.ok())
      return s;

  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  if (args.input == DataType::tf32) compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  if (args.accumulate == DataType::f16) compute = CUBLAS_COMPUTE_16F;
  __half const alpha_h = __float2half(args.alpha), beta_h = __float2half(args.beta);
  const void* alpha = compute == CUBLAS_COMPUTE_16F ? static_cast<const void*>(&alpha_h)
                                                    : static_cast<const void*>(&args.alpha);
  const void* beta = compute == CUBLAS_COMPUTE_16F ? static_cast<const void*>(&beta_h)
                                                   : static_cast<const void*>(&args.beta);

  // Column-major D: D = op(A) op(B). Row-major D: D^T = op(B)^T op(A)^T.
  bool const d_col = args.d.order == MatrixOrder::col_major;
  const MatrixDesc& x = d_col ? args.a : args.b;  // first cuBLAS operand
  const MatrixDesc& y = d_col ? args.b : args.a;
  // A column-major operand is used as stored (N) in the column-major product,
  // and a row-major one transposed; in the row-major case the roles flip.
  auto op = [d_col](const MatrixDesc& m) {
    bool const as_stored = (m.order == MatrixOrder::col_major) == d_col;
    return as_stored ? CUBLAS_OP_N : CUBLAS_OP_T;
  };
  int const rows = static_cast<int>(d_col ? args.m : args.n);
  int const cols = static_cast<int>(d_col ? args.n : args.m);
  // K == 0: A and B may be null; cuBLAS still wants valid leading dimensions.
  auto ld_of = [](const MatrixDesc& m) { return static_cast<int>(m.ld < 1 ? 1 : m.ld); };
  return cublas_status(
      cublasGemmStridedBatchedEx(
          h, op(x), op(y), rows, cols, static_cast<int>(args.k), alpha, x.data,
          cuda_type(args.input), ld_of(x), x.batch_stride, y.data, cuda_type(args.input), ld_of(y),
          y.batch_stride, beta, args.d.data, cuda_type(out), static_cast<int>(args.d.ld),
          args.d.batch_stride, static_cast<int>(args.batch_count), compute, CUBLAS_GEMM_DEFAULT),
      "cublasGemmStridedBatchedEx");
}

}  // namespace tessera
