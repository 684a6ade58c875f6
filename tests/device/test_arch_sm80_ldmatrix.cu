// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.

// Every ldmatrix variant (.x1/.x2/.x4, with and without .trans): a shared tile
// of distinct 16-bit values, row addresses handed out in a scrambled order,
// and each lane's registers checked element by element against the PTX ISA
// fragment map.

#include <gtest/gtest.h>

#include "device_test.cuh"

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include <tessera/arch/sm80/ldmatrix.cuh>

namespace {

using namespace tessera::arch;


// Shared tile: 32 physical rows of 8 b16 values, padded to a 24-element
// (48-byte) pitch so row addresses are 16-byte aligned but not contiguous,
// plus one decoy row that lanes beyond the .xN range point at.
constexpr int kRows = 32;
constexpr int kPitch = 24;
constexpr int kDecoyRow = kRows;

// Physical row that supplies row r of matrix j: a fixed scramble, so a
// wrapper that ignored the per-lane addresses would load the wrong rows.
__host__ __device__ constexpr int phys_row(int j, int r) { return (j * 8 + r) * 13 % kRows; }

// Value stored at (physical row p, column c): distinct, never zero.
__host__ __device__ constexpr uint16_t tile_value(int p, int c) { return static_cast<uint16_t>(0x100 + p * 8 + c); }
constexpr uint16_t kDecoyValue = 0xdead;

template <int kNum, bool kTrans>
__global__ void ldmatrix_kernel(uint32_t* out) {
  __shared__ alignas(16) uint16_t tile[(kRows + 1) * kPitch];
  const int lane = static_cast<int>(threadIdx.x);
  for (int idx = lane; idx < (kRows + 1) * kPitch; idx += 32) {
    const int p = idx / kPitch;
    const int c = idx % kPitch;
    tile[idx] = (p == kDecoyRow || c >= 8) ? kDecoyValue : tile_value(p, c);
  }
  __syncwarp();
  // Lanes 8j..8j+7 give the rows of matrix j; lanes past kNum*8 point at the
  // decoy row, which must never show up in the result.
  const int j = lane / 8;
  const int row = j < kNum ? phys_row(j, lane % 8) : kDecoyRow;
  uint32_t d[kNum];
  ldmatrix<kNum, kTrans>(tile + row * kPitch, d);
  for (int k = 0; k < kNum; ++k) out[lane * 4 + k] = d[k];
}

// The named wrappers route to the same template; check they pass registers
// through in order.
__global__ void ldmatrix_named_kernel(uint32_t* out) {
  __shared__ alignas(16) uint16_t tile[(kRows + 1) * kPitch];
  const int lane = static_cast<int>(threadIdx.x);
  for (int idx = lane; idx < (kRows + 1) * kPitch; idx += 32) {
    const int p = idx / kPitch;
    const int c = idx % kPitch;
    tile[idx] = (p == kDecoyRow || c >= 8) ? kDecoyValue : tile_value(p, c);
  }
  __syncwarp();
  const void* src = tile + phys_row(lane / 8, lane % 8) * kPitch;
  uint32_t* o = out + lane * 24;
  ldmatrix_x1(src, o[0]);
  ldmatrix_x2(src, o[1], o[2]);
  ldmatrix_x4(src, o[3], o[4], o[5], o[6]);
  ldmatrix_x1_trans(src, o[7]);
  ldmatrix_x2_trans(src, o[8], o[9]);
  ldmatrix_x4_trans(src, o[10], o[11], o[12], o[13]);
}

// PTX ISA map: without .trans, register j of lane l holds matrix j at row
// l/4, columns 2(l%4) (low half) and 2(l%4)+1 (high half). With .trans it
// holds column l/4, rows 2(l%4) and 2(l%4)+1.
uint32_t expected(int lane, int j, bool trans) {
  const int a = lane / 4;
  const int b = 2 * (lane % 4);
  uint16_t lo;
  uint16_t hi;
  if (!trans) {
    lo = tile_value(phys_row(j, a), b);
    hi = tile_value(phys_row(j, a), b + 1);
  } else {
    lo = tile_value(phys_row(j, b), a);
    hi = tile_value(phys_row(j, b + 1), a);
  }
  return uint32_t{lo} | (uint32_t{hi} << 16);
}

template <class Kernel>
bool skip_unless_runnable(Kernel kernel, std::string& why) {
  why = tessera::test::why_kernel_cannot_run(kernel, 75);
  return !why.empty();
}

template <int kNum, bool kTrans>
void check_variant() {
  std::string why;
  if (skip_unless_runnable(ldmatrix_kernel<kNum, kTrans>, why)) GTEST_SKIP() << why;
  uint32_t* d_out;
  TESSERA_TEST_CUDA(cudaMalloc(&d_out, sizeof(uint32_t) * 32 * 4));
  TESSERA_TEST_CUDA(cudaMemset(d_out, 0xff, sizeof(uint32_t) * 32 * 4));
  ldmatrix_kernel<kNum, kTrans><<<1, 32>>>(d_out);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<uint32_t> out(32 * 4);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), d_out, sizeof(uint32_t) * out.size(), cudaMemcpyDeviceToHost));
  cudaFree(d_out);
  int bad = 0;
  for (int lane = 0; lane < 32; ++lane) {
    for (int j = 0; j < kNum; ++j) {
      const uint32_t want = expected(lane, j, kTrans);
      const uint32_t got = out[lane * 4 + j];
      if (got != want && ++bad <= 8) {
        ADD_FAILURE() << "ldmatrix.x" << kNum << (kTrans ? ".trans" : "") << " lane " << lane << " d" << j
                      << ": got 0x" << std::hex << got << ", want 0x" << want << std::dec;
      }
    }
  }
  EXPECT_EQ(bad, 0) << "mismatching registers";
}

TEST(ArchLdmatrixSm80, X1) { check_variant<1, false>(); }
TEST(ArchLdmatrixSm80, X2) { check_variant<2, false>(); }
TEST(ArchLdmatrixSm80, X4) { check_variant<4, false>(); }
TEST(ArchLdmatrixSm80, X1Trans) { check_variant<1, true>(); }
TEST(ArchLdmatrixSm80, X2Trans) { check_variant<2, true>(); }
TEST(ArchLdmatrixSm80, X4Trans) { check_variant<4, true>(); }

TEST(ArchLdmatrixSm80, NamedWrappers) {
  std::string why;
  if (skip_unless_runnable(ldmatrix_named_kernel, why)) GTEST_SKIP() << why;
  uint32_t* d_out;
  TESSERA_TEST_CUDA(cudaMalloc(&d_out, sizeof(uint32_t) * 32 * 24));
  TESSERA_TEST_CUDA(cudaMemset(d_out, 0xff, sizeof(uint32_t) * 32 * 24));
  ldmatrix_named_kernel<<<1, 32>>>(d_out);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<uint32_t> out(32 * 24);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), d_out, sizeof(uint32_t) * out.size(), cudaMemcpyDeviceToHost));
  cudaFree(d_out);
  // Slot -> (matrix index, trans) for the 14 registers written per lane.
  const int slot_matrix[14] = {0, 0, 1, 0, 1, 2, 3, 0, 0, 1, 0, 1, 2, 3};
  int bad = 0;
  for (int lane = 0; lane < 32; ++lane) {
    for (int s = 0; s < 14; ++s) {
      const uint32_t want = expected(lane, slot_matrix[s], s >= 7);
      if (out[lane * 24 + s] != want && ++bad <= 8) {
        ADD_FAILURE() << "named wrapper slot " << s << " lane " << lane << ": got 0x" << std::hex
                      << out[lane * 24 + s] << ", want 0x" << want << std::dec;
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
