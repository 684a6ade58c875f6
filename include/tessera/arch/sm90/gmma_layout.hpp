// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// GMMA descriptors from Tessera layouts. A K-major wgmma operand tile is a
// rank-2 layout (rows, k) -> element offset; it is *canonical* for a swizzle
// mode of width W bytes (32/64/128) when every element sits where the
// hardware expects it:
//   layout(r, k) * E == swz(r * W + k * E),  swz(x) = x ^ (((x >> 7) & (2^B - 1)) << 4)
// (E = element bytes, B = 1/2/3), which is Swizzle<B, 4 - log2 E, 3> o
// (rows, W/E):(W/E, 1) in element units, e.g. Sw<3,3,3> o (_64,_64):(_64,_1)
// for 16-bit elements and 128B swizzling. The check evaluates the layout at
// every coordinate, so it holds for any spelling of the same function
// (tiled atoms, hierarchical row modes); use it in a static_assert for static
// layouts. Host-compilable.

#include <cstdint>

#include <tessera/arch/sm90/gmma_desc.hpp>
#include <tessera/layout.hpp>

namespace tessera::arch {

namespace detail {
TESSERA_HOST_DEVICE constexpr int log2_exact(int x) { return x == 1 ? 0 : x == 2 ? 1 : x == 4 ? 2 : x == 8 ? 3 : -1; }
}  // namespace detail

// The canonical wgmma operand layout, the one formula every descriptor check
// here and in tessera/atom/mma_sm90.hpp evaluates: the element offset, before
// the swizzle, of element (mn, k) of an operand tile, with A elements per row
// of W bytes (A = W / E; W = 16 for the interleaved mode) and LBO/SBO in
// elements (PTX ISA, "Shared Memory Matrix Layout" and the descriptor's
// strides):
//   K-major:              (mn % 8) A + (mn / 8) SBO + k % A + (k / A) LBO
//                         (swizzled: k < A, one row; LBO unused)
//   swizzled MN-major:    mn % A + (mn / A) LBO + (k % 8) A + (k / 8) SBO
//   interleaved MN-major: mn % A + (mn / A) SBO + (k % 8) A + (k / 8) LBO
// In the interleaved forms LBO steps along K and SBO along M/N (run 173
// pinned this on an H100); the swizzled MN-major form swaps them.
TESSERA_HOST_DEVICE constexpr long long gmma_canonical_offset(bool k_major, bool interleave, long long a,
                                                             long long lbo, long long sbo, long long mn,
                                                             long long k) {
  if (k_major) return (mn % 8) * a + (mn / 8) * sbo + k % a + (k / a) * lbo;
  long long const mn_step = interleave ? sbo : lbo;
  long long const k_step = interleave ? lbo : sbo;
  return mn % a + (mn / a) * mn_step + (k % 8) * a + (k / 8) * k_step;
}

// The swizzle mode a swizzled layout of kElemBytes elements corresponds to,
// or interleave when it is not a GMMA swizzle (unswizzled or wrong base/shift).
template <int kElemBytes, class LayoutT>
[[nodiscard]] TESSERA_HOST_DEVICE constexpr GmmaSwizzle gmma_swizzle_of(LayoutT const&) {
  using S = swizzle_of_layout<std::remove_cvref_t<LayoutT>>;
  if constexpr (!S::swizzled) {
    return GmmaSwizzle::interleave;
  } else {
    if (S::shift != 3 || S::base + detail::log2_exact(kElemBytes) != 4) return GmmaSwizzle::interleave;
    return S::bits == 3 ? GmmaSwizzle::b128 : S::bits == 2 ? GmmaSwizzle::b64 : S::bits == 1 ? GmmaSwizzle::b32
                                                                                              : GmmaSwizzle::interleave;
  }
}

// Whether `layout` is the K-major canonical tile for `swz` (see the top).
template <int kElemBytes, class LayoutT>
[[nodiscard]] TESSERA_HOST_DEVICE constexpr bool is_gmma_k_major_canonical(LayoutT const& layout, GmmaSwizzle swz) {
  static_assert(kElemBytes == 1 || kElemBytes == 2 || kElemBytes == 4,
                "is_gmma_k_major_canonical: elements must be 1, 2 or 4 bytes");
  if (swz == GmmaSwizzle::interleave) return false;
  int const w = int(gmma_swizzle_bytes(swz));
  int const mask = (1 << gmma_swizzle_bits(swz)) - 1;
  int const rows = int(size<0>(layout));
  int const cols = int(size<1>(layout));
  if (cols * kElemBytes != w || rows % 8 != 0 || rows == 0) return false;
  int const a = w / kElemBytes;
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < cols; ++k) {
      // rows w bytes apart: SBO = 8 rows
      int const logical = int(gmma_canonical_offset(true, false, a, a, 8 * a, r, k)) * kElemBytes;
      int const phys = logical ^ (((logical >> 7) & mask) << 4);
      if (int(layout(r, k)) * kElemBytes != phys) return false;
    }
  return true;
}

// Descriptor for a K-major operand tile with layout `layout` starting at
// shared address `smem_address` (which must be 1024-byte aligned so that the
// layout's swizzle and the hardware's agree). `ok` reports whether the layout
// is canonical and the address aligned; the descriptor is only meaningful
// when it is.
template <int kElemBytes, class LayoutT>
[[nodiscard]] TESSERA_HOST_DEVICE constexpr GmmaDescriptor make_gmma_desc_k_major(uint32_t smem_address,
                                                                                  LayoutT const& layout,
                                                                                  bool* ok = nullptr) {
  GmmaSwizzle const swz = gmma_swizzle_of<kElemBytes>(layout);
  bool good = is_gmma_k_major_canonical<kElemBytes>(layout, swz) && smem_address % 1024u == 0;
  uint32_t const w = gmma_swizzle_bytes(swz);
  bool fields_ok = false;
  GmmaDescriptor const d = make_gmma_desc(smem_address, swz, 16u, 8u * w, &fields_ok);
  if (ok != nullptr) *ok = good && fields_ok;
  return d;
}

// MN-major tiles. A rank-2 layout (mn, k) -> element offset is the
// MN-major canonical tile for swizzle width W when M/N runs in atoms of
// A = W / E elements, W contiguous bytes per K row:
//   layout(mn, k) * E == swz(a * S + k * W + (mn % A) * E),  a = mn / A,
// with swz as above and S the atom stride in bytes (a multiple of 8 * W, so
// that every atom starts on a swizzle-pattern boundary); K is a multiple of
// 8. For 16-bit elements and 128B swizzling one atom is
// Sw<3,3,3> o (_64,_K):(_1,_64). S is read from the layout (the offset of
// element (A, 0)); with a single atom it is reported as K * W.
template <int kElemBytes, class LayoutT>
[[nodiscard]] TESSERA_HOST_DEVICE constexpr bool is_gmma_mn_major_canonical(LayoutT const& layout, GmmaSwizzle swz,
                                                                            uint32_t* atom_bytes = nullptr) {
  static_assert(kElemBytes == 2, "is_gmma_mn_major_canonical: wgmma reads MN-major operands of 16-bit elements only");
  if (swz == GmmaSwizzle::interleave) return false;
  int const w = int(gmma_swizzle_bytes(swz));
  int const mask = (1 << gmma_swizzle_bits(swz)) - 1;
  int const per_atom = w / kElemBytes;
  int const mn = int(size<0>(layout));
  int const ks = int(size<1>(layout));
  if (mn == 0 || mn % per_atom != 0 || ks == 0 || ks % 8 != 0) return false;
  int const stride = mn > per_atom ? int(layout(per_atom, 0)) * kElemBytes : ks * w;
  if (stride <= 0 || stride % (8 * w) != 0) return false;
  for (int i = 0; i < mn; ++i)
    for (int k = 0; k < ks; ++k) {
      // atoms `stride` bytes apart (LBO), K rows w bytes apart (SBO = 8 rows)
      int const logical =
          int(gmma_canonical_offset(false, false, per_atom, stride / kElemBytes, 8 * per_atom, i, k)) * kElemBytes;
      int const phys = logical ^ (((logical >> 7) & mask) << 4);
      if (int(layout(i, k)) * kElemBytes != phys) return false;
    }
  if (atom_bytes != nullptr) *atom_bytes = uint32_t(stride);
  return true;
}

// Descriptor for an MN-major operand tile (see is_gmma_mn_major_canonical):
// LBO = the atom stride, SBO = 8 * W. `ok` as for make_gmma_desc_k_major.
template <int kElemBytes, class LayoutT>
[[nodiscard]] TESSERA_HOST_DEVICE constexpr GmmaDescriptor make_gmma_desc_mn_major(uint32_t smem_address,
                                                                                   LayoutT const& layout,
                                                                                   bool* ok = nullptr) {
  GmmaSwizzle const swz = gmma_swizzle_of<kElemBytes>(layout);
  uint32_t stride = 0;
  bool good = is_gmma_mn_major_canonical<kElemBytes>(layout, swz, &stride) && smem_address % 1024u == 0;
  bool fields_ok = false;
  GmmaDescriptor const d = make_gmma_desc(smem_address, swz, stride, 8u * gmma_swizzle_bytes(swz), &fields_ok);
  if (ok != nullptr) *ok = good && fields_ok;
  return d;
}

}  // namespace tessera::arch
