// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Pictures of layouts as standalone SVG (no TeX): write to any std::ostream,
// open in a browser.
//
//   svg_layout(os, layout)            a rank-1 or rank-2 layout as its index table
//   svg_tv_layout(os, tv, M, N)       one (thr,val) -> m + M*n layout over an M x N grid
//   svg_mma(os, tiled_mma)            A (M x K), B (K x N) and C (M x N) panels:
//                                     which thread holds which value, coloured by thread
//   svg_copy(os, tiled_copy)          S and D panels of a TiledCopy's tile
//   svg_copy_atom<Atom>(os)           one Copy_Atom's src/dst bit image in elements
//   svg_swizzle(os, fn, M, N, bytes)  an M x N shared-memory tile, each element
//                                     labelled with its offset and coloured by bank
//
// Every grid cell shows "T<thr>" over "V<val>" (or the offset); a cell no
// thread reaches is left white, and a cell two threads write is outlined red
// (the pictures double as a coverage check).

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <tessera/atom.hpp>
#include <tessera/layout.hpp>

namespace tessera::viz {

// One grid of labelled cells.
struct SvgGrid {
  std::string title;
  int rows = 0;
  int cols = 0;
  std::vector<std::string> top;     // first text line per cell (row-major)
  std::vector<std::string> bottom;  // second text line per cell
  std::vector<int> color;           // colour key per cell, -1 = blank
  std::vector<int> hits;            // how many (thr,val) pairs landed on the cell
  std::string row_label = "m";
  std::string col_label = "n";

  SvgGrid(std::string t, int r, int c)
      : title(std::move(t)), rows(r), cols(c), top(r * c), bottom(r * c), color(r * c, -1), hits(r * c, 0) {}

  void set(int r, int c, std::string a, std::string b, int key) {
    int const i = r * cols + c;
    if (hits[i] == 0) {
      top[i] = std::move(a);
      bottom[i] = std::move(b);
      color[i] = key;
    }
    ++hits[i];
  }
};

namespace detail {

inline constexpr int kCell = 34;    // cell edge in px
inline constexpr int kMargin = 28;  // room for titles and indices

// Distinct, readable fills: the hue walks by the golden angle, the lightness
// alternates so that neighbouring keys differ even at 32+ threads.
inline std::string fill_for(int key) {
  if (key < 0) return "#ffffff";
  int const hue = (key * 137) % 360;
  int const light = 72 + 10 * (key % 2);
  return "hsl(" + std::to_string(hue) + ",70%," + std::to_string(light) + "%)";
}

inline std::string escape(std::string const& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '<') out += "&lt;";
    else if (ch == '>') out += "&gt;";
    else if (ch == '&') out += "&amp;";
    else out += ch;
  }
  return out;
}

inline int grid_width(SvgGrid const& g) { return 2 * kMargin + g.cols * kCell; }
inline int grid_height(SvgGrid const& g) { return 2 * kMargin + g.rows * kCell; }

// Draws `g` with its top-left corner at (x, y); `transpose` draws cell (r,c) at column r, row c.
inline void draw_grid(std::ostream& os, SvgGrid const& g, int x, int y) {
  os << "<g transform=\"translate(" << x << "," << y << ")\">\n";
  os << "<text x=\"" << kMargin << "\" y=\"14\" font-size=\"13\" font-weight=\"bold\">" << escape(g.title)
     << "</text>\n";
  for (int c = 0; c < g.cols; ++c) {
    os << "<text x=\"" << kMargin + c * kCell + kCell / 2 << "\" y=\"" << kMargin - 3
       << "\" font-size=\"9\" text-anchor=\"middle\" fill=\"#555\">" << c << "</text>\n";
  }
  for (int r = 0; r < g.rows; ++r) {
    os << "<text x=\"" << kMargin - 3 << "\" y=\"" << kMargin + r * kCell + kCell / 2 + 3
       << "\" font-size=\"9\" text-anchor=\"end\" fill=\"#555\">" << r << "</text>\n";
    for (int c = 0; c < g.cols; ++c) {
      int const i = r * g.cols + c;
      int const px = kMargin + c * kCell;
      int const py = kMargin + r * kCell;
      char const* stroke = g.hits[i] > 1 ? "#d00" : "#333";
      os << "<rect x=\"" << px << "\" y=\"" << py << "\" width=\"" << kCell << "\" height=\"" << kCell
         << "\" fill=\"" << fill_for(g.color[i]) << "\" stroke=\"" << stroke << "\" stroke-width=\""
         << (g.hits[i] > 1 ? 2 : 0.5) << "\"/>\n";
      if (!g.top[i].empty()) {
        os << "<text x=\"" << px + kCell / 2 << "\" y=\"" << py + 14
           << "\" font-size=\"9\" text-anchor=\"middle\">" << escape(g.top[i]) << "</text>\n";
      }
      if (!g.bottom[i].empty()) {
        os << "<text x=\"" << px + kCell / 2 << "\" y=\"" << py + 26
           << "\" font-size=\"9\" text-anchor=\"middle\">" << escape(g.bottom[i]) << "</text>\n";
      }
    }
  }
  os << "</g>\n";
}

inline void begin_svg(std::ostream& os, int w, int h) {
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
     << "\" font-family=\"monospace\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}
inline void end_svg(std::ostream& os) { os << "</svg>\n"; }

}  // namespace detail

// Fills an M x N grid from a (thr,val) -> m + M*n layout; with `transpose`
// cell (m,n) is drawn at row n, column m (B drawn K x N).
template <class TVLayout>
SvgGrid tv_grid(std::string title, TVLayout const& tv, int M, int N, bool transpose = false) {
  SvgGrid g(std::move(title), transpose ? N : M, transpose ? M : N);
  int const T = int(size<0>(tv));
  int const V = int(size<1>(tv));
  for (int t = 0; t < T; ++t) {
    for (int v = 0; v < V; ++v) {
      int const idx = int(tv(t, v));
      int const m = idx % M;
      int const n = idx / M;
      if (n >= N) continue;
      if (transpose) g.set(n, m, "T" + std::to_string(t), "V" + std::to_string(v), t);
      else g.set(m, n, "T" + std::to_string(t), "V" + std::to_string(v), t);
    }
  }
  return g;
}

// A rank-1 (one column) or rank-2 layout: cell (m,n) shows layout(m,n).
template <class L>
void svg_layout(std::ostream& os, L const& layout, std::string const& title = "layout") {
  constexpr int R = decltype(rank(layout))::value;
  static_assert(R == 1 || R == 2, "svg_layout: the layout must be rank 1 or 2 [group_modes first]");
  int const M = int(size<0>(layout));
  int N = 1;
  if constexpr (R == 2) N = int(size<1>(layout));
  SvgGrid g(title, M, N);
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      int idx;
      if constexpr (R == 2) idx = int(layout(m, n));
      else idx = int(layout(m));
      g.set(m, n, std::to_string(idx), "", idx % 8);
    }
  }
  detail::begin_svg(os, detail::grid_width(g), detail::grid_height(g));
  detail::draw_grid(os, g, 0, 0);
  detail::end_svg(os);
}

// One TV layout over an M x N grid.
template <class TVLayout>
void svg_tv_layout(std::ostream& os, TVLayout const& tv, int M, int N, std::string const& title = "(thr,val)") {
  SvgGrid g = tv_grid(title, tv, M, N);
  detail::begin_svg(os, detail::grid_width(g), detail::grid_height(g));
  detail::draw_grid(os, g, 0, 0);
  detail::end_svg(os);
}

// The three operand panels of a TiledMMA: A left (M x K), B top (K x N),
// C below B (M x N), so rows of A and columns of B meet in C.
template <class... Args>
void svg_mma(std::ostream& os, TiledMMA<Args...> const& mma, std::string const& name = "TiledMMA") {
  int const M = int(tile_size<0>(mma));
  int const N = int(tile_size<1>(mma));
  int const K = int(tile_size<2>(mma));
  SvgGrid a = tv_grid("A " + name + " (M x K)", mma.get_layoutA_TV(), M, K);
  SvgGrid b = tv_grid("B (K x N)", mma.get_layoutB_TV(), N, K, /*transpose=*/true);
  SvgGrid c = tv_grid("C (M x N)", mma.get_layoutC_TV(), M, N);
  // Warps that differ only in N (M) read the same A (B) values: sharing is
  // expected there, so only C marks doubly covered cells.
  for (int& h : a.hits) h = h > 1 ? 1 : h;
  for (int& h : b.hits) h = h > 1 ? 1 : h;
  int const left = detail::grid_width(a);
  int const top = detail::grid_height(b);
  detail::begin_svg(os, left + detail::grid_width(c), top + detail::grid_height(c));
  detail::draw_grid(os, b, left, 0);
  detail::draw_grid(os, a, 0, top);
  detail::draw_grid(os, c, left, top);
  detail::end_svg(os);
}

// S and D panels of a TiledCopy, side by side, over its (M,N) tile.
template <class... Args>
void svg_copy(std::ostream& os, TiledCopy<Args...> const&, std::string const& name = "TiledCopy") {
  using TC = TiledCopy<Args...>;
  using Tile = typename TC::TileShape_MN;  // a tile of layouts draws over their domains
  int const M = int(product(get<0>(Tile{})));
  int const N = int(product(get<1>(Tile{})));
  SvgGrid s = tv_grid("S " + name, TC::get_layoutS_TV(), M, N);
  SvgGrid d = tv_grid("D", TC::get_layoutD_TV(), M, N);
  detail::begin_svg(os, detail::grid_width(s) + detail::grid_width(d), detail::grid_height(s));
  detail::draw_grid(os, s, 0, 0);
  detail::draw_grid(os, d, detail::grid_width(s), 0);
  detail::end_svg(os);
}

// One Copy_Atom: its source and destination images in elements, laid out as
// rows of `row_elems` elements (8 halves = one 16-byte ldmatrix row).
template <class CopyAtom>
void svg_copy_atom(std::ostream& os, int row_elems, std::string const& name = "Copy_Atom") {
  auto fill = [&](std::string title, auto tv) {
    int const T = int(size<0>(tv));
    int const V = int(size<1>(tv));
    int max_off = 0;
    for (int t = 0; t < T; ++t)
      for (int v = 0; v < V; ++v) max_off = int(tv(t, v)) > max_off ? int(tv(t, v)) : max_off;
    int const rows = (max_off + row_elems) / row_elems;
    SvgGrid g(std::move(title), rows, row_elems);
    for (int t = 0; t < T; ++t) {
      for (int v = 0; v < V; ++v) {
        int const off = int(tv(t, v));
        // Source images repeat lanes (stride 0): only the first lane counts.
        int const i = (off / row_elems) * row_elems + off % row_elems;
        if (g.hits[i] == 0) g.set(off / row_elems, off % row_elems, "T" + std::to_string(t), "V" + std::to_string(v), t);
      }
    }
    return g;
  };
  SvgGrid s = fill("S " + name, typename CopyAtom::ValLayoutSrc{});
  SvgGrid d = fill("D", typename CopyAtom::ValLayoutDst{});
  detail::begin_svg(os, detail::grid_width(s) + detail::grid_width(d),
                    std::max(detail::grid_height(s), detail::grid_height(d)));
  detail::draw_grid(os, s, 0, 0);
  detail::draw_grid(os, d, detail::grid_width(s), 0);
  detail::end_svg(os);
}

// Bank of an element offset: 32 banks of 4 bytes.
inline int smem_bank(long offset_elems, int elem_bytes) { return int((offset_elems * elem_bytes / 4) % 32); }

// An M x N shared-memory tile: cell (m,n) shows offset(m,n) and is coloured
// by its 4-bank group (16 bytes), the unit ldmatrix and 128-bit accesses use.
template <class OffsetFn>
void svg_swizzle(std::ostream& os, OffsetFn const& offset, int M, int N, int elem_bytes,
                 std::string const& title = "smem banks") {
  SvgGrid g(title, M, N);
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      long const off = long(offset(m, n));
      int const bank = smem_bank(off, elem_bytes);
      g.set(m, n, std::to_string(off), "b" + std::to_string(bank), bank / 4);
    }
  }
  detail::begin_svg(os, detail::grid_width(g), detail::grid_height(g));
  detail::draw_grid(os, g, 0, 0);
  detail::end_svg(os);
}

}  // namespace tessera::viz
