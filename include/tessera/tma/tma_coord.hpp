// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// TMA coordinate tensors: which coordinates a cp.async.bulk.tensor takes for
// a tile of a Tessera tensor.
//
// A TMA instruction names a box by the coordinates of its first element,
// innermost (contiguous) dimension first. A Tessera tensor names elements by
// mode coordinates in its own mode order, where the contiguous mode may be
// any of them (mode 1 of a row-major matrix). make_tma_desc records the
// permutation between the two as a TmaCoordMap, a plain struct that can be a
// kernel argument; the tile origin in mode coordinates comes from a
// coordinate tensor tiled exactly like the data:
//
//   Tensor cA = make_tma_coord_tensor(make_shape(M, K));        // (M,K) -> (m,k)
//   Tensor cA_blk = local_tile(cA, make_shape(_64{}, _64{}), make_coord(bm, bk));  // (BLK_M,BLK_K)
//   TmaCoords c = coord_map(cA_blk(0, 0));                      // {k, m}: dimension 0 is A's stride-1 mode
//   arch::tma_load_2d(sA, &tmap_a, &bar, c[0], c[1]);
//
// A tensor with nested modes, e.g. M split as (2, M/2), has a TmaLeafCoordMap
// instead: its coordinate tensor's values are nested like its shape, and
// each leaf goes to its own TMA dimension (or, merged, into one).
//
// Host-compilable, no CUDA headers; every function is TESSERA_HOST_DEVICE.

#include <cstdint>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/identity.hpp"

namespace tessera {

// TMA coordinates, c[0] innermost. Unused trailing entries are 0.
struct TmaCoords {
  static constexpr int kMaxRank = 5;  // TMA's dimensions: 1 to 5
  int32_t c[kMaxRank] = {0, 0, 0, 0, 0};
  TESSERA_HOST_DEVICE constexpr int32_t operator[](int d) const { return c[d]; }
};

// Mode coordinates -> TMA coordinates of one tensor map (rank 1 to 5).
// @law apply(m)[d] == m[mode_of_dim[d]] for d < rank, and 0 for d >= rank
// @law mode_of_dim is a permutation of [0, rank)
struct TmaCoordMap {
  int rank = 2;
  int mode_of_dim[TmaCoords::kMaxRank] = {0, 1, 2, 3, 4};

  TESSERA_HOST_DEVICE constexpr TmaCoords apply(int64_t m0, int64_t m1 = 0, int64_t m2 = 0, int64_t m3 = 0,
                                                int64_t m4 = 0) const {
    // Selects rather than an indexed local array, which would live in local
    // memory (a stack frame in every kernel issuing TMA loads).
    TmaCoords r;
    for (int d = 0; d < rank && d < TmaCoords::kMaxRank; ++d) {
      int const mode = mode_of_dim[d];
      r.c[d] = int32_t(mode == 0 ? m0 : mode == 1 ? m1 : mode == 2 ? m2 : mode == 3 ? m3 : m4);
    }
    return r;
  }

  // A mode-coordinate tuple of 1 to 5 integers, e.g. a coordinate tensor's
  // value (or, for a rank-1 map, one integer).
  template <class Coord>
  TESSERA_HOST_DEVICE constexpr TmaCoords operator()(Coord const& mode_coord) const {
    if constexpr (!is_tuple_v<Coord>) {
      static_assert(is_integral_v<Coord>,
                    "TmaCoordMap: the mode coordinate must be a tuple [one integer per mode] or, rank 1, an integer");
      return apply(int64_t(mode_coord));
    } else {
      constexpr int n = tuple_size_v<Coord>;
      static_assert(n >= 1 && n <= TmaCoords::kMaxRank,
                    "TmaCoordMap: TMA maps built by make_tma_desc have rank 1 to 5");
      return [&]<int... I>(seq<I...>) { return apply(int64_t(get<I>(mode_coord))...); }(make_seq<n>{});
    }
  }
};

// Hierarchical mode coordinates -> TMA coordinates: the map of a global
// tensor with nested modes (make_tma_desc flattens them; tma_copy.hpp keeps
// this map in the copies it makes of such tensors). The coordinate is
// congruent with the global tensor's shape, e.g. ((i0, i1), k) for a tensor
// of shape ((2, 64), K) -- what make_tma_coord_tensor and local_tile of it
// give. Its leaves, in colexicographic order, each land on one TMA dimension,
// scaled by their weight within it (leaves merged into one dimension: the
// leaf's sub-mode starts weight elements into it; a leaf of static size 1
// lands nowhere, its coordinate being 0).
// @law apply(c)[d] == sum over leaves l with dim_of_leaf[l] == d of
//      leaf(c, l) * weight_of_leaf[l]; 0 for d >= rank
// @law a map of a flat tensor (leaves == modes, weights 1) gives what
//      TmaCoordMap gives: dim_of_leaf[mode_of_dim[d]] == d
struct TmaLeafCoordMap {
  static constexpr int kMaxLeaves = 8;
  int rank = 1;
  int leaves = 0;
  int dim_of_leaf[kMaxLeaves] = {-1, -1, -1, -1, -1, -1, -1, -1};
  int32_t weight_of_leaf[kMaxLeaves] = {1, 1, 1, 1, 1, 1, 1, 1};

  // A mode coordinate (a tuple congruent with the tensor's shape; or, for a
  // tensor of one flat mode, an integer).
  template <class Coord>
  TESSERA_HOST_DEVICE constexpr TmaCoords operator()(Coord const& mode_coord) const {
    auto const leaf = flatten_to_tuple(mode_coord);
    constexpr int n = tuple_size_v<std::remove_cvref_t<decltype(leaf)>>;
    static_assert(n >= 1 && n <= kMaxLeaves, "TmaLeafCoordMap: a TMA map's tensor has 1 to 8 leaves (flattened modes)");
    TESSERA_ASSERT(n == leaves);
    TmaCoords r;
    // Selects, as TmaCoordMap::apply, not an indexed local array.
    [&]<int... L>(seq<L...>) {
      auto add = [&](int l, int64_t x) {
        for (int d = 0; d < TmaCoords::kMaxRank; ++d)
          r.c[d] += dim_of_leaf[l] == d ? int32_t(x) * weight_of_leaf[l] : 0;
      };
      (add(L, int64_t(get<L>(leaf))), ...);
    }(make_seq<n>{});
    return r;
  }
};

// The coordinate tensor of a global tensor of shape `shape`: element c is the
// mode coordinate c itself. Tile it with local_tile like the data tensor; its
// (0, ...) element is the tile origin a TmaCoordMap turns into TMA coordinates.
// @law make_tma_coord_tensor(s)(c) == c for every coordinate c of s
// @law local_tile(make_tma_coord_tensor(s), box, t)(0, ...) == t * box (mode-wise),
//      also for the partial tiles at the edge (TMA zero-fills the rest)
template <class ShapeT>
TESSERA_HOST_DEVICE constexpr auto make_tma_coord_tensor(ShapeT const& shape) {
  return make_identity_tensor(shape);
}

}  // namespace tessera
