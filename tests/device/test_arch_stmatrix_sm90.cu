// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.

// stmatrix (sm_90) .x1/.x2/.x4 with and without .trans: each lane's registers
// hold known distinct values; after the store every shared-memory element is
// checked against the PTX ISA fragment map, and an ldmatrix of the same
// variant must give the registers back (round trip).

#include <gtest/gtest.h>

#include "device_test.cuh"

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include <tessera/arch/sm80/ldmatrix.cuh>
#include <tessera/arch/sm90/stmatrix.cuh>

namespace {

using namespace tessera::arch;

using tessera::test::device_cc;

constexpr int kRows = 32;   // 4 matrices x 8 rows
constexpr int kPitch = 24;  // b16 elements per physical row (48 bytes)
constexpr uint16_t kPoison = 0xbeef;

// Physical row holding row r of matrix j (scrambled, a permutation of 0..31).
__host__ __device__ constexpr int phys_row(int j, int r) { return (j * 8 + r) * 13 % kRows; }

// The value lane `lane` puts in half `h` (0 low, 1 high) of register j.
__host__ __device__ constexpr uint16_t reg_half(int lane, int j, int h) {
  return static_cast<uint16_t>(0x1000 + j * 64 + lane * 2 + h);
}

template <int kNum, bool kTrans>
__global__ void stmatrix_kernel(uint16_t* tile_out, uint32_t* regs_back) {
  __shared__ alignas(16) uint16_t tile[kRows * kPitch];
  const int lane = static_cast<int>(threadIdx.x);
  for (int idx = lane; idx < kRows * kPitch; idx += 32) tile[idx] = kPoison;
  __syncwarp();
  uint32_t s[kNum];
  for (int j = 0; j < kNum; ++j) s[j] = uint32_t{reg_half(lane, j, 0)} | (uint32_t{reg_half(lane, j, 1)} << 16);
  // Lanes beyond kNum*8 supply no address that is used; give them row 0.
  const int row = lane / 8 < kNum ? phys_row(lane / 8, lane % 8) : 0;
  stmatrix<kNum, kTrans>(tile + row * kPitch, s);
  __syncwarp();
  for (int idx = lane; idx < kRows * kPitch; idx += 32) tile_out[idx] = tile[idx];
  uint32_t d[kNum];
  ldmatrix<kNum, kTrans>(tile + row * kPitch, d);
  for (int j = 0; j < kNum; ++j) regs_back[lane * 4 + j] = d[j];
}

template <int kNum, bool kTrans>
void check_variant() {
  const int cc = device_cc();
  if (cc == 0) GTEST_SKIP() << "no CUDA device";
  if (cc != 90) GTEST_SKIP() << "needs sm_90 (this test is built for sm_90a only), found sm_" << cc;
  uint16_t* d_tile;
  uint32_t* d_regs;
  TESSERA_TEST_CUDA(cudaMalloc(&d_tile, sizeof(uint16_t) * kRows * kPitch));
  TESSERA_TEST_CUDA(cudaMalloc(&d_regs, sizeof(uint32_t) * 32 * 4));
  TESSERA_TEST_CUDA(cudaMemset(d_tile, 0, sizeof(uint16_t) * kRows * kPitch));
  TESSERA_TEST_CUDA(cudaMemset(d_regs, 0xff, sizeof(uint32_t) * 32 * 4));
  stmatrix_kernel<kNum, kTrans><<<1, 32>>>(d_tile, d_regs);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<uint16_t> tile(kRows * kPitch);
  std::vector<uint32_t> regs(32 * 4);
  TESSERA_TEST_CUDA(cudaMemcpy(tile.data(), d_tile, sizeof(uint16_t) * tile.size(), cudaMemcpyDeviceToHost));
  TESSERA_TEST_CUDA(cudaMemcpy(regs.data(), d_regs, sizeof(uint32_t) * regs.size(), cudaMemcpyDeviceToHost));
  cudaFree(d_tile);
  cudaFree(d_regs);

  // Expected tile: poison everywhere except the 8x8 blocks of the kNum
  // matrices. Without .trans lane l writes matrix j at row l/4, columns
  // 2(l%4), 2(l%4)+1; with .trans at column l/4, rows 2(l%4), 2(l%4)+1.
  std::vector<uint16_t> want(kRows * kPitch, kPoison);
  for (int j = 0; j < kNum; ++j) {
    for (int lane = 0; lane < 32; ++lane) {
      for (int h = 0; h < 2; ++h) {
        const int a = lane / 4;
        const int b = 2 * (lane % 4) + h;
        const int r = kTrans ? b : a;
        const int c = kTrans ? a : b;
        want[phys_row(j, r) * kPitch + c] = reg_half(lane, j, h);
      }
    }
  }
  int bad = 0;
  for (int idx = 0; idx < kRows * kPitch; ++idx) {
    if (tile[idx] != want[idx] && ++bad <= 8) {
      ADD_FAILURE() << "stmatrix.x" << kNum << (kTrans ? ".trans" : "") << " row " << idx / kPitch << " col "
                    << idx % kPitch << ": got 0x" << std::hex << tile[idx] << ", want 0x" << want[idx] << std::dec;
    }
  }
  EXPECT_EQ(bad, 0) << "shared-memory elements differ from the fragment map";
  for (int lane = 0; lane < 32; ++lane) {
    for (int j = 0; j < kNum; ++j) {
      const uint32_t orig = uint32_t{reg_half(lane, j, 0)} | (uint32_t{reg_half(lane, j, 1)} << 16);
      EXPECT_EQ(regs[lane * 4 + j], orig) << "round trip lane " << lane << " register " << j;
    }
  }
}

TEST(ArchStmatrixSm90, X1) { check_variant<1, false>(); }
TEST(ArchStmatrixSm90, X2) { check_variant<2, false>(); }
TEST(ArchStmatrixSm90, X4) { check_variant<4, false>(); }
TEST(ArchStmatrixSm90, X1Trans) { check_variant<1, true>(); }
TEST(ArchStmatrixSm90, X2Trans) { check_variant<2, true>(); }
TEST(ArchStmatrixSm90, X4Trans) { check_variant<4, true>(); }

}  // namespace
