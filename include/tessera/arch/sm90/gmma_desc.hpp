// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The 64-bit shared-memory matrix descriptor that wgmma.mma_async reads for
// its A and B operands (sm_90a). Pure bit arithmetic: host-compilable.
//
//   bits  0-13  start address >> 4 (shared-window address, 16-byte aligned)
//   bits 16-29  leading dimension byte offset >> 4 (LBO)
//   bits 32-45  stride dimension byte offset >> 4 (SBO)
//   bits 49-51  matrix base offset (0 when the swizzle pattern starts at a
//               pattern-aligned address, which Tessera always arranges)
//   bits 62-63  swizzle mode: 0 interleave (none), 1 128B, 2 64B, 3 32B
//
// Canonical layouts, in units of 16-byte "core matrix rows" (T = 16 bytes):
//   no swizzle: core matrices of 8 rows x 16 bytes, contiguous (128 B);
//     LBO = bytes between core matrices adjacent in K (K-major),
//     SBO = bytes between core matrices adjacent in M/N.
//   swizzled, K-major: rows of W = 32/64/128 bytes, 8 rows form one swizzle
//     atom of 8*W bytes (Swizzle<1|2|3, 4, 3> on byte addresses); SBO = the
//     distance between 8-row groups (8*W when packed); LBO is unused when
//     the instruction's K extent fits in one row (always, for K-major) and
//     is conventionally 1. The atom must start 8*W-aligned; 1024 bytes
//     covers every mode. Advancing K inside a row adds bytes to the start
//     address (the hardware swizzles on absolute address bits).
//   swizzled, MN-major: W bytes of M/N are contiguous; LBO = the distance
//     between atoms adjacent in M/N, SBO = between 8-row (K) groups.

#include <cstdint>

#include <tessera/config.hpp>

namespace tessera::arch {

enum class GmmaSwizzle : uint32_t { interleave = 0, b128 = 1, b64 = 2, b32 = 3 };

// Row width in bytes of a swizzle mode (16 for interleave: one core-matrix row).
[[nodiscard]] TESSERA_HOST_DEVICE constexpr uint32_t gmma_swizzle_bytes(GmmaSwizzle s) {
  return s == GmmaSwizzle::b128 ? 128u : s == GmmaSwizzle::b64 ? 64u : s == GmmaSwizzle::b32 ? 32u : 16u;
}

// The Swizzle<B, 4, 3> (B = 3, 2, 1) that the mode applies to byte offsets.
[[nodiscard]] TESSERA_HOST_DEVICE constexpr int gmma_swizzle_bits(GmmaSwizzle s) {
  return s == GmmaSwizzle::b128 ? 3 : s == GmmaSwizzle::b64 ? 2 : s == GmmaSwizzle::b32 ? 1 : 0;
}

struct GmmaDescriptor {
  uint64_t desc = 0;

  [[nodiscard]] TESSERA_HOST_DEVICE constexpr uint32_t start_address() const {
    return uint32_t(desc & 0x3FFFu) << 4;
  }
  [[nodiscard]] TESSERA_HOST_DEVICE constexpr uint32_t leading_byte_offset() const {
    return uint32_t((desc >> 16) & 0x3FFFu) << 4;
  }
  [[nodiscard]] TESSERA_HOST_DEVICE constexpr uint32_t stride_byte_offset() const {
    return uint32_t((desc >> 32) & 0x3FFFu) << 4;
  }
  [[nodiscard]] TESSERA_HOST_DEVICE constexpr uint32_t base_offset() const { return uint32_t((desc >> 49) & 0x7u); }
  [[nodiscard]] TESSERA_HOST_DEVICE constexpr GmmaSwizzle swizzle() const { return GmmaSwizzle(uint32_t(desc >> 62)); }

  // The same descriptor `bytes` further into shared memory (bytes % 16 == 0).
  // NOTE: adds to the 14-bit field directly, the usual way to step K inside
  // a swizzle atom; callers keep the sum inside the 256 KiB window.
  [[nodiscard]] TESSERA_HOST_DEVICE constexpr GmmaDescriptor advanced(uint32_t bytes) const {
    return GmmaDescriptor{desc + uint64_t(bytes >> 4)};
  }
};

// Builds a descriptor. `smem_address` is a shared-window address (what
// __cvta_generic_to_shared returns). lbo/sbo in bytes, multiples of 16 below
// 2^18. Returns the descriptor; `ok` (if given) reports whether the
// arguments were canonical (alignment, ranges).
[[nodiscard]] TESSERA_HOST_DEVICE constexpr GmmaDescriptor make_gmma_desc(uint32_t smem_address, GmmaSwizzle swz,
                                                                          uint32_t lbo, uint32_t sbo,
                                                                          bool* ok = nullptr) {
  uint32_t const atom = 8u * gmma_swizzle_bytes(swz);  // bytes of one swizzle atom
  bool const good = (smem_address % 16u) == 0 && smem_address < (1u << 18) && lbo % 16u == 0 &&
                    lbo < (1u << 18) && sbo % 16u == 0 && sbo < (1u << 18) &&
                    (swz == GmmaSwizzle::interleave || smem_address % atom == 0);
  if (ok != nullptr) *ok = good;
  uint64_t d = 0;
  d |= uint64_t((smem_address >> 4) & 0x3FFFu);
  d |= uint64_t((lbo >> 4) & 0x3FFFu) << 16;
  d |= uint64_t((sbo >> 4) & 0x3FFFu) << 32;
  d |= uint64_t(uint32_t(swz) & 0x3u) << 62;
  return GmmaDescriptor{d};
}

// K-major operand tile of `rows` (M or N) rows, each `row_bytes` of K,
// stored as the TMA writes it with the matching swizzle: row r at r *
// row_bytes, 8-row groups 8 * row_bytes apart. For swizzled modes row_bytes
// must equal the swizzle width (one atom column: K tile of 128/64/32 bytes).
template <GmmaSwizzle kSwizzle, uint32_t kRowBytes>
[[nodiscard]] TESSERA_HOST_DEVICE constexpr GmmaDescriptor make_gmma_desc_k_major(uint32_t smem_address) {
  static_assert(kSwizzle == GmmaSwizzle::interleave || kRowBytes == gmma_swizzle_bytes(kSwizzle),
                "make_gmma_desc_k_major: a swizzled K-major tile row must be exactly the swizzle width "
                "[split K into several tiles of 32/64/128 bytes]");
  static_assert(kSwizzle != GmmaSwizzle::interleave,
                "make_gmma_desc_k_major: the interleave layout needs explicit LBO/SBO [use make_gmma_desc]");
  return make_gmma_desc(smem_address, kSwizzle, 16u, 8u * kRowBytes);
}

// MN-major operand tile: atoms of W bytes of M/N (W = the swizzle width),
// each holding the tile's K rows W bytes apart (8-row groups 8 * W apart,
// the SBO), atoms `atom_bytes` apart along M/N (the LBO; unused when the
// instruction's M/N extent fits in one atom). This is what a TMA box of
// (W bytes of M/N, K rows) with the matching swizzle leaves in shared
// memory, boxes placed atom_bytes apart. A K step of k elements advances the
// start address by k * W bytes. 16-bit elements only (wgmma transposes only
// those).
template <GmmaSwizzle kSwizzle>
[[nodiscard]] TESSERA_HOST_DEVICE constexpr GmmaDescriptor make_gmma_desc_mn_major(uint32_t smem_address,
                                                                                   uint32_t atom_bytes) {
  static_assert(kSwizzle != GmmaSwizzle::interleave,
                "make_gmma_desc_mn_major: the interleave layout needs explicit LBO/SBO [use make_gmma_desc]");
  return make_gmma_desc(smem_address, kSwizzle, atom_bytes, 8u * gmma_swizzle_bytes(kSwizzle));
}

}  // namespace tessera::arch
