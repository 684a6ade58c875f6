// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// `tessera svg`: SVG pictures of the atoms and of seed 000's tiled layouts.
//
//   tessera svg mma <ATOM> out.svg          one MMA atom (A, B, C panels)
//   tessera svg mma seed000 out.svg         seed 000's 2x2 TiledMMA, Tile<32,32,16>
//   tessera svg copy <ATOM> out.svg         one copy atom's source/destination image
//   tessera svg copy seed000-g2s out.svg    the cp.async (16,8)x(1,8) TiledCopy
//   tessera svg copy seed000-s2r-a out.svg  make_tiled_copy_A(LDSM x4, seed MMA)
//   tessera svg copy seed000-s2r-b out.svg  make_tiled_copy_B(LDSM x4, seed MMA)
//   tessera svg swizzle <B> <M> <S> <rows> <cols> out.svg
//                                           a rows x cols 16-bit tile through
//                                           Swizzle<B,M,S> o row-major, coloured by bank
//   tessera svg list                        the atom names
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <tessera/atom.hpp>
#include <tessera/layout.hpp>
#include <tessera/viz/svg.hpp>

#include "command.hpp"

namespace {

using namespace tessera;

using Writer = std::function<void(std::ostream&)>;

template <class Op>
std::pair<std::string, Writer> mma_entry(char const* name) {
  return {name, [name](std::ostream& os) { viz::svg_mma(os, make_tiled_mma(Op{}), name); }};
}

template <class Op, class T>
std::pair<std::string, Writer> copy_entry(char const* name, int row_elems) {
  return {name, [name, row_elems](std::ostream& os) { viz::svg_copy_atom<Copy_Atom<Op, T>>(os, row_elems, name); }};
}

auto seed_mma() { return make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{}); }

std::vector<std::pair<std::string, Writer>> mma_table() {
  return {
      mma_entry<SM80_16x8x8_F16F16F16F16_TN>("SM80_16x8x8_F16F16F16F16_TN"),
      mma_entry<SM80_16x8x16_F16F16F16F16_TN>("SM80_16x8x16_F16F16F16F16_TN"),
      mma_entry<SM80_16x8x8_F32F16F16F32_TN>("SM80_16x8x8_F32F16F16F32_TN"),
      mma_entry<SM80_16x8x16_F32F16F16F32_TN>("SM80_16x8x16_F32F16F16F32_TN"),
      mma_entry<SM80_16x8x8_F32BF16BF16F32_TN>("SM80_16x8x8_F32BF16BF16F32_TN"),
      mma_entry<SM80_16x8x16_F32BF16BF16F32_TN>("SM80_16x8x16_F32BF16BF16F32_TN"),
      mma_entry<SM80_16x8x4_F32TF32TF32F32_TN>("SM80_16x8x4_F32TF32TF32F32_TN"),
      mma_entry<SM80_16x8x8_F32TF32TF32F32_TN>("SM80_16x8x8_F32TF32TF32F32_TN"),
      mma_entry<SM80_8x8x4_F64F64F64F64_TN>("SM80_8x8x4_F64F64F64F64_TN"),
      mma_entry<SM80_8x8x16_S32S8S8S32_TN>("SM80_8x8x16_S32S8S8S32_TN"),
      mma_entry<SM80_16x8x16_S32S8S8S32_TN>("SM80_16x8x16_S32S8S8S32_TN"),
      mma_entry<SM80_16x8x32_S32S8S8S32_TN>("SM80_16x8x32_S32S8S8S32_TN"),
      {"seed000", [](std::ostream& os) { viz::svg_mma(os, seed_mma(), "seed000 2x2 SM80_16x8x8 Tile<32,32,16>"); }},
  };
}

std::vector<std::pair<std::string, Writer>> copy_table() {
  return {
      copy_entry<SM75_U32x1_LDSM_N, half_t>("SM75_U32x1_LDSM_N", 8),
      copy_entry<SM75_U32x2_LDSM_N, half_t>("SM75_U32x2_LDSM_N", 8),
      copy_entry<SM75_U32x4_LDSM_N, half_t>("SM75_U32x4_LDSM_N", 8),
      copy_entry<SM75_U16x2_LDSM_T, half_t>("SM75_U16x2_LDSM_T", 8),
      copy_entry<SM75_U16x4_LDSM_T, half_t>("SM75_U16x4_LDSM_T", 8),
      copy_entry<SM75_U16x8_LDSM_T, half_t>("SM75_U16x8_LDSM_T", 8),
      copy_entry<SM90_U32x1_STSM_N, half_t>("SM90_U32x1_STSM_N", 8),
      copy_entry<SM90_U32x2_STSM_N, half_t>("SM90_U32x2_STSM_N", 8),
      copy_entry<SM90_U32x4_STSM_N, half_t>("SM90_U32x4_STSM_N", 8),
      copy_entry<SM90_U16x2_STSM_T, half_t>("SM90_U16x2_STSM_T", 8),
      copy_entry<SM90_U16x4_STSM_T, half_t>("SM90_U16x4_STSM_T", 8),
      copy_entry<SM90_U16x8_STSM_T, half_t>("SM90_U16x8_STSM_T", 8),
      copy_entry<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>("SM80_CP_ASYNC_CACHEALWAYS", 8),
      copy_entry<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>("SM80_CP_ASYNC_CACHEGLOBAL", 8),
      copy_entry<UniversalCopy<uint128_t>, half_t>("UniversalCopy", 8),
      {"seed000-g2s",
       [](std::ostream& os) {
         auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                   Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
         viz::svg_copy(os, tc, "seed000 g2s cp.async (16,8)x(1,8)");
       }},
      {"seed000-s2r-a",
       [](std::ostream& os) {
         viz::svg_copy(os, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, seed_mma()), "seed000 s2r A");
       }},
      {"seed000-s2r-b",
       [](std::ostream& os) {
         viz::svg_copy(os, make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, seed_mma()), "seed000 s2r B");
       }},
  };
}

int write_file(std::string const& path, Writer const& w) {
  std::ofstream f(path);
  if (!f) {
    std::fprintf(stderr, "tessera svg: cannot write %s\n", path.c_str());
    return 1;
  }
  w(f);
  std::printf("wrote %s\n", path.c_str());
  return f.good() ? 0 : 1;
}

int usage() {
  std::fprintf(stderr,
               "usage: tessera svg mma <ATOM|seed000> out.svg\n"
               "       tessera svg copy <ATOM|seed000-g2s|seed000-s2r-a|seed000-s2r-b> out.svg\n"
               "       tessera svg swizzle <B> <M> <S> <rows> <cols> out.svg\n"
               "       tessera svg list\n");
  return 2;
}

template <int B, int M, int S>
Writer swizzle_writer(int rows, int cols) {
  return [rows, cols](std::ostream& os) {
    Swizzle<B, M, S> sw;
    std::string const title = "Swizzle<" + std::to_string(B) + "," + std::to_string(M) + "," + std::to_string(S) +
                              "> o (" + std::to_string(rows) + "," + std::to_string(cols) + "):(" +
                              std::to_string(cols) + ",1), 16-bit";
    viz::svg_swizzle(os, [&](int r, int c) { return long(sw(r * cols + c)); }, rows, cols, 2, title);
  };
}

// Swizzle parameters are template arguments: the common ones for 16-bit tiles.
Writer find_swizzle(int b, int m, int s, int rows, int cols) {
  if (b == 0 && m == 3 && s == 3) return swizzle_writer<0, 3, 3>(rows, cols);
  if (b == 1 && m == 3 && s == 3) return swizzle_writer<1, 3, 3>(rows, cols);
  if (b == 2 && m == 3 && s == 3) return swizzle_writer<2, 3, 3>(rows, cols);
  if (b == 3 && m == 3 && s == 3) return swizzle_writer<3, 3, 3>(rows, cols);
  if (b == 2 && m == 4 && s == 3) return swizzle_writer<2, 4, 3>(rows, cols);
  if (b == 3 && m == 4 && s == 3) return swizzle_writer<3, 4, 3>(rows, cols);
  return {};
}

int run_svg(int argc, char** argv) {
  if (argc < 1) return usage();
  std::string const kind = argv[0];
  if (kind == "list") {
    std::printf("mma:");
    for (auto const& e : mma_table()) std::printf(" %s", e.first.c_str());
    std::printf("\ncopy:");
    for (auto const& e : copy_table()) std::printf(" %s", e.first.c_str());
    std::printf("\nswizzle: B M S in {0,1,2,3}x3x3, {2,3}x4x3\n");
    return 0;
  }
  if (kind == "mma" || kind == "copy") {
    if (argc != 3) return usage();
    for (auto const& e : kind == "mma" ? mma_table() : copy_table())
      if (e.first == argv[1]) return write_file(argv[2], e.second);
    std::fprintf(stderr, "tessera svg: unknown %s '%s' (see `tessera svg list`)\n", kind.c_str(), argv[1]);
    return 2;
  }
  if (kind == "swizzle") {
    if (argc != 7) return usage();
    int const b = std::atoi(argv[1]), m = std::atoi(argv[2]), s = std::atoi(argv[3]);
    int const rows = std::atoi(argv[4]), cols = std::atoi(argv[5]);
    if (rows <= 0 || cols <= 0 || rows * cols > 64 * 256) {
      std::fprintf(stderr, "tessera svg: rows and cols must be positive (at most 16384 cells)\n");
      return 2;
    }
    Writer w = find_swizzle(b, m, s, rows, cols);
    if (!w) {
      std::fprintf(stderr, "tessera svg: Swizzle<%d,%d,%d> not offered (see `tessera svg list`)\n", b, m, s);
      return 2;
    }
    return write_file(argv[6], w);
  }
  return usage();
}

}  // namespace

TESSERA_TOOL_COMMAND(svg, "SVG pictures of MMA/copy atoms, seed 000's tiled layouts and swizzled smem banks", run_svg)
