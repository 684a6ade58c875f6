// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Host-side encoding of TMA tensor maps (CUtensorMap) for tiled copies.
// cuTensorMapEncodeTiled is a driver API function; Tessera fetches it at run
// time through the runtime's driver entry-point query, so nothing links
// against libcuda. Checks every rule the driver would reject with a bare
// CUDA_ERROR_INVALID_VALUE and says which one broke.
//
// Host-only; needs the CUDA toolkit's <cuda.h> on the include path (for the
// CUtensorMap types, no library) and, to call encode_tiled, the
// tessera_runtime library (src/tma/tensor_map.cpp). Building a TiledDesc from
// Tessera layouts: <tessera/tma/make_tma_desc.hpp>.

#include <cuda.h>

#include <cstdint>
#include <string>

namespace tessera::tma {

enum class Swizzle { none, b32, b64, b128 };

struct EncodeResult {
  bool ok = false;
  std::string message;  // empty when ok
};

// A tiled tensor map of rank 1 to 5 (dims[0] innermost, contiguous; the
// entries past `rank` are ignored).
//   elem_bytes      2 (f16/bf16), 4 (f32) or 1 (u8); picks the data type
//   type            the CUtensorMapDataType for it
//   dims[i]         elements along dimension i (>= 1, <= 2^32)
//   strides[i]      bytes between consecutive indices of dimension i+1
//                   (rank-1 values, none for a rank-1 map; multiples of 16,
//                   < 2^40; dimension 0's stride is the element size)
//   box[i]          the tile copied per instruction (1..256); box[0] *
//                   elem_bytes a multiple of 16, and at most the swizzle
//                   width for swizzled maps
//   elem_strides[i] the traversal step along dimension i (1..8; the driver
//                   ignores elem_strides[0]); 1 copies the box densely,
//                   which is all make_tma_desc produces
// Out-of-bounds elements read as zero.
struct TiledDesc {
  static constexpr int kMaxRank = 5;
  CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  int elem_bytes = 2;
  int rank = 2;
  const void* base = nullptr;  // 16-byte aligned
  std::uint64_t dims[kMaxRank] = {0, 0, 0, 0, 0};
  std::uint64_t strides[kMaxRank - 1] = {0, 0, 0, 0};
  std::uint32_t box[kMaxRank] = {1, 1, 1, 1, 1};
  std::uint32_t elem_strides[kMaxRank] = {1, 1, 1, 1, 1};
  Swizzle swizzle = Swizzle::none;
};

// Checks `desc` and encodes it into `*out`.
EncodeResult encode_tiled(CUtensorMap* out, const TiledDesc& desc);

// Whether the driver entry point could be found (false without a driver).
bool encoder_available(std::string* why = nullptr);

}  // namespace tessera::tma
