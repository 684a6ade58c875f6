// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The repack copy behind the any-ld fast path (src/gemm/repack.hpp): one
// operand with any leading dimension, pointer alignment (element-aligned) and
// order is copied into 16-byte aligned rows, optionally transposed, so that
// the cp.async / TMA kernels can read it. Plain CUDA (sm_80+); it lives next
// to the sm80 kernels because the sm80 path was its first user, the Hopper
// kernel uses it too.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "gemm/repack.hpp"

namespace tessera::detail {
namespace {

// NOTE: a 64x64 tile per 256-thread block. Reads follow the source's
// contiguous direction (a warp reads 32 consecutive elements: 64 or 128
// bytes, whatever the source alignment), values go through shared memory, and
// writes are 16-byte vectors along the destination rows (8 threads cover one
// 128-byte row of 2-byte elements). Each element is read once and written
// once: the copy runs at DRAM bandwidth, ~2x(2+2) bytes per 16-bit element.
constexpr int kTile = 64;
constexpr int kThreads = 256;

struct RepackArgs {
  const void* src;
  void* dst;
  std::int64_t rows, cols, ld;
  std::int64_t src_row, src_col, src_batch;
  std::int64_t matrices, dst_batch;
};

template <class T>
__global__ void __launch_bounds__(kThreads) repack_kernel(const RepackArgs p) {
  // Odd pitch (in 32-bit words for T = 4, in halves of a word for T = 2):
  // a column walk over the tile touches different banks.
  constexpr int kPitch = kTile + (sizeof(T) == 2 ? 2 : 1);
  constexpr int kVec = 16 / int(sizeof(T));  // elements per 16-byte store
  constexpr int kChunksPerRow = kTile / kVec;
  __shared__ T tile[kTile * kPitch];

  int const tid = int(threadIdx.x);
  bool const rows_contig = p.src_col != 1;  // the source is contiguous along r
  std::int64_t const tiles_r = (p.rows + kTile - 1) / kTile;

  for (std::int64_t mat = blockIdx.z; mat < p.matrices; mat += gridDim.z) {
    const T* src = static_cast<const T*>(p.src) + mat * p.src_batch;
    T* dst = static_cast<T*>(p.dst) + mat * p.dst_batch;
    for (std::int64_t tr = blockIdx.y; tr < tiles_r; tr += gridDim.y) {
      std::int64_t const r0 = tr * kTile;
      std::int64_t const c0 = std::int64_t(blockIdx.x) * kTile;
      // Thread tid reads the source's contiguous index x = tid % kTile of
      // the tile and the other index y = tid / kTile + kStepY * i: one
      // pointer stepped by kStepY rows of the source. All of its loads are
      // issued before the first is stored (they went 4 at a time before).
      constexpr int kPerThread = kTile * kTile / kThreads;
      constexpr int kStepY = kThreads / kTile;
      int const lx = tid % kTile, ly = tid / kTile;
      std::int64_t const x = (rows_contig ? r0 : c0) + lx, y = (rows_contig ? c0 : r0) + ly;
      std::int64_t const x_end = rows_contig ? p.rows : p.cols, y_end = rows_contig ? p.cols : p.rows;
      std::int64_t const x_stride = rows_contig ? p.src_row : p.src_col;
      std::int64_t const y_stride = rows_contig ? p.src_col : p.src_row;
      const T* q = src + x * x_stride + y * y_stride;
      std::int64_t const q_step = kStepY * y_stride;
      bool const x_in = x < x_end;
      T v[kPerThread];
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) {
        v[i] = T{};
        if (x_in && y + kStepY * i < y_end) v[i] = *q;
        q += q_step;
      }
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) {
        int const ty = ly + kStepY * i;
        // Zero outside the source: the padding columns come out 0.
        tile[rows_contig ? lx * kPitch + ty : ty * kPitch + lx] = v[i];
      }
      __syncthreads();
      for (int ch = tid; ch < kTile * kChunksPerRow; ch += kThreads) {
        int const r = ch / kChunksPerRow;
        int const c = (ch % kChunksPerRow) * kVec;
        std::int64_t const gr = r0 + r, gc = c0 + c;
        // ld is a multiple of kVec: a chunk starting below ld lies inside it.
        if (gr >= p.rows || gc >= p.ld) continue;
        union {
          uint4 v;
          T e[kVec];
        } u;
#pragma unroll
        for (int e = 0; e < kVec; ++e) u.e[e] = tile[r * kPitch + c + e];
        *reinterpret_cast<uint4*>(dst + gr * p.ld + gc) = u.v;
      }
      __syncthreads();  // the next tile overwrites `tile`
    }
  }
}

}  // namespace

Status launch_repack(const PackedOperand& p, std::int64_t elem_bytes, void* workspace, gemm_stream_t stream) {
  if (!p.active || p.rows == 0 || p.cols == 0 || p.matrices == 0) return {};
  RepackArgs a{p.src, static_cast<char*>(workspace) + p.offset, p.rows, p.cols, p.ld,
               p.src_row, p.src_col, p.src_batch, p.matrices, p.batch_stride};
  std::int64_t const tiles_c = (p.cols + kTile - 1) / kTile;
  std::int64_t const tiles_r = (p.rows + kTile - 1) / kTile;
  if (tiles_c > 0x7fffffff)
    return Status{StatusCode::cannot_implement, "tessera::gemm: repack: operand too wide for one grid"};
  dim3 const grid(unsigned(tiles_c), unsigned(tiles_r < 65535 ? tiles_r : 65535),
                  unsigned(p.matrices < 65535 ? p.matrices : 65535));
  void* kargs[] = {&a};
  const void* fn = elem_bytes == 2 ? reinterpret_cast<const void*>(&repack_kernel<std::uint16_t>)
                                   : reinterpret_cast<const void*>(&repack_kernel<std::uint32_t>);
  cudaError_t const err = cudaLaunchKernel(fn, grid, dim3(kThreads), kargs, 0, stream);
  if (err != cudaSuccess)
    return Status{StatusCode::cuda_error, std::string("tessera::gemm: repack launch failed: ") + cudaGetErrorString(err)};
  return {};
}

}  // namespace tessera::detail
