// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Printing inside a kernel: print, print_layout and print_tensor are
// printf-based so that CuTe's `if (thread0()) print(...)` idiom works (the
// selectors themselves are checked below), and a kernel
// must write exactly what the same calls write on the host (the widths of
// the seeds' tables included). One thread of one block runs the calls on
// register and identity tensors filled with fresh random values; the
// device's printf output, flushed at synchronisation, is captured and
// compared with the host's output for the same values.

#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "device_test.cuh"

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

namespace {

using namespace tessera;

constexpr int kInts = 24;
constexpr int kFloats = 6;

// The same sequence of prints on either side.
TESSERA_HOST_DEVICE void print_everything(int const* ints, float const* floats) {
  auto ri = make_tensor<int>(Layout<Shape<_2, _3, _2, _2>>{});
  for (int i = 0; i < kInts; ++i) ri(i) = ints[i];
  print_tensor(ri, false);
  auto rf = make_tensor<float>(Layout<Shape<_2, _3>, Stride<_3, _1>>{});
  auto rh = make_tensor<half_t>(Layout<Shape<_2, _3>>{});
  for (int i = 0; i < kFloats; ++i) {
    rf(i) = floats[i];
    rh(i) = half_t(floats[i] * 100.f);
  }
  print_tensor(rf, false);
  print_tensor(rh, false);
  print_tensor(make_identity_tensor(make_shape(_2{}, _2{})), false);
  print(make_layout(make_shape(_4{}, make_shape(_2{}, _3{})), make_stride(_1{}, make_stride(_4{}, _8{}))));
  print("\n");
  print_layout(make_layout(make_shape(_2{}, _4{}), make_stride(_4{}, _1{})));
  print("k = %d, x = %d\n", ints[0], ints[1]);
  print(half_t(floats[0]), " ", floats[1], "\n");
}

__global__ void print_kernel(int const* ints, float const* floats) {
  if (thread0()) print_everything(ints, floats);
}

// How many threads each of CuTe's selectors picks: counts[k] for selector k.
__global__ void select_kernel(int* counts) {
  if (thread0()) atomicAdd(&counts[0], 1);
  if (thread(5, 1)) atomicAdd(&counts[1], 1);
  if (thread(31, 3)) atomicAdd(&counts[2], 1);
  if (block(2)) atomicAdd(&counts[3], 1);
  if (block0()) atomicAdd(&counts[4], 1);
  if (thread(7)) atomicAdd(&counts[5], 1);
  // thread(5, 1): x + 8 y == 5 in block (1, 0); thread(31, 3): (7, 3) in block (1, 1)
  if (thread(5, 1) && !(threadIdx.x == 5 && threadIdx.y == 0 && blockIdx.x == 1 && blockIdx.y == 0)) atomicAdd(&counts[6], 1);
  if (thread(31, 3) && !(threadIdx.x == 7 && threadIdx.y == 3 && blockIdx.x == 1 && blockIdx.y == 1)) atomicAdd(&counts[6], 1);
}

// thread0(), thread(tid[, bid]), block(bid), block0() over a 2x2 grid of
// 8x4 blocks: one thread, one thread, one thread, a whole block, a whole
// block, one thread; linear indices x fastest. On the host all are true.
TEST(DevicePrint, ThreadAndBlockSelectors) {
  EXPECT_TRUE(thread0() && thread(5, 1) && block(3) && block0());  // host: every selector holds
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  tessera::test::DevBuf d;
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(d, std::vector<int>(7, 0)));
  select_kernel<<<dim3(2, 2), dim3(8, 4)>>>(d.as<int>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  std::vector<int> counts(7);
  TESSERA_TEST_CUDA(cudaMemcpy(counts.data(), d.p, 7 * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(counts, (std::vector<int>{1, 1, 1, 32, 32, 1, 0}));
}

TEST(DevicePrint, KernelPrintsWhatTheHostPrints) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  auto const fl = tessera::test::fresh_random<float>(kFloats);
  std::vector<int> in(kInts);
  auto const r = tessera::test::fresh_random<float>(kInts);
  for (int i = 0; i < kInts; ++i) in[i] = int(r[i] * 20000.f);

  testing::internal::CaptureStdout();
  print_everything(in.data(), fl.data());
  std::fflush(stdout);
  std::string const host = testing::internal::GetCapturedStdout();

  tessera::test::DevBuf di, df;
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(di, in));
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(df, fl));
  testing::internal::CaptureStdout();
  print_kernel<<<2, 32>>>(di.as<int>(), df.as<float>());
  cudaError_t const launched = cudaGetLastError();
  cudaError_t const synced = cudaDeviceSynchronize();
  std::fflush(stdout);
  std::string const device = testing::internal::GetCapturedStdout();
  ASSERT_EQ(launched, cudaSuccess) << cudaGetErrorString(launched);
  ASSERT_EQ(synced, cudaSuccess) << cudaGetErrorString(synced);

  // The output is not trivial: CuTe's table separators and widths are in it.
  EXPECT_NE(host.find("===============\n"), std::string::npos) << host;
  EXPECT_NE(host.find("(_4,(_2,_3)):(_1,(_4,_8))\n"), std::string::npos) << host;
  EXPECT_EQ(device, host);
}

}  // namespace
