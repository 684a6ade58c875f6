// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// TMA descriptors from Tessera layouts: a global tensor (pointer + layout of
// rank 1 to 5) and the shared-memory layout of one box give the tensor map
// that copies such boxes, or an error naming the rule that rules it out.
//
//   // A (M,K) row-major bf16 with leading dimension lda; boxes of 64x64 with
//   // the 128B swizzle, exactly what wgmma reads as a K-major tile.
//   auto gA = make_layout(make_shape(M, K), make_stride(lda, _1{}));
//   auto sA = make_composed_layout(Swizzle<3, 3, 3>{}, _0{},
//                                  make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));
//   TmaPlan plan = make_tma_desc(ptr_A, gA, sA);     // or make_tma_desc(make_tensor(make_gmem_ptr(ptr_A), gA), sA)
//   if (!plan.ok) return fail(plan.error);
//   CUtensorMap tmap;
//   if (auto r = tma::encode(&tmap, plan); !r.ok) return fail(r.message);
//   kernel<<<...>>>(tmap, plan.coord_map(), ...);    // `const __grid_constant__ CUtensorMap`
//   // in the kernel (tessera/tma/tma_coord.hpp), for tile (bm, bk):
//   //   TmaCoords c = coord_map(local_tile(make_tma_coord_tensor(make_shape(M, K)), shape(sA), make_coord(bm, bk))(0, 0));
//   //   arch::mbarrier_arrive_expect_tx(&bar, plan.box_bytes);  arch::tma_load_2d(smem, &tmap, &bar, c[0], c[1]);
//   //   then element (i, j) of the tile is smem[sA(i, j)].
//
// The rules, checked in this order (each failure names the rule, the mode and
// the value):
//   gmem   rank 1 to 5 (cuTensorMapEncodeTiled's ranks); flat modes (an
//          integer shape and stride per mode);
//          exactly one mode of stride 1 (it becomes TMA dimension 0, the other
//          modes follow in mode order; a rank-1 tensor is that mode alone and
//          has no other stride); every other stride positive, stride *
//          sizeof(T) a multiple of 16 and < 2^40; sizes in [1, 2^32]; the base
//          pointer 16-byte aligned.
//   smem   the same rank; mode m's size is the box extent along gmem mode m,
//          1..256; the whole box at most 227 KiB (a CTA's shared memory); the
//          contiguous extent times sizeof(T) a multiple of 16.
//          Either a plain layout (no swizzle) or a ComposedLayout of
//          Swizzle<B, 4 - log2(sizeof T), 3> (TMA's 32B/64B/128B modes for B =
//          1/2/3), whose box rows then span exactly the swizzle width (16 << B
//          bytes; the hardware also accepts narrower rows, which this
//          function does not model and rejects).
//          And it must be exactly the image TMA writes: the box packed with
//          TMA dimension 0 fastest, then 1, 2, ..., no padding, the swizzle
//          applied to byte offsets. Checked at every box coordinate, so any
//          spelling of that function passes (hierarchical modes, tiled
//          atoms).
// Element types: 8/16/32/64-bit integers (int8 as UINT8; TMA has no signed
// 8-bit type, which matters only for reduce-add), __half / half_t, __nv_bfloat16
// / bfloat16_t, float, double, tfloat32_t (moved as TFLOAT32; a float
// tensor may be passed as tfloat32_t const* for that), and float_e4m3_t /
// float_e5m2_t (moved as UINT8).
// Stores: a plan that is fine for loads may still be unfit for TMA stores,
// which write whole 16-byte units of the contiguous dimension
// (TmaPlan::store_error says why).
// Never throws or aborts: failures come back in TmaPlan::error. Host-only;
// needs <cuda.h> on the include path (the CUtensorMap types).

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "tessera/atom/numeric.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tma/tensor_map.hpp"
#include "tessera/tma/tma_coord.hpp"

namespace tessera {

// The CUtensorMapDataType TMA moves elements of type T as (`known` false for
// a type TMA has no encoding for).
template <class T>
struct tma_data_type {
  static constexpr bool known = false;
};
namespace detail {
template <CUtensorMapDataType V>
struct tma_data_type_is {
  static constexpr bool known = true;
  static constexpr CUtensorMapDataType value = V;
};
}  // namespace detail
template <> struct tma_data_type<std::uint8_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_UINT8> {};
template <> struct tma_data_type<std::int8_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_UINT8> {};
template <> struct tma_data_type<std::uint16_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_UINT16> {};
template <> struct tma_data_type<std::uint32_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_UINT32> {};
template <> struct tma_data_type<std::int32_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_INT32> {};
template <> struct tma_data_type<std::uint64_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_UINT64> {};
template <> struct tma_data_type<std::int64_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_INT64> {};
template <> struct tma_data_type<__half> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_FLOAT16> {};
template <> struct tma_data_type<half_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_FLOAT16> {};
template <> struct tma_data_type<__nv_bfloat16> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_BFLOAT16> {};
template <> struct tma_data_type<bfloat16_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_BFLOAT16> {};
template <> struct tma_data_type<float> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_FLOAT32> {};
template <> struct tma_data_type<double> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_FLOAT64> {};
template <> struct tma_data_type<tfloat32_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_TFLOAT32> {};
// fp8 moves as bytes (TMA has no fp8 type; only reduce-add would care).
template <> struct tma_data_type<float_e4m3_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_UINT8> {};
template <> struct tma_data_type<float_e5m2_t> : detail::tma_data_type_is<CU_TENSOR_MAP_DATA_TYPE_UINT8> {};

// A checked tensor map: what make_tma_desc found out about a (gmem, smem) pair.
struct TmaPlan {
  bool ok = false;
  std::string error;               // empty when ok; else "make_tma_desc: <rule> ..."
  tma::TiledDesc desc;             // ready for tma::encode / tma::encode_tiled
  int rank = 0;                    // 1 to 5
  int dim_of_mode[5] = {-1, -1, -1, -1, -1};  // TMA dimension of gmem mode m
  int mode_of_dim[5] = {-1, -1, -1, -1, -1};  // gmem mode of TMA dimension d (dimension 0: the stride-1 mode)
  std::uint32_t box_bytes = 0;     // bytes one box load writes (the mbarrier transaction count)
  std::uint32_t smem_align = 0;    // the box's shared address must be a multiple of this (128;
                                   // 256/512/1024 for the 32B/64B/128B swizzles, whose pattern
                                   // is a function of the address)

  // Why a TMA *store* through this map would write outside the tensor, or
  // empty when it would not. NOTE: measured, not documented: a store whose
  // box reaches past the innermost extent writes whole 16-byte units of that
  // dimension, so when extent x element bytes is not a multiple of 16 the
  // elements between the extent and the next 16-byte boundary (the padding
  // of the leading dimension) are overwritten (H200 run 10: the GEMM
  // epilogue, 133 bf16 per row; H100 run 29: 45 f32 per column, elements
  // 45-47 of every column). Loads are unaffected (zero fill is exact).
  [[nodiscard]] std::string store_error() const {
    if (!ok) return error;
    std::uint64_t const bytes = desc.dims[0] * std::uint64_t(desc.elem_bytes);
    if (bytes % 16 == 0) return {};
    return "make_tma_desc: a TMA store writes whole 16-byte units of the contiguous dimension: its extent of " +
           std::to_string(desc.dims[0]) + " elements (" + std::to_string(bytes) +
           " bytes) would let boxes at the edge overwrite " + std::to_string(16 - bytes % 16) +
           " bytes past it [store only to tensors whose contiguous extent is a multiple of 16 bytes]";
  }

  // The mode -> TMA coordinate permutation, as a kernel argument.
  [[nodiscard]] TmaCoordMap coord_map() const {
    TmaCoordMap m;
    m.rank = rank;
    for (int d = 0; d < TmaCoords::kMaxRank; ++d) m.mode_of_dim[d] = mode_of_dim[d] >= 0 ? mode_of_dim[d] : d;
    return m;
  }
  // TMA coordinates of the element at mode coordinates `mode_coord` (a tuple).
  // @law tma_coords(m)[d] == m[mode_of_dim[d]]
  template <class Coord>
  [[nodiscard]] TmaCoords tma_coords(Coord const& mode_coord) const {
    return coord_map()(mode_coord);
  }
};

namespace detail {

// What the smem layout says about swizzling: 0 plain, 1 Swizzle<B,M,S> o
// layout, 2 some other composed function (not TMA's), -1 not a layout.
template <class T>
struct tma_smem_kind : swizzle_of_layout<T> {
  static constexpr int kind = swizzle_of_layout<T>::swizzled ? 1
                              : is_composed_layout_v<T>      ? 2
                              : is_layout_v<T>               ? 0
                                                             : -1;
};

inline std::string tma_coord_string(int rank, const std::int64_t* c) {
  std::string s = "(";
  for (int i = 0; i < rank; ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + ")";
}

inline TmaPlan tma_fail(std::string msg) {
  TmaPlan p;
  p.error = "make_tma_desc: " + std::move(msg);
  return p;
}

// The byte offset TMA writes the box element at packed byte offset `x` to,
// for a swizzle of `bits` (0 none, 1/2/3 for 32B/64B/128B): bits [4, 4+B)
// take an XOR of bits [7, 7+B) (Swizzle<B,4,3> on bytes).
constexpr std::int64_t tma_swizzled_byte(std::int64_t x, int bits) {
  std::int64_t const mask = (std::int64_t(1) << bits) - 1;
  return x ^ (((x >> 7) & mask) << 4);
}

constexpr int tma_log2(int x) { return x == 1 ? 0 : x == 2 ? 1 : x == 4 ? 2 : x == 8 ? 3 : -1; }

}  // namespace detail

// The TMA tensor map for boxes of `smem_layout` of the global tensor
// `gmem_layout` at `gmem_base` (rules at the top of this file).
// @post ok => for every box coordinate c (in gmem mode order):
//       smem_layout(c) * sizeof(T) == the byte offset TMA writes element c to
// @post ok => desc.dims[d] == size of gmem mode mode_of_dim[d], desc.box[d] ==
//       size of smem mode mode_of_dim[d], desc.strides[d-1] == stride of gmem
//       mode mode_of_dim[d] * sizeof(T); dim_of_mode[mode_of_dim[d]] == d
// @post !ok => error names the broken rule
template <class T, class GLayout, class SLayout>
[[nodiscard]] TmaPlan make_tma_desc(const T* gmem_base, GLayout const& gmem_layout, SLayout const& smem_layout) {
  using Elem = std::remove_cv_t<T>;
  static_assert(tma_data_type<Elem>::known,
                "make_tma_desc: TMA has no data type for this element type [use a 1/2/4/8-byte integer, __half, "
                "__nv_bfloat16, half_t, bfloat16_t, float, double or tfloat32_t]");
  static_assert(is_layout_v<GLayout>, "make_tma_desc: gmem_layout must be a Layout");
  using SK = detail::tma_smem_kind<std::remove_cvref_t<SLayout>>;
  static_assert(SK::kind >= 0, "make_tma_desc: smem_layout must be a Layout or a ComposedLayout [Swizzle o Layout]");
  constexpr int E = int(sizeof(Elem));
  constexpr int R = std::remove_cvref_t<GLayout>::rank;
  constexpr int RS = std::remove_cvref_t<SLayout>::rank;

  if constexpr (R < 1 || R > 5) {
    return detail::tma_fail("gmem layout has rank " + std::to_string(R) + "; TMA tiles have rank 1 to 5");
  } else if constexpr (RS != R) {
    return detail::tma_fail("smem layout has rank " + std::to_string(RS) + ", the gmem layout " + std::to_string(R) +
                            " [one smem mode per gmem mode: the box extent along it]");
  } else {
    // Entries past R stay 1 / 0 (a box of extent 1 along an absent mode).
    std::int64_t gsize[5] = {1, 1, 1, 1, 1}, gstride[5] = {0, 0, 0, 0, 0}, box[5] = {1, 1, 1, 1, 1};
    bool nested[5] = {false, false, false, false, false};
    [&]<int... I>(std::integer_sequence<int, I...>) {
      auto one = [&]<int M>(C<M>) {
        using ModeShape = std::remove_cvref_t<decltype(shape<M>(gmem_layout))>;
        using ModeStride = std::remove_cvref_t<decltype(stride<M>(gmem_layout))>;
        if constexpr (is_tuple_v<ModeShape> || is_tuple_v<ModeStride>) {
          nested[M] = true;
        } else {
          gsize[M] = std::int64_t(shape<M>(gmem_layout));
          gstride[M] = std::int64_t(stride<M>(gmem_layout));
        }
        box[M] = std::int64_t(size<M>(smem_layout));
      };
      (one(C<I>{}), ...);
    }(std::make_integer_sequence<int, R>{});

    // --- gmem ----------------------------------------------------------------
    for (int m = 0; m < R; ++m)
      if (nested[m])
        return detail::tma_fail("gmem mode " + std::to_string(m) +
                                " is nested; TMA needs one size and one stride per mode [flatten or coalesce the "
                                "gmem layout]");
    int unit = -1;
    for (int m = 0; m < R; ++m) {
      if (gstride[m] != 1) continue;
      if (unit >= 0)
        return detail::tma_fail("gmem modes " + std::to_string(unit) + " and " + std::to_string(m) +
                                " both have stride 1; exactly one mode may be contiguous");
      unit = m;
    }
    if (unit < 0)
      return detail::tma_fail("no gmem mode has stride 1; TMA needs a contiguous innermost dimension");
    TmaPlan p;
    p.rank = R;
    p.mode_of_dim[0] = unit;
    for (int m = 0, d = 1; m < R; ++m)
      if (m != unit) p.mode_of_dim[d++] = m;
    for (int d = 0; d < R; ++d) p.dim_of_mode[p.mode_of_dim[d]] = d;
    for (int m = 0; m < R; ++m) {
      if (gsize[m] < 1 || gsize[m] > (std::int64_t(1) << 32))
        return detail::tma_fail("gmem mode " + std::to_string(m) + " has size " + std::to_string(gsize[m]) +
                                ", outside [1, 2^32]");
      if (m == unit) continue;
      if (gstride[m] <= 0)
        return detail::tma_fail("gmem mode " + std::to_string(m) + " has stride " + std::to_string(gstride[m]) +
                                "; TMA strides are positive");
      std::int64_t const bytes = gstride[m] * E;
      if (bytes % 16 != 0)
        return detail::tma_fail("gmem mode " + std::to_string(m) + " has stride " + std::to_string(gstride[m]) +
                                " elements = " + std::to_string(bytes) +
                                " bytes, not a multiple of 16 [pad the leading dimension]");
      if (bytes >= (std::int64_t(1) << 40))
        return detail::tma_fail("gmem mode " + std::to_string(m) + " has a stride of " + std::to_string(bytes) +
                                " bytes, not below 2^40");
    }
    if (gmem_base == nullptr) return detail::tma_fail("the gmem base pointer is null");
    if (reinterpret_cast<std::uintptr_t>(gmem_base) % 16 != 0)
      return detail::tma_fail("the gmem base pointer is not 16-byte aligned");

    // --- smem box ------------------------------------------------------------
    for (int m = 0; m < R; ++m)
      if (box[m] < 1 || box[m] > 256)
        return detail::tma_fail("smem mode " + std::to_string(m) + " (the box along gmem mode " + std::to_string(m) +
                                ") has size " + std::to_string(box[m]) + ", outside [1, 256]");
    // NOTE: 227 KiB is sm_90's largest shared memory per CTA (opt-in); five
    // extents of up to 256 could otherwise overflow box_bytes.
    std::int64_t const all_bytes = box[0] * box[1] * box[2] * box[3] * box[4] * E;
    if (all_bytes > 227 * 1024)
      return detail::tma_fail("the box is " + std::to_string(all_bytes) +
                              " bytes, more than the 232448 bytes (227 KiB) of shared memory a CTA can have");
    std::int64_t const inner_bytes = box[unit] * E;
    if (inner_bytes % 16 != 0)
      return detail::tma_fail("the box along the contiguous gmem mode " + std::to_string(unit) + " is " +
                              std::to_string(box[unit]) + " elements = " + std::to_string(inner_bytes) +
                              " bytes, not a multiple of 16");
    int swz_bits = 0;
    if constexpr (SK::kind == 2) {
      return detail::tma_fail("the smem layout is composed with a function that is not a Swizzle; TMA writes a "
                              "plain or Swizzle<B,M,3>-swizzled box");
    } else if constexpr (SK::kind == 1) {
      if (SK::bits != 0) {
        int const want_base = 4 - detail::tma_log2(E);
        if (SK::bits > 3 || SK::shift != 3 || SK::base != want_base)
          return detail::tma_fail("the smem swizzle Swizzle<" + std::to_string(SK::bits) + "," +
                                  std::to_string(SK::base) + "," + std::to_string(SK::shift) +
                                  "> is not a TMA swizzle for " + std::to_string(E) +
                                  "-byte elements [TMA's 32B/64B/128B modes are Swizzle<1|2|3," +
                                  std::to_string(want_base) + ",3> in elements, Swizzle<B,4,3> on bytes]");
        std::int64_t const width = std::int64_t(16) << SK::bits;
        if (inner_bytes != width)
          return detail::tma_fail(
              "the smem swizzle Swizzle<" + std::to_string(SK::bits) + "," + std::to_string(SK::base) + ",3> is TMA's " +
              std::to_string(width) + "B mode, whose rows span " + std::to_string(width) +
              " bytes, but the box along the contiguous gmem mode " + std::to_string(unit) + " is " +
              std::to_string(box[unit]) + " elements = " + std::to_string(inner_bytes) + " bytes [make that extent " +
              std::to_string(width / E) + " elements or pick the swizzle whose width it matches]");
        swz_bits = SK::bits;
      }
    }

    // --- the box image: smem_layout must be what TMA writes --------------------
    std::int64_t pitch[5] = {1, 1, 1, 1, 1};  // packed element offset of a step along TMA dimension d
    for (int d = 1; d < R; ++d) pitch[d] = pitch[d - 1] * box[p.mode_of_dim[d - 1]];
    auto const smem_offset = [&](std::int64_t const* c) {
      return [&]<int... I>(std::integer_sequence<int, I...>) { return std::int64_t(smem_layout(c[I]...)); }(
          std::make_integer_sequence<int, R>{});
    };
    // Every box coordinate c (gmem mode order), mode 0 fastest.
    std::int64_t c[5] = {0, 0, 0, 0, 0};
    for (bool more = true; more;) {
      std::int64_t packed = 0;
      for (int d = 0; d < R; ++d) packed += c[p.mode_of_dim[d]] * pitch[d];
      std::int64_t const want = detail::tma_swizzled_byte(packed * E, swz_bits);
      std::int64_t const have = smem_offset(c);
      if (have * E != want) {
        std::string hint = "[pack the box with gmem's stride-1 mode (mode " + std::to_string(unit) +
                           ") fastest, then the other modes in order, no padding";
        if (swz_bits != 0) hint += ", then the swizzle";
        hint += "]";
        return detail::tma_fail("smem layout is not the box TMA writes: element " + detail::tma_coord_string(R, c) +
                                " at offset " + std::to_string(have) + ", TMA writes it at " +
                                std::to_string(want / E) + " " + hint);
      }
      more = false;
      for (int m = 0; m < R && !more; ++m) {
        if (++c[m] < box[m]) more = true;
        else c[m] = 0;
      }
    }

    // --- the descriptor ------------------------------------------------------
    p.desc.type = tma_data_type<Elem>::value;
    p.desc.elem_bytes = E;
    p.desc.rank = R;
    p.desc.base = gmem_base;
    for (int d = 0; d < R; ++d) {
      p.desc.dims[d] = std::uint64_t(gsize[p.mode_of_dim[d]]);
      p.desc.box[d] = std::uint32_t(box[p.mode_of_dim[d]]);
    }
    for (int d = 1; d < R; ++d) p.desc.strides[d - 1] = std::uint64_t(gstride[p.mode_of_dim[d]] * E);
    p.desc.swizzle = swz_bits == 3   ? tma::Swizzle::b128
                     : swz_bits == 2 ? tma::Swizzle::b64
                     : swz_bits == 1 ? tma::Swizzle::b32
                                     : tma::Swizzle::none;
    p.box_bytes = std::uint32_t(all_bytes);
    p.smem_align = swz_bits == 0 ? 128u : (128u << swz_bits);
    p.ok = true;
    return p;
  }
}

// The same for a global tensor: make_tma_desc(make_tensor(make_gmem_ptr(p), layout), smem_layout).
template <class Engine, class GLayout, class SLayout>
[[nodiscard]] TmaPlan make_tma_desc(Tensor<Engine, GLayout> const& gmem_tensor, SLayout const& smem_layout) {
  using Iter = std::remove_cvref_t<decltype(gmem_tensor.data())>;
  static_assert(is_gmem_v<Iter>, "make_tma_desc: the tensor must view global memory [make_tensor(make_gmem_ptr(p), layout)]");
  auto const* p = raw_pointer_cast(gmem_tensor.data());
  return make_tma_desc(p, gmem_tensor.layout(), smem_layout);
}

namespace tma {

// Encodes a plan made by make_tma_desc (its error when it is not ok).
inline EncodeResult encode(CUtensorMap* out, TmaPlan const& plan) {
  if (!plan.ok) return {false, plan.error.empty() ? std::string("make_tma_desc: empty plan") : plan.error};
  return encode_tiled(out, plan.desc);
}

}  // namespace tma
}  // namespace tessera
