// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// stmatrix: warp-cooperative store of 8x8 matrices of 16-bit elements from
// registers to shared memory; the inverse of ldmatrix. Minimum architecture:
// sm_90.
//
//   stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16 [addr], {s0, ...};
//
// Addressing is as for ldmatrix: for .xN, lanes 8*j .. 8*j+7 supply the row
// addresses (16-byte aligned) of matrix j. Register s_j of lane l holds row
// l/4, elements 2*(l%4) and 2*(l%4)+1 of matrix j; with .trans it holds
// column l/4, rows 2*(l%4) and 2*(l%4)+1 instead.

#include <cstdint>

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

// Stores kNum (1, 2 or 4) 8x8 b16 matrices; kTrans selects .trans.
template <int kNum, bool kTrans>
__device__ __forceinline__ void stmatrix(void* smem_row, const uint32_t (&s)[kNum]) {
  static_assert(kNum == 1 || kNum == 2 || kNum == 4, "stmatrix: the matrix count must be 1, 2 or 4");
#if TESSERA_SM90_ENABLED
  const auto addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem_row));
  if constexpr (kNum == 1 && !kTrans) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\n" ::"r"(addr), "r"(s[0]) : "memory");
  } else if constexpr (kNum == 1 && kTrans) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};\n" ::"r"(addr), "r"(s[0])
                 : "memory");
  } else if constexpr (kNum == 2 && !kTrans) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n" ::"r"(addr), "r"(s[0]), "r"(s[1])
                 : "memory");
  } else if constexpr (kNum == 2 && kTrans) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};\n" ::"r"(addr), "r"(s[0]),
                 "r"(s[1])
                 : "memory");
  } else if constexpr (kNum == 4 && !kTrans) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(s[0]),
                 "r"(s[1]), "r"(s[2]), "r"(s[3])
                 : "memory");
  } else {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr),
                 "r"(s[0]), "r"(s[1]), "r"(s[2]), "r"(s[3])
                 : "memory");
  }
#else
  (void)smem_row;
  (void)s;
  tessera_error_requires_sm90_or_newer();
#endif
}

// Named forms. PTX: stmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16; sm_90+.
__device__ __forceinline__ void stmatrix_x1(void* smem_row, uint32_t s0) {
  const uint32_t s[1] = {s0};
  stmatrix<1, false>(smem_row, s);
}
__device__ __forceinline__ void stmatrix_x2(void* smem_row, uint32_t s0, uint32_t s1) {
  const uint32_t s[2] = {s0, s1};
  stmatrix<2, false>(smem_row, s);
}
__device__ __forceinline__ void stmatrix_x4(void* smem_row, uint32_t s0, uint32_t s1, uint32_t s2, uint32_t s3) {
  const uint32_t s[4] = {s0, s1, s2, s3};
  stmatrix<4, false>(smem_row, s);
}
__device__ __forceinline__ void stmatrix_x1_trans(void* smem_row, uint32_t s0) {
  const uint32_t s[1] = {s0};
  stmatrix<1, true>(smem_row, s);
}
__device__ __forceinline__ void stmatrix_x2_trans(void* smem_row, uint32_t s0, uint32_t s1) {
  const uint32_t s[2] = {s0, s1};
  stmatrix<2, true>(smem_row, s);
}
__device__ __forceinline__ void stmatrix_x4_trans(void* smem_row, uint32_t s0, uint32_t s1, uint32_t s2,
                                                  uint32_t s3) {
  const uint32_t s[4] = {s0, s1, s2, s3};
  stmatrix<4, true>(smem_row, s);
}

}  // namespace tessera::arch
