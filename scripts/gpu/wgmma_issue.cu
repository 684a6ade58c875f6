// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// How fast do wgmma batches run when one warpgroup issues them alone, and
// when two warpgroups of a CTA issue them at once? The question behind
// hopper_cute's ping-pong rung h8 (docs/performance.md, session 26), whose
// two consumer warpgroups take turns at the mainloop, so only one issues at
// a time. Every SM runs one CTA of kWGs warpgroups; each warpgroup loops
// over batches of 4 k16 steps x kMs m64nNk16 wgmmas (bf16 -> f32, both
// operands in shared memory, 128B-swizzled K-major), committing a group per
// batch and keeping one in flight (wgmma_wait_group<1>), as a GEMM mainloop
// does, with no loads and no barriers. Prints TFLOP/s per configuration.
//
//   nvcc -std=c++20 -O3 -arch=sm_90a -Iinclude -o wgmma_issue scripts/gpu/wgmma_issue.cu && ./wgmma_issue
#include <cstdio>
#include <cstdint>

#include <cuda_runtime.h>

#include <tessera/arch/sm90/gmma_desc.hpp>
#include <tessera/arch/sm90/wgmma.cuh>

using namespace tessera;

template <int kN, int kWGs, int kMs>
__global__ void __launch_bounds__(128 * kWGs, 1) issue(float* out, int iters) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char raw[];
  unsigned char* smem = raw + ((1024u - (unsigned(__cvta_generic_to_shared(raw)) & 1023u)) & 1023u);
  constexpr int kABytes = 64 * kMs * 128, kBBytes = kN * 128;
  for (int i = threadIdx.x; i < (kABytes + kBBytes) / 4; i += blockDim.x)
    reinterpret_cast<std::uint32_t*>(smem)[i] = 0x3c003c00u ^ (i & 0x00ff00ffu);  // finite bf16 values
  __syncthreads();
  using Mma = arch::Wgmma<arch::F32BF16BF16, kN>;
  float acc[kMs][Mma::kRegsD];
  for (int m = 0; m < kMs; ++m)
    for (int r = 0; r < Mma::kRegsD; ++r) acc[m][r] = 0.f;
  std::uint32_t const a = std::uint32_t(__cvta_generic_to_shared(smem));
  arch::GmmaDescriptor const da = arch::make_gmma_desc_k_major<arch::GmmaSwizzle::b128, 128>(a);
  arch::GmmaDescriptor const db = arch::make_gmma_desc_k_major<arch::GmmaSwizzle::b128, 128>(a + kABytes);
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int m = 0; m < kMs; ++m) arch::wgmma_fence_operand(acc[m]);
    arch::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < 4; ++kk)
#pragma unroll
      for (int m = 0; m < kMs; ++m)
        Mma::ss(acc[m], da.advanced(32u * kk + 8192u * m).desc, db.advanced(32u * kk).desc, 1);
    arch::wgmma_commit_group();
#pragma unroll
    for (int m = 0; m < kMs; ++m) arch::wgmma_fence_operand(acc[m]);
    arch::wgmma_wait_group<1>();
  }
  arch::wgmma_wait_group<0>();
  float s = 0.f;
  for (int m = 0; m < kMs; ++m)
    for (int r = 0; r < Mma::kRegsD; ++r) s += acc[m][r];
  if (s == 12345.f) out[threadIdx.x] = s;  // keeps the wgmmas live; never true for these inputs in practice
#else
  (void)out, (void)iters;
#endif
}

template <int kN, int kWGs, int kMs>
void run(char const* name, int sms, float* out) {
  auto k = issue<kN, kWGs, kMs>;
  int const smem = 1024 + 64 * kMs * 128 + kN * 128;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  int const iters = 20000;
  k<<<sms, 128 * kWGs, smem>>>(out, 1000);  // warm-up
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  float best = 1e30f;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(e0);
    k<<<sms, 128 * kWGs, smem>>>(out, iters);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0.f;
    cudaEventElapsedTime(&ms, e0, e1);
    best = ms < best ? ms : best;
  }
  double const flop = 2.0 * sms * kWGs * double(iters) * 4 * kMs * 64.0 * kN * 16;
  std::printf("%-44s %8.1f TFLOP/s  (%s)\n", name, flop / (best * 1e-3) / 1e12,
              cudaGetErrorString(cudaGetLastError()));
}

int main() {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms == 0) {
    std::printf("wgmma_issue: no CUDA device\n");
    return 77;
  }
  float* out = nullptr;
  cudaMalloc(&out, 1024 * sizeof(float));
  run<256, 1, 1>("1 warpgroup,  m64n256 x1 per k16", sms, out);
  run<256, 2, 1>("2 warpgroups, m64n256 x1 per k16 each", sms, out);
  run<128, 1, 2>("1 warpgroup,  m64n128 x2 per k16", sms, out);
  run<128, 2, 2>("2 warpgroups, m64n128 x2 per k16 each", sms, out);
  run<128, 1, 1>("1 warpgroup,  m64n128 x1 per k16", sms, out);
  run<128, 2, 1>("2 warpgroups, m64n128 x1 per k16 each", sms, out);
  cudaFree(out);
  return 0;
}
