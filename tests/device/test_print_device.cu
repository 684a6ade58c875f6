// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Printing inside a kernel: print, print_layout and print_tensor are
// printf-based so that CuTe's thread-0 debugging idiom works, and a kernel
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
  if (threadIdx.x == 0 && blockIdx.x == 0) print_everything(ints, floats);
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
