// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include "reference/check.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <limits>
#include <string>

namespace tessera {
namespace {

Status cuda_status(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return {};
  return {StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorString(err)};
}

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

template <class T>
__global__ void fill_random_kernel(T* data, std::int64_t count, std::uint64_t seed, float lo,
                                   float hi) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::uint64_t const h = mix64(seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(i));
    float const u = static_cast<float>(h >> 40) * (1.0f / 16777216.0f);  // [0,1)
    float const v = lo + (hi - lo) * u;
    if constexpr (sizeof(T) == 4) data[i] = v;
    else data[i] = T(v);
  }
}

__device__ __forceinline__ double load_as_double(const void* p, DataType t, std::int64_t i) {
  switch (t) {
    case DataType::f16: return __half2float(static_cast<const __half*>(p)[i]);
    case DataType::bf16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
  }
}

struct Strides {
  std::int64_t row, col, batch;
};

Strides strides_of(const MatrixDesc& m) {
  return m.order == MatrixOrder::row_major ? Strides{m.ld, 1, m.batch_stride}
                                           : Strides{1, m.ld, m.batch_stride};
}

struct RefParams {
  std::int64_t n, k, batch_count, nrows;
  const std::int64_t* rows;
  const void *a, *b, *c;
  DataType in, out;
  Strides sa, sb, sc;
  double alpha, beta;
  double* ref;  // (batch, nrows, n)
};

__global__ void reference_kernel(RefParams p) {
  std::int64_t const j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  std::int64_t const r = blockIdx.y;
  if (j >= p.n) return;
  for (std::int64_t batch = blockIdx.z; batch < p.batch_count; batch += gridDim.z) {
    std::int64_t const i = p.rows[r];
    double acc = 0;
    std::int64_t const a0 = batch * p.sa.batch + i * p.sa.row;
    std::int64_t const b0 = batch * p.sb.batch + j * p.sb.col;
    for (std::int64_t kk = 0; kk < p.k; ++kk)
      acc += load_as_double(p.a, p.in, a0 + kk * p.sa.col) *
             load_as_double(p.b, p.in, b0 + kk * p.sb.row);
    double v = p.k == 0 ? 0.0 : p.alpha * acc;  // K == 0: D = beta * C for any alpha (BLAS)
    if (p.beta != 0)
      v += p.beta * load_as_double(p.c, p.out, batch * p.sc.batch + i * p.sc.row + j * p.sc.col);
    p.ref[(batch * p.nrows + r) * p.n + j] = v;
  }
}

// stats: [0] sum (d-ref)^2, [1] sum ref^2, [2] max |d-ref| bits, [3] max |ref| bits,
// [4] non-finite count (as double). Each warp reduces before its atomics.
__global__ void compare_kernel(RefParams p, const void* d, Strides sd, double* stats) {
  std::int64_t const j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  std::int64_t const r = blockIdx.y;
  double err2 = 0, ref2 = 0, max_err = 0, max_ref = 0, bad = 0;
  if (j < p.n) {
    std::int64_t const i = p.rows[r];
    for (std::int64_t batch = blockIdx.z; batch < p.batch_count; batch += gridDim.z) {
      double const ref = p.ref[(batch * p.nrows + r) * p.n + j];
      double const got = load_as_double(d, p.out, batch * sd.batch + i * sd.row + j * sd.col);
      if (!isfinite(got)) {
        bad += 1;
        continue;
      }
      double const e = fabs(got - ref);
      err2 += e * e;
      ref2 += ref * ref;
      max_err = fmax(max_err, e);
      max_ref = fmax(max_ref, fabs(ref));
    }
  }
  for (int off = 16; off > 0; off >>= 1) {
    err2 += __shfl_down_sync(0xffffffffu, err2, off);
    ref2 += __shfl_down_sync(0xffffffffu, ref2, off);
    bad += __shfl_down_sync(0xffffffffu, bad, off);
    max_err = fmax(max_err, __shfl_down_sync(0xffffffffu, max_err, off));
    max_ref = fmax(max_ref, __shfl_down_sync(0xffffffffu, max_ref, off));
  }
  if ((threadIdx.x & 31) != 0) return;
  atomicAdd(&stats[0], err2);
  atomicAdd(&stats[1], ref2);
  atomicAdd(&stats[4], bad);
  // Non-negative doubles order like their bit patterns.
  atomicMax(reinterpret_cast<unsigned long long*>(&stats[2]),
            static_cast<unsigned long long>(__double_as_longlong(max_err)));
  atomicMax(reinterpret_cast<unsigned long long*>(&stats[3]),
            static_cast<unsigned long long>(__double_as_longlong(max_ref)));
}

template <class T>
__global__ void copy_kernel(const T* src, Strides ss, T* dst, Strides sd, std::int64_t m,
                            std::int64_t n, std::int64_t batch_count) {
  std::int64_t const j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  for (std::int64_t batch = blockIdx.z; batch < batch_count; batch += gridDim.z)
    for (std::int64_t i = blockIdx.y; i < m; i += gridDim.y)
      dst[batch * sd.batch + i * sd.row + j * sd.col] = src[batch * ss.batch + i * ss.row + j * ss.col];
}

unsigned grid_z(std::int64_t batch) { return static_cast<unsigned>(batch < 65535 ? batch : 65535); }

}  // namespace

double ErrorStats::error() const {
  if (non_finite > 0) return std::numeric_limits<double>::infinity();
  return rel_norm_error;
}

Status fill_random(void* data, std::int64_t count, DataType type, std::uint64_t seed,
                   gemm_stream_t stream, float lo, float hi) {
  if (count <= 0) return {};
  int const threads = 256;
  std::int64_t blocks64 = (count + threads - 1) / threads;
  unsigned const blocks = static_cast<unsigned>(blocks64 < 65536 ? blocks64 : 65536);
  switch (type) {
    case DataType::f16:
      fill_random_kernel<<<blocks, threads, 0, stream>>>(static_cast<__half*>(data), count, seed, lo, hi);
      break;
    case DataType::bf16:
      fill_random_kernel<<<blocks, threads, 0, stream>>>(static_cast<__nv_bfloat16*>(data), count, seed, lo, hi);
      break;
    default:
      fill_random_kernel<<<blocks, threads, 0, stream>>>(static_cast<float*>(data), count, seed, lo, hi);
  }
  return cuda_status(cudaGetLastError(), "fill_random");
}

Status poison(void* data, std::int64_t bytes, gemm_stream_t stream) {
  if (bytes <= 0) return {};
  return cuda_status(cudaMemsetAsync(data, 0xFF, static_cast<size_t>(bytes), stream), "poison");
}

std::vector<std::int64_t> sample_rows(std::int64_t m, std::int64_t max_rows) {
  std::vector<std::int64_t> rows;
  if (m <= 0) return rows;
  if (m <= max_rows || max_rows < 2) {
    std::int64_t const count = m <= max_rows ? m : 1;
    for (std::int64_t i = 0; i < count; ++i) rows.push_back(i);
    return rows;
  }
  for (std::int64_t r = 0; r < max_rows; ++r) rows.push_back(r * (m - 1) / (max_rows - 1));
  return rows;
}

Status check_against_fp64(const GemmArgs& args, const std::vector<std::int64_t>& rows,
                          ErrorStats* stats, gemm_stream_t stream) {
  *stats = ErrorStats{};
  if (args.m == 0 || args.n == 0 || args.batch_count == 0 || rows.empty()) return {};
  std::int64_t const nrows = static_cast<std::int64_t>(rows.size());
  if (nrows > 65535)
    return {StatusCode::invalid_size, "check_against_fp64: at most 65535 rows per check"};
  for (std::int64_t r : rows)
    if (r < 0 || r >= args.m) return {StatusCode::invalid_size, "check_against_fp64: row out of range"};
  std::int64_t* d_rows = nullptr;
  double* d_ref = nullptr;
  double* d_stats = nullptr;
  std::int64_t const ref_count = args.batch_count * nrows * args.n;
  Status s = cuda_status(cudaMalloc(&d_rows, sizeof(std::int64_t) * rows.size()), "cudaMalloc");
  if (s.ok()) s = cuda_status(cudaMalloc(&d_ref, sizeof(double) * ref_count), "cudaMalloc reference");
  if (s.ok()) s = cuda_status(cudaMalloc(&d_stats, sizeof(double) * 5), "cudaMalloc");
  if (s.ok()) {
    cudaMemcpyAsync(d_rows, rows.data(), sizeof(std::int64_t) * rows.size(), cudaMemcpyHostToDevice, stream);
    cudaMemsetAsync(d_stats, 0, sizeof(double) * 5, stream);
    RefParams p{};
    p.n = args.n;
    p.k = args.k;
    p.batch_count = args.batch_count;
    p.nrows = nrows;
    p.rows = d_rows;
    p.a = args.a.data;
    p.b = args.b.data;
    p.c = args.c.data;
    p.in = args.input;
    p.out = resolved_output(args);
    p.sa = strides_of(args.a);
    p.sb = strides_of(args.b);
    p.sc = strides_of(args.c);
    p.alpha = args.alpha;
    p.beta = args.beta;
    p.ref = d_ref;
    dim3 const grid(static_cast<unsigned>((args.n + 127) / 128), static_cast<unsigned>(nrows),
                    grid_z(args.batch_count));
    reference_kernel<<<grid, 128, 0, stream>>>(p);
    compare_kernel<<<grid, 128, 0, stream>>>(p, args.d.data, strides_of(args.d.view()), d_stats);
    s = cuda_status(cudaGetLastError(), "reference kernels");
  }
  double h[5] = {};
  if (s.ok()) s = cuda_status(cudaMemcpyAsync(h, d_stats, sizeof h, cudaMemcpyDeviceToHost, stream), "copy stats");
  if (s.ok()) s = cuda_status(cudaStreamSynchronize(stream), "reference");
  cudaFree(d_rows);
  cudaFree(d_ref);
  cudaFree(d_stats);
  if (!s.ok()) return s;
  stats->non_finite = static_cast<std::int64_t>(h[4]);
  stats->checked = ref_count;
  stats->rel_norm_error = h[1] > 0 ? std::sqrt(h[0] / h[1]) : std::sqrt(h[0]);
  stats->max_abs_error = h[2];
  stats->max_abs_ref = h[3];
  return {};
}

Status copy_matrix(const MatrixDesc& src, const MutableMatrixDesc& dst, std::int64_t m,
                   std::int64_t n, std::int64_t batch_count, std::int64_t elem_bytes,
                   gemm_stream_t stream) {
  if (m <= 0 || n <= 0 || batch_count <= 0) return {};
  dim3 const grid(static_cast<unsigned>((n + 127) / 128),
                  static_cast<unsigned>(m < 65535 ? m : 65535), grid_z(batch_count));
  if (elem_bytes == 4)
    copy_kernel<<<grid, 128, 0, stream>>>(static_cast<const std::uint32_t*>(src.data), strides_of(src),
                                         static_cast<std::uint32_t*>(dst.data), strides_of(dst.view()),
                                         m, n, batch_count);
  else
    copy_kernel<<<grid, 128, 0, stream>>>(static_cast<const std::uint16_t*>(src.data), strides_of(src),
                                         static_cast<std::uint16_t*>(dst.data), strides_of(dst.view()),
                                         m, n, batch_count);
  return cuda_status(cudaGetLastError(), "copy_matrix");
}

double error_bound(const GemmArgs& args) {
  switch (args.input) {
    case DataType::f32: return 1e-5;
    case DataType::tf32: return 1e-3;
    case DataType::f16: return args.accumulate == DataType::f16 ? 2e-2 : 5e-3;
    case DataType::bf16: return 1e-2;
    default: return 0;
  }
}

}  // namespace tessera
