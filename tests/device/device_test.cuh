// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// What every device test needs: the GPU's compute capability (to skip loudly
// when it is missing or too old), a CUDA-call assertion, device buffers
// (DevBuf, upload) freed on every return path, and a way to run a case that
// may fault the device in a process of its own (run_isolated).

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstddef>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
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

// Why `kernel` cannot run on device 0, or "" when it can: no device, a
// compute capability under `min_cc`, or no image of the kernel in this
// binary (built for sm_80 and sm_90a). The tests skip loudly with it.
template <class Kernel>
std::string why_kernel_cannot_run(Kernel kernel, int min_cc) {
  int const cc = device_cc();
  if (cc == 0) return "no CUDA device";
  if (cc < min_cc) return "needs sm_" + std::to_string(min_cc) + ", found sm_" + std::to_string(cc);
  cudaFuncAttributes attr{};
  if (cudaFuncGetAttributes(&attr, kernel) != cudaSuccess) {
    (void)cudaGetLastError();
    return "this binary has no kernel image for sm_" + std::to_string(cc) + " (built for sm_80 and sm_90a)";
  }
  return {};
}

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
// Skip the test (loudly) unless `kernel` runs on device 0
// (why_kernel_cannot_run).
#define TESSERA_TEST_REQUIRE_KERNEL(kernel, min_cc)                                        \
  do {                                                                                     \
    std::string const why_ = ::tessera::test::why_kernel_cannot_run((kernel), (min_cc));   \
    if (!why_.empty()) GTEST_SKIP() << why_;                                               \
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

// n fresh random values in [-1, 1), converted to T (a new seed every call:
// device tests never see the same inputs twice).
template <class T>
std::vector<T> fresh_random(std::size_t n) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<T> v(n);
  for (auto& x : v) x = T(d(rng));
  return v;
}

}  // namespace tessera::test

namespace tessera::test {

// TESSERA_TEST_IN_PROCESS=1 asks run_isolated to run its cases here (for
// compute-sanitizer, which does not follow re-executed children).
inline bool in_process() {
  char const* v = std::getenv("TESSERA_TEST_IN_PROCESS");
  return v != nullptr && v[0] == '1';
}

// A device fault (an illegal instruction, a trap) is sticky: it poisons the
// CUDA context for the rest of the process. run_isolated runs `body` (a
// callable returning "" on success, else what went wrong) in a child process
// by default (GoogleTest's "threadsafe" death-test style re-executes this
// binary, so the child starts with no CUDA context) and expects it to
// succeed; the child prints its diagnostics on stderr. One failing case
// cannot fail the others. Under in_process() the body runs here.
template <class F>
void run_isolated(std::string const& what, F&& body) {
  SCOPED_TRACE(what);
  if (in_process()) {
    std::string const err = std::forward<F>(body)();
    EXPECT_TRUE(err.empty()) << err;
    return;
  }
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::string const err = std::forward<F>(body)();
        if (!err.empty()) std::fprintf(stderr, "%s: %s\n", what.c_str(), err.c_str());
        std::fflush(stderr);
        std::_Exit(err.empty() ? 0 : 1);
      },
      testing::ExitedWithCode(0), "")
      << what;
}

}  // namespace tessera::test

// In a body for run_isolated (a callable returning "" on success): returns
// what failed when a CUDA call does not succeed.
#define TESSERA_TRY_CUDA(expr)                                                                       \
  do {                                                                                               \
    cudaError_t const e_ = (expr);                                                                   \
    if (e_ != cudaSuccess)                                                                           \
      return std::string(#expr) + ": " + cudaGetErrorName(e_) + " (" + cudaGetErrorString(e_) + ")"; \
  } while (0)

namespace tessera::test {

// Spins until probe() holds; traps after about 2^32 cycles (2 s), so that a
// wait that can never finish fails the launch instead of hanging the test.
template <class Probe>
__device__ void bounded_spin(Probe&& probe) {
  long long const t0 = clock64();
  while (!probe()) {
    if (clock64() - t0 > (1ll << 32)) __trap();
  }
}

}  // namespace tessera::test
