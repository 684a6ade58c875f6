// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// stmatrix (all six forms, sm_90): each lane's value v holds the offset its
// traits claim (SrcLayout(t, v)); after Copy_Atom::call with lane t's row
// address at DstLayout(t, 0), shared element i must hold i -- every element
// of the 8x8 matrices written once, where the traits say. Then ldmatrix ->
// stmatrix round trips of each form reproduce the shared image.

#include <cstdint>
#include <vector>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "device_test.cuh"

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

namespace {

using namespace tessera;

using tessera::test::device_cc;

template <class Op>
__global__ void stsm_kernel(std::uint16_t* out) {
  using Atom = Copy_Atom<Op, half_t>;
  __shared__ alignas(128) half_t smem[4 * 64];
  for (int i = int(threadIdx.x); i < 4 * 64; i += 32) smem[i] = half_t::bitcast(0xffff);
  __syncthreads();
  int const t = int(threadIdx.x);
  constexpr int kSrc = Atom::NumValSrc;
  constexpr int kDst = Atom::NumValDst;
  auto src = make_tensor<half_t>(Layout<Int<kSrc>>{});
  for (int v = 0; v < kSrc; ++v) src(v) = half_t::bitcast(std::uint16_t(int(typename Atom::ValLayoutSrc{}(t, v)) + 1));
  auto dst = make_tensor(make_smem_ptr(smem + int(typename Atom::ValLayoutDst{}(t, 0))), Layout<Int<kDst>>{});
  Atom{}.call(src, dst);
  __syncthreads();
  for (int i = int(threadIdx.x); i < 4 * 64; i += 32) out[i] = smem[i].storage;
}

template <class Op, int kMatrices>
void check_stsm() {
  int const cc = device_cc();
  if (cc < 90) GTEST_SKIP() << "needs sm_90, found " << tessera::test::device_name(cc);
  std::uint16_t* d_out;
  ASSERT_EQ(cudaMalloc(&d_out, 256 * sizeof(std::uint16_t)), cudaSuccess);
  stsm_kernel<Op><<<1, 32>>>(d_out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<std::uint16_t> out(256);
  ASSERT_EQ(cudaMemcpy(out.data(), d_out, 256 * sizeof(std::uint16_t), cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < 256; ++i) {
    int const want = i < 64 * kMatrices ? i + 1 : 0xffff;  // untouched past the matrices stored
    EXPECT_EQ(int(out[i]), want) << "element " << i;
  }
  cudaFree(d_out);
}

TEST(AtomStsm, U32x1_N) { check_stsm<SM90_U32x1_STSM_N, 1>(); }
TEST(AtomStsm, U32x2_N) { check_stsm<SM90_U32x2_STSM_N, 2>(); }
TEST(AtomStsm, U32x4_N) { check_stsm<SM90_U32x4_STSM_N, 4>(); }
TEST(AtomStsm, U16x2_T) { check_stsm<SM90_U16x2_STSM_T, 1>(); }
TEST(AtomStsm, U16x4_T) { check_stsm<SM90_U16x4_STSM_T, 2>(); }
TEST(AtomStsm, U16x8_T) { check_stsm<SM90_U16x8_STSM_T, 4>(); }

// Round trip: ldmatrix then stmatrix of the same form (N with N, T with T)
// through Copy_Atom must reproduce the shared image exactly.
template <class Load, class Store>
__global__ void ldsm_stsm_kernel(std::uint16_t* out) {
  using LoadAtom = Copy_Atom<Load, half_t>;
  using StoreAtom = Copy_Atom<Store, half_t>;
  __shared__ alignas(128) half_t in[4 * 64];
  __shared__ alignas(128) half_t back[4 * 64];
  for (int i = int(threadIdx.x); i < 4 * 64; i += 32) {
    in[i] = half_t::bitcast(std::uint16_t(3 * i + 7));
    back[i] = half_t::bitcast(0xffff);
  }
  __syncthreads();
  int const t = int(threadIdx.x);
  auto src = make_tensor(make_smem_ptr(in + int(typename LoadAtom::ValLayoutSrc{}(t, 0))), Layout<Int<LoadAtom::NumValSrc>>{});
  auto regs = make_tensor<half_t>(Layout<Int<LoadAtom::NumValDst>>{});
  LoadAtom{}.call(src, regs);
  auto dst = make_tensor(make_smem_ptr(back + int(typename StoreAtom::ValLayoutDst{}(t, 0))), Layout<Int<StoreAtom::NumValDst>>{});
  StoreAtom{}.call(regs, dst);
  __syncthreads();
  for (int i = int(threadIdx.x); i < 4 * 64; i += 32) out[i] = back[i].storage;
}

template <class Load, class Store, int kMatrices>
void check_round_trip() {
  int const cc = device_cc();
  if (cc < 90) GTEST_SKIP() << "needs sm_90, found " << tessera::test::device_name(cc);
  std::uint16_t* d_out;
  ASSERT_EQ(cudaMalloc(&d_out, 256 * sizeof(std::uint16_t)), cudaSuccess);
  ldsm_stsm_kernel<Load, Store><<<1, 32>>>(d_out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<std::uint16_t> out(256);
  ASSERT_EQ(cudaMemcpy(out.data(), d_out, 256 * sizeof(std::uint16_t), cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < 256; ++i) {
    int const want = i < 64 * kMatrices ? (3 * i + 7) & 0xffff : 0xffff;
    EXPECT_EQ(int(out[i]), want) << "element " << i;
  }
  cudaFree(d_out);
}

TEST(AtomLdsmStsm, RoundTripU32x1_N) { check_round_trip<SM75_U32x1_LDSM_N, SM90_U32x1_STSM_N, 1>(); }
TEST(AtomLdsmStsm, RoundTripU32x2_N) { check_round_trip<SM75_U32x2_LDSM_N, SM90_U32x2_STSM_N, 2>(); }
TEST(AtomLdsmStsm, RoundTripU32x4_N) { check_round_trip<SM75_U32x4_LDSM_N, SM90_U32x4_STSM_N, 4>(); }
TEST(AtomLdsmStsm, RoundTripU16x2_T) { check_round_trip<SM75_U16x2_LDSM_T, SM90_U16x2_STSM_T, 1>(); }
TEST(AtomLdsmStsm, RoundTripU16x4_T) { check_round_trip<SM75_U16x4_LDSM_T, SM90_U16x4_STSM_T, 2>(); }
TEST(AtomLdsmStsm, RoundTripU16x8_T) { check_round_trip<SM75_U16x8_LDSM_T, SM90_U16x8_STSM_T, 4>(); }

}  // namespace
