// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// bulk_copy (cp.async.bulk without a tensor map) on an H100/H200: each CTA
// loads its slice of a float vector (1000 elements = 4000 bytes, and a
// 16-byte run) into shared memory with one bulk_copy completing on an
// mbarrier, scales it by 2 in place, and stores it back with one bulk_copy
// in a bulk group. Also CuTe's instruction-level SM90_BULK_COPY_G2S/S2G on a
// (8,125) row-major view of the same run. Fresh random input, poisoned
// output, exact comparison; the padding past each slice must stay poisoned.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::upload;

constexpr int kRun = 1000, kPitch = 1024;  // floats per CTA slice, slice pitch

template <int kN, bool kInstructionForm>
__global__ void scale_slices(float const* in, float* out) {
  __shared__ alignas(128) float buf[kN];
  __shared__ alignas(8) std::uint64_t mbar;
  float const* src = in + std::size_t(blockIdx.x) * kPitch;
  float* dst = out + std::size_t(blockIdx.x) * kPitch;
  auto gin = make_tensor(make_gmem_ptr(src), Layout<Shape<Int<kN>>>{});
  auto sbuf = make_tensor(make_smem_ptr(buf), Layout<Shape<Int<kN>>>{});
  auto gout = make_tensor(make_gmem_ptr(dst), Layout<Shape<Int<kN>>>{});
  if (threadIdx.x == 0) {
    mbarrier_init(&mbar, 1);
    arch::fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(&mbar, bulk_bytes(gin));
    if constexpr (kInstructionForm) {
      SM90_BULK_COPY_G2S::copy(src, &mbar, buf, kN * 4);
    } else {
      // a (8, kN/8) row-major view of the same run: still one contiguous run
      auto g2 = make_tensor(make_gmem_ptr(src), Layout<Shape<_8, Int<kN / 8>>, Stride<Int<kN / 8>, _1>>{});
      auto s2 = make_tensor(make_smem_ptr(buf), Layout<Shape<_8, Int<kN / 8>>, Stride<Int<kN / 8>, _1>>{});
      bulk_copy(g2, s2, mbar);
    }
  }
  mbarrier_wait(&mbar, 0);
  for (int i = int(threadIdx.x); i < kN; i += int(blockDim.x)) sbuf(i) = 2.0f * sbuf(i);
  arch::fence_proxy_async_shared_cta();  // the generic-proxy writes, visible to the bulk copy
  __syncthreads();
  if (threadIdx.x == 0) {
    if constexpr (kInstructionForm) SM90_BULK_COPY_S2G::copy(buf, dst, kN * 4);
    else bulk_copy(sbuf, gout);
    tma_store_arrive();
    arch::tma_store_wait_writes<0>();
  }
}

template <int kN, bool kInstructionForm>
void run(int ctas) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  auto x = fresh_random<float>(std::size_t(ctas) * kPitch);
  DevBuf din, dout;
  ASSERT_NO_FATAL_FAILURE(upload(din, x));
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, x.size() * sizeof(float)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, x.size() * sizeof(float)));
  scale_slices<kN, kInstructionForm><<<ctas, 128>>>(din.as<float>(), dout.as<float>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<float> got(x.size());
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dout.p, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int b = 0; b < ctas; ++b)
    for (int i = 0; i < kPitch; ++i) {
      std::size_t const k = std::size_t(b) * kPitch + i;
      if (i < kN) {
        ASSERT_EQ(got[k], 2.0f * x[k]) << "CTA " << b << " element " << i;
      } else {
        std::uint32_t bits;
        std::memcpy(&bits, &got[k], 4);
        ASSERT_EQ(bits, 0xFFFFFFFFu) << "CTA " << b << ": padding element " << i << " overwritten";
      }
    }
}

TEST(BulkCopy, TensorFormRoundTrip) { run<kRun, false>(7); }
TEST(BulkCopy, SixteenByteRun) { run<4 * 8, false>(3); }
TEST(BulkCopy, InstructionFormRoundTrip) { run<kRun, true>(5); }

}  // namespace
