// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CuTe's names for TMA loads and stores, loads in the form seed 002 writes
// them:
//
//   // host: a (M,K) row-major bf16 A, boxes of 128x64 in the 128B swizzle
//   using SmemLayoutA = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}));
//   auto tma_load_A = make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr(A), make_layout(make_shape(M, K), make_stride(K, _1{}))),
//                                   SmemLayoutA{}, make_shape(_128{}, _64{}), _1{});
//   if (!tma_load_A.ok()) return fail(tma_load_A.error());
//   kernel<<<grid, block, smem>>>(tma_load_A, ...);
//
//   // device: the parameter is `__grid_constant__ const` (the TMA unit reads
//   // the map where the kernel's parameters live)
//   __global__ void kernel(__grid_constant__ const TmaA tma_load_A, ...) {
//     if (threadIdx.x == 0) {
//       mbarrier_arrive_expect_tx(&mbar, tma_load_A.box_bytes());
//       copy(tma_load_A.with(mbar), make_coord(m0, k0), sA);   // the box whose first element is (m0, k0)
//       // or, as the seed's first snippet writes it: copy(tma_load_A, make_coord(m0, k0), sA, &mbar);
//     }
//     mbarrier_wait(&mbar, phase);
//
//   prefetch_tma_descriptor(tma.get_tma_descriptor())   optional, before the first copy
//   make_tma_atom(op, gmem, smem_layout, cta_tile, cluster_size)   CuTe's other name, the same copy
//   prefetch(tma, coord) / prefetch(tma, tAgA(_, k))   the tile into L2 ahead of its load (a hint)
//
//   // an L2 cache policy on a load or prefetch (CuTe's cache_hint argument;
//   // L2CachePolicy, tensor/cache_policy.hpp): .L2::cache_hint forms, same data
//   L2CachePolicy const keep = make_l2_cache_policy<L2Priority::evict_last>();
//   copy(tma_load_A.with(mbar, keep), make_coord(m0, k0), sA);       // SM90_TMA_LOAD
//   copy(tma_load_B.with(mbar, cta_mask, keep), tBgB(_, k), tBsB(_, stage));   // SM90_TMA_LOAD_MULTICAST
//   prefetch(tma_load_A, tAgA(_, k + 1), keep);
//   A store takes no hint (with(mbar, hint) on one fails the build, as with(mbar) does).
//
//   // or CuTe's partitioned form (see tma_partition below):
//   auto [tAgA, tAsA] = tma_partition(tma_load_A, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sA),
//                                     group_modes<0, 2>(gA));   // gA: local_tile of get_tma_tensor(shape)
//   copy(tma_load_A.with(mbar), tAgA(_, k), tAsA(_, stage));
//
//   SM90_TMA_LOAD              one CTA loads the box into its own shared memory
//   SM90_TMA_LOAD_MULTICAST    copy(tma.with(mbar, cta_mask), ...) from one CTA
//                              writes the box into every CTA of the cluster in
//                              cta_mask, at the same shared offset, and signals
//                              each one's barrier at mbar's offset (maps of
//                              rank 1 to 5, as every TMA copy here).
//                              create_tma_multicast_mask<Modes...>(cluster_layout,
//                              cta_coord) makes the mask (multicast_mask.hpp).
//                              Made with a static Int<N>, the copy can also
//                              load one N-th of the box per CTA, CuTe's form
//                              (tma_partition with a cluster layout of N, or
//                              get_slice(t); tessera/tma/tma_slice.hpp):
//     auto [tAgA, tAsA] = tma_partition(tma_load_A, block_rank_in_cluster(), Layout<_2>{},
//                                       group_modes<0, 2>(sA), group_modes<0, 2>(gA));
//     mbarrier_arrive_expect_tx(&mbar, tma_load_A.box_bytes());   // both halves land in every CTA
//     copy(tma_load_A.with(mbar, 0b11), tAgA(_, k), tAsA(_, stage));
//   SM90_TMA_STORE             copy(tma_store, sD, make_coord(m0, n0)) writes
//                              the box in sD into the global tensor (clipped at
//                              its edges), in the issuing thread's bulk group
//   SM90_TMA_REDUCE_ADD        the same, adding into it (f32/s32/u32)
//
//   // the epilogue: every writer of sD fences, then one thread stores
//   ... write sD ...;  tma_store_fence();  __syncthreads();
//   if (threadIdx.x == 0) {
//     copy(tma_store_D, sD, make_coord(m0, n0));
//     tma_store_arrive();      // close the bulk group
//     tma_store_wait<0>();     // sD may be rewritten once its reads are done
//   }
//
// make_tma_copy(op, gmem_tensor, smem_layout, cta_tile, multicast) checks its
// arguments (cta_tile and multicast may be left out, as in CuTe: the tile
// is then the smem layout's shape, multicast 1) with make_tma_desc's rules (tessera/tma/make_tma_desc.hpp) plus
// these: cta_tile is the smem layout's shape; multicast is 1 for
// SM90_TMA_LOAD and the stores, 1..16 for SM90_TMA_LOAD_MULTICAST; a store's
// contiguous extent is whole 16-byte units. A tile too large for one box
// is copied as 2-16 contiguous boxes (tma_boxes_v: the same cut as the
// multicast slices), or, when its pieces interleave along both modes (an
// M/N-major tile with its atoms stacked along M/N first, CuTe's default
// tile_to_shape order), as a grid of up to 64 boxes, one TMA instruction
// each per copy. With a
// static multicast N > 1 whose box cuts into N slices, it also makes the
// slices' map; if that fails (a slice breaking a TMA rule the box keeps),
// whole-box copies still work and slice_error() says why. It never throws:
// ok() says whether the map is usable and error() why not. The copy checks
// on the device that the map lives in parameter or global space, that the
// copy is valid and that the box's shared address has the alignment the
// swizzle needs; a violation traps rather than loading garbage (debug
// builds, without NDEBUG, print the rule first). The smem tensor passed to
// copy must have the layout the copy was made for, or for a slice the
// slice's layout (compared at compile time after coalescing).
// Host side needs <cuda.h> and the tessera_runtime library (tma::encode);
// the copy itself needs sm_90 and fails the build on older targets.

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>

#include <tessera/layout.hpp>
#include <tessera/tensor.hpp>
#include <tessera/tensor/cache_policy.hpp>
#include <tessera/tma/make_tma_desc.hpp>
#include <tessera/tma/multicast_mask.hpp>
#include <tessera/tma/tensor_map.hpp>
#include <tessera/tma/tma_coord.hpp>
#include <tessera/tma/tma_slice.hpp>

#if defined(__CUDACC__)
#include <tessera/arch/sm90/fence.cuh>
#include <tessera/arch/sm90/tma.cuh>
#endif

namespace tessera {

struct SM90_TMA_LOAD {};
struct SM90_TMA_LOAD_MULTICAST {};
struct SM90_TMA_STORE {};
struct SM90_TMA_REDUCE_ADD {};

namespace detail {
template <class Op>
inline constexpr bool is_tma_store_op_v = std::is_same_v<Op, SM90_TMA_STORE> || std::is_same_v<Op, SM90_TMA_REDUCE_ADD>;
}  // namespace detail

template <class Copy, bool kCacheHint = false>
struct TmaCopyWith;
template <class Copy>
struct TmaCopySlice;

namespace detail {

// The second map of a copy whose box is also loaded in multicast slices
// (see tma_slice.hpp): boxes of one slice, same tensor, same swizzle.
// (A base, not a member, so that it takes no space when empty.)
template <int Slices>
struct TmaSliceMap {
  CUtensorMap slice_tmap_{};
  bool slice_ok_ = false;
};
template <>
struct TmaSliceMap<1> {};

// Whether the N multicast slices of a tile of several boxes (its
// tma_slice_mode_v cut) are each whole consecutive boxes: the slices cut
// the mode the boxes advance along last (mode[1] of a grid cut, mode[0] of
// a one-mode cut), and N divides the boxes along it. Each CTA then loads
// its slice's boxes through the tile's own map.
template <class SmemLayout, class T, int N>
constexpr bool tma_slices_of_whole_boxes() {
  constexpr TmaBoxCut cut = tma_box_cut_v<SmemLayout, T>;
  constexpr int J = tma_slice_mode_v<SmemLayout, N>;
  if (N <= 1 || cut.boxes <= 1 || J < 0) return false;
  bool const grid = cut.count < cut.boxes;
  int const along = grid ? cut.boxes / cut.count : cut.boxes;
  return J == (grid ? cut.mode[1] : cut.mode[0]) && along % N == 0;
}

// How many multicast slices make_tma_copy builds: N for a multicast load
// made with a static Int<N> (N > 1) whose box cuts into N slices (a tile of
// several boxes: into N slices of whole boxes, or of one box each), else 1.
template <class Op, class T, class SmemLayout, class Multicast>
constexpr int tma_copy_slices() {
  if constexpr (std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST> && is_static_v<Multicast>) {
    constexpr int n = int(Multicast::value);
    if constexpr (n > 1 && n <= 16) {
      if constexpr (tma_slice_mode_v<SmemLayout, n> >= 0) {
        if constexpr (tma_boxes_v<SmemLayout, T> == 1) return n;
        else if constexpr (tma_slices_of_whole_boxes<SmemLayout, T, n>()) return n;
        else if constexpr (tma_piece_fits<tma_slice_layout_t<SmemLayout, n>, T>()) return n;
      }
    }
  }
  return 1;
}

}  // namespace detail

// A tensor map for boxes of SmemLayout's shape, trivially copyable so it
// can be a kernel argument (declare it `__grid_constant__ const`). Slices >
// 1 (a multicast load made with a static Int<Slices>): it also holds the map
// of one Slices-th of the box, which CuTe's multicast form loads from each
// CTA of the cluster (tma_partition with a cluster layout, get_slice(t)).
// NestedRank > 0: the copy of a global tensor with nested modes, whose map
// has that many TMA dimensions (make_tma_desc's flattening) and whose
// coordinates are nested like the tensor's shape (a TmaLeafCoordMap).
template <class Op, class T, class SmemLayout, int Slices = 1, int NestedRank = 0>
struct TmaCopy : detail::TmaSliceMap<Slices> {
  static_assert(std::is_same_v<Op, SM90_TMA_LOAD> || std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST> ||
                    detail::is_tma_store_op_v<Op>,
                "TmaCopy: the operation must be SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST, SM90_TMA_STORE or "
                "SM90_TMA_REDUCE_ADD");
  static_assert(Slices == 1 || (std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST> && tma_slice_mode_v<SmemLayout, Slices> >= 0),
                "TmaCopy: only a SM90_TMA_LOAD_MULTICAST copy whose box cuts into Slices contiguous slices has slices");
  using value_type = T;
  using smem_layout = SmemLayout;
  // TMA boxes per tile (tma_boxes_v): 1, or the contiguous pieces of a tile
  // too large for one box, which each copy issues one instruction apiece
  // (where: tma_box_cut_v; kPieceCount pieces along the first TMA dimension
  // that advances).
  static constexpr int kBoxes = tma_boxes_v<SmemLayout, T>;
  // The tensor map's rank (1 to 5): the box's, which make_tma_copy checks
  // equals the global tensor's; each copy issues TMA instructions of it.
  // A global tensor with nested modes: NestedRank, the flattened rank.
  static constexpr int kRank = NestedRank > 0 ? NestedRank : decltype(rank(SmemLayout{}))::value;
  static_assert(kRank >= 1 && kRank <= 5, "TmaCopy: TMA maps have rank 1 to 5");
  static constexpr int kPieceCount = tma_box_cut_v<SmemLayout, T>.count;
  // Multicast slices that are whole boxes of the tile (loaded through the
  // tile's map, kBoxes / Slices per slice), rather than one sub-box each
  // (loaded through the slices' own map).
  static constexpr bool kSlicesOfBoxes = detail::tma_slices_of_whole_boxes<SmemLayout, T, Slices>();

  CUtensorMap tmap_{};  // 64-byte aligned by its own declaration
  std::conditional_t<NestedRank == 0, TmaCoordMap, TmaLeafCoordMap> coords_{};
  std::uint32_t box_bytes_ = 0;        // the whole tile
  std::uint32_t piece_bytes_ = 0;      // one box (kBoxes > 1)
  // box t starts (t % kPieceCount) * piece_step_[0] along TMA dimension
  // piece_dim_[0] and (t / kPieceCount) * piece_step_[1] along piece_dim_[1]
  int piece_dim_[2] = {0, 0}, piece_step_[2] = {0, 0};
  std::uint32_t smem_align_mask_ = 0;  // the box's alignment - 1 (a power of two: 128 << swizzle bits)
  int multicast_ = 1;
  bool valid_ = false;
  char error_[224] = {};

  [[nodiscard]] TESSERA_HOST_DEVICE bool ok() const { return valid_; }
  // Why make_tma_copy failed ("" when ok()).
  [[nodiscard]] TESSERA_HOST_DEVICE char const* error() const { return valid_ ? "" : error_; }
  // The number of multicast slices the box is also loaded in (1: whole
  // boxes only), and whether their map could be made (slice_error() says
  // why not; whole-box copies work either way).
  [[nodiscard]] static constexpr int slices() { return Slices; }
  [[nodiscard]] TESSERA_HOST_DEVICE bool slices_ok() const {
    if constexpr (Slices > 1) return valid_ && this->slice_ok_;
    else return valid_;
  }
  [[nodiscard]] TESSERA_HOST_DEVICE char const* slice_error() const { return valid_ && !slices_ok() ? error_ : ""; }
  // CuTe's per-CTA view of the copy: slice t of each box (t = 0 for whole
  // boxes). partition_S / partition_D tile a tensor by the box.
  [[nodiscard]] TESSERA_HOST_DEVICE TmaCopySlice<TmaCopy> get_slice(int t) const { return {t}; }
  // Bytes of one tile (for a load: what one copy writes into one CTA, the
  // mbarrier transaction count; kBoxes boxes of it).
  [[nodiscard]] TESSERA_HOST_DEVICE std::uint32_t box_bytes() const { return box_bytes_; }
  [[nodiscard]] TESSERA_HOST_DEVICE int multicast() const { return multicast_; }
  [[nodiscard]] TESSERA_HOST_DEVICE CUtensorMap const* get_tma_descriptor() const { return &tmap_; }
  // CuTe's coordinate tensor of the global tensor the map was made from:
  // element c is the mode coordinate c (make_tma_coord_tensor). Tile it like
  // the data (local_tile) and partition it with tma_partition.
  template <class ShapeT>
  [[nodiscard]] TESSERA_HOST_DEVICE auto get_tma_tensor(ShapeT const& shape) const {
    return make_tma_coord_tensor(shape);
  }

  // The copy bound to the mbarrier its bytes complete on (and, multicast,
  // the cluster CTAs that receive the box).
  TESSERA_HOST_DEVICE TmaCopyWith<TmaCopy> with(std::uint64_t& mbar) const {
    static_assert(!detail::is_tma_store_op_v<Op>,
                  "TmaCopy::with(mbar): a TMA store completes in a bulk group, not on an mbarrier [copy(tma_store, "
                  "smem, coord); tma_store_arrive(); tma_store_wait<0>()]");
    static_assert(!std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST>,
                  "TmaCopy::with(mbar): a SM90_TMA_LOAD_MULTICAST copy names its receivers: with(mbar, cta_mask)");
    return {this, &mbar, 0, 0};
  }
  TESSERA_HOST_DEVICE TmaCopyWith<TmaCopy> with(std::uint64_t& mbar, std::uint16_t cta_mask) const {
    static_assert(std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST>,
                  "TmaCopy::with(mbar, cta_mask): only a SM90_TMA_LOAD_MULTICAST copy multicasts [make_tma_copy("
                  "SM90_TMA_LOAD_MULTICAST{}, ...)]");
    return {this, &mbar, cta_mask, 0};
  }
  // The same with an L2 cache policy for the lines the load reads (the
  // .L2::cache_hint forms; the data loaded is the same).
  TESSERA_HOST_DEVICE TmaCopyWith<TmaCopy, true> with(std::uint64_t& mbar, L2CachePolicy cache_hint) const {
    static_assert(!detail::is_tma_store_op_v<Op>,
                  "TmaCopy::with(mbar, cache_hint): a TMA store completes in a bulk group, not on an mbarrier, and "
                  "takes no cache hint here [copy(tma_store, smem, coord); tma_store_arrive(); tma_store_wait<0>()]");
    static_assert(!std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST>,
                  "TmaCopy::with(mbar, cache_hint): a SM90_TMA_LOAD_MULTICAST copy names its receivers: with(mbar, "
                  "cta_mask, cache_hint)");
    return {this, &mbar, 0, cache_hint.value};
  }
  TESSERA_HOST_DEVICE TmaCopyWith<TmaCopy, true> with(std::uint64_t& mbar, std::uint16_t cta_mask,
                                                      L2CachePolicy cache_hint) const {
    static_assert(std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST>,
                  "TmaCopy::with(mbar, cta_mask, cache_hint): only a SM90_TMA_LOAD_MULTICAST copy multicasts "
                  "[with(mbar, cache_hint) for a SM90_TMA_LOAD; make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, ...)]");
    return {this, &mbar, cta_mask, cache_hint.value};
  }
  // A 64-bit integer after the barrier is neither a mask nor a policy: as a
  // mask it would be cut to 16 bits without a word (a raw createpolicy value
  // meant as the hint, most likely).
  template <class I>
    requires(std::is_integral_v<I> && sizeof(I) == 8)
  TESSERA_HOST_DEVICE TmaCopyWith<TmaCopy> with(std::uint64_t& mbar, I) const {
    static_assert(sizeof(I) == 0,
                  "TmaCopy::with(mbar, x): x is a 64-bit integer, neither a multicast mask (16 bits) nor a cache "
                  "hint [a hint is an L2CachePolicy: make_l2_cache_policy<L2Priority::evict_last>(), or "
                  "L2CachePolicy{raw} for a createpolicy value]");
    return {this, &mbar, 0, 0};
  }
};

// CuTe's older per-CTA form of a TMA copy, tma.get_slice(t):
//   auto cta_tma = tma_load_A.get_slice(Int<0>{});        // t: this CTA's multicast slice, 0 without
//   Tensor tAgA = cta_tma.partition_S(gA);                // (BM,BK,k)    -> ((TMA),_1,_1,k)
//   Tensor tAsA = cta_tma.partition_D(sA);                // (BM,BK,PIPE) -> ((TMA),_1,_1,PIPE)
//   copy(tma_load_A.with(mbar[pipe]), tAgA(_, _, _, k), tAsA(_, _, _, pipe));
// Both tile the tensor's first R modes (R: the box's rank) by the box,
// which they must equal, then keep slice t of it (tma_slice.hpp). For a
// store, partition_S(sD) and partition_D(gD). Host and device.
template <class Op, class T, class SmemLayout, int Slices, int NR>
struct TmaCopySlice<TmaCopy<Op, T, SmemLayout, Slices, NR>> {
  int t_ = 0;

  template <class Engine, class Layout_>
  [[nodiscard]] TESSERA_HOST_DEVICE auto partition_S(Tensor<Engine, Layout_> const& x) const {
    return partition(x);
  }
  template <class Engine, class Layout_>
  [[nodiscard]] TESSERA_HOST_DEVICE auto partition_D(Tensor<Engine, Layout_> const& x) const {
    return partition(x);
  }

 private:
  template <class Engine, class Layout_>
  TESSERA_HOST_DEVICE auto partition(Tensor<Engine, Layout_> const& x) const {
    auto const box = product_each(shape(SmemLayout{}));
    constexpr int R = decltype(rank(SmemLayout{}))::value;
    static_assert(decltype(rank(x))::value >= R, "TmaCopySlice::partition: the tensor has fewer modes than the box");
    static_assert(std::is_same_v<decltype(product_each(take<0, R>(shape(x)))), std::remove_cvref_t<decltype(box)>>,
                  "TmaCopySlice::partition: the tensor's first modes must be one box [local_tile by the box's shape "
                  "the copy was made for]");
    TESSERA_ASSERT(Slices > 1 || t_ == 0);
    return tma_slice_box<SmemLayout, Slices>(tiled_divide(x, box), t_);
  }
};

// A copy bound to its barrier (and multicast mask, and with kCacheHint an
// L2 cache policy): what copy(tma.with(...), src, dst) takes.
template <class Copy, bool kCacheHint>
struct TmaCopyWith {
  Copy const* copy_;
  std::uint64_t* mbar_;
  std::uint16_t cta_mask_;
  std::uint64_t cache_policy_;  // createpolicy's value; read only when kCacheHint
};

namespace detail {

// The copy's message (error() when it failed, slice_error() when only its
// slices did), cut to the buffer.
template <class Copy>
void tma_copy_message(Copy& c, std::string const& msg) {
  std::size_t const n = msg.size() < sizeof(c.error_) - 1 ? msg.size() : sizeof(c.error_) - 1;
  std::memcpy(c.error_, msg.data(), n);
  c.error_[n] = '\0';
}

template <class Copy>
void tma_copy_fail(Copy& c, std::string const& msg) {
  c.valid_ = false;
  tma_copy_message(c, msg);
}

}  // namespace detail

// The TMA copy of boxes laid out as `smem_layout` out of `gmem_tensor`.
template <class Op, class Engine, class GLayout, class SmemLayout, class CtaTile, class Multicast = Int<1>>
  requires is_tuple_v<CtaTile>
[[nodiscard]] auto make_tma_copy(Op const&, Tensor<Engine, GLayout> const& gmem_tensor, SmemLayout const& smem_layout,
                                 CtaTile const& cta_tile, Multicast const& multicast = {}) {
  using T = std::remove_cv_t<typename Tensor<Engine, GLayout>::value_type>;
  using Piece = tma_piece_layout_t<SmemLayout, T>;
  // A global tensor with nested modes: the TMA rank after make_tma_desc's
  // flattening, which the copy's instructions need at compile time.
  constexpr bool kNested = detail::tma_gmem_nested<GLayout>();
  static_assert(!kNested || detail::tma_leaf_count_v<GLayout> <= detail::TmaGmemLeaves::kMax,
                "make_tma_copy: the gmem layout has more than 8 leaves (flattened modes) [coalesce it]");
  constexpr detail::TmaLeafPlan kLeafPlan = detail::tma_leaf_plan_if_valid<GLayout, Piece>();
  static_assert(!kNested || kLeafPlan.bad_mode < 0,
                "make_tma_copy: the box along a nested gmem mode is not a colexicographic prefix of its sub-modes "
                "[a tile along a nested mode covers whole inner sub-modes, then a divisor of the next sub-mode's "
                "size]");
  static_assert(!kNested || (kLeafPlan.rank >= 1 && kLeafPlan.rank <= 5),
                "make_tma_copy: the gmem layout flattens to more than 5 TMA dimensions (one per sub-mode of a nested "
                "mode, contiguous sub-modes merged only when their sizes and strides are static) [coalesce the gmem "
                "layout or make the contiguous sub-modes static]");
  constexpr int kNestedRank = kNested ? kLeafPlan.rank : 0;
  using Result = TmaCopy<Op, T, SmemLayout, detail::tma_copy_slices<Op, T, SmemLayout, Multicast>(), kNestedRank>;
  static_assert(is_static_v<CtaTile>, "make_tma_copy: the CTA tile must be static [make_shape(_128{}, _64{})]");
  static_assert(std::is_same_v<decltype(product_each(shape(smem_layout))), decltype(product_each(cta_tile))>,
                "make_tma_copy: the CTA tile must be the shared-memory layout's shape (one tile per copy)");
  constexpr int kBoxes = Result::kBoxes;
  Result r;
  int const mcast = int(multicast);
  if (std::is_same_v<Op, SM90_TMA_LOAD> && mcast != 1) {
    detail::tma_copy_fail(r, "make_tma_copy: SM90_TMA_LOAD loads into one CTA; multicast " + std::to_string(mcast) +
                                 " needs SM90_TMA_LOAD_MULTICAST");
    return r;
  }
  if (detail::is_tma_store_op_v<Op> && mcast != 1) {
    detail::tma_copy_fail(r, "make_tma_copy: a TMA store writes from one CTA; multicast " + std::to_string(mcast) +
                                 " is for SM90_TMA_LOAD_MULTICAST");
    return r;
  }
  if constexpr (std::is_same_v<Op, SM90_TMA_REDUCE_ADD>) {
    if (!std::is_same_v<T, float> && !std::is_same_v<T, std::int32_t> && !std::is_same_v<T, std::uint32_t>) {
      detail::tma_copy_fail(r, "make_tma_copy: SM90_TMA_REDUCE_ADD adds f32, s32 or u32 elements here");
      return r;
    }
  }
  if (mcast < 1 || mcast > 16) {
    detail::tma_copy_fail(r, "make_tma_copy: multicast " + std::to_string(mcast) +
                                 " is outside [1, 16] (a cluster has at most 16 CTAs)");
    return r;
  }
  TmaPlan const plan = make_tma_desc(gmem_tensor, Piece{});
  if (!plan.ok) {
    detail::tma_copy_fail(r, kBoxes > 1 ? "make_tma_copy: the tile's " + std::to_string(kBoxes) + " boxes: " + plan.error
                                        : plan.error);
    return r;
  }
  if constexpr (detail::is_tma_store_op_v<Op>) {
    // A store at the edge would overwrite the padding past a contiguous
    // extent that is not whole 16-byte units (TmaPlan::store_error).
    if (std::string const why = plan.store_error(); !why.empty()) {
      detail::tma_copy_fail(r, why);
      return r;
    }
  }
  if constexpr (kBoxes > 1) {
    constexpr TmaBoxCut cut = tma_box_cut_v<SmemLayout, T>;
    if (plan.box_bytes % plan.smem_align != 0) {
      detail::tma_copy_fail(r, "make_tma_copy: the tile's boxes are " + std::to_string(plan.box_bytes) +
                                   " bytes apart, not a multiple of the " + std::to_string(plan.smem_align) +
                                   " bytes the box's shared address needs");
      return r;
    }
    r.piece_bytes_ = plan.box_bytes;
    for (int a = 0; a < 2; ++a) {
      if (cut.step[a] != 0 && plan.dim_of_mode[cut.mode[a]] < 0) {
        detail::tma_copy_fail(r, "make_tma_copy: the tile's " + std::to_string(kBoxes) + " boxes step along gmem mode " +
                                     std::to_string(cut.mode[a]) +
                                     ", which is nested and several TMA dimensions [a tile of several boxes steps "
                                     "along flat modes, or modes one dimension after merging]");
        return r;
      }
      r.piece_dim_[a] = plan.dim_of_mode[cut.mode[a]];
      r.piece_step_[a] = cut.step[a];
    }
  }
  if (tma::EncodeResult const e = tma::encode(&r.tmap_, plan); !e.ok) {
    detail::tma_copy_fail(r, e.message);
    return r;
  }
  if constexpr (kNestedRank > 0) {
    if (plan.rank != kNestedRank) {  // make_tma_desc and the static plan disagree: a bug, not a user error
      detail::tma_copy_fail(r, "make_tma_copy: internal: the map has rank " + std::to_string(plan.rank) +
                                   ", the copy's type " + std::to_string(kNestedRank));
      return r;
    }
    r.coords_ = plan.leaf_coord_map();
  } else {
    r.coords_ = plan.coord_map();
  }
  r.box_bytes_ = plan.box_bytes * kBoxes;
  r.smem_align_mask_ = plan.smem_align - 1;
  r.multicast_ = mcast;
  r.valid_ = true;
  if constexpr (Result::slices() > 1 && Result::kSlicesOfBoxes) {
    r.slice_ok_ = true;  // a slice is whole boxes of the tile's own map
  } else if constexpr (Result::slices() > 1) {
    // The slices' map. Failing it leaves the whole-box copy usable; a slice
    // copy then traps (slice_error() says why).
    constexpr int n = Result::slices();
    std::string const why = [&]() -> std::string {
      TmaPlan const sp = make_tma_desc(gmem_tensor, tma_slice_layout_t<SmemLayout, n>{});
      if (!sp.ok) return sp.error;
      if constexpr (kNestedRank > 0) {
        // A slice is loaded with the box's coordinates and instruction rank.
        bool same = sp.rank == plan.rank && sp.leaves == plan.leaves;
        for (int l = 0; l < plan.leaves; ++l)
          same = same && sp.dim_of_leaf[l] == plan.dim_of_leaf[l] && sp.weight_of_leaf[l] == plan.weight_of_leaf[l];
        if (!same)
          return "a slice cuts a nested gmem mode into other TMA dimensions than the box does (merged or not)";
      }
      std::uint32_t const slice_bytes = plan.box_bytes / n;
      if (slice_bytes % plan.smem_align != 0)
        return "slice 1 starts " + std::to_string(slice_bytes) + " bytes into the box, not a multiple of the " +
               std::to_string(plan.smem_align) + " bytes its swizzle needs";
      if (tma::EncodeResult const e = tma::encode(&r.slice_tmap_, sp); !e.ok) return e.message;
      return "";
    }();
    r.slice_ok_ = why.empty();
    if (!why.empty())
      detail::tma_copy_message(r, "make_tma_copy: no " + std::to_string(n) + " multicast slices of the box: " + why);
  }
  return r;
}

// CuTe's shorter forms: the CTA tile is the shared-memory layout's shape,
// make_tma_copy(op, gmem, smem) and make_tma_copy(op, gmem, smem, multicast)
// (an integer, Int<N>{} for a copy with multicast slices).
template <class Op, class Engine, class GLayout, class SmemLayout>
[[nodiscard]] auto make_tma_copy(Op const& op, Tensor<Engine, GLayout> const& gmem_tensor, SmemLayout const& smem_layout) {
  return make_tma_copy(op, gmem_tensor, smem_layout, product_each(shape(smem_layout)), Int<1>{});
}
template <class Op, class Engine, class GLayout, class SmemLayout, class Multicast>
  requires is_integral_v<Multicast>
[[nodiscard]] auto make_tma_copy(Op const& op, Tensor<Engine, GLayout> const& gmem_tensor, SmemLayout const& smem_layout,
                                 Multicast const& multicast) {
  return make_tma_copy(op, gmem_tensor, smem_layout, product_each(shape(smem_layout)), multicast);
}

// CuTe's make_tma_atom(op, gmem, smem_layout, cta_tiler, cluster_size): the
// copy make_tma_copy makes from the same arguments. CuTe separates the atom
// (make_tma_atom, for tma_partition) from its one-thread tiling
// (make_tma_copy, for get_slice); a TmaCopy is both, so either name gives an
// object that tma_partition, get_slice and copy all take.
// @post the result's tensor map is byte-for-byte make_tma_copy's
template <class Op, class Engine, class GLayout, class SmemLayout, class CtaTile, class ClusterSize = Int<1>>
  requires is_tuple_v<CtaTile>
[[nodiscard]] auto make_tma_atom(Op const& op, Tensor<Engine, GLayout> const& gmem_tensor, SmemLayout const& smem_layout,
                                 CtaTile const& cta_tile, ClusterSize const& cluster_size = {}) {
  return make_tma_copy(op, gmem_tensor, smem_layout, cta_tile, cluster_size);
}

#if defined(__CUDACC__)

namespace detail {

// The checks copy() makes on the device (both directions): the copy is
// valid, its map lives in parameter or global space, the box's shared
// address has the swizzle's alignment. A violation traps; debug builds
// (without NDEBUG) print the rule first. Not in release builds: a printf is
// a function call, and wgmma batches in flight across one are serialised by
// ptxas (C7510). The alignment is a mask, not a %: the check runs in the
// producer's issue loop, where a division by a run-time value was a
// 20-instruction dependent chain (docs/performance.md, session 18).
template <class Copy>
__device__ __forceinline__ void tma_copy_check(Copy const& tma, std::uint32_t smem_addr) {
  bool const map_ok = __isGridConstant(&tma.tmap_) || __isGlobal(&tma.tmap_);
  if (!tma.valid_ || !map_ok || (smem_addr & tma.smem_align_mask_) != 0) {
#if !defined(NDEBUG)
    printf("tessera copy(tma, ...): %s\n",
           !tma.valid_ ? "the TmaCopy is not valid (make_tma_copy failed: check ok() / error() on the host)"
           : !map_ok   ? "the tensor map is neither a __grid_constant__ kernel parameter nor in global memory "
                         "[declare the kernel argument `__grid_constant__ const`]"
                       : "the box's shared address lacks the alignment its swizzle needs");
#endif
    __trap();
  }
}

// f(c[0], ..., c[R-1]): the coordinates of one rank-R TMA instruction.
template <int R, class F>
__device__ __forceinline__ void tma_with_coords(TmaCoords const& c, F&& f) {
  [&]<int... I>(seq<I...>) { f(c[I]...); }(make_seq<R>{});
}

// The TMA coordinates of box t of a tile whose first box starts at c (t = 0
// is c itself; selects, not an indexed array, which would live in local
// memory; t is an unrolled loop index, so t % and t / fold away).
template <class Copy>
__device__ __forceinline__ TmaCoords tma_piece_coords(Copy const& tma, TmaCoords c, int t) {
  if constexpr (Copy::kBoxes > 1) {
    TESSERA_UNROLL
    for (int a = 0; a < 2; ++a) {
      int const k = a == 0 ? t % Copy::kPieceCount : t / Copy::kPieceCount;
      std::int32_t const off = std::int32_t(k) * tma.piece_step_[a];
      TESSERA_UNROLL
      for (int d = 0; d < Copy::kRank; ++d) c.c[d] += tma.piece_dim_[a] == d ? off : 0;
    }
  }
  return c;
}

// The shared-memory side of a copy (destination of a load, source of a
// store), checked at compile time against the copy it was made for.
template <class T, class SmemLayout, class SmemTensor>
constexpr void check_tma_smem_tensor() {
  using SLayout = typename SmemTensor::layout_type;
  static_assert(is_smem_v<std::remove_cvref_t<decltype(std::declval<SmemTensor const&>().data())>>,
                "copy(tma...): the box's side must be a shared-memory tensor [make_tensor(make_smem_ptr(p), layout)]");
  static_assert(sizeof(typename SmemTensor::value_type) == sizeof(T),
                "copy(tma...): the shared-memory tensor's element size differs from the tensor map's");
  static_assert(std::is_same_v<decltype(get_swizzle_portion(SmemLayout{})), decltype(get_swizzle_portion(SLayout{}))> &&
                    std::is_same_v<decltype(coalesce(get_nonswizzle_portion(SmemLayout{}))),
                                   decltype(coalesce(get_nonswizzle_portion(SLayout{})))>,
                "copy(tma...): the shared-memory tensor's layout is not the one the TMA copy was made for "
                "[make_tma_copy(op, gmem, <this layout>, ...)]");
}

}  // namespace detail

// CuTe's prefetch_tma_descriptor: prefetch.tensormap of a map
// (tma.get_tma_descriptor()) into the TMA unit's cache, e.g. by the thread
// that will issue the copies, before its first one. A hint: no effect on
// results. sm_90.
__device__ __forceinline__ void prefetch_tma_descriptor(CUtensorMap const* desc) {
  arch::tma_prefetch_descriptor(desc);
}

// CuTe's prefetch(tma, ...): asks L2 for the tile a load through `tma` of
// the same coordinate would read (every box of it), without shared memory
// or a barrier -- e.g. the next k-tile, issued a stage ahead of its load.
// A hint: the data a later copy reads is the same with or without it. One
// thread issues it. The coordinate form takes the tile's first element as a
// mode coordinate; the partitioned form a coordinate tensor (tAgA(_, k))
// whose first element is that. sm_90.
template <class Op, class T, class SmemLayout, int Slices, int NR, class Coord>
  requires(!is_tensor_v<Coord>)
__device__ void prefetch(TmaCopy<Op, T, SmemLayout, Slices, NR> const& tma, Coord const& coord) {
  using Copy = TmaCopy<Op, T, SmemLayout, Slices, NR>;
  TmaCoords const c = tma.coords_(coord);
  TESSERA_UNROLL
  for (int t = 0; t < Copy::kBoxes; ++t) {
    TmaCoords const ct = detail::tma_piece_coords(tma, c, t);
    detail::tma_with_coords<Copy::kRank>(ct, [&](auto... x) { arch::tma_prefetch(&tma.tmap_, x...); });
  }
}
template <class Op, class T, class SmemLayout, int Slices, int NR, class CEngine, class CLayout>
__device__ void prefetch(TmaCopy<Op, T, SmemLayout, Slices, NR> const& tma, Tensor<CEngine, CLayout> const& box) {
  static_assert(is_tuple_v<std::remove_cvref_t<decltype(box(0))>>,
                "prefetch(tma, tensor): the tensor must hold TMA coordinates [a slice tAgA(_, k) of tma_partition's "
                "coordinate tensor, from get_tma_tensor]");
  prefetch(tma, box(0));
}

// The same with an L2 cache policy for the prefetched lines
// (cp.async.bulk.prefetch.tensor...L2::cache_hint), e.g. evict_last for a
// tile the next k-step of every CTA reads. sm_90.
template <class Op, class T, class SmemLayout, int Slices, int NR, class Coord>
  requires(!is_tensor_v<Coord>)
__device__ void prefetch(TmaCopy<Op, T, SmemLayout, Slices, NR> const& tma, Coord const& coord,
                         L2CachePolicy cache_hint) {
  using Copy = TmaCopy<Op, T, SmemLayout, Slices, NR>;
  TmaCoords const c = tma.coords_(coord);
  TESSERA_UNROLL
  for (int t = 0; t < Copy::kBoxes; ++t) {
    TmaCoords const ct = detail::tma_piece_coords(tma, c, t);
    detail::tma_with_coords<Copy::kRank>(
        ct, [&](auto... x) { arch::tma_prefetch_cache_hint(&tma.tmap_, cache_hint.value, x...); });
  }
}
template <class Op, class T, class SmemLayout, int Slices, int NR, class CEngine, class CLayout>
__device__ void prefetch(TmaCopy<Op, T, SmemLayout, Slices, NR> const& tma, Tensor<CEngine, CLayout> const& box,
                         L2CachePolicy cache_hint) {
  static_assert(is_tuple_v<std::remove_cvref_t<decltype(box(0))>>,
                "prefetch(tma, tensor, cache_hint): the tensor must hold TMA coordinates [a slice tAgA(_, k) of "
                "tma_partition's coordinate tensor, from get_tma_tensor]");
  prefetch(tma, box(0), cache_hint);
}

// Loads the box whose first element sits at mode coordinate `coord` of the
// global tensor (a tuple, one integer per mode; boxes past the edge read
// zeros) into `smem`. One thread issues it; completion arrives on the bound
// mbarrier as box_bytes() transaction bytes. A copy with Slices > 1 whose
// `smem` is one slice of the box (tma_partition / get_slice give such
// tensors, and `coord` is then the slice's first element) loads that slice
// and multicasts it to cta_mask: every receiver's barrier counts the
// slice's bytes, so a CTA that receives all Slices slices expects
// box_bytes(). A copy bound with a cache hint issues the .L2::cache_hint
// form of each instruction, the same bytes landing. sm_90.
template <class Op, class T, class SmemLayout, int Slices, int NR, bool kHint, class Coord, class SEngine,
          class SLayout>
  requires(!is_tensor_v<Coord>)
__device__ void copy(TmaCopyWith<TmaCopy<Op, T, SmemLayout, Slices, NR>, kHint> const& b, Coord const& coord,
                     Tensor<SEngine, SLayout> const& smem) {
  constexpr bool kSlice =
      Slices > 1 && decltype(size(smem))::value * Slices == decltype(size(SmemLayout{}))::value;
  using BoxLayout = std::conditional_t<kSlice, tma_slice_layout_t<SmemLayout, Slices>, SmemLayout>;
  detail::check_tma_smem_tensor<T, BoxLayout, Tensor<SEngine, SLayout>>();
  using Copy = TmaCopy<Op, T, SmemLayout, Slices, NR>;
  Copy const& tma = *b.copy_;
  void* const dst = &smem(0);
  detail::tma_copy_check(tma, static_cast<std::uint32_t>(__cvta_generic_to_shared(dst)));
  TmaCoords const c = tma.coords_(coord);
  if constexpr (kSlice && !Copy::kSlicesOfBoxes) {
    if (!tma.slice_ok_) {
#if !defined(NDEBUG)
      printf("tessera copy(tma, ...): the copy's multicast slices were not made (slice_error() on the host says "
             "why)\n");
#endif
      __trap();
    }
    detail::tma_with_coords<Copy::kRank>(c, [&](auto... x) {
      if constexpr (kHint) {
        arch::tma_load_multicast_cache_hint(dst, &tma.slice_tmap_, b.mbar_, b.cta_mask_, b.cache_policy_, x...);
      } else {
        arch::tma_load_multicast(dst, &tma.slice_tmap_, b.mbar_, b.cta_mask_, x...);
      }
    });
  } else {
    // Box t lies t * piece_bytes_ into the tile and starts where
    // tma_piece_coords says (piece_dim_, piece_step_). A slice of whole
    // boxes is boxes [s * kBoxes / Slices, (s + 1) * kBoxes / Slices) of the
    // tile: consecutive in shared memory and starting at a whole number of
    // rows of boxes, so they step from its first coordinate as boxes 0, 1,
    // ... of the tile do.
    constexpr int kIssued = kSlice ? Copy::kBoxes / Slices : Copy::kBoxes;
    TESSERA_UNROLL
    for (int t = 0; t < kIssued; ++t) {
      TmaCoords const ct = detail::tma_piece_coords(tma, c, t);
      void* const dt = static_cast<char*>(dst) + t * tma.piece_bytes_;
      detail::tma_with_coords<Copy::kRank>(ct, [&](auto... x) {
        if constexpr (std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST> && kHint) {
          arch::tma_load_multicast_cache_hint(dt, &tma.tmap_, b.mbar_, b.cta_mask_, b.cache_policy_, x...);
        } else if constexpr (std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST>) {
          arch::tma_load_multicast(dt, &tma.tmap_, b.mbar_, b.cta_mask_, x...);
        } else if constexpr (kHint) {
          arch::tma_load_cache_hint(dt, &tma.tmap_, b.mbar_, b.cache_policy_, x...);
        } else {
          arch::tma_load(dt, &tma.tmap_, b.mbar_, x...);
        }
      });
    }
  }
}

// CuTe's partitioned form (its Hopper tutorial's mainloop):
//   Tensor mA = tma_load_A.get_tma_tensor(make_shape(M, K));                   // (M,K) -> (m,k)
//   Tensor gA = local_tile(mA, make_tile(Int<BM>{}, Int<BK>{}), make_coord(bm, _));  // (BM,BK,k)
//   auto [tAgA, tAsA] = tma_partition(tma_load_A, Int<0>{}, Layout<_1>{},
//                                     group_modes<0, 2>(sA), group_modes<0, 2>(gA));  // (TMA,k), (TMA,PIPE)
//   copy(tma_load_A.with(mbar[pipe]), tAgA(_, k), tAsA(_, pipe));
// Mode 0 of both tensors is one box (one TMA instruction), the other modes
// index boxes.
// With a cluster layout of N > 1 CTAs (CUTLASS's multicast mainloops), the
// copy must be a SM90_TMA_LOAD_MULTICAST made with Int<N>{} and mode 0
// becomes this CTA's slice, number cta_layout(cta_coord), of each box:
//   auto [tAgA, tAsA] = tma_partition(tma_load_A, block_rank_in_cluster(), Layout<_2>{}, ...);
//   copy(tma_load_A.with(mbar[pipe], 0b11), tAgA(_, k), tAsA(_, pipe));  // every CTA, its slice to both
// Host and device.
template <class Op, class T, class SmemLayout, int Slices, int NR, class CtaCoord, class CtaLayout, class SEngine,
          class SLayout, class GEngine, class GLayout>
[[nodiscard]] TESSERA_HOST_DEVICE auto tma_partition(TmaCopy<Op, T, SmemLayout, Slices, NR> const&,
                                                     CtaCoord const& cta_coord, CtaLayout const& cta_layout,
                                                     Tensor<SEngine, SLayout> const& stensor,
                                                     Tensor<GEngine, GLayout> const& gtensor) {
  constexpr int N = int(decltype(size(cta_layout))::value);
  static_assert(N == 1 || TmaCopy<Op, T, SmemLayout, Slices, NR>::kBoxes == 1 || tma_slice_mode_v<SmemLayout, N> < 0 ||
                    !std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST> || N == Slices,
                "tma_partition: a tile of several TMA boxes is cut into multicast slices only when each slice is "
                "whole boxes or one box [a CTA count that divides the boxes along the tile's slowest mode]");
  static_assert(N == 1 || std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST>,
                "tma_partition: a cluster layout of more than one CTA cuts the box into multicast slices, which needs "
                "a SM90_TMA_LOAD_MULTICAST copy [make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, g, s, tile, Int<N>{})]");
  static_assert(N == 1 || tma_slice_mode_v<SmemLayout, N> >= 0,
                "tma_partition: the box does not cut into one contiguous slice per CTA of the cluster layout [the "
                "slowest shared-memory sub-mode must be the last sub-mode of a mode, and the CTA count must divide "
                "it]");
  static_assert(N == 1 || !std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST> || tma_slice_mode_v<SmemLayout, N> < 0 ||
                    TmaCopy<Op, T, SmemLayout, Slices, NR>::kBoxes > 1 || N == Slices,
                "tma_partition: the copy was not made for this many multicast slices [make_tma_copy(..., Int<N>{}) "
                "with N the cluster layout's size]");
  static_assert(decltype(size<0>(stensor))::value == decltype(size(SmemLayout{}))::value,
                "tma_partition: mode 0 of the shared-memory tensor must be one box [group_modes<0, R>(sA) of the "
                "layout the copy was made for]");
  static_assert(decltype(size<0>(gtensor))::value == decltype(size(SmemLayout{}))::value,
                "tma_partition: mode 0 of the coordinate tensor must be one box [group_modes<0, R>(gA) of a "
                "local_tile of get_tma_tensor(shape) by the box's shape]");
  // Slices > 1 only for a multicast copy whose tile cuts so (tma_copy_slices).
  if constexpr (N == 1 || N != Slices) {
    (void)cta_coord;
    return std::make_tuple(gtensor, stensor);  // N == 1 (else the build has already failed above)
  } else {
    int const t = int(cta_layout(cta_coord));
    return std::make_tuple(tma_slice_box<SmemLayout, N>(gtensor, t), tma_slice_box<SmemLayout, N>(stensor, t));
  }
}

// Seed 002's first TMA snippet passes the barrier as a fourth argument:
// copy(tma_load_A, coord, sA, mbar_ptr) is copy(tma_load_A.with(*mbar_ptr),
// coord, sA). SM90_TMA_LOAD only: a multicast load names its receivers,
// with(mbar, cta_mask). sm_90.
template <class T, class SmemLayout, int NR, class Coord, class SEngine, class SLayout>
__device__ void copy(TmaCopy<SM90_TMA_LOAD, T, SmemLayout, 1, NR> const& tma, Coord const& coord,
                     Tensor<SEngine, SLayout> const& smem, std::uint64_t* mbar) {
  copy(tma.with(*mbar), coord, smem);
}

// The partitioned form: `box` is one box of a coordinate tensor
// (tma_partition's tAgA(_, k)); its first element is the box's origin.
// (The destination is a forwarding reference so that this overload, not
// the generic copy(atom, src, dst), takes a sliced smem tensor prvalue.)
template <class Op, class T, class SmemLayout, int Slices, int NR, bool kHint, class CEngine, class CLayout,
          class SmemTensor>
  requires is_tensor_v<std::remove_cvref_t<SmemTensor>>
__device__ void copy(TmaCopyWith<TmaCopy<Op, T, SmemLayout, Slices, NR>, kHint> const& b,
                     Tensor<CEngine, CLayout> const& box, SmemTensor&& smem) {
  static_assert(is_tuple_v<std::remove_cvref_t<decltype(box(0))>>,
                "copy(tma.with(...), src, dst): the source is a coordinate tensor [tma_partition's tAgA(_, k), from "
                "get_tma_tensor]; a TMA load reads global memory through the map, not through a data tensor");
  copy(b, box(0), smem);
}

// Stores (SM90_TMA_STORE) or adds (SM90_TMA_REDUCE_ADD) the box in
// `smem` into the global tensor, its first element at mode coordinate
// `coord` (boxes past the edge are clipped). One thread issues it, after the
// threads that wrote `smem` made their writes visible to the TMA unit
// (tma_store_fence(), then a barrier). The copy joins the issuing thread's
// open bulk group: tma_store_arrive() closes the group, tma_store_wait<N>()
// waits until at most N of its groups still read shared memory (then `smem`
// may be rewritten). sm_90.
template <class Op, class T, class SmemLayout, int NR, class SEngine, class SLayout, class Coord>
  requires(detail::is_tma_store_op_v<Op> && !is_tensor_v<Coord>)
__device__ void copy(TmaCopy<Op, T, SmemLayout, 1, NR> const& tma, Tensor<SEngine, SLayout> const& smem, Coord const& coord) {
  detail::check_tma_smem_tensor<T, SmemLayout, Tensor<SEngine, SLayout>>();
  void const* const src = &smem(0);
  detail::tma_copy_check(tma, static_cast<std::uint32_t>(__cvta_generic_to_shared(src)));
  TmaCoords const c = tma.coords_(coord);
  TESSERA_UNROLL
  for (int t = 0; t < TmaCopy<Op, T, SmemLayout, 1, NR>::kBoxes; ++t) {  // as the load: one store per box
    TmaCoords const ct = detail::tma_piece_coords(tma, c, t);
    void const* const st = static_cast<char const*>(src) + t * tma.piece_bytes_;
    detail::tma_with_coords<TmaCopy<Op, T, SmemLayout, 1, NR>::kRank>(ct, [&](auto... x) {
      if constexpr (std::is_same_v<Op, SM90_TMA_REDUCE_ADD>) {
        arch::tma_reduce_add(&tma.tmap_, st, x...);
      } else {
        arch::tma_store(&tma.tmap_, st, x...);
      }
    });
  }
}

// The partitioned store: `box` is one box of a coordinate tensor
// (tma_partition's or partition_D's tDgD(_, ...)); its first element is the
// box's origin. (A forwarding reference, as for the load.) sm_90.
template <class Op, class T, class SmemLayout, int NR, class SEngine, class SLayout, class CoordTensor>
  requires(detail::is_tma_store_op_v<Op> && is_tensor_v<std::remove_cvref_t<CoordTensor>>)
__device__ void copy(TmaCopy<Op, T, SmemLayout, 1, NR> const& tma, Tensor<SEngine, SLayout> const& smem, CoordTensor&& box) {
  static_assert(is_tuple_v<std::remove_cvref_t<decltype(box(0))>>,
                "copy(tma_store, src, dst): the destination is a coordinate tensor [from get_tma_tensor, tiled like "
                "the data]; a TMA store writes global memory through the map, not through a data tensor");
  copy(tma, smem, box(0));
}

// CuTe's names for the store side's ordering, for the thread(s) involved:
//   tma_store_fence()    fence.proxy.async.shared::cta: this thread's
//                        writes to shared memory become visible to the TMA
//                        unit (each writer, before the barrier that precedes
//                        the store)
//   tma_store_arrive()   cp.async.bulk.commit_group: closes the issuing
//                        thread's group of stores
//   tma_store_wait<N>()  cp.async.bulk.wait_group.read N: at most N of the
//                        issuing thread's groups still read shared memory
//                        (the global writes may still be in flight; kernel
//                        exit completes them)
__device__ __forceinline__ void tma_store_fence() { arch::fence_proxy_async_shared_cta(); }
__device__ __forceinline__ void tma_store_arrive() { arch::tma_store_commit_group(); }
template <int N>
__device__ __forceinline__ void tma_store_wait() {
  arch::tma_store_wait_read<N>();
}

#endif

}  // namespace tessera
