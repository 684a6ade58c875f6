// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The mma.sync issue ceiling of the device (bench/mma_ceiling.hpp): warps that
// do nothing but m16n8k16 f16 mma.sync on register operands, every SM busy.
// It is the rate no mma.sync GEMM (the Ampere path, sm80_tensorop) can pass
// on this device, whatever its tiling: the roofline ceiling of that path.
#include "mma_ceiling.hpp"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <tessera/arch/sm80/mma.cuh>

namespace tessera::bench {
namespace {

constexpr int kChains = 8;        // independent accumulators per warp (hides the mma latency)
constexpr int kMmaPerIter = 2 * kChains;

// `iters` iterations of 2 x kChains mma.sync per warp. The second mma of each
// pair multiplies by -B, so each accumulator returns to about where it
// started: the values stay finite, and the operands are not zero (a
// zero-operand tensor core draws less power and would clock higher than a
// GEMM does). Every thread writes its sum (keeps the loop alive); block 0
// records its clock64 cycles for the SM clock under this load.
template <bool kF16Acc>
__global__ void mma_issue_kernel(int iters, float* sink, long long* cycles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint32_t a[4], b[2], nb[2];
  uint32_t const seed = (threadIdx.x * 2654435761u) ^ (blockIdx.x * 40503u);
  for (int i = 0; i < 4; ++i) {
    // Two f16 values in [0.5, 1) with a varying sign and mantissa.
    uint32_t const h = (seed >> (3 * i)) & 0x3ffu;
    a[i] = (0x3800u | h | ((h & 1u) << 15)) | ((0x3800u | (h ^ 0x155u)) << 16);
  }
  for (int i = 0; i < 2; ++i) {
    uint32_t const h = (seed >> (5 + 7 * i)) & 0x3ffu;
    b[i] = (0x3800u | h) | ((0x3800u | (h ^ 0x2aau) | 0x8000u) << 16);
    nb[i] = b[i] ^ 0x80008000u;
  }
  using Acc = std::conditional_t<kF16Acc, uint32_t[2], float[4]>;
  Acc acc[kChains];
  for (int c = 0; c < kChains; ++c)
    for (int r = 0; r < int(sizeof(Acc) / 4); ++r) {
      if constexpr (kF16Acc) acc[c][r] = 0x3c003c00u;  // (1, 1)
      else acc[c][r] = 1.0f;
    }
  long long const t0 = clock64();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      if constexpr (kF16Acc) {
        arch::mma_m16n8k16_f16f16f16f16(acc[c], a, b, acc[c]);
        arch::mma_m16n8k16_f16f16f16f16(acc[c], a, nb, acc[c]);
      } else {
        arch::mma_m16n8k16_f32f16f16f32(acc[c], a, b, acc[c]);
        arch::mma_m16n8k16_f32f16f16f32(acc[c], a, nb, acc[c]);
      }
    }
  }
  long long const t1 = clock64();
  float sum = 0.0f;
  for (int c = 0; c < kChains; ++c)
    for (int r = 0; r < int(sizeof(Acc) / 4); ++r) {
      if constexpr (kF16Acc) {
        __half2 const h = *reinterpret_cast<const __half2*>(&acc[c][r]);
        sum += __low2float(h) + __high2float(h);
      } else {
        sum += acc[c][r];
      }
    }
  sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
  if (blockIdx.x == 0 && threadIdx.x == 0) *cycles = t1 - t0;
#else
  (void)iters;
  (void)sink;
  (void)cycles;
#endif
}

}  // namespace

MmaCeiling measure_mma_sync_ceiling(bool f16_accumulate, int warps_per_sm, int sm_count, int repeats) {
  MmaCeiling out;
  if (warps_per_sm < 1 || warps_per_sm > 32 || sm_count < 1 || repeats < 1) return out;
  int const threads = 32 * warps_per_sm;
  float* sink = nullptr;
  long long* cycles = nullptr;
  if (cudaMalloc(&sink, sizeof(float) * size_t(threads) * size_t(sm_count)) != cudaSuccess) return out;
  if (cudaMalloc(&cycles, sizeof(long long)) != cudaSuccess) {
    cudaFree(sink);
    return out;
  }
  auto const kernel = f16_accumulate ? &mma_issue_kernel<true> : &mma_issue_kernel<false>;
  // ~2^21 mma per warp: 10-40 ms at the rates of an A100/H100.
  int const iters = (1 << 21) / kMmaPerIter;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> tflops, mhz;
  kernel<<<sm_count, threads>>>(iters / 8, sink, cycles);  // warm-up
  for (int r = 0; r < repeats; ++r) {
    cudaEventRecord(start);
    kernel<<<sm_count, threads>>>(iters, sink, cycles);
    cudaEventRecord(stop);
    if (cudaEventSynchronize(stop) != cudaSuccess) break;
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    long long c = 0;
    cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost);
    if (ms <= 0) continue;
    double const flop = 2.0 * 16 * 8 * 16 * double(kMmaPerIter) * iters * warps_per_sm * sm_count;
    tflops.push_back(flop / (ms * 1e-3) / 1e12);
    mhz.push_back(double(c) / (ms * 1e3));
  }
  bool const ok = cudaGetLastError() == cudaSuccess && !tflops.empty();
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(sink);
  cudaFree(cycles);
  if (!ok) return out;
  std::sort(tflops.begin(), tflops.end());
  std::sort(mhz.begin(), mhz.end());
  out.tflops = tflops[tflops.size() / 2];
  out.sm_mhz = mhz[mhz.size() / 2];
  return out;
}

}  // namespace tessera::bench
