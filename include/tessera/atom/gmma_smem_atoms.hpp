// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The shared-memory layout atoms of wgmma operands, under CuTe's names in
// namespace tessera::GMMA: the smallest tile of each canonical form, which
// tile_to_shape repeats up to an operand tile. Element units (offsets count
// elements of T, as every Tessera layout does); E = sizeof(T), W = 16, 32,
// 64 or 128 bytes:
//
//   Layout_K_INTER_Atom<T>    (8, 16/E):(16/E, 1)                 one core matrix
//   Layout_K_SW{32,64,128}_Atom<T>
//                             Swizzle<B, 4 - log2 E, 3> o (8, W/E):(W/E, 1)
//   Layout_MN_INTER_Atom<T>   (16/E, 8):(1, 16/E)
//   Layout_MN_SW{32,64,128}_Atom<T>
//                             Swizzle<B, 4 - log2 E, 3> o (W/E, 8):(1, W/E)
//
// with B = 1, 2, 3 for W = 32, 64, 128: the XOR of byte-address bits [4, 4+B)
// with bits [7, 7+B) that the hardware applies, written on element offsets.
// Rows are M or N, columns K (K-major: K contiguous; MN-major: M/N
// contiguous, which wgmma reads for 16-bit elements only).
//
// Laws (host tests, tests/host/test_gmma_smem_atoms.cpp):
//   size(atom) * E == 8 * W (W = 16 for INTER): one 8-row swizzle pattern;
//   cosize(atom) == size(atom): the atom is a bijection onto its bytes;
//   K-major SW atoms tiled down M/N to (8m, W/E) satisfy
//     arch::is_gmma_k_major_canonical<E>(tile, arch::gmma_swizzle_of<E>(tile));
//   16-bit MN-major SW atoms tiled along K first, then M/N, satisfy
//     arch::is_gmma_mn_major_canonical<2>(tile, arch::gmma_swizzle_of<2>(tile)).
// Differences from CuTe: CuTe states the atoms in bits and upcasts them, and
// prints the swizzle of that bit-level form (Sw<3,4,3> for every type); here
// the atom of a 16-bit T prints Sw<3,3,3> o _0 o (_8,_64):(_64,_1).
// ss_smem_selector<Major, T, BLK_MN, BLK_K>() picks the widest atom for a
// tile, as CuTe's does.

#include <tessera/layout.hpp>

namespace tessera::GMMA {

// Which dimension of an operand tile is contiguous: K (K-major) or M/N.
enum class Major { K, MN };

namespace detail {

template <int kElemBytes>
constexpr void check_element() {
  static_assert(kElemBytes == 1 || kElemBytes == 2 || kElemBytes == 4,
                "GMMA layout atoms: wgmma operands are 1-, 2- or 4-byte elements");
}

// `l`, an atom with rows of kRowBytes bytes, under the swizzle of that row
// width (none for the 16-byte interleaved rows).
template <int kElemBytes, int kRowBytes, class L>
constexpr auto swizzled(L const& l) {
  check_element<kElemBytes>();
  if constexpr (kRowBytes == 16) {
    return l;
  } else {
    constexpr int kBits = decltype(log_2(Int<kRowBytes / 16>{}))::value;
    constexpr int kBase = 4 - decltype(log_2(Int<kElemBytes>{}))::value;
    return composition(Swizzle<kBits, kBase, 3>{}, l);
  }
}

// K-major: 8 rows of kRowBytes bytes, K contiguous.
template <int kElemBytes, int kRowBytes>
constexpr auto k_atom() {
  constexpr int kPerRow = kRowBytes / kElemBytes;
  return swizzled<kElemBytes, kRowBytes>(Layout<Shape<_8, Int<kPerRow>>, Stride<Int<kPerRow>, _1>>{});
}

// MN-major: kRowBytes bytes of M/N contiguous, 8 of them along K.
template <int kElemBytes, int kRowBytes>
constexpr auto mn_atom() {
  constexpr int kPerRow = kRowBytes / kElemBytes;
  return swizzled<kElemBytes, kRowBytes>(Layout<Shape<Int<kPerRow>, _8>, Stride<_1, Int<kPerRow>>>{});
}

}  // namespace detail

template <class T> using Layout_K_INTER_Atom = decltype(detail::k_atom<int(sizeof(T)), 16>());
template <class T> using Layout_K_SW32_Atom = decltype(detail::k_atom<int(sizeof(T)), 32>());
template <class T> using Layout_K_SW64_Atom = decltype(detail::k_atom<int(sizeof(T)), 64>());
template <class T> using Layout_K_SW128_Atom = decltype(detail::k_atom<int(sizeof(T)), 128>());

template <class T> using Layout_MN_INTER_Atom = decltype(detail::mn_atom<int(sizeof(T)), 16>());
template <class T> using Layout_MN_SW32_Atom = decltype(detail::mn_atom<int(sizeof(T)), 32>());
template <class T> using Layout_MN_SW64_Atom = decltype(detail::mn_atom<int(sizeof(T)), 64>());
template <class T> using Layout_MN_SW128_Atom = decltype(detail::mn_atom<int(sizeof(T)), 128>());

// The widest atom that tiles a kBlkMN x kBlkK operand tile of T: the
// swizzle whose row (128, 64, 32 or 16 bytes) divides the contiguous extent
// (K for K-major, M/N for MN-major) in bytes, tried widest first. The
// other extent must be a multiple of the atom's 8 rows. A tile whose
// contiguous extent is not a multiple of 16 bytes has no atom and fails
// the build, naming the rule.
// @post tile_to_shape(result, (kBlkMN, kBlkK)) covers the tile (MN-major:
//       with Step<_2, _1>, K first, for the canonical form above)
template <Major kMajor, class T, int kBlkMN, int kBlkK>
constexpr auto ss_smem_selector() {
  constexpr int kE = int(sizeof(T));
  constexpr int kContiguousBytes = (kMajor == Major::K ? kBlkK : kBlkMN) * kE;
  constexpr int kOther = kMajor == Major::K ? kBlkMN : kBlkK;
  static_assert(kContiguousBytes > 0 && kContiguousBytes % 16 == 0,
                "ss_smem_selector: the contiguous extent (K for K-major, M/N for MN-major) must be a positive "
                "multiple of 16 bytes [wgmma core matrices are 16 bytes wide]");
  static_assert(kOther > 0 && kOther % 8 == 0,
                "ss_smem_selector: the other extent must be a positive multiple of 8 [wgmma core matrices have 8 rows]");
  constexpr int kRow = kContiguousBytes % 128 == 0 ? 128 : kContiguousBytes % 64 == 0 ? 64 : kContiguousBytes % 32 == 0 ? 32 : 16;
  if constexpr (kMajor == Major::K)
    return detail::k_atom<kE, kRow>();
  else
    return detail::mn_atom<kE, kRow>();
}

}  // namespace tessera::GMMA
