// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: row_align is the rows' alignment in bytes
//
// select_sm90_ws_variant's sixth argument is the alignment in bytes of every
// row of A and B (it was a bool, "rows 128-byte aligned", before session
// 11). A bool there would silently mean 1 or 0 bytes; it fails the build.
#include <tessera/gemm/sm90_ws_gemm.cuh>

int main() { return tessera::detail::select_sm90_ws_variant(1000, 1000, 1000, 132, 2, true).tile_m; }
