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
//   // (a nested gmem layout: plan.leaf_coord_map(), which takes the nested coordinates)
//   // in the kernel (tessera/tma/tma_coord.hpp), for tile (bm, bk):
//   //   TmaCoords c = coord_map(local_tile(make_tma_coord_tensor(make_shape(M, K)), shape(sA), make_coord(bm, bk))(0, 0));
//   //   arch::mbarrier_arrive_expect_tx(&bar, plan.box_bytes);  arch::tma_load_2d(smem, &tmap, &bar, c[0], c[1]);
//   //   then element (i, j) of the tile is smem[sA(i, j)].
//
// The rules, checked in this order (each failure names the rule, the mode and
// the value):
//   gmem   rank 1 to 5 (cuTensorMapEncodeTiled's ranks), at most 8 leaves.
//          A mode may be nested (hierarchical: M split as (2,64) in
//          ((2,64),K):((lda,2*lda),1)),
//          and is then flattened (below); a flat mode is one TMA dimension.
//          Exactly one dimension of stride 1 (it becomes TMA dimension 0, the
//          others follow in leaf order; a rank-1 tensor is that dimension
//          alone and has no other stride); every other stride positive,
//          stride * sizeof(T) a multiple of 16 and < 2^40; sizes in [1, 2^32];
//          the base pointer 16-byte aligned.
//   nested modes: the box's extent e along a nested mode of sub-modes (s0,
//          s1, ..., sn) must be a colexicographic prefix of them: e == s0 *
//          ... * s(j-1) * b with b dividing sj (j < n; the sub-modes after j
//          get a box of 1) or j == n (b any size: the box may reach past the
//          last sub-mode as it may past a flat mode). Each sub-mode is then
//          one TMA dimension whose box is its share b_i of e, except that
//            - a sub-mode of static size 1 is dropped (its coordinate is 0);
//            - sub-mode i+1 merges into sub-mode i's dimension when the
//              types prove them contiguous -- static size(i) * stride(i) ==
//              static stride(i+1) -- the box covers sub-mode i whole (b_i ==
//              s_i) and the merged box stays within 256; a chain merges on.
//          (Merges are decided from the types so that the TMA rank is static,
//          as the instruction needs; a run-time stride that happens to be
//          contiguous is not merged.) The dimensions then obey the rules
//          above, counted at most 5. Flat layouts get exactly the maps they
//          had before nested modes were accepted.
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
  int dim_of_mode[5] = {-1, -1, -1, -1, -1};  // TMA dimension of gmem mode m (-1: a nested mode that is
                                              // not exactly one dimension)
  int mode_of_dim[5] = {-1, -1, -1, -1, -1};  // gmem mode of TMA dimension d (dimension 0: the stride-1 mode;
                                              // several dimensions may share a nested mode)
  bool nested = false;             // some gmem mode has sub-modes (coordinates: leaf_coord_map)
  int leaves = 0;                  // the gmem layout's leaves (flattened modes), colexicographic order
  int dim_of_leaf[TmaLeafCoordMap::kMaxLeaves] = {-1, -1, -1, -1, -1, -1, -1, -1};  // -1: a dropped size-1 leaf
  std::int32_t weight_of_leaf[TmaLeafCoordMap::kMaxLeaves] = {1, 1, 1, 1, 1, 1, 1, 1};  // within its dimension
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
  // The hierarchical mode coordinate -> TMA coordinate map (every plan has
  // one; a flat plan's is coord_map() again, leaf l being mode l).
  [[nodiscard]] TmaLeafCoordMap leaf_coord_map() const {
    TmaLeafCoordMap m;
    m.rank = rank;
    m.leaves = leaves;
    for (int l = 0; l < TmaLeafCoordMap::kMaxLeaves; ++l) {
      m.dim_of_leaf[l] = dim_of_leaf[l];
      m.weight_of_leaf[l] = weight_of_leaf[l];
    }
    return m;
  }
  // TMA coordinates of the element at mode coordinates `mode_coord` (a tuple,
  // nested like the gmem shape for a nested plan).
  // @law flat plan: tma_coords(m)[d] == m[mode_of_dim[d]]
  // @law tma_coords(x) == leaf_coord_map()(x)
  template <class Coord>
  [[nodiscard]] TmaCoords tma_coords(Coord const& mode_coord) const {
    if constexpr (is_tuple_v<Coord>) {
      constexpr bool flat = []<int... I>(seq<I...>) {
        return (true && ... && !is_tuple_v<std::remove_cvref_t<decltype(get<I>(std::declval<Coord const&>()))>>);
      }(make_seq<tuple_size_v<Coord>>{});
      if constexpr (flat)
        if (!nested) return coord_map()(mode_coord);
    } else {
      if (!nested) return coord_map()(mode_coord);
    }
    return leaf_coord_map()(mode_coord);
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

// --- nested gmem modes -------------------------------------------------------
// A gmem layout's leaves: its modes flattened, colexicographic order, each
// with the top-level mode it belongs to. `*_known`: the value is static (part
// of the type), which is all the compile-time pass may use.
struct TmaGmemLeaves {
  static constexpr int kMax = TmaLeafCoordMap::kMaxLeaves;
  int n = 0;
  int mode[kMax] = {};
  std::int64_t size[kMax] = {}, stride[kMax] = {};
  bool size_known[kMax] = {}, stride_known[kMax] = {};
  bool nested[5] = {};          // the top-level mode has sub-modes
  int first[6] = {};            // mode m's leaves: [first[m], first[m + 1])
};

template <class GLayout>
inline constexpr int tma_leaf_count_v =
    tuple_size_v<std::remove_cvref_t<decltype(flatten_to_tuple(shape(std::declval<GLayout const&>())))>>;

template <class GLayout>
constexpr bool tma_gmem_nested() {
  using L = std::remove_cvref_t<GLayout>;
  return [&]<int... M>(seq<M...>) {
    return (false || ... ||
            (is_tuple_v<std::remove_cvref_t<decltype(shape<M>(std::declval<L const&>()))>> ||
             is_tuple_v<std::remove_cvref_t<decltype(stride<M>(std::declval<L const&>()))>>));
  }(make_seq<L::rank>{});
}

// The leaves of `g` (rank 1 to 5, at most TmaGmemLeaves::kMax leaves).
template <class GLayout>
constexpr TmaGmemLeaves tma_leaves(GLayout const& g) {
  constexpr int R = GLayout::rank;
  TmaGmemLeaves L;
  [&]<int... M>(seq<M...>) {
    auto one = [&]<int Mm>(C<Mm>) {
      auto const s = flatten_to_tuple(shape<Mm>(g));
      auto const d = flatten_to_tuple(stride<Mm>(g));
      using S = std::remove_cvref_t<decltype(s)>;
      using D = std::remove_cvref_t<decltype(d)>;
      static_assert(tuple_size_v<S> == tuple_size_v<D>, "make_tma_desc: a gmem mode's shape and stride differ in leaves");
      L.nested[Mm] = is_tuple_v<std::remove_cvref_t<decltype(shape<Mm>(g))>> ||
                     is_tuple_v<std::remove_cvref_t<decltype(stride<Mm>(g))>>;
      L.first[Mm] = L.n;
      [&]<int... I>(seq<I...>) {
        ((L.mode[L.n] = Mm, L.size[L.n] = std::int64_t(get<I>(s)), L.stride[L.n] = std::int64_t(get<I>(d)),
          L.size_known[L.n] = is_static_v<std::remove_cvref_t<decltype(get<I>(s))>>,
          L.stride_known[L.n] = is_static_v<std::remove_cvref_t<decltype(get<I>(d))>>, ++L.n),
         ...);
      }(make_seq<tuple_size_v<S>>{});
    };
    (one(C<M>{}), ...);
  }(make_seq<R>{});
  for (int m = R; m <= 5; ++m) L.first[m] = L.n;
  return L;
}

// Cuts the box extent `e` along a mode whose leaves have sizes sz[0..n)
// into the box along each leaf: the extent must be whole leaves, inner ones
// first (colexicographic), times a divisor of the next leaf's size (all of
// the last leaf's, which may reach past its size as a flat box may); the
// leaves after that get 1. A size <= 0 or e < 0 is unknown (the compile-time
// pass): box[i] = -1 for the leaves it leaves unknown.
// @post true => box[i] * ... composes e: e == prod box[i], box[i] == sz[i]
//       before the cut leaf, sz[cut] % box[cut] == 0 unless it is the last
// @return false when e is not such a prefix
constexpr bool tma_split_extent(std::int64_t e, std::int64_t const* sz, int n, std::int64_t* box) {
  std::int64_t p = e < 0 ? -1 : 1;  // elements of the whole leaves so far; -1 unknown
  for (int i = 0; i < n; ++i) {
    if (p < 0) {
      box[i] = -1;
    } else if (i == n - 1) {
      if (e % p != 0) return false;
      box[i] = e / p;
    } else if (sz[i] <= 0) {
      box[i] = -1;
      p = -1;
    } else if (e % (p * sz[i]) == 0) {
      box[i] = sz[i];
      p *= sz[i];
    } else {
      if (e % p != 0) return false;
      std::int64_t const b = e / p;
      if (sz[i] % b != 0) return false;
      box[i] = b;
      for (int j = i + 1; j < n; ++j) box[j] = 1;
      return true;
    }
  }
  return true;
}

// Which leaves become TMA dimensions, decided from the types alone (so that
// the TMA rank is static, as the instruction form needs):
//   - a leaf of static size 1 inside a nested mode is dropped (its
//     coordinate is always 0);
//   - the next kept leaf of the same nested mode is merged into the
//     dimension of leaf l when it is contiguous with it -- static size(l) *
//     stride(l) == static stride(next) -- and the box covers leaf l whole
//     (static box == size(l)) and the merged box stays <= 256;
//   - every other leaf (each flat mode among them) is its own dimension.
// Flat layouts get one dimension per mode, in mode order: what they had
// before nested modes were accepted.
struct TmaLeafPlan {
  bool drop[TmaGmemLeaves::kMax] = {};
  bool merge_next[TmaGmemLeaves::kMax] = {};  // the next kept leaf joins this leaf's dimension
  int rank = 0;                           // dimensions (kept leaves - merges)
  int bad_mode = -1;                      // a nested mode whose static box extent is no prefix of its sub-modes
};

// The static smem mode sizes (the box's extents); -1 where run-time.
template <class S, int... M>
constexpr void tma_static_extents(std::int64_t* ext, seq<M...>) {
  ((ext[M] = is_static_v<std::remove_cvref_t<decltype(size<M>(std::declval<S const&>()))>>
                 ? std::int64_t(std::remove_cvref_t<decltype(size<M>(std::declval<S const&>()))>{})
                 : -1),
   ...);
}

template <class GLayout, class SLayout>
constexpr TmaLeafPlan tma_leaf_plan() {
  using G = std::remove_cvref_t<GLayout>;
  using S = std::remove_cvref_t<SLayout>;
  constexpr int R = G::rank;
  TmaLeafPlan P;
  TmaGmemLeaves const L = tma_leaves(G{});
  std::int64_t box[TmaGmemLeaves::kMax] = {};
  for (int l = 0; l < L.n; ++l) box[l] = -1;
  if constexpr (S::rank == R) {
    std::int64_t ext[5] = {-1, -1, -1, -1, -1};
    tma_static_extents<S>(ext, make_seq<R>{});
    for (int m = 0; m < R; ++m) {
      if (!L.nested[m]) continue;
      std::int64_t sz[TmaGmemLeaves::kMax] = {};
      int const f = L.first[m], n = L.first[m + 1] - f;
      for (int i = 0; i < n; ++i) sz[i] = L.size_known[f + i] ? L.size[f + i] : -1;
      std::int64_t b[TmaGmemLeaves::kMax] = {};
      if (tma_split_extent(ext[m], sz, n, b))
        for (int i = 0; i < n; ++i) box[f + i] = b[i];
      else if (P.bad_mode < 0)
        P.bad_mode = m;
    }
  }
  for (int l = 0; l < L.n; ++l) P.drop[l] = L.nested[L.mode[l]] && L.size_known[l] && L.size[l] == 1;
  std::int64_t group_box = 0;  // the box of the dimension being built
  int prev = -1;               // its last kept leaf, while it may still merge
  for (int l = 0; l < L.n; ++l) {
    if (P.drop[l]) continue;
    bool const joins = prev >= 0 && L.mode[prev] == L.mode[l] && L.nested[L.mode[l]] && L.size_known[prev] &&
                       L.stride_known[prev] && L.stride_known[l] && L.size[prev] * L.stride[prev] == L.stride[l] &&
                       box[prev] == L.size[prev] && box[l] > 0 && group_box > 0 &&
                       group_box * box[l] <= 256;
    if (joins) {
      P.merge_next[prev] = true;
      group_box *= box[l];
    } else {
      ++P.rank;
      group_box = box[l];
    }
    prev = l;
  }
  return P;
}

// The leaf plan of a (gmem, smem) pair make_tma_desc can take (gmem rank 1
// to 5, at most 8 leaves, smem of the same rank); an empty plan otherwise,
// which make_tma_desc refuses at run time.
template <class GLayout, class SLayout>
constexpr TmaLeafPlan tma_leaf_plan_if_valid() {
  constexpr int R = std::remove_cvref_t<GLayout>::rank;
  if constexpr (R >= 1 && R <= 5 && tma_leaf_count_v<GLayout> <= TmaGmemLeaves::kMax &&
                std::remove_cvref_t<SLayout>::rank == R)
    return tma_leaf_plan<GLayout, SLayout>();
  else
    return TmaLeafPlan{};
}

// "gmem mode 1", or for a dimension made of sub-modes of a nested mode,
// "gmem mode 0's sub-mode 1" / "gmem mode 0's sub-modes 0-1".
inline std::string tma_dim_name(TmaGmemLeaves const& L, int first_leaf, int last_leaf) {
  int const m = L.mode[first_leaf];
  std::string s = "gmem mode " + std::to_string(m);
  if (!L.nested[m]) return s;
  int const a = first_leaf - L.first[m], b = last_leaf - L.first[m];
  return s + "'s sub-mode" + (a == b ? " " + std::to_string(a) : "s " + std::to_string(a) + "-" + std::to_string(b));
}

}  // namespace detail

// The TMA tensor map for boxes of `smem_layout` of the global tensor
// `gmem_layout` at `gmem_base` (rules at the top of this file).
// @post ok => for every box coordinate c (in gmem mode order):
//       smem_layout(c) * sizeof(T) == the byte offset TMA writes element c to
// @post ok, flat gmem => desc.dims[d] == size of gmem mode mode_of_dim[d],
//       desc.box[d] == size of smem mode mode_of_dim[d], desc.strides[d-1] ==
//       stride of gmem mode mode_of_dim[d] * sizeof(T); dim_of_mode[mode_of_dim[d]] == d
// @post ok => for every gmem coordinate x (hierarchical, congruent with the
//       shape): gmem_layout(x) == sum_d tma_coords(x)[d] * (d ? desc.strides[d-1] / sizeof(T) : 1),
//       and 0 <= tma_coords(x)[d] < desc.dims[d]
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
  } else if constexpr (detail::tma_leaf_count_v<GLayout> > detail::TmaGmemLeaves::kMax) {
    return detail::tma_fail("gmem layout has " + std::to_string(detail::tma_leaf_count_v<GLayout>) +
                            " leaves (flattened modes); at most 8 are taken [coalesce the gmem layout]");
  } else {
    using detail::TmaGmemLeaves;
    constexpr int kMaxL = TmaGmemLeaves::kMax;
    constexpr detail::TmaLeafPlan LP = detail::tma_leaf_plan<GLayout, SLayout>();
    TmaGmemLeaves const L = detail::tma_leaves(gmem_layout);
    std::int64_t ext[5] = {1, 1, 1, 1, 1};  // the box's extent along each gmem mode (smem mode sizes)
    [&]<int... I>(std::integer_sequence<int, I...>) {
      ((ext[I] = std::int64_t(size<I>(smem_layout))), ...);
    }(std::make_integer_sequence<int, R>{});

    // --- gmem leaves -> TMA dimensions (groups of leaves) ---------------------
    for (int l = 0; l < L.n; ++l)
      if (L.nested[L.mode[l]] && (L.size[l] < 1 || L.size[l] > (std::int64_t(1) << 32)))
        return detail::tma_fail("gmem mode " + std::to_string(L.mode[l]) + "'s sub-mode " +
                                std::to_string(l - L.first[L.mode[l]]) + " has size " + std::to_string(L.size[l]) +
                                ", outside [1, 2^32]");
    std::int64_t leaf_box[kMaxL] = {};
    for (int m = 0; m < R; ++m) {
      int const f = L.first[m], n = L.first[m + 1] - f;
      if (!L.nested[m]) {
        leaf_box[f] = ext[m];
        continue;
      }
      if (!detail::tma_split_extent(ext[m], L.size + f, n, leaf_box + f)) {
        std::string subs;
        for (int i = 0; i < n; ++i) subs += (i ? ", " : "") + std::to_string(L.size[f + i]);
        return detail::tma_fail("the box along nested gmem mode " + std::to_string(m) + " is " +
                                std::to_string(ext[m]) + " elements, not a colexicographic prefix of its sub-modes (" +
                                subs + ") [a tile along a nested mode covers whole inner sub-modes, then a divisor of "
                                "the next sub-mode's size]");
      }
    }
    // Groups: a TMA dimension each, in leaf order before the stride-1 one is
    // moved to the front.
    int G = 0;
    int g_first[kMaxL] = {}, g_last[kMaxL] = {}, g_mode[kMaxL] = {};
    std::int64_t gsize[kMaxL] = {}, gstride[kMaxL] = {}, box[kMaxL] = {};
    int group_of_leaf[kMaxL] = {-1, -1, -1, -1, -1, -1, -1, -1};
    std::int64_t weight_of_leaf[kMaxL] = {1, 1, 1, 1, 1, 1, 1, 1};
    for (int l = 0, open = -1; l < L.n; ++l) {
      if (LP.drop[l]) continue;
      if (open >= 0) {  // l joins the group of the previous kept leaf
        int const g = G - 1;
        weight_of_leaf[l] = gsize[g];
        gsize[g] *= L.size[l];
        box[g] *= leaf_box[l];
        g_last[g] = l;
      } else {
        if (G == kMaxL) break;
        g_first[G] = g_last[G] = l;
        g_mode[G] = L.mode[l];
        gsize[G] = L.size[l];
        gstride[G] = L.stride[l];
        box[G] = leaf_box[l];
        ++G;
      }
      group_of_leaf[l] = G - 1;
      open = LP.merge_next[l] ? l : -1;
    }
    auto const name = [&](int g) { return detail::tma_dim_name(L, g_first[g], g_last[g]); };
    if (G < 1 || G > 5)
      return detail::tma_fail("the gmem layout flattens to " + std::to_string(G) +
                              " TMA dimensions (one per sub-mode of a nested mode, contiguous sub-modes the box "
                              "covers merged); TMA tiles have rank 1 to 5");

    // --- gmem ----------------------------------------------------------------
    int unit = -1;
    for (int g = 0; g < G; ++g) {
      if (gstride[g] != 1) continue;
      if (unit >= 0)
        return detail::tma_fail(L.n == R ? "gmem modes " + std::to_string(g_mode[unit]) + " and " +
                                               std::to_string(g_mode[g]) +
                                               " both have stride 1; exactly one mode may be contiguous"
                                         : name(unit) + " and " + name(g) +
                                               " both have stride 1; exactly one may be contiguous");
      unit = g;
    }
    if (unit < 0)
      return detail::tma_fail("no gmem mode has stride 1; TMA needs a contiguous innermost dimension");
    TmaPlan p;
    p.rank = G;
    p.nested = L.n != R;
    int group_of_dim[5] = {unit, -1, -1, -1, -1};
    for (int g = 0, d = 1; g < G; ++g)
      if (g != unit) group_of_dim[d++] = g;
    int dim_of_group[kMaxL] = {};
    for (int d = 0; d < G; ++d) {
      dim_of_group[group_of_dim[d]] = d;
      p.mode_of_dim[d] = g_mode[group_of_dim[d]];
    }
    for (int m = 0; m < R; ++m) {  // the TMA dimension of a mode that is exactly one dimension
      int count = 0, dim = -1;
      for (int g = 0; g < G; ++g)
        if (g_mode[g] == m) ++count, dim = dim_of_group[g];
      p.dim_of_mode[m] = count == 1 ? dim : -1;
    }
    p.leaves = L.n;
    for (int l = 0; l < L.n; ++l) {
      p.dim_of_leaf[l] = group_of_leaf[l] >= 0 ? dim_of_group[group_of_leaf[l]] : -1;
      p.weight_of_leaf[l] = std::int32_t(weight_of_leaf[l]);
    }
    for (int g = 0; g < G; ++g) {
      if (gsize[g] < 1 || gsize[g] > (std::int64_t(1) << 32))
        return detail::tma_fail(name(g) + " has size " + std::to_string(gsize[g]) + ", outside [1, 2^32]");
      if (g == unit) continue;
      if (gstride[g] <= 0)
        return detail::tma_fail(name(g) + " has stride " + std::to_string(gstride[g]) + "; TMA strides are positive");
      std::int64_t const bytes = gstride[g] * E;
      if (bytes % 16 != 0)
        return detail::tma_fail(name(g) + " has stride " + std::to_string(gstride[g]) + " elements = " +
                                std::to_string(bytes) + " bytes, not a multiple of 16 [pad the leading dimension]");
      if (bytes >= (std::int64_t(1) << 40))
        return detail::tma_fail(name(g) + " has a stride of " + std::to_string(bytes) + " bytes, not below 2^40");
    }
    if (gmem_base == nullptr) return detail::tma_fail("the gmem base pointer is null");
    if (reinterpret_cast<std::uintptr_t>(gmem_base) % 16 != 0)
      return detail::tma_fail("the gmem base pointer is not 16-byte aligned");

    // --- smem box ------------------------------------------------------------
    for (int g = 0; g < G; ++g)
      if (box[g] < 1 || box[g] > 256)
        return detail::tma_fail(
            L.nested[g_mode[g]]
                ? "the box along " + name(g) + " is " + std::to_string(box[g]) + " elements, outside [1, 256]"
                : "smem mode " + std::to_string(g_mode[g]) + " (the box along gmem mode " + std::to_string(g_mode[g]) +
                      ") has size " + std::to_string(box[g]) + ", outside [1, 256]");
    // NOTE: 227 KiB is sm_90's largest shared memory per CTA (opt-in); five
    // extents of up to 256 could otherwise overflow box_bytes.
    std::int64_t all_bytes = E;
    for (int g = 0; g < G; ++g) all_bytes *= box[g];
    if (all_bytes > 227 * 1024)
      return detail::tma_fail("the box is " + std::to_string(all_bytes) +
                              " bytes, more than the 232448 bytes (227 KiB) of shared memory a CTA can have");
    std::int64_t const inner_bytes = box[unit] * E;
    std::string const unit_name = L.nested[g_mode[unit]] ? name(unit) : "gmem mode " + std::to_string(g_mode[unit]);
    if (inner_bytes % 16 != 0)
      return detail::tma_fail("the box along the contiguous " + unit_name + " is " + std::to_string(box[unit]) +
                              " elements = " + std::to_string(inner_bytes) + " bytes, not a multiple of 16");
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
              " bytes, but the box along the contiguous " + unit_name + " is " + std::to_string(box[unit]) +
              " elements = " + std::to_string(inner_bytes) + " bytes [make that extent " +
              std::to_string(width / E) + " elements or pick the swizzle whose width it matches]");
        swz_bits = SK::bits;
      }
    }

    // --- the box image: smem_layout must be what TMA writes --------------------
    std::int64_t pitch[5] = {1, 1, 1, 1, 1};  // packed element offset of a step along TMA dimension d
    for (int d = 1; d < G; ++d) pitch[d] = pitch[d - 1] * box[group_of_dim[d - 1]];
    auto const smem_offset = [&](std::int64_t const* c) {
      return [&]<int... I>(std::integer_sequence<int, I...>) { return std::int64_t(smem_layout(c[I]...)); }(
          std::make_integer_sequence<int, R>{});
    };
    // Every box coordinate c (gmem mode order), mode 0 fastest. A nested
    // mode's coordinate splits over its leaves' boxes (colexicographic); a
    // leaf lands on its dimension scaled by its weight (within a merged
    // dimension the leaves before it are whole, so box and gmem weights agree).
    std::int64_t c[5] = {0, 0, 0, 0, 0};
    for (bool more = true; more;) {
      std::int64_t packed = 0;
      for (int m = 0; m < R; ++m) {
        std::int64_t rest = c[m];
        for (int l = L.first[m]; l < L.first[m + 1]; ++l) {
          std::int64_t const x = l + 1 < L.first[m + 1] ? rest % leaf_box[l] : rest;
          rest = l + 1 < L.first[m + 1] ? rest / leaf_box[l] : 0;
          if (group_of_leaf[l] >= 0) packed += x * weight_of_leaf[l] * pitch[dim_of_group[group_of_leaf[l]]];
        }
      }
      std::int64_t const want = detail::tma_swizzled_byte(packed * E, swz_bits);
      std::int64_t const have = smem_offset(c);
      if (have * E != want) {
        std::string hint = "[pack the box with gmem's stride-1 " +
                           (p.nested ? name(unit) : "mode (mode " + std::to_string(g_mode[unit]) + ")") +
                           " fastest, then the other " + (p.nested ? "sub-modes" : "modes") + " in order, no padding";
        if (swz_bits != 0) hint += ", then the swizzle";
        hint += "]";
        return detail::tma_fail("smem layout is not the box TMA writes: element " + detail::tma_coord_string(R, c) +
                                " at offset " + std::to_string(have) + ", TMA writes it at " +
                                std::to_string(want / E) + " " + hint);
      }
      more = false;
      for (int m = 0; m < R && !more; ++m) {
        if (++c[m] < ext[m]) more = true;
        else c[m] = 0;
      }
    }

    // --- the descriptor ------------------------------------------------------
    p.desc.type = tma_data_type<Elem>::value;
    p.desc.elem_bytes = E;
    p.desc.rank = G;
    p.desc.base = gmem_base;
    // G <= 5 was checked above; the explicit bound is for GCC, whose
    // -Waggressive-loop-optimizations does not carry that check this far
    // (it warned "iteration 4 invokes undefined behavior" here).
    for (int d = 0; d < G && d < 5; ++d) {
      p.desc.dims[d] = std::uint64_t(gsize[group_of_dim[d]]);
      p.desc.box[d] = std::uint32_t(box[group_of_dim[d]]);
    }
    for (int d = 1; d < G; ++d) p.desc.strides[d - 1] = std::uint64_t(gstride[group_of_dim[d]] * E);
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
