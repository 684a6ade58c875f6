// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Host emulation of the nvcuda::wmma subset rung 8 uses: every lane holds the
// whole fragment; loads and stores assert the 32-byte pointer alignment and
// the ldm rule of the real API; __float_to_tf32 rounds to 10 mantissa bits.
#pragma once
#include <cassert>
#include <cstdint>
#include <cstring>
#include <type_traits>
namespace nvcuda::wmma {
struct matrix_a {}; struct matrix_b {}; struct accumulator {}; struct row_major {}; struct col_major {};
namespace precision { struct tf32 {}; }
enum layout_t { mem_row_major, mem_col_major };
template <class Use, int M, int N, int K, class T, class L = void>
struct fragment {
  static constexpr int R = std::is_same_v<Use, matrix_b> ? K : M;
  static constexpr int C = std::is_same_v<Use, matrix_a> ? K : N;
  float v[R][C];
};
template <class U, int M, int N, int K, class T, class L>
void fill_fragment(fragment<U, M, N, K, T, L>& f, float x) { for (auto& r : f.v) for (auto& e : r) e = x; }
inline void check_ptr(const float* p, unsigned ld) { assert(reinterpret_cast<uintptr_t>(p) % 32 == 0); assert(ld % 4 == 0); }
template <class U, int M, int N, int K, class T, class L>
void load_matrix_sync(fragment<U, M, N, K, T, L>& f, const float* p, unsigned ld) {
  check_ptr(p, ld);
  using F = fragment<U, M, N, K, T, L>;
  for (int i = 0; i < F::R; ++i)
    for (int j = 0; j < F::C; ++j) f.v[i][j] = std::is_same_v<L, row_major> ? p[i * ld + j] : p[i + j * ld];
}
template <int M, int N, int K>
void store_matrix_sync(float* p, const fragment<accumulator, M, N, K, float>& f, unsigned ld, layout_t l) {
  check_ptr(p, ld);
  for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) (l == mem_row_major ? p[i * ld + j] : p[i + j * ld]) = f.v[i][j];
}
template <int M, int N, int K, class LA, class LB>
void mma_sync(fragment<accumulator, M, N, K, float>& d, const fragment<matrix_a, M, N, K, precision::tf32, LA>& a,
              const fragment<matrix_b, M, N, K, precision::tf32, LB>& b, const fragment<accumulator, M, N, K, float>& c) {
  fragment<accumulator, M, N, K, float> t;
  for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) {
    float s = c.v[i][j];
    for (int k = 0; k < K; ++k) s += a.v[i][k] * b.v[k][j];
    t.v[i][j] = s;
  }
  d = t;
}
inline float __float_to_tf32(float x) {
  uint32_t u; std::memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;
  std::memcpy(&x, &u, 4); return x;
}
}  // namespace nvcuda::wmma
