// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Multicast slices of TMA boxes (tessera/tma/tma_slice.hpp): which mode a
// box cuts along, fixed answers for the GMMA tiles, and the laws over a
// corpus of boxes (every GMMA atom family, several tile shapes, element
// sizes and slice counts):
//   - slice t is the t-th contiguous N-th of the box's shared memory;
//   - the N slices cover the box exactly once;
//   - slice t of a TMA coordinate box holds the coordinates of the same
//     elements, so the slice's first element is where its TMA load starts.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "host_test.hpp"
#include "tessera/atom/gmma_smem_atoms.hpp"
#include "tessera/atom/numeric.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tma/tma_coord.hpp"
#include "tessera/tma/tma_slice.hpp"

namespace {

using namespace tessera;
using tessera::test::str;

template <class Atom, int B0, int B1>
using BoxOf = decltype(tile_to_shape(Atom{}, Shape<Int<B0>, Int<B1>>{}));

using KSw128 = BoxOf<GMMA::Layout_K_SW128_Atom<bfloat16_t>, 128, 64>;
using MNSw128 = BoxOf<GMMA::Layout_MN_SW128_Atom<bfloat16_t>, 128, 64>;

TEST(TmaSlice, FixedAnswersForGmmaTiles) {
  // K-major 128-byte swizzle: the rows are slowest (the 8-row atoms stack
  // along M), so the rows are cut.
  static_assert(tma_slice_mode_v<KSw128, 2> == 0 && tma_slice_mode_v<KSw128, 16> == 0);
  EXPECT_EQ(str(tma_slice_tiler<KSw128, 2>()), "(_64,_64):(_1,_128)");
  EXPECT_EQ(str(tma_slice_layout_t<KSw128, 2>{}), "Sw<3,3,3> o _0 o (_64,_64):(_64,_1)");
  // M-major: the atoms run along M first, so the K blocks are slowest.
  static_assert(tma_slice_mode_v<MNSw128, 2> == 1 && tma_slice_mode_v<MNSw128, 8> == 1);
  EXPECT_EQ(str(tma_slice_tiler<MNSw128, 4>()), "(_128,_16):(_1,_128)");
  EXPECT_EQ(str(tma_slice_layout_t<MNSw128, 2>{}), "Sw<3,3,3> o _0 o ((_64,_2),(_8,_4)):((_1,_512),(_64,_1024))");
  // One slice is the box.
  static_assert(tma_slice_mode_v<KSw128, 1> == 0);
  EXPECT_EQ(str(tma_slice_tiler<KSw128, 1>()), "(_128,_64):(_1,_128)");
}

TEST(TmaSlice, BoxesThatDoNotCut) {
  // 3 does not divide the 128 rows; 32 slices of 4 rows would be 512
  // bytes each, half a period of the 128-byte swizzle (16 slices of 8 rows
  // are whole periods).
  static_assert(tma_slice_mode_v<KSw128, 3> == -1 && tma_slice_mode_v<KSw128, 32> == -1);
  static_assert(tma_slice_mode_v<KSw128, 16> == 0);
  // K-major 64-byte swizzle atoms tile along M first, so K is cut, in 2.
  using KSw64 = BoxOf<GMMA::Layout_K_SW64_Atom<bfloat16_t>, 128, 64>;
  static_assert(tma_slice_mode_v<KSw64, 2> == 1 && tma_slice_mode_v<KSw64, 4> == -1);
  // The slowest sub-mode is the first of its mode: halves would be every
  // other element of mode 0, not a box.
  using Interleaved = Layout<Shape<Shape<_2, _4>, _8>, Stride<Stride<_32, _1>, _4>>;
  static_assert(tma_slice_mode_v<Interleaved, 2> == -1);
  // Not compact (a padded row): the box is not packed as TMA writes it.
  using Padded = Layout<Shape<_8, _64>, Stride<_72, _1>>;
  static_assert(tma_slice_mode_v<Padded, 2> == -1);
  // Dynamic layouts are not sliced (the slices are types).
  static_assert(tma_slice_mode_v<Layout<Shape<int, int>, Stride<int, _1>>, 2> == -1);
  SUCCEED();
}

// A tile too large for one TMA box is copied as the same contiguous cut:
// the smallest N in 2..16 whose pieces have rows of the swizzle width and
// extents of at most 256.
TEST(TmaSlice, TilesOfSeveralBoxes) {
  // One box: rows of exactly 128 bytes.
  static_assert(tma_boxes_v<KSw128, bfloat16_t> == 1);
  static_assert(tma_boxes_v<BoxOf<GMMA::Layout_K_SW128_Atom<float>, 128, 32>, float> == 1);
  static_assert(tma_boxes_v<BoxOf<GMMA::Layout_K_SW128_Atom<float_e4m3_t>, 128, 128>, float_e4m3_t> == 1);
  // K-major rows of 256 bytes: two boxes of 64 (bf16), 32 (f32), 128 (fp8) columns.
  static_assert(tma_boxes_v<BoxOf<GMMA::Layout_K_SW128_Atom<bfloat16_t>, 128, 128>, bfloat16_t> == 2);
  static_assert(tma_boxes_v<BoxOf<GMMA::Layout_K_SW128_Atom<float>, 128, 64>, float> == 2);
  static_assert(tma_boxes_v<BoxOf<GMMA::Layout_K_SW128_Atom<float_e4m3_t>, 128, 256>, float_e4m3_t> == 2);
  // Rows of 512 bytes: four boxes.
  static_assert(tma_boxes_v<BoxOf<GMMA::Layout_K_SW128_Atom<bfloat16_t>, 64, 256>, bfloat16_t> == 4);
  // More than 256 rows: a K-major 512x64 tile is two boxes of 256 rows.
  static_assert(tma_boxes_v<BoxOf<GMMA::Layout_K_SW128_Atom<bfloat16_t>, 512, 64>, bfloat16_t> == 2);
  // M-major 128x64 with the atoms stacked along K first (CUTLASS's order):
  // two 64x64 boxes; stacked along M first (the default order), the M
  // halves interleave with the K atoms: a grid of 16 boxes, one 64x8 atom
  // each, the two M halves of a K block adjacent.
  using MKFirst = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{}, Step<_2, _1>{}));
  static_assert(tma_boxes_v<MKFirst, bfloat16_t> == 2);
  EXPECT_EQ(str(tma_slice_layout_t<MKFirst, 2>{}), "Sw<3,3,3> o _0 o (_64,_64):(_1,_64)");
  static_assert(tma_boxes_v<MNSw128, bfloat16_t> == 16);
  constexpr TmaBoxCut grid = tma_box_cut_v<MNSw128, bfloat16_t>;
  static_assert(grid.mode[0] == 0 && grid.step[0] == 64 && grid.count == 2 && grid.mode[1] == 1 && grid.step[1] == 8);
  static_assert(grid.extent[0] == 64 && grid.extent[1] == 8);
  static_assert(decltype(size(tma_piece_layout_t<MNSw128, bfloat16_t>{}))::value == 512);
  // Interleaved K-major atoms (16-byte rows, no swizzle): the tile's extents
  // would fit one box, but TMA packs a box K first, so 8 boxes of 128x8.
  using KInter = BoxOf<GMMA::Layout_K_INTER_Atom<bfloat16_t>, 128, 64>;
  static_assert(tma_boxes_v<KInter, bfloat16_t> == 8);
  EXPECT_EQ(str(tma_piece_layout_t<KInter, bfloat16_t>{}), str(tma_slice_layout_t<KInter, 8>{}));
  // The 1-D cuts in the same terms: K-major 128x128 is 2 pieces along K.
  constexpr TmaBoxCut k2 = tma_box_cut_v<BoxOf<GMMA::Layout_K_SW128_Atom<bfloat16_t>, 128, 128>, bfloat16_t>;
  static_assert(k2.boxes == 2 && k2.mode[0] == 1 && k2.step[0] == 64 && k2.count == 2 && k2.step[1] == 0);
  // Unswizzled: rows of whole 16-byte units, extents of at most 256.
  static_assert(tma_boxes_v<Layout<Shape<_8, Int<200>>, Stride<Int<200>, _1>>, bfloat16_t> == 1);
  static_assert(tma_boxes_v<Layout<Shape<_512, _8>, Stride<_8, _1>>, bfloat16_t> == 2);
}

// The laws for one box type and slice count, checked element by element;
// false (nothing checked) when the box does not cut into N slices.
template <class Box, int N>
bool check_slices() {
  SCOPED_TRACE(str(Box{}) + " in " + std::to_string(N) + " slices");
  constexpr int J = tma_slice_mode_v<Box, N>;
  if constexpr (J < 0) {
    return false;
  } else {
  constexpr int S = int(decltype(size(Box{}))::value);
  auto const shp = product_each(shape(Box{}));
  int const e0 = int(get<0>(shp)), e1 = int(get<1>(shp));
  // Shared memory of the box: element offsets as values, read through views.
  std::vector<int> smem(S);
  for (int i = 0; i < S; ++i) smem[std::size_t(i)] = i;
  auto sX = make_tensor(smem.data(), Box{});
  auto cX = make_tma_coord_tensor(make_shape(e0 * 3, e1 * 2));  // a tensor of 3x2 boxes; take box (1, 1)
  auto gX = local_tile(cX, make_shape(Int<decltype(size<0>(Box{}))::value>{}, Int<decltype(size<1>(Box{}))::value>{}),
                       make_coord(1, 1));
  auto const tiler = tma_slice_tiler<Box, N>();
  using SliceL = tma_slice_layout_t<Box, N>;
  static_assert(decltype(size(tiler))::value * N == S);
  std::vector<int> seen(S, 0);
  for (int t = 0; t < N; ++t) {
    auto s = tma_slice_box<Box, N>(group_modes<0, 2>(sX), t);
    auto g = tma_slice_box<Box, N>(group_modes<0, 2>(gX), t);
    // With a mode of boxes after the box (as tma_partition's (TMA,k)).
    auto gk = tma_slice_box<Box, N>(
        group_modes<0, 2>(local_tile(cX, product_each(shape(Box{})), make_coord(1, _))), t);  // ((slice),k)
    static_assert(decltype(size(s))::value == S / N);
    for (int i = 0; i < S / N; ++i) {
      int const off = s(i);
      // Contiguous: slice t is elements [t S/N, (t+1) S/N) in the slice
      // layout's order (the same function, moved).
      EXPECT_EQ(off, t * (S / N) + SliceL{}(i)) << "slice " << t << " element " << i;
      ++seen[std::size_t(off)];
      // The slice's coordinates are the box's, shifted along mode J.
      int const b = int(tiler(i));  // colexicographic index in the box
      int b0 = b % e0, b1 = b / e0;
      (J == 0 ? b0 : b1) += t * (J == 0 ? e0 : e1) / N;
      auto const c = g(i);
      EXPECT_EQ(int(get<0>(c)), e0 + b0) << "slice " << t << " element " << i;
      EXPECT_EQ(int(get<1>(c)), e1 + b1) << "slice " << t << " element " << i;
      for (int k = 0; k < 2; ++k) {
        auto const ck = gk(i, k);
        EXPECT_EQ(int(get<0>(ck)), e0 + b0) << "slice " << t << " element " << i << " box " << k;
        EXPECT_EQ(int(get<1>(ck)), k * e1 + b1) << "slice " << t << " element " << i << " box " << k;
      }
      // ... and the shared element there is the box's element at them.
      EXPECT_EQ(off, int(Box{}(b0, b1))) << "slice " << t << " element " << i;
      if (::testing::Test::HasFailure()) return true;
    }
  }
  // Every element of the box lies in exactly one slice.
  for (int i = 0; i < S; ++i) EXPECT_EQ(seen[std::size_t(i)], 1) << "offset " << i;
  return true;
  }
}

// How many of the eight GMMA atom families' B0 x B1 boxes cut into N
// slices, each of them checked.
template <class T, int B0, int B1, int N>
int check_families() {
  return int(check_slices<BoxOf<GMMA::Layout_K_INTER_Atom<T>, B0, B1>, N>()) +
         int(check_slices<BoxOf<GMMA::Layout_K_SW32_Atom<T>, B0, B1>, N>()) +
         int(check_slices<BoxOf<GMMA::Layout_K_SW64_Atom<T>, B0, B1>, N>()) +
         int(check_slices<BoxOf<GMMA::Layout_K_SW128_Atom<T>, B0, B1>, N>()) +
         int(check_slices<BoxOf<GMMA::Layout_MN_INTER_Atom<T>, B0, B1>, N>()) +
         int(check_slices<BoxOf<GMMA::Layout_MN_SW32_Atom<T>, B0, B1>, N>()) +
         int(check_slices<BoxOf<GMMA::Layout_MN_SW64_Atom<T>, B0, B1>, N>()) +
         int(check_slices<BoxOf<GMMA::Layout_MN_SW128_Atom<T>, B0, B1>, N>());
}

// @law slice t of the box is its t-th contiguous N-th, in the slice layout's
//      order; the slices partition the box; a slice's TMA coordinates are
//      those of the same elements (tma_slice_box of a coordinate box).
TEST(TmaSlice, SlicesPartitionTheBoxContiguously) {
  int const checked = check_families<bfloat16_t, 128, 64, 2>() + check_families<bfloat16_t, 128, 64, 4>() +
                      check_families<bfloat16_t, 256, 64, 8>() + check_families<float, 128, 32, 2>() +
                      check_families<float, 64, 64, 4>() + check_families<float_e4m3_t, 128, 128, 2>();
  std::printf("%d of 48 GMMA family boxes cut and checked\n", checked);
  EXPECT_EQ(checked, 44);
  // A 3-way cut where 3 divides the slowest sub-mode.
  EXPECT_TRUE((check_slices<BoxOf<GMMA::Layout_K_SW128_Atom<bfloat16_t>, 192, 64>, 3>()));
  // Swizzle-free and written without atoms.
  EXPECT_TRUE((check_slices<Layout<Shape<_32, _16>, Stride<_16, _1>>, 4>()));
  EXPECT_TRUE((check_slices<Layout<Shape<_32, _16>, Stride<_1, _32>>, 8>()));
}

// The law of a tile's cut into boxes, element by element: piece t starts at
// ((t % count) * step[0], (t / count) * step[1]) along modes (mode[0],
// mode[1]), lies t * P elements into the tile (P = size / boxes) laid out
// as the piece layout, keeps the box rules, and the pieces cover the tile
// once. Returns the number of boxes of a grid cut (pieces along both
// modes), 0 for a one-mode cut or one box (those are checked too).
template <class Tile, class T>
int check_pieces() {
  constexpr TmaBoxCut cut = tma_box_cut_v<Tile, T>;
  if constexpr (cut.boxes == 1) {
    return 0;
  } else {
    SCOPED_TRACE(str(Tile{}) + " in " + std::to_string(cut.boxes) + " boxes");
    using Piece = tma_piece_layout_t<Tile, T>;
    static_assert(detail::tma_piece_fits<Piece, T>(), "a piece breaks the box rules");
    constexpr int S = int(decltype(size(Tile{}))::value);
    constexpr int P = S / cut.boxes;
    static_assert(int(decltype(size(Piece{}))::value) == P);
    std::vector<int> seen(S, 0);
    for (int t = 0; t < cut.boxes; ++t) {
      int o[2] = {0, 0};
      o[cut.mode[0]] += (t % cut.count) * cut.step[0];
      o[cut.mode[1]] += (t / cut.count) * cut.step[1];
      for (int y = 0; y < cut.extent[1]; ++y)
        for (int x = 0; x < cut.extent[0]; ++x) {
          int const off = int(Tile{}(o[0] + x, o[1] + y));
          EXPECT_EQ(off, t * P + int(Piece{}(x, y))) << "box " << t << " element (" << x << "," << y << ")";
          EXPECT_TRUE(off >= 0 && off < S) << "box " << t << " element (" << x << "," << y << ")";
          if (::testing::Test::HasFailure()) return cut.boxes;
          ++seen[std::size_t(off)];
        }
    }
    for (int i = 0; i < S; ++i) EXPECT_EQ(seen[std::size_t(i)], 1) << "offset " << i;
    return cut.count < cut.boxes ? cut.boxes : 0;
  }
}

template <class T, int B0, int B1>
int check_family_pieces() {
  return check_pieces<BoxOf<GMMA::Layout_K_INTER_Atom<T>, B0, B1>, T>() +
         check_pieces<BoxOf<GMMA::Layout_K_SW32_Atom<T>, B0, B1>, T>() +
         check_pieces<BoxOf<GMMA::Layout_K_SW64_Atom<T>, B0, B1>, T>() +
         check_pieces<BoxOf<GMMA::Layout_K_SW128_Atom<T>, B0, B1>, T>() +
         check_pieces<BoxOf<GMMA::Layout_MN_INTER_Atom<T>, B0, B1>, T>() +
         check_pieces<BoxOf<GMMA::Layout_MN_SW32_Atom<T>, B0, B1>, T>() +
         check_pieces<BoxOf<GMMA::Layout_MN_SW64_Atom<T>, B0, B1>, T>() +
         check_pieces<BoxOf<GMMA::Layout_MN_SW128_Atom<T>, B0, B1>, T>();
}

// @law the boxes of a cut tile are its contiguous pieces, each the piece
//      layout moved by t * P, together the whole tile (one-mode and grid
//      cuts, every GMMA atom family in the default M/N-first order and in
//      K-first order, three element sizes).
TEST(TmaSlice, BoxesPartitionTheTile) {
  int const boxes = check_family_pieces<bfloat16_t, 128, 64>() + check_family_pieces<bfloat16_t, 128, 128>() +
                    check_family_pieces<bfloat16_t, 64, 256>() + check_family_pieces<float, 128, 32>() +
                    check_family_pieces<float, 64, 64>() + check_family_pieces<float_e4m3_t, 128, 128>() +
                    check_pieces<decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<bfloat16_t>{}, Shape<_128, _64>{},
                                                        Step<_2, _1>{})),
                                 bfloat16_t>() +
                    check_pieces<decltype(tile_to_shape(GMMA::Layout_MN_SW64_Atom<float>{}, Shape<_64, _32>{})), float>();
  std::printf("%d boxes in grid cuts\n", boxes);
  EXPECT_EQ(boxes, 608);
}

}  // namespace
