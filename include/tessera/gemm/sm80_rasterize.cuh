// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Grid rasterisation of the Ampere tensor-core kernels (sm80_tensorop.cuh,
// sm80_tiled.cuh): 1-D block index -> (M-tile, N-tile).

#include <tessera/config.hpp>

namespace tessera::kernels::sm80 {

// NOTE: CTAs are launched in groups of group_m consecutive M-tiles per
// N-column (1-D grid, swizzled block order). A wave of 132 CTAs on H100 then
// touches ~8 A row-panels and ~17 B column-panels instead of 1 A panel and
// 132 B panels, so the operands of a wave fit in the 50 MB L2 and DRAM reads
// drop to ~once per panel per wave.
// The group size is a run-time parameter (Params::raster_group, default
// kRasterGroupM in sm80_config.hpp) so one build can compare several.

TESSERA_HOST_DEVICE TESSERA_INLINE void rasterize(int tile, int tiles_m, int tiles_n, int raster_group, int& tm,
                                                  int& tn) {
  int const per_group = raster_group * tiles_n;
  int const group = tile / per_group;
  int const first_m = group * raster_group;
  int const rest = tiles_m - first_m;
  int const group_m = rest < raster_group ? rest : raster_group;
  int const in_group = tile - group * per_group;
  tm = first_m + in_group % group_m;
  tn = in_group / group_m;
}

}  // namespace tessera::kernels::sm80
