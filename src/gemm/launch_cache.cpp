// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Launch-time queries asked once per (kernel, device): launch_cache.hpp.
#include "gemm/launch_cache.hpp"

#include <cuda_runtime.h>

#include <mutex>
#include <vector>

namespace tessera::detail {
namespace {

struct Key {
  const void* fn;
  int device, threads, smem;
  bool operator==(const Key&) const = default;
};
struct Entry {
  Key key;
  int value;
};

// The cached value of `key`, computing it with `query` (outside the lock:
// two threads may both ask the runtime, both get the same answer).
template <class Query>
int cached(std::vector<Entry>& cache, std::mutex& mu, const Key& key, Query&& query) {
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const Entry& e : cache)
      if (e.key == key) return e.value;
  }
  int const value = query();
  std::lock_guard<std::mutex> lock(mu);
  cache.push_back({key, value});
  return value;
}

}  // namespace

int set_smem_attributes_once(const void* fn, int bytes) {
  static std::mutex mu;
  static std::vector<Entry> cache;
  int dev = 0;
  if (cudaError_t const e = cudaGetDevice(&dev); e != cudaSuccess) return int(e);
  return cached(cache, mu, {fn, dev, 0, bytes}, [&] {
    cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    if (e == cudaSuccess) e = cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
    return int(e);
  });
}

GemmKernel::LaunchShape ready_launch_shape(GemmKernel::LaunchShape shape) {
  if (shape.function == nullptr || set_smem_attributes_once(shape.function, shape.dynamic_smem_bytes) != 0) return {};
  return shape;
}

int resident_ctas_per_sm(const void* fn, int threads, int smem) {
  static std::mutex mu;
  static std::vector<Entry> cache;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return cached(cache, mu, {fn, dev, threads, smem}, [&] {
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, threads, std::size_t(smem)) != cudaSuccess) {
      cudaGetLastError();  // not sticky
      return 0;
    }
    return per_sm;
  });
}

}  // namespace tessera::detail
