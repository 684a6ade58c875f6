// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// ldmatrix: warp-cooperative load of 8x8 matrices of 16-bit elements from
// shared memory into registers. Minimum architecture: sm_75.
//
//   ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16 {d0, ...}, [addr];
//
// Each 8x8 matrix has 8 rows of 16 bytes. For .xN, lanes 8*j .. 8*j+7 supply
// the shared-memory addresses of rows 0..7 of matrix j (j < N); addresses in
// lanes 8*N and above are ignored. Rows must be 16-byte aligned.
//
// Result (without .trans): register d_j of lane l holds row l/4 of matrix j,
// elements 2*(l%4) (low half) and 2*(l%4)+1 (high half). With .trans the
// matrix is transposed on the way: d_j of lane l holds column l/4, rows
// 2*(l%4) and 2*(l%4)+1.
//
// All 32 lanes must execute the instruction (.sync.aligned).

#include <cstdint>

#include <tessera/arch/arch.cuh>

namespace tessera::arch {

// Loads kNum (1, 2 or 4) 8x8 b16 matrices; kTrans selects .trans.
// `smem_row` is this lane's row address (see the file comment).
template <int kNum, bool kTrans>
__device__ __forceinline__ void ldmatrix(const void* smem_row, uint32_t (&d)[kNum]) {
  static_assert(kNum == 1 || kNum == 2 || kNum == 4, "ldmatrix: the matrix count must be 1, 2 or 4");
#if TESSERA_SM75_ENABLED
  const auto addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem_row));
  if constexpr (kNum == 1 && !kTrans) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(d[0]) : "r"(addr) : "memory");
  } else if constexpr (kNum == 1 && kTrans) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
                 : "=r"(d[0])
                 : "r"(addr)
                 : "memory");
  } else if constexpr (kNum == 2 && !kTrans) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(addr)
                 : "memory");
  } else if constexpr (kNum == 2 && kTrans) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(addr)
                 : "memory");
  } else if constexpr (kNum == 4 && !kTrans) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(addr)
                 : "memory");
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(addr)
                 : "memory");
  }
#else
  (void)smem_row;
  (void)d;
  tessera_error_requires_sm75_or_newer();
#endif
}

// Named forms. PTX: ldmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16; sm_75+.
__device__ __forceinline__ void ldmatrix_x1(const void* smem_row, uint32_t& d0) {
  uint32_t d[1];
  ldmatrix<1, false>(smem_row, d);
  d0 = d[0];
}
__device__ __forceinline__ void ldmatrix_x2(const void* smem_row, uint32_t& d0, uint32_t& d1) {
  uint32_t d[2];
  ldmatrix<2, false>(smem_row, d);
  d0 = d[0];
  d1 = d[1];
}
__device__ __forceinline__ void ldmatrix_x4(const void* smem_row, uint32_t& d0, uint32_t& d1, uint32_t& d2,
                                            uint32_t& d3) {
  uint32_t d[4];
  ldmatrix<4, false>(smem_row, d);
  d0 = d[0];
  d1 = d[1];
  d2 = d[2];
  d3 = d[3];
}
__device__ __forceinline__ void ldmatrix_x1_trans(const void* smem_row, uint32_t& d0) {
  uint32_t d[1];
  ldmatrix<1, true>(smem_row, d);
  d0 = d[0];
}
__device__ __forceinline__ void ldmatrix_x2_trans(const void* smem_row, uint32_t& d0, uint32_t& d1) {
  uint32_t d[2];
  ldmatrix<2, true>(smem_row, d);
  d0 = d[0];
  d1 = d[1];
}
__device__ __forceinline__ void ldmatrix_x4_trans(const void* smem_row, uint32_t& d0, uint32_t& d1,
                                                  uint32_t& d2, uint32_t& d3) {
  uint32_t d[4];
  ldmatrix<4, true>(smem_row, d);
  d0 = d[0];
  d1 = d[1];
  d2 = d[2];
  d3 = d[3];
}

}  // namespace tessera::arch
