// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// `tessera demo [000|002|004]`: the example layouts of the seed documents,
// computed and printed by the layout algebra. Host only; no GPU needed.
#include "command.hpp"

#include <tessera/layout.hpp>

#include <cstdio>
#include <cstring>

namespace {

using namespace tessera;

void heading(char const* title) { std::printf("\n== %s\n\n", title); }

template <class L>
void show(char const* name, L const& layout) {
  std::printf("%s = ", name);
  print(layout);
  std::printf("\n");
}

// Seed 002, "core API and basic examples".
void seed_002() {
  heading("seed 002: a 4x8 matrix, row-major and column-major");
  auto layout_rm = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  auto layout_cm = make_layout(make_shape(_4{}, _8{}), make_stride(_1{}, _4{}));
  auto layout_default = make_layout(make_shape(_4{}, _8{}));
  show("layout_rm", layout_rm);
  print_layout(layout_rm);
  show("layout_cm", layout_cm);
  print_layout(layout_cm);
  // The seed's comment calls the default row-major; CuTe's default (and ours)
  // is the compact column-major stride, as printed here.
  show("make_layout(make_shape(_4{}, _8{}))", layout_default);
  std::printf("layout_rm(2, 3)             = %d   (2*8 + 3*1)\n", static_cast<int>(layout_rm(2, 3)));
  std::printf("layout_rm(make_coord(2, 3)) = %d\n", static_cast<int>(layout_rm(make_coord(2, 3))));

  heading("seed 002: a nested layout, (i,(j0,j1)) -> i*8 + j0*4 + j1");
  auto layout_nested = make_layout(make_shape(_4{}, make_shape(_2{}, _4{})),
                                   make_stride(_8{}, make_stride(_4{}, _1{})));
  show("layout_nested", layout_nested);
  print_layout(layout_nested);
  std::printf("layout_nested(1, make_coord(0, 3)) = %d   (8 + 3)\n",
              static_cast<int>(layout_nested(1, make_coord(0, 3))));

  heading("seed 002: tiled_divide(layout_rm, (2,4)): ((tile), tile_m, tile_n)");
  auto tiled = tiled_divide(layout_rm, make_shape(_2{}, _4{}));
  show("tiled_divide(layout_rm, make_shape(_2{}, _4{}))", tiled);
  std::printf("tile (1,1), element (1,2): %d   (row 2*1+1, column 4*1+2 of layout_rm)\n",
              static_cast<int>(tiled(make_coord(1, 2), 1, 1)));

  heading("seed 002: idx2crd / crd2idx, colexicographic (leftmost mode fastest)");
  auto shape = make_shape(_3{}, make_shape(_2{}, _3{}));
  std::printf("shape = ");
  print(shape);
  std::printf("\nidx2crd(5, shape) = ");
  print(idx2crd(5, shape));
  std::printf("   (5 = 2 + 3*1: coordinate 2, then 1 in (2,3) is (1,0))\n");
  std::printf("crd2idx((1,(1,2)), shape) = %d   (1 + 3*(1 + 2*2); the seed's comment says 5)\n",
              static_cast<int>(crd2idx(make_coord(1, make_coord(1, 2)), shape)));
}

// Prints, for an 8-row tile of 8 half-precision 16-byte chunks per row, which
// 4-bank group (chunk index mod 8) each chunk lands in, and whether a row of
// chunks (what one ldmatrix 8x8 phase reads in seed 000) touches all 8 groups.
template <class L>
void show_bank_groups(L const& layout) {
  for (int r = 0; r < 8; ++r) {
    unsigned seen = 0;
    std::printf("  row %d: ", r);
    for (int chunk = 0; chunk < 8; ++chunk) {
      int const offset = static_cast<int>(layout(r, chunk * 8));
      int const group = (offset / 8) % 8;  // 8 halves = 16 B = 4 banks
      seen |= 1u << group;
      std::printf("%d ", group);
    }
    std::printf(" %s\n", seen == 0xffu ? "all 8 bank groups: conflict-free" : "repeated bank group: conflicts");
  }
}

// Seed 000 §2.1.2: the swizzled shared-memory atom of the Ampere HGEMM.
void seed_000() {
  heading("seed 000: the smem atom (8,(8,8)):(8,(1,64)) before the swizzle");
  auto atom = Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{};
  show("atom", atom);
  std::printf("bank groups of the 8 chunks in each row:\n");
  show_bank_groups(atom);

  heading("seed 000: swizzle_atom = composition(Swizzle<3,3,3>{}, atom)");
  auto swizzle_atom = composition(Swizzle<3, 3, 3>{}, atom);
  show("swizzle_atom", swizzle_atom);
  print_layout(swizzle_atom);
  std::printf("bank groups of the 8 chunks in each row:\n");
  show_bank_groups(swizzle_atom);

  heading("seed 000: sA_layout = tile_to_shape(swizzle_atom, make_shape(bM, bK, bP)), 128x64, 3 stages");
  auto sA_layout = tile_to_shape(swizzle_atom, make_shape(_128{}, _64{}, _3{}));
  show("sA_layout", sA_layout);
  std::printf("cosize = %d halves per operand (= 128*64*3)\n", static_cast<int>(cosize(sA_layout)));
}

// Seed 004: the TiledMMA permutation and the Swizzle<3,3,3> example.
void seed_004() {
  heading("seed 004: the permutation Layout<Shape<_2,_4,_2>, Stride<_1,_4,_2>>");
  auto perm = Layout<Shape<_2, _4, _2>, Stride<_1, _4, _2>>{};
  show("perm", perm);
  std::printf("perm(i), i = 0..15:");
  for (int i = 0; i < 16; ++i) std::printf(" %d", static_cast<int>(perm(i)));
  std::printf("\nas a table, (2,(4,2)):(1,(4,2)):\n");
  print_layout(make_layout(make_shape(_2{}, make_shape(_4{}, _2{})),
                           make_stride(_1{}, make_stride(_4{}, _2{}))));

  heading("seed 004: composition(Swizzle<3,3,3>{}, (8,32):(32,1)), 8x32 halves, 16-byte chunks");
  auto swizzled = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{})));
  show("swizzled", swizzled);
  print_layout(swizzled);
}

int run_demo(int argc, char** argv) {
  struct section {
    char const* seed;
    void (*run)();
  };
  constexpr section sections[] = {{"002", seed_002}, {"000", seed_000}, {"004", seed_004}};
  if (argc > 1) {
    std::fprintf(stderr, "usage: tessera demo [000|002|004]\n");
    return 2;
  }
  bool found = false;
  for (section const& s : sections) {
    if (argc == 0 || std::strcmp(argv[0], s.seed) == 0) {
      s.run();
      found = true;
    }
  }
  if (!found) {
    std::fprintf(stderr, "tessera demo: no section '%s' (000, 002 or 004)\n", argv[0]);
    return 2;
  }
  return 0;
}

}  // namespace

TESSERA_TOOL_COMMAND(demo, "print the seed documents' example layouts (no GPU needed)", run_demo)
