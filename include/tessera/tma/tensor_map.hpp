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

// A tiled tensor map of rank 2 or 3 (dims[0] innermost, contiguous).
//   elem_bytes      2 (f16/bf16), 4 (f32) or 1 (u8); picks the data type
//   type            the CUtensorMapDataType for it
//   dims[i]         elements along dimension i (>= 1, < 2^32)
//   strides[i]      bytes between consecutive indices of dimension i+1
//                   (rank-1 values; multiples of 16, < 2^40)
//   box[i]          the tile copied per instruction (1..256); box[0] *
//                   elem_bytes a multiple of 16, and at most the swizzle
//                   width for swizzled maps
// Out-of-bounds elements read as zero.
struct TiledDesc {
  CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  int elem_bytes = 2;
  int rank = 2;
  const void* base = nullptr;  // 16-byte aligned
  std::uint64_t dims[3] = {0, 0, 0};
  std::uint64_t strides[2] = {0, 0};
  std::uint32_t box[3] = {1, 1, 1};
  Swizzle swizzle = Swizzle::none;
};

// Checks `desc` and encodes it into `*out`.
EncodeResult encode_tiled(CUtensorMap* out, const TiledDesc& desc);

// Whether the driver entry point could be found (false without a driver).
bool encoder_available(std::string* why = nullptr);

}  // namespace tessera::tma
