// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Sub-byte tensors in device code: each thread reads its row of 8 random
// int4 values from a packed global tensor (make_gmem_ptr<int4b_t>), keeps
// them in a packed register tensor (make_tensor<int4b_t>, 4 bytes), negates
// them (the wrap of -(-8) is -8), and writes whole bytes of a second packed
// tensor. The host computes the expected bytes; the output is poisoned first
// and its padding must stay poisoned.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <tessera/tensor.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::upload;

constexpr int kRows = 96, kCols = 8;  // one 4-byte row of nibbles per thread

__global__ void negate_rows(void const* in, void* out) {
  auto gin = make_tensor(make_gmem_ptr<int4b_t>(in), make_shape(Int<kCols>{}, kRows));    // (col, row)
  auto gout = make_tensor(make_gmem_ptr<int4b_t>(out), make_shape(Int<kCols>{}, kRows));
  int const row = int(threadIdx.x);
  auto frag = make_tensor<int4b_t>(Layout<Shape<Int<kCols>>>{});
  copy(gin(_, row), frag);
  for (int c = 0; c < kCols; ++c) frag(c) = int4b_t(-int(int4b_t(frag(c))));
  copy(frag, gout(_, row));
}

TEST(SubbyteDevice, PackedRegistersAndGlobalTensors) {
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);
  std::mt19937 rng(std::random_device{}());
  std::vector<std::uint8_t> in(kRows * kCols / 2 + 4);
  for (auto& b : in) b = std::uint8_t(rng());
  std::vector<std::uint8_t> want(in.size(), 0xA5);
  for (int i = 0; i < kRows * kCols; ++i) {
    int const nib = (in[i / 2] >> (4 * (i % 2))) & 0xF;
    int const v = nib >= 8 ? nib - 16 : nib;
    int const neg = (-v) & 0xF;
    if (i % 2 == 0) want[i / 2] = std::uint8_t(neg);
    else want[i / 2] = std::uint8_t(want[i / 2] | (neg << 4));
  }
  DevBuf din, dout;
  ASSERT_NO_FATAL_FAILURE(upload(din, in));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, in.size()));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xA5, in.size()));  // poison
  negate_rows<<<1, kRows>>>(din.p, dout.p);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<std::uint8_t> got(in.size());
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dout.p, got.size(), cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(int(got[i]), int(want[i])) << "byte " << i;
}

}  // namespace
