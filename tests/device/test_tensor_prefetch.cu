// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// prefetch(gT) inside a kernel: thread 0 prefetches the whole tensor
// (threads 1 and 2 again with L2Eviction::last and ::normal), every
// thread prefetches the column it is about to read, then the block reads
// every element into a poisoned output. A prefetch is a hint, so the output
// must equal the input exactly, element for element, through the layout:
// run-time column- and row-major layouts (the index-order walk), a static
// padded tile and a static tile of a wider matrix (the sorted walk), a
// swizzled layout (element by element), a slice g(_, _, k) of a rank-3
// tensor, with 32- and 16-bit elements. Fresh random inputs.

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::upload;

// out[i] = g(i) for g = (in, layout) after the prefetches; `slice` >= 0
// takes g(_, _, slice) of a rank-3 layout instead.
template <class T, class L>
__global__ void prefetch_then_read(T const* in, T* out, L layout, int slice) {
  auto g3 = make_tensor(make_gmem_ptr(in), layout);
  auto read = [&](auto const& g) {
    if (threadIdx.x == 0) prefetch(g);
    if (threadIdx.x == 1) prefetch(g, L2Eviction::last);  // the eviction-priority forms: hints too
    if (threadIdx.x == 2) prefetch(g, L2Eviction::normal);
    if constexpr (decltype(rank(g.layout()))::value == 2) {
      int const n = int(size<1>(g.layout()));
      if (int(threadIdx.x) < n) prefetch(g(Underscore{}, int(threadIdx.x)));  // this thread's column
    }
    for (int i = int(threadIdx.x); i < int(size(g.layout())); i += int(blockDim.x)) out[i] = g(i);
  };
  if constexpr (decltype(rank(layout))::value == 3)
    read(g3(Underscore{}, Underscore{}, slice));
  else
    read(g3);
}

// What the kernel must write: in[layout(i)] (of slice `slice` for rank 3).
template <class T, class L>
std::vector<T> expected(std::vector<T> const& in, L const& layout, int slice) {
  std::vector<T> want;
  if constexpr (decltype(rank(layout))::value == 3) {
    auto s = make_tensor(in.data(), layout)(_, _, slice);
    for (int i = 0; i < int(size(s)); ++i) want.push_back(s(i));
  } else {
    for (int i = 0; i < int(size(layout)); ++i) want.push_back(in[std::size_t(layout(i))]);
  }
  return want;
}

template <class T, class L>
void run(std::string const& what, L const& layout, int slice = -1) {
  SCOPED_TRACE(what);
  TESSERA_TEST_REQUIRE_SM_AT_LEAST(80);  // the suite's targets are sm_80 and sm_90a
  auto in = fresh_random<T>(std::size_t(cosize(layout)));
  auto want = expected(in, layout, slice);
  DevBuf din, dout;
  ASSERT_NO_FATAL_FAILURE(upload(din, in));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, sizeof(T) * want.size()));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, sizeof(T) * want.size()));  // poison
  prefetch_then_read<T><<<1, 128>>>(din.as<T>(), dout.as<T>(), layout, slice);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<T> got(want.size());
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dout.p, sizeof(T) * got.size(), cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(T)), 0) << "element " << i << " differs (or is poison)";
}

TEST(PrefetchDevice, RuntimeLayouts) {
  run<float>("column-major, ld 100", make_layout(make_shape(96, 40), make_stride(_1{}, 100)));
  run<float>("row-major, ld 67", make_layout(make_shape(48, 64), make_stride(67, _1{})));
  run<half_t>("half column-major, ld 1000", make_layout(make_shape(64, 24), make_stride(_1{}, 1000)));
}

TEST(PrefetchDevice, StaticLayouts) {
  run<float>("padded tile", Layout<Shape<_64, _32>, Stride<_1, _72>>{});
  run<half_t>("tile of a 4096-wide matrix", Layout<Shape<_16, _64>, Stride<_4096, _1>>{});
}

TEST(PrefetchDevice, SwizzledLayout) {
  run<float>("Swizzle<3,2,3> o (8,32):(32,1)", composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}));
}

TEST(PrefetchDevice, SliceOfARank3Tensor) {
  run<float>("g(_, _, 2) of (64,16,4):(1,80,1280)", make_layout(make_shape(64, 16, 4), make_stride(_1{}, 80, 1280)), 2);
}

}  // namespace
