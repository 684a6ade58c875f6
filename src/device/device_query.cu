// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include "device/device_query.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace tessera {
namespace {

// Dense FLOP per clock per SM (an FMA counts 2), by architecture. Derived from
// the datasheets: A100 312 TF bf16 = 108 SMs * 1410 MHz * 2048; H100 SXM
// 989 TF bf16 = 132 SMs * 1830 MHz * 4096.
struct PerSmRates {
  double f32, tf32, f16;
};

PerSmRates per_sm_rates(int sm) {
  if (sm >= 90) return {256, 2048, 4096};
  if (sm == 80) return {128, 1024, 2048};
  if (sm >= 86) return {256, 512, 1024};  // GA10x / AD10x: dense, f32 accumulate
  return {128, 0, 512};
}

__global__ void spin_kernel(long long cycles, long long* elapsed) {
  long long const start = clock64();
  long long now = start;
  while (now - start < cycles) now = clock64();
  if (threadIdx.x == 0 && blockIdx.x == 0) *elapsed = now - start;
}

}  // namespace

double DeviceInfo::peak_tflops(DataType input) const {
  switch (input) {
    case DataType::f32: return peak_tflops_f32_simt;
    case DataType::tf32: return peak_tflops_tf32_tc;
    case DataType::f16:
    case DataType::bf16: return peak_tflops_f16_tc;
    default: return 0;
  }
}

Status query_device(DeviceInfo* out) {
  *out = DeviceInfo{};
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::string const why = err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0";
    cudaGetLastError();
    return validate_device(0, why);
  }
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp prop{};
  if ((err = cudaGetDeviceProperties(&prop, dev)) != cudaSuccess)
    return {StatusCode::cuda_error, cudaGetErrorString(err)};
  auto attr = [dev](cudaDeviceAttr a) {
    int v = 0;
    cudaDeviceGetAttribute(&v, a, dev);
    return v;
  };
  out->ordinal = dev;
  out->name = prop.name;
  out->sm = prop.major * 10 + prop.minor;
  out->sm_count = prop.multiProcessorCount;
  out->max_sm_clock_mhz = attr(cudaDevAttrClockRate) / 1000;
  out->memory_clock_mhz = attr(cudaDevAttrMemoryClockRate) / 1000;
  out->memory_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
  out->l2_bytes = prop.l2CacheSize;
  out->global_memory_bytes = static_cast<long long>(prop.totalGlobalMem);
  out->smem_per_block_optin = static_cast<int>(prop.sharedMemPerBlockOptin);
  out->smem_per_sm = static_cast<int>(prop.sharedMemPerMultiprocessor);
  out->regs_per_sm = prop.regsPerMultiprocessor;
  out->max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  out->peak_dram_gbps = 2.0 * out->memory_clock_mhz * 1e6 * (out->memory_bus_bits / 8.0) / 1e9;
  PerSmRates const r = per_sm_rates(out->sm);
  double const sm_ghz = out->sm_count * out->max_sm_clock_mhz * 1e-3;  // SM * GHz
  out->peak_tflops_f32_simt = r.f32 * sm_ghz * 1e-3;
  out->peak_tflops_tf32_tc = r.tf32 * sm_ghz * 1e-3;
  out->peak_tflops_f16_tc = r.f16 * sm_ghz * 1e-3;
  return {};
}

double measure_sm_clock_mhz() {
  long long* d_elapsed = nullptr;
  if (cudaMalloc(&d_elapsed, sizeof(long long)) != cudaSuccess) return 0;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> mhz;
  constexpr long long kCycles = 20'000'000;  // ~10 ms at 2 GHz
  spin_kernel<<<1, 32>>>(kCycles / 10, d_elapsed);  // warm-up
  for (int i = 0; i < 3; ++i) {
    cudaEventRecord(start);
    spin_kernel<<<1, 32>>>(kCycles, d_elapsed);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    long long cycles = 0;
    cudaMemcpy(&cycles, d_elapsed, sizeof cycles, cudaMemcpyDeviceToHost);
    if (ms > 0) mhz.push_back(static_cast<double>(cycles) / (ms * 1e3));
  }
  bool const ok = cudaGetLastError() == cudaSuccess;
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(d_elapsed);
  if (!ok || mhz.empty()) return 0;
  std::sort(mhz.begin(), mhz.end());
  return mhz[mhz.size() / 2];
}

}  // namespace tessera
