// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// simt_generic: the portable, always-correct GEMM kernel. Every type
// combination, every order of A, B, C, D, any leading dimension, any
// (element-aligned) pointer, strided batches, K == 0. Shared-memory tiled
// SIMT: a 128x128 tile of D per 256-thread block, 8x8 outputs per thread,
// K in steps of 8; global loads are scalar and guarded, converted to f32 on
// the way into shared memory (tf32 inputs rounded there with cvt.rna).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "gemm/kernel_entry.hpp"

namespace tessera::kernels {
namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 8;
constexpr int kThreads = 256;
// NOTE: +4 floats per shared row keeps 16-byte alignment for the float4 reads
// and spreads the transposing stores of K-contiguous operands over all banks.
constexpr int kSmemPad = 4;

// Element strides (in elements) of one operand: (row, column, batch).
struct OperandStrides {
  std::int64_t row, col, batch;
};

struct Params {
  std::int64_t m, n, k, batch_count;
  const void* a;
  const void* b;
  const void* c;
  void* d;
  OperandStrides sa, sb, sc, sd;
  float alpha, beta;
};

__device__ __forceinline__ float to_f32(float x) { return x; }
__device__ __forceinline__ float to_f32(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_f32(__nv_bfloat16 x) { return __bfloat162float(x); }

template <class T>
__device__ __forceinline__ T from_f32(float x);
template <>
__device__ __forceinline__ float from_f32<float>(float x) { return x; }
template <>
__device__ __forceinline__ __half from_f32<__half>(float x) { return __float2half_rn(x); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_f32<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

// cvt.rna.tf32.f32 (sm_80+): round to the 10-bit tf32 mantissa, ties away.
__device__ __forceinline__ float round_tf32(float x) {
  std::uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return __uint_as_float(r);
}

// Accumulator arithmetic: f32 FMA, or f16 FMA for f16 accumulation.
template <class Acc>
struct Accum;
template <>
struct Accum<float> {
  using type = float;
  __device__ static float zero() { return 0.0f; }
  __device__ static float fma(float a, float b, float c) { return fmaf(a, b, c); }
  __device__ static float to_float(float x) { return x; }
};
template <>
struct Accum<__half> {
  using type = __half;
  __device__ static __half zero() { return __float2half_rn(0.0f); }
  __device__ static __half fma(float a, float b, __half c) {
    return __hfma(__float2half_rn(a), __float2half_rn(b), c);
  }
  __device__ static float to_float(__half x) { return __half2float(x); }
};

// Load a kRows x kCols tile (rows r0.., cols c0..) of an operand into
// smem[col_or_k][row] style storage `dst[kk][i]`, where `kk` runs over the K
// extent. `k_is_row` says whether the operand's K index is its row (B) or its
// column (A). Consecutive threads walk the operand's contiguous direction.
template <class TIn, bool kTf32, int kExtent>
__device__ __forceinline__ void load_tile(float (*dst)[kExtent + kSmemPad], const TIn* src,
                                          OperandStrides s, bool k_is_row, std::int64_t i0,
                                          std::int64_t k0, std::int64_t i_size,
                                          std::int64_t k_size) {
  // i: the M (for A) or N (for B) index; kk: the K index.
  std::int64_t const stride_i = k_is_row ? s.col : s.row;
  std::int64_t const stride_k = k_is_row ? s.row : s.col;
  bool const i_fastest = stride_i == 1 && stride_k != 1;
  constexpr int kPerThread = kExtent * kBlockK / kThreads;
#pragma unroll
  for (int r = 0; r < kPerThread; ++r) {
    int const idx = static_cast<int>(threadIdx.x) + r * kThreads;
    int const i = i_fastest ? idx % kExtent : idx / kBlockK;
    int const kk = i_fastest ? idx / kExtent : idx % kBlockK;
    std::int64_t const gi = i0 + i;
    std::int64_t const gk = k0 + kk;
    float v = 0.0f;
    if (gi < i_size && gk < k_size) {
      v = to_f32(src[gi * stride_i + gk * stride_k]);
      if constexpr (kTf32) v = round_tf32(v);
    }
    dst[kk][i] = v;
  }
}

// NOTE: no minimum-blocks bound: capping registers at 128 for two blocks per
// SM made ptxas spill 60-140 bytes in 6 of the 7 instantiations (nvcc 13,
// sm_80/sm_90a); uncapped they use 134-152 registers without spills, one
// 8-warp block per SM. Not yet measured on a GPU either way.
template <class TIn, class TOut, class TAcc, bool kTf32>
__global__ void __launch_bounds__(kThreads)
    simt_generic_kernel(Params p) {
  __shared__ __align__(16) float sA[kBlockK][kBlockM + kSmemPad];  // (BLK_K,BLK_M)
  __shared__ __align__(16) float sB[kBlockK][kBlockN + kSmemPad];  // (BLK_K,BLK_N)

  using A = Accum<TAcc>;
  int const tx = static_cast<int>(threadIdx.x) % 16;
  int const ty = static_cast<int>(threadIdx.x) / 16;
  std::int64_t const n0 = static_cast<std::int64_t>(blockIdx.x) * kBlockN;
  std::int64_t const tiles_m = (p.m + kBlockM - 1) / kBlockM;

  // grid.y and grid.z stop at 65535: M tiles and batches beyond them are
  // walked by the same blocks (uniform per block, so the barriers hold).
  for (std::int64_t batch = blockIdx.z; batch < p.batch_count; batch += gridDim.z)
  for (std::int64_t tile_m = blockIdx.y; tile_m < tiles_m; tile_m += gridDim.y) {
    std::int64_t const m0 = tile_m * kBlockM;
    const TIn* a = static_cast<const TIn*>(p.a) + batch * p.sa.batch;
    const TIn* b = static_cast<const TIn*>(p.b) + batch * p.sb.batch;

    typename A::type acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j) acc[i][j] = A::zero();

    for (std::int64_t k0 = 0; k0 < p.k; k0 += kBlockK) {
      load_tile<TIn, kTf32, kBlockM>(sA, a, p.sa, /*k_is_row=*/false, m0, k0, p.m, p.k);
      load_tile<TIn, kTf32, kBlockN>(sB, b, p.sb, /*k_is_row=*/true, n0, k0, p.n, p.k);
      __syncthreads();
#pragma unroll
      for (int kk = 0; kk < kBlockK; ++kk) {
        // Rows ty*4+{0..3} and 64+ty*4+{0..3}; columns likewise with tx.
        float4 const a_lo = *reinterpret_cast<const float4*>(&sA[kk][ty * 4]);
        float4 const a_hi = *reinterpret_cast<const float4*>(&sA[kk][64 + ty * 4]);
        float4 const b_lo = *reinterpret_cast<const float4*>(&sB[kk][tx * 4]);
        float4 const b_hi = *reinterpret_cast<const float4*>(&sB[kk][64 + tx * 4]);
        float const av[8] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
        float const bv[8] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
          for (int j = 0; j < 8; ++j) acc[i][j] = A::fma(av[i], bv[j], acc[i][j]);
      }
      __syncthreads();
    }

    const TOut* c = static_cast<const TOut*>(p.c) + batch * p.sc.batch;
    TOut* d = static_cast<TOut*>(p.d) + batch * p.sd.batch;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      std::int64_t const gm = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
      if (gm >= p.m) continue;
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        std::int64_t const gn = n0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + (j - 4));
        if (gn >= p.n) continue;
        float v = p.alpha * A::to_float(acc[i][j]);
        // beta == 0 never reads C (C may be null or hold NaN).
        if (p.beta != 0.0f) v += p.beta * to_f32(c[gm * p.sc.row + gn * p.sc.col]);
        d[gm * p.sd.row + gn * p.sd.col] = from_f32<TOut>(v);
      }
    }
  }
}

OperandStrides strides_of(const MatrixDesc& m) {
  return m.order == MatrixOrder::row_major ? OperandStrides{m.ld, 1, m.batch_stride}
                                           : OperandStrides{1, m.ld, m.batch_stride};
}

Params make_params(const GemmArgs& args) {
  Params p{};
  p.m = args.m;
  p.n = args.n;
  p.k = args.k;
  p.batch_count = args.batch_count;
  p.a = args.a.data;
  p.b = args.b.data;
  p.c = args.c.data;
  p.d = args.d.data;
  p.sa = strides_of(args.a);
  p.sb = strides_of(args.b);
  p.sc = strides_of(args.c);
  p.sd = strides_of(args.d.view());
  p.alpha = args.alpha;
  p.beta = args.beta;
  return p;
}

// The instantiation for the argument types, or nullptr.
const void* function_for(const GemmArgs& args) {
  DataType const out = resolved_output(args);
  switch (args.input) {
    case DataType::f32: return reinterpret_cast<const void*>(&simt_generic_kernel<float, float, float, false>);
    case DataType::tf32: return reinterpret_cast<const void*>(&simt_generic_kernel<float, float, float, true>);
    case DataType::f16:
      if (args.accumulate == DataType::f16)
        return reinterpret_cast<const void*>(&simt_generic_kernel<__half, __half, __half, false>);
      return out == DataType::f32
                 ? reinterpret_cast<const void*>(&simt_generic_kernel<__half, float, float, false>)
                 : reinterpret_cast<const void*>(&simt_generic_kernel<__half, __half, float, false>);
    case DataType::bf16:
      return out == DataType::f32
                 ? reinterpret_cast<const void*>(&simt_generic_kernel<__nv_bfloat16, float, float, false>)
                 : reinterpret_cast<const void*>(
                       &simt_generic_kernel<__nv_bfloat16, __nv_bfloat16, float, false>);
    default: return nullptr;
  }
}

constexpr std::int64_t kMaxGridYZ = 65535;

bool can_implement(const GemmArgs& args) {
  if (!supported_types(args.input, resolved_output(args), args.accumulate)) return false;
  std::int64_t const tiles_n = (args.n + kBlockN - 1) / kBlockN;
  return tiles_n <= 0x7fffffff;
}

GemmKernel::LaunchShape launch_shape(const GemmArgs& args) {
  return {function_for(args), kThreads, 0};
}

Status launch(const GemmArgs& args, gemm_stream_t stream) {
  const void* fn = function_for(args);
  if (fn == nullptr)
    return {StatusCode::unsupported_types, "simt_generic: no instantiation for these types"};
  Params params = make_params(args);
  std::int64_t const tiles_m = (args.m + kBlockM - 1) / kBlockM;
  dim3 const grid(static_cast<unsigned>((args.n + kBlockN - 1) / kBlockN),
                  static_cast<unsigned>(tiles_m < kMaxGridYZ ? tiles_m : kMaxGridYZ),
                  static_cast<unsigned>(args.batch_count < kMaxGridYZ ? args.batch_count
                                                                      : kMaxGridYZ));
  void* kernel_args[] = {&params};
  cudaError_t const err = cudaLaunchKernel(fn, grid, dim3(kThreads), kernel_args, 0, stream);
  if (err != cudaSuccess)
    return {StatusCode::cuda_error,
            std::string("simt_generic: launch failed: ") + cudaGetErrorString(err)};
  return {};
}

}  // namespace

GemmKernel gemm_kernel_simt_generic() {
  GemmKernel k;
  k.info = {"simt_generic", 80, 0,
            "128x128x8 SIMT tile, 8x8 per thread, scalar guarded loads; every type, order, "
            "ld and alignment"};
  k.can_implement = &can_implement;
  k.launch = &launch;
  k.launch_shape = &launch_shape;
  return k;
}

}  // namespace tessera::kernels
