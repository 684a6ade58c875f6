// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The SVG pictures: well-formed documents whose panels cover every cell of a
// tile exactly once (a TV layout that missed or doubled a cell would show as
// a white or red-outlined cell, and fails here first).

#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <tessera/atom.hpp>
#include <tessera/viz/svg.hpp>

namespace {

using namespace tessera;

int count(std::string const& s, std::string const& what) {
  int n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

void expect_well_formed(std::string const& svg) {
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u) << svg.substr(0, 80);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "<g "), count(svg, "</g>"));
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>"));
  EXPECT_EQ(svg.find("<<"), std::string::npos);
}

template <class TV>
void expect_exact_cover(TV const& tv, int M, int N) {
  viz::SvgGrid g = viz::tv_grid("t", tv, M, N);
  for (int i = 0; i < M * N; ++i) EXPECT_EQ(g.hits[i], 1) << "cell " << i % M << "," << i / M;
}

TEST(VizSvg, MmaAtomPanels) {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{});
  std::ostringstream os;
  viz::svg_mma(os, mma, "SM80_16x8x16_F32F16F16F32_TN");
  std::string const svg = os.str();
  expect_well_formed(svg);
  // One cell rect per element of A (16x16), B (16x8), C (16x8), plus the background.
  EXPECT_EQ(count(svg, "<rect"), 16 * 16 + 16 * 8 + 16 * 8 + 1);
  EXPECT_EQ(count(svg, "stroke=\"#d00\""), 0);  // no doubly covered cell
  EXPECT_NE(svg.find(">T31<"), std::string::npos);
  expect_exact_cover(mma.get_layoutA_TV(), 16, 16);
  expect_exact_cover(mma.get_layoutC_TV(), 16, 8);
}

TEST(VizSvg, SeedTiledMmaCoversTile) {
  auto mma = make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  expect_exact_cover(mma.get_layoutC_TV(), 32, 32);
  // A is read by both N-warps: each (m,k) twice over 128 threads.
  viz::SvgGrid a = viz::tv_grid("A", mma.get_layoutA_TV(), 32, 16);
  for (int h : a.hits) EXPECT_EQ(h, 2);
  std::ostringstream os;
  viz::svg_mma(os, mma, "seed");
  expect_well_formed(os.str());
}

TEST(VizSvg, CopyPanels) {
  auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                            Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  expect_exact_cover(tc.get_layoutS_TV(), 16, 64);
  expect_exact_cover(tc.get_layoutD_TV(), 16, 64);
  std::ostringstream os;
  viz::svg_copy(os, tc, "g2s");
  expect_well_formed(os.str());
  EXPECT_EQ(count(os.str(), "<rect"), 2 * 16 * 64 + 1);
}

TEST(VizSvg, CopyAtomImage) {
  std::ostringstream os;
  viz::svg_copy_atom<Copy_Atom<SM75_U32x4_LDSM_N, half_t>>(os, 8, "ldsm x4");
  std::string const svg = os.str();
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "<rect"), 2 * 4 * 64 + 1);  // four 8x8 matrices, S and D
}

TEST(VizSvg, SwizzleBanks) {
  Swizzle<3, 3, 3> sw;
  std::ostringstream os;
  viz::svg_swizzle(os, [&](int r, int c) { return long(sw(r * 64 + c)); }, 8, 64, 2, "Sw<3,3,3>");
  std::string const svg = os.str();
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "<rect"), 8 * 64 + 1);
  // Each 16-byte column block of the 8 rows lands in 8 different bank groups.
  for (int cb = 0; cb < 8; ++cb) {
    int seen = 0;
    for (int r = 0; r < 8; ++r) seen |= 1 << (viz::smem_bank(long(sw(r * 64 + 8 * cb)), 2) / 4);
    EXPECT_EQ(seen, 0xff) << "column block " << cb;
  }
}

TEST(VizSvg, LayoutTable) {
  std::ostringstream os;
  viz::svg_layout(os, Layout<Shape<_4, _8>, Stride<_8, _1>>{}, "(4,8):(8,1)");
  std::string const svg = os.str();
  expect_well_formed(svg);
  EXPECT_NE(svg.find(">31<"), std::string::npos);
  EXPECT_EQ(count(svg, "<rect"), 32 + 1);
}

}  // namespace
