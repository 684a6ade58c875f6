// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Multicast slices of a TMA box: how N CTAs of a cluster share one box.
//
// With CuTe's multicast form, each of the N CTAs that receive a box loads
// one N-th of it and multicasts that slice to all N, so every CTA ends with
// the whole box while each issued only a part. The slices are the box's
// shared-memory image cut into N equal contiguous pieces: slice t is bytes
// [t * S / N, (t + 1) * S / N) of the box, where S is its size. Each must
// itself be a box (a TMA instruction copies a box), which holds when the
// slowest sub-mode of the shared layout (its largest stride) is the last
// sub-mode of one mode J and N divides it: slice t is then the box cut along
// mode J, extents E_J / N, starting at mode coordinate t * E_J / N. A
// swizzled box also needs each slice to span whole swizzle periods (1024
// bytes for the 128-byte swizzle), so that slice t is swizzled exactly as
// the box's elements it replaces.
//
//   K-major 128x64 bf16 tile (rows of 64, 8-row swizzle atoms), N = 2:
//   the row blocks are slowest, J = 0: slice 0 = rows [0, 64), slice 1 =
//   rows [64, 128), each a 64x64 box.
//   M-major 64x64 bf16 tile (columns of 64 M, one 128-byte swizzle row
//   each), N = 2: the K blocks are slowest, J = 1: slice t = columns
//   [32t, 32t + 32).
//
// What this header gives (CUDA-free; everything TESSERA_HOST_DEVICE):
//   tma_slice_mode_v<SmemLayout, N>     J, or -1 when the box does not cut so
//   tma_slice_tiler<SmemLayout, N>()    slice 0 as a layout over the box's
//                                       coordinates (colexicographic index)
//   tma_slice_layout_t<SmemLayout, N>   the shared layout of one slice
//   tma_slice_box<SmemLayout, N>(x, t)  slice t of mode 0 of tensor x (a box
//                                       of data or of TMA coordinates), the
//                                       other modes kept
//   tma_boxes_v<SmemLayout, T>          how many boxes a tile takes when it
//                                       is too large for one: the same cut,
//                                       or a grid of pieces along both modes
//   tma_box_cut_v<SmemLayout, T>        where those boxes start (TmaBoxCut)
//   tma_piece_layout_t<SmemLayout, T>   the shared layout of one of them
// The laws are in tests/host/test_tma_slice.cpp.

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

namespace detail {

// Leaves of a static int tuple, as a fixed array (size R leaves at most).
template <int R>
struct TmaLeaves {
  long v[R > 0 ? R : 1] = {};
  int n = 0;
};
template <class T>
constexpr auto tma_leaves() {
  using F = decltype(flatten(T{}));
  if constexpr (is_tuple_v<F>) {
    constexpr int R = tuple_size_v<F>;
    TmaLeaves<R> out;
    [&]<int... I>(seq<I...>) { ((out.v[out.n++] = long(std::remove_cvref_t<decltype(get<I>(F{}))>::value)), ...); }(
        make_seq<R>{});
    return out;
  } else {
    TmaLeaves<1> out;
    out.v[out.n++] = long(F::value);
    return out;
  }
}

// f(J, shape leaves, stride leaves) for each mode J of the static layout
// Inner, in mode order.
template <class Inner, class F>
constexpr void tma_for_each_mode(F&& f) {
  using S = decltype(shape(Inner{}));
  using D = decltype(stride(Inner{}));
  [&]<int... J>(seq<J...>) {
    (f(J, tma_leaves<std::remove_cvref_t<decltype(get<J>(S{}))>>(),
       tma_leaves<std::remove_cvref_t<decltype(get<J>(D{}))>>()),
     ...);
  }(make_seq<rank_v<S>>{});
}

// J for tma_slice_mode_v (see the header comment), computed on the
// non-swizzle part of the layout.
template <class Inner, int N>
constexpr int tma_slice_mode() {
  if constexpr (!is_static_v<decltype(shape(Inner{}))> || !is_static_v<decltype(stride(Inner{}))>) {
    return -1;
  } else {
    if (N < 1) return -1;
    // Compact: the box fills [0, size) exactly (TMA writes it packed).
    if (long(decltype(cosize(Inner{}))::value) != long(decltype(size(Inner{}))::value)) return -1;
    // The largest stride among leaves of extent > 1.
    long dmax = -1;
    tma_for_each_mode<Inner>([&](int, auto const& s, auto const& d) {
      for (int i = 0; i < s.n; ++i)
        if (s.v[i] > 1 && d.v[i] > dmax) dmax = d.v[i];
    });
    // The mode whose last leaf of extent > 1 holds it, if N divides that leaf.
    int result = -1;
    tma_for_each_mode<Inner>([&](int j, auto const& s, auto const& d) {
      int last = -1;
      for (int i = 0; i < s.n; ++i)
        if (s.v[i] > 1) last = i;
      if (last >= 0 && d.v[last] == dmax && s.v[last] % N == 0) result = j;
    });
    return result;
  }
}

// Elements after which Sw repeats: 2^(B+M+S) for Swizzle<B, M, S> (S > 0),
// 1 for no swizzle. A slice moved by a multiple of it is swizzled alike.
template <class Sw>
struct tma_swizzle_period {
  static constexpr long value = 1;
};
template <int B, int M, int S>
struct tma_swizzle_period<Swizzle<B, M, S>> {
  static constexpr long value = B == 0 ? 1 : (1L << (B + M + (S < 0 ? -S : S)));
};

// Bytes of one swizzle row for TMA's swizzle modes on elements of any size:
// Swizzle<B, M, 3> with 16-byte units (M = 4 - log2(sizeof T)) spans 16 << B;
// 0 without a swizzle (B = 0 is none).
template <class Sw>
struct tma_swizzle_width {
  static constexpr long value = 0;
};
template <int B, int M, int S>
struct tma_swizzle_width<Swizzle<B, M, S>> {
  static constexpr long value = B == 0 ? 0 : 16L << B;
};

template <class SmemLayout, int N>
constexpr int tma_slice_mode_of() {
  if constexpr (N == 1) {
    return 0;
  } else {
    using Inner = std::remove_cvref_t<decltype(get_nonswizzle_portion(SmemLayout{}))>;
    constexpr int j = tma_slice_mode<Inner, N>();
    if constexpr (j < 0) {
      return -1;
    } else {
      constexpr long slice = long(decltype(size(SmemLayout{}))::value) / N;
      constexpr long period =
          tma_swizzle_period<std::remove_cvref_t<decltype(get_swizzle_portion(SmemLayout{}))>>::value;
      return slice % period == 0 ? j : -1;
    }
  }
}

}  // namespace detail

// The mode J along which a box laid out as SmemLayout (a Layout, or a
// swizzled ComposedLayout) cuts into N contiguous slices; -1 if it does not
// (also when a slice is not a whole number of swizzle periods, so that
// slice t would be swizzled unlike the box's elements there). N == 1 gives
// 0 (the whole box is its one slice).
template <class SmemLayout, int N>
inline constexpr int tma_slice_mode_v = detail::tma_slice_mode_of<SmemLayout, N>();

// Slice 0 as a layout over the box's coordinates: the box's shape with mode
// J's extent divided by N, and the box's colexicographic strides.
// @post size(result) == size(SmemLayout) / N
// @post logical_divide(get_nonswizzle_portion(SmemLayout{}), result) is
//       (slice layout, N : size / N): slice t is slice 0 moved by t * size / N
template <class SmemLayout, int N>
TESSERA_HOST_DEVICE constexpr auto tma_slice_tiler() {
  constexpr int J = tma_slice_mode_v<SmemLayout, N>;
  static_assert(J >= 0, "tma_slice_tiler: the box does not cut into N contiguous slices along one mode [its "
                        "slowest shared-memory sub-mode must be the last sub-mode of a mode, and N must divide it]");
  auto const box = product_each(shape(SmemLayout{}));
  auto const slice_shape = replace<J>(box, get<J>(box) / Int<N>{});
  return make_layout(slice_shape, stride(make_layout(box)));
}

// The shared-memory layout of one slice (swizzle kept): slice t occupies
// elements [t * size / N, (t + 1) * size / N) of the box.
template <class SmemLayout, int N>
using tma_slice_layout_t = decltype(composition(SmemLayout{}, tma_slice_tiler<SmemLayout, N>()));

namespace detail {

// Leaves of a static layout of rank <= 8, at most 16 per mode.
struct TmaModeLeaves {
  static constexpr int kModes = 8, kLeaves = 16;
  long s[kModes][kLeaves] = {};
  long d[kModes][kLeaves] = {};
  int n[kModes] = {};
  int rank = 0;
  bool ok = true;  // false: more modes or leaves than that
};
template <class Inner>
constexpr TmaModeLeaves tma_mode_leaves() {
  TmaModeLeaves out;
  tma_for_each_mode<Inner>([&](int j, auto const& sh, auto const& d) {
    if (j >= TmaModeLeaves::kModes || sh.n > TmaModeLeaves::kLeaves) {
      out.ok = false;
      return;
    }
    for (int i = 0; i < sh.n; ++i) {
      out.s[j][i] = sh.v[i];
      out.d[j][i] = d.v[i];
    }
    out.n[j] = sh.n;
    out.rank = j + 1;
  });
  return out;
}

// Whether leaves [0, n[m]) of each mode m are the box TMA writes: packed,
// the mode holding the stride-1 leaf fastest, then the other modes in
// order, each mode's leaves in order (make_tma_desc's image rule, before
// the swizzle).
constexpr bool tma_leaves_packed(TmaModeLeaves const& l, int const* n) {
  int c = -1;
  for (int m = 0; m < l.rank; ++m)
    for (int i = 0; i < n[m]; ++i)
      if (l.s[m][i] > 1 && l.d[m][i] == 1) c = m;
  long run = 1;
  for (int k = -1; k < l.rank; ++k) {
    int const m = k < 0 ? c : k;
    if (m < 0 || (k >= 0 && m == c)) continue;
    for (int i = 0; i < n[m]; ++i) {
      if (l.s[m][i] == 1) continue;
      if (l.d[m][i] != run) return false;
      run *= l.s[m][i];
    }
  }
  return true;
}

// The TMA box rules that depend on shared memory alone, for the piece made
// of leaves [0, n[m]) of each mode: every extent at most 256, the elements
// packed as TMA writes them (tma_leaves_packed), and the contiguous mode
// (the one holding the stride-1 element) spanning exactly the swizzle
// width (`width` bytes, 16 << B for Swizzle<B, ., .>), or whole 16-byte
// units unswizzled (width 0). (make_tma_desc checks the rest.)
enum class TmaFit { breaks, fits, no_contiguous_mode };
constexpr TmaFit tma_leaves_fit(TmaModeLeaves const& l, int const* n, long elem_bytes, long width) {
  bool extents_ok = true;
  long inner_bytes = -1;
  for (int m = 0; m < l.rank; ++m) {
    long extent = 1;
    for (int i = 0; i < n[m]; ++i) extent *= l.s[m][i];
    if (extent > 256) extents_ok = false;
    for (int i = 0; i < n[m]; ++i)
      if (l.s[m][i] > 1 && l.d[m][i] == 1) inner_bytes = extent * elem_bytes;
  }
  if (!extents_ok) return TmaFit::breaks;
  if (inner_bytes < 0) return TmaFit::no_contiguous_mode;
  if (!tma_leaves_packed(l, n)) return TmaFit::breaks;
  return (width == 0 ? inner_bytes % 16 == 0 : inner_bytes == width) ? TmaFit::fits : TmaFit::breaks;
}

// Whether one piece laid out as Piece (of T elements) keeps those rules
// (tma_leaves_fit over all its leaves; a piece without a contiguous mode,
// or dynamic, or too deep for TmaModeLeaves is not decided here).
template <class Piece, class T>
constexpr bool tma_piece_fits() {
  using Inner = std::remove_cvref_t<decltype(get_nonswizzle_portion(Piece{}))>;
  if constexpr (!is_static_v<decltype(shape(Inner{}))> || !is_static_v<decltype(stride(Inner{}))>) {
    return true;  // not decided here
  } else {
    constexpr TmaModeLeaves leaves = tma_mode_leaves<Inner>();
    if (!leaves.ok) return true;  // not decided here
    constexpr long width = tma_swizzle_width<std::remove_cvref_t<decltype(get_swizzle_portion(Piece{}))>>::value;
    return tma_leaves_fit(leaves, leaves.n, long(sizeof(T)), width) != TmaFit::breaks;
  }
}

}  // namespace detail

// How a tile laid out as SmemLayout (of T elements) is copied as boxes:
// `boxes` pieces, piece t lying t * size / boxes elements into the tile
// and starting (t % count) * step[0] along mode mode[0] and (t / count) *
// step[1] along mode mode[1] from the tile's origin; extent[m] is a
// piece's extent along mode m. One box: boxes 1, the tile itself.
struct TmaBoxCut {
  int boxes = 1;
  int mode[2] = {0, 1};
  int step[2] = {0, 0};
  int count = 1;
  int extent[5] = {0, 0, 0, 0, 0};
};

namespace detail {

// The grid cut of a rank-2 tile whose pieces are not one contiguous slice
// along a mode, e.g. an M-major tile with its swizzle atoms stacked along
// M first (CuTe's default order: ((64,2),(8,8)):((1,512),(64,1024)) for
// bf16 128x64, atom (i, j) at (i + 2j) KiB). A piece is a sub-box at the
// origin built from the lowest sub-modes of both modes, packed as TMA
// writes a box (tma_leaves_packed); each mode's remaining sub-modes must merge into one
// (n_m, s_m) with one s equal to the piece size (the fast mode) and the
// other to the piece size times the fast count. Pieces must keep the box
// rules (tma_leaves_fit), start on swizzle periods and number at most 64;
// the cut with the fewest pieces wins. boxes 0: none.
template <class SmemLayout, class T>
constexpr TmaBoxCut tma_grid_cut() {
  using Inner = std::remove_cvref_t<decltype(get_nonswizzle_portion(SmemLayout{}))>;
  TmaBoxCut none;
  none.boxes = 0;
  if constexpr (!is_static_v<decltype(shape(Inner{}))> || !is_static_v<decltype(stride(Inner{}))> ||
                rank_v<decltype(shape(Inner{}))> != 2) {
    return none;
  } else {
    if (long(decltype(cosize(Inner{}))::value) != long(decltype(size(Inner{}))::value)) return none;
    constexpr long period = tma_swizzle_period<std::remove_cvref_t<decltype(get_swizzle_portion(SmemLayout{}))>>::value;
    constexpr long width = tma_swizzle_width<std::remove_cvref_t<decltype(get_swizzle_portion(SmemLayout{}))>>::value;
    constexpr TmaModeLeaves leaves = tma_mode_leaves<Inner>();
    if (!leaves.ok) return none;
    auto const& shp = leaves.s;
    auto const& std_ = leaves.d;
    int const* n = leaves.n;
    TmaBoxCut best = none;
    for (int p0 = 0; p0 <= n[0]; ++p0) {
      for (int p1 = 0; p1 <= n[1]; ++p1) {
        // The piece: leaves [0, p_m) of each mode, a box by the shared-memory rules.
        int const prefix[2] = {p0, p1};
        if (tma_leaves_fit(leaves, prefix, long(sizeof(T)), width) != TmaFit::fits) continue;
        long e[2] = {1, 1};
        for (int m = 0; m < 2; ++m)
          for (int i = 0; i < prefix[m]; ++i) e[m] *= shp[m][i];
        long const piece = e[0] * e[1];
        // The rest of each mode: one merged (count, stride), or nothing.
        long cnt[2] = {1, 1}, str[2] = {0, 0};
        bool ok = true;
        for (int m = 0; m < 2; ++m) {
          for (int i = prefix[m]; i < n[m]; ++i) {
            if (shp[m][i] == 1) continue;
            if (cnt[m] == 1) {
              cnt[m] = shp[m][i];
              str[m] = std_[m][i];
            } else if (std_[m][i] == str[m] * cnt[m]) {
              cnt[m] *= shp[m][i];
            } else {
              ok = false;
            }
          }
        }
        if (!ok || cnt[0] * cnt[1] == 1 || cnt[0] * cnt[1] > 64 || piece % period != 0) continue;
        int fast = -1;
        if (cnt[0] > 1 && str[0] == piece && (cnt[1] == 1 || str[1] == piece * cnt[0])) fast = 0;
        else if (cnt[1] > 1 && str[1] == piece && (cnt[0] == 1 || str[0] == piece * cnt[1])) fast = 1;
        if (fast < 0) continue;
        int const boxes = int(cnt[0] * cnt[1]);
        if (best.boxes == 0 || boxes < best.boxes) {
          best.boxes = boxes;
          best.mode[0] = fast;
          best.mode[1] = 1 - fast;
          best.step[0] = int(e[fast]);
          best.step[1] = int(e[1 - fast]);
          best.count = int(cnt[fast]);
          best.extent[0] = int(e[0]);
          best.extent[1] = int(e[1]);
        }
      }
    }
    return best;
  }
}

template <class SmemLayout, class T>
constexpr TmaBoxCut tma_box_cut() {
  TmaBoxCut cut;
  using Box = decltype(product_each(shape(SmemLayout{})));
  constexpr int R = rank_v<Box>;
  if constexpr (is_static_v<Box>) {
    [&]<int... I>(seq<I...>) { ((cut.extent[I] = int(std::remove_cvref_t<decltype(get<I>(Box{}))>::value)), ...); }(
        make_seq<(R < 5 ? R : 5)>{});
  }
  if constexpr (tma_piece_fits<SmemLayout, T>()) {
    return cut;
  } else {
    // One contiguous slice per piece along one mode: the smallest N in 2..16.
    [&]<int... I>(seq<I...>) {
      (
          [&] {
            constexpr int N = 2 << I;  // 2, 4, 8, 16
            if constexpr (tma_slice_mode_v<SmemLayout, N> >= 0) {
              if (cut.boxes == 1 && tma_piece_fits<tma_slice_layout_t<SmemLayout, N>, T>()) {
                constexpr int J = tma_slice_mode_v<SmemLayout, N>;
                cut.boxes = N;
                cut.mode[0] = J;
                cut.mode[1] = J == 0 ? 1 : 0;
                cut.step[0] = cut.extent[J] / N;
                cut.step[1] = 0;
                cut.count = N;
                cut.extent[J] /= N;
              }
            }
          }(),
          ...);
    }(make_seq<4>{});
    if (cut.boxes == 1) {
      TmaBoxCut const grid = tma_grid_cut<SmemLayout, T>();
      if (grid.boxes > 1) return grid;
    }
    return cut;
  }
}

}  // namespace detail

// How SmemLayout's tile (of T elements) is cut into TMA boxes (TmaBoxCut):
// one box when the tile itself is one; else the smallest N in 2, 4, 8, 16
// whose contiguous slices along one mode (tma_slice_mode_v) each keep the
// box rules that depend on shared memory alone (at most 256 per extent;
// rows of exactly the swizzle width); else the grid cut of a rank-2 tile
// into contiguous pieces along both modes (detail::tma_grid_cut, at most
// 64). A K-major 128x128 bf16 tile of 128-byte swizzle rows is 2 boxes of
// 128x64; CUTLASS's M-major 128x64 tile (atoms stacked along K first) 2
// boxes of 64x64; the same tile with its atoms stacked along M first
// (CuTe's default order) 16 boxes of one 64x8 atom each. One box also when
// no cut helps (make_tma_desc then says what is wrong with the tile).
template <class SmemLayout, class T>
inline constexpr TmaBoxCut tma_box_cut_v = detail::tma_box_cut<SmemLayout, T>();

template <class SmemLayout, class T>
inline constexpr int tma_boxes_v = tma_box_cut_v<SmemLayout, T>.boxes;

// The shared-memory layout of piece 0 of the cut (the whole tile for one
// box): the box's coordinates restricted to the piece's extents, swizzle
// kept. Piece t is piece 0 moved by t * size(SmemLayout) / boxes elements.
template <class SmemLayout, class T>
TESSERA_HOST_DEVICE constexpr auto tma_piece_tiler() {
  constexpr TmaBoxCut cut = tma_box_cut_v<SmemLayout, T>;
  auto const box = product_each(shape(SmemLayout{}));
  constexpr int R = decltype(rank(box))::value;
  auto const piece = [&]<int... I>(seq<I...>) { return make_shape(Int<(I < 5 ? cut.extent[I] : 1)>{}...); }(
      make_seq<R>{});
  return make_layout(piece, stride(make_layout(box)));
}
namespace detail {
template <class SmemLayout, class T, bool kWhole = (tma_boxes_v<SmemLayout, T> == 1)>
struct tma_piece_layout {
  using type = SmemLayout;
};
template <class SmemLayout, class T>
struct tma_piece_layout<SmemLayout, T, false> {
  using type = decltype(composition(SmemLayout{}, tma_piece_tiler<SmemLayout, T>()));
};
}  // namespace detail
template <class SmemLayout, class T>
using tma_piece_layout_t = typename detail::tma_piece_layout<SmemLayout, T>::type;

// Slice t of mode 0 of `x`, which must be one box of SmemLayout's shape (a
// shared-memory box or a box of TMA coordinates); x's other modes are kept.
// @post tma_slice_box<L, N>(x, t)(c, r...) == x(tma_slice_tiler<L, N>()(c) + t * size(L) / N, r...)
//       (slice t's elements, as x indexes them)
// @pre  0 <= t < N
template <class SmemLayout, int N, class Engine, class Layout_, class T>
TESSERA_HOST_DEVICE constexpr auto tma_slice_box(Tensor<Engine, Layout_> const& x, T const& t) {
  static_assert(decltype(size<0>(x))::value == decltype(size(SmemLayout{}))::value,
                "tma_slice_box: mode 0 of the tensor must be one box");
  if constexpr (N == 1) {
    return x;
  } else {
    TESSERA_ASSERT(int(t) >= 0 && int(t) < N);
    auto const divided = logical_divide(x, make_tile(tma_slice_tiler<SmemLayout, N>()));  // ((slice, N), rest...)
    constexpr int R = decltype(rank(x))::value;
    if constexpr (R == 1) return divided(make_coord(make_coord(_, t)));
    else return divided(prepend(repeat<R - 1>(_), make_coord(_, t)));
  }
}

}  // namespace tessera
