// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include "tma/tensor_map.hpp"

#include <cuda_runtime.h>

#include <cstring>
#include <mutex>

namespace tessera::tma {
namespace {

using EncodeTiledFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                   const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                   CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

struct Entry {
  EncodeTiledFn fn = nullptr;
  std::string why;
};

const Entry& entry() {
  static Entry e;
  static std::once_flag once;
  std::call_once(once, [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    // NOTE: the by-version query (CUDA 12.5+) pins the 12.0 ABI of the
    // function; the unversioned cudaGetDriverEntryPoint is deprecated in 13.
    cudaError_t const err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
    if (err != cudaSuccess) {
      e.why = std::string("cudaGetDriverEntryPointByVersion failed: ") + cudaGetErrorString(err);
    } else if (q != cudaDriverEntryPointSuccess || fn == nullptr) {
      e.why = "the driver has no cuTensorMapEncodeTiled (query result " + std::to_string(int(q)) + ")";
    } else {
      e.fn = reinterpret_cast<EncodeTiledFn>(fn);
    }
  });
  return e;
}

EncodeResult fail(std::string m) { return {false, "tma::encode_tiled: " + std::move(m)}; }

std::uint32_t swizzle_bytes(Swizzle s) {
  switch (s) {
    case Swizzle::b32: return 32;
    case Swizzle::b64: return 64;
    case Swizzle::b128: return 128;
    case Swizzle::none: return 0;
  }
  return 0;
}

CUtensorMapSwizzle to_cu(Swizzle s) {
  switch (s) {
    case Swizzle::b32: return CU_TENSOR_MAP_SWIZZLE_32B;
    case Swizzle::b64: return CU_TENSOR_MAP_SWIZZLE_64B;
    case Swizzle::b128: return CU_TENSOR_MAP_SWIZZLE_128B;
    case Swizzle::none: return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
  return CU_TENSOR_MAP_SWIZZLE_NONE;
}

}  // namespace

bool encoder_available(std::string* why) {
  const Entry& e = entry();
  if (e.fn == nullptr && why != nullptr) *why = e.why;
  return e.fn != nullptr;
}

EncodeResult encode_tiled(CUtensorMap* out, const TiledDesc& d) {
  if (out == nullptr) return fail("null output");
  if (d.rank < 1 || d.rank > TiledDesc::kMaxRank)
    return fail("rank " + std::to_string(d.rank) + "; TMA maps have rank 1 to 5");
  if (d.base == nullptr) return fail("null base pointer");
  if (reinterpret_cast<std::uintptr_t>(d.base) % 16 != 0)
    return fail("base pointer not 16-byte aligned (TMA requirement)");
  for (int i = 0; i < d.rank; ++i) {
    if (d.dims[i] == 0 || d.dims[i] > (std::uint64_t(1) << 32))
      return fail("dims[" + std::to_string(i) + "] = " + std::to_string(d.dims[i]) + " outside [1, 2^32]");
    if (d.box[i] == 0 || d.box[i] > 256)
      return fail("box[" + std::to_string(i) + "] = " + std::to_string(d.box[i]) + " outside [1, 256]");
    if (d.elem_strides[i] == 0 || d.elem_strides[i] > 8)
      return fail("elem_strides[" + std::to_string(i) + "] = " + std::to_string(d.elem_strides[i]) +
                  " outside [1, 8]");
  }
  for (int i = 0; i + 1 < d.rank; ++i) {
    if (d.strides[i] % 16 != 0)
      return fail("stride[" + std::to_string(i) + "] = " + std::to_string(d.strides[i]) +
                  " bytes is not a multiple of 16 (TMA requirement: leading dimension * element size)");
    if (d.strides[i] >= (std::uint64_t(1) << 40)) return fail("stride too large (>= 2^40 bytes)");
  }
  std::uint64_t const inner_bytes = std::uint64_t(d.box[0]) * std::uint64_t(d.elem_bytes);
  if (inner_bytes % 16 != 0)
    return fail("box[0] * element size = " + std::to_string(inner_bytes) + " bytes, not a multiple of 16");
  if (d.swizzle != Swizzle::none && inner_bytes > swizzle_bytes(d.swizzle))
    return fail("box[0] * element size = " + std::to_string(inner_bytes) + " bytes exceeds the " +
                std::to_string(swizzle_bytes(d.swizzle)) + "-byte swizzle span");
  const Entry& e = entry();
  if (e.fn == nullptr) return fail(e.why);

  // NOTE: a rank-1 map has no strides; the driver still gets a valid
  // pointer (to zeros) rather than null.
  cuuint64_t dims[TiledDesc::kMaxRank] = {}, strides[TiledDesc::kMaxRank - 1] = {};
  cuuint32_t box[TiledDesc::kMaxRank] = {}, estr[TiledDesc::kMaxRank] = {};
  for (int i = 0; i < d.rank; ++i) {
    dims[i] = d.dims[i];
    box[i] = d.box[i];
    estr[i] = d.elem_strides[i];
  }
  for (int i = 0; i + 1 < d.rank; ++i) strides[i] = d.strides[i];
  std::memset(out, 0, sizeof(*out));
  CUresult const r = e.fn(out, d.type, cuuint32_t(d.rank), const_cast<void*>(d.base), dims, strides, box, estr,
                          CU_TENSOR_MAP_INTERLEAVE_NONE, to_cu(d.swizzle), CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) return fail("cuTensorMapEncodeTiled returned CUresult " + std::to_string(int(r)));
  return {true, {}};
}

}  // namespace tessera::tma
