// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// What every device test needs: the GPU's compute capability (to skip loudly
// when it is missing or too old), a CUDA-call assertion, and device buffers
// (DevBuf, upload) freed on every return path.

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::test {

// Compute capability of device 0 as major * 10 + minor; 0 without a usable device.
inline int device_cc() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // no driver or no device: leave no error behind
    return 0;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 0;
  return prop.major * 10 + prop.minor;
}

// "sm_90", or "no GPU" for a device_cc() of 0: for skip messages.
inline std::string device_name(int cc) { return cc ? "sm_" + std::to_string(cc) : std::string("no GPU"); }

// A cudaMalloc'd buffer freed on every return path of a test body.
struct DevBuf {
  void* p = nullptr;
  DevBuf() = default;
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  ~DevBuf() {
    if (p != nullptr) cudaFree(p);
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

}  // namespace tessera::test

// ASSERT that a CUDA call succeeded, evaluating it once.
#define TESSERA_TEST_CUDA(call)                                                \
  do {                                                                         \
    cudaError_t const err_ = (call);                                           \
    ASSERT_EQ(err_, cudaSuccess) << #call << ": " << cudaGetErrorString(err_); \
  } while (0)

// Skip the test (loudly, with what was found) unless device 0 is sm_<cc> or
// newer / exactly sm_<cc> (the sm_90a-only instructions).
#define TESSERA_TEST_REQUIRE_SM_AT_LEAST(cc)                                                          \
  do {                                                                                                \
    int const found_cc_ = ::tessera::test::device_cc();                                               \
    if (found_cc_ < (cc)) GTEST_SKIP() << "needs sm_" << (cc) << ", found " << ::tessera::test::device_name(found_cc_); \
  } while (0)
#define TESSERA_TEST_REQUIRE_SM_EXACTLY(cc)                                                           \
  do {                                                                                                \
    int const found_cc_ = ::tessera::test::device_cc();                                               \
    if (found_cc_ != (cc)) GTEST_SKIP() << "needs sm_" << (cc) << ", found " << ::tessera::test::device_name(found_cc_); \
  } while (0)

namespace tessera::test {

// A device copy of `h` in `d` (freed with `d`). Failures are fatal gtest
// failures of this function: call it as ASSERT_NO_FATAL_FAILURE(upload(d, h)).
template <class T>
void upload(DevBuf& d, const std::vector<T>& h) {
  TESSERA_TEST_CUDA(cudaMalloc(&d.p, h.size() * sizeof(T)));
  TESSERA_TEST_CUDA(cudaMemcpy(d.p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
}

}  // namespace tessera::test
