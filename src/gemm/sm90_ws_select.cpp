// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// sm90_ws_gemm's per-shape rule (select_sm90_ws_variant, declared in
// tessera/gemm/sm90_ws_variant.hpp): which tile, schedule, cluster, epilogue,
// split and orientation the default launch takes, with the measurements
// behind each clause. Host code; the launcher (kernels/sm90_ws_gemm.cu) maps
// the variant onto a kernel configuration.
#include <tessera/gemm/sm90_ws_variant.hpp>

#include <cstdint>
#include <optional>

#include "gemm/split_k.hpp"

namespace tessera::detail {
namespace {

// NOTE: per-shape selection (default launch). Measured on an H200 (run 9,
// 2026-11-22, bf16 TN, D col-major, ratio to cuBLAS in the same run, median
// of 30). The TMA-store epilogue (registers -> swizzled smem -> TMA store)
// beat the direct register stores everywhere: cooperative 128x256 g16
// 4096^3 1.00 (direct 0.90), 8192^3 1.05 = 818.6 TFLOP/s (0.99),
// 16384^3 1.00 (0.97), 4096x6144x4096 0.99 (0.92), 4096x28672x4096 1.01
// (0.94), 4096x4096x14336 1.00 (1.00), 16384x8192x1024 0.97 (0.78);
// ping-pong 128x128 g8 with it: 0.95, 0.98, 0.91, 0.94, 0.95, 0.90, 0.97.
// Ping-pong 128x128 + TMA store won where the 128x256 tiling leaves SMs idle
// or quantises badly: 4095x4097x4093 6.29x (coop 5.79x), 5120x5120x4096 0.88
// (0.87), 1024^3 0.67 (0.50), 1000^3 0.74 (0.59), 128x8192x8192 0.84 (0.52),
// 64x28672x4096 0.82 (0.50), 16x4096x14336 0.51 (0.29) -- and it also beat
// split-K on every one of those (split-K default of run 9: 0.38, 0.48, 0.51,
// 0.81, 0.50), so split-K stays an explicit variant, not a default.
// Rule: efficiency(tiling) = useful m*n / (waves * sms * tile area).
// Ping-pong 128x128 when K < 2048 (the epilogue is a large share of a short
// tile; 16384x8192x1024 measured 0.97 for both), or when ping-pong's
// efficiency beats the cooperative one by more than 0.05 (4095x4097x4093:
// 0.970 vs 0.776); otherwise cooperative g16 (4096x28672x4096: 0.987 vs
// 0.970 stays cooperative, measured 1.01 vs 0.95), with its last wave split
// along K when that wave is at most half full (choose_tail_splits; it counts
// in the cooperative efficiency: 5120x5120x4096, 800 tiles = 6 waves + 8
// tiles, 0.866 -> 0.974 against ping-pong's 0.932).
// Runs 12-14 (H100): 2048^3 (128 tiles of 128x256 < 132 SMs) measured
// cooperative 1.00/0.96 against ping-pong 0.97/0.94, so "fewer 128x256 tiles
// than SMs" no longer forces ping-pong (the efficiency rule decides).
// One dimension <= 64 (and the other >= 1024): narrow cooperative 128 x
// 16/32/64 tiles with that dimension on N and uniform split-K by
// choose_splits (64x28672x4096: 1.01, 16x4096x14336: 0.93-0.95 against
// ping-pong's 0.96 and 0.60). One dimension in (64, 128]: ping-pong 64x128
// with the large dimension on M (run 21: 128x8192x8192 0.99 against
// ping-pong 128x128 0.95, narrow 128x128 0.94, split-K 0.85; the 64x128
// tile lost on 1000^3, 0.73 vs 0.78, so small cubes stay on 128x128).
// Ping-pong 64x256 and clusters of 2 never won (run 5). Clusters, repaired
// and with the TMA-store epilogue (session 10, run 93, H100): 0-2% under
// the unclustered cooperative kernel on every suite shape (8192^3 1.017x
// cuBLAS against 1.020x).
// Ping-pong 64x128 instead of 128x128, with the TMA-store epilogue, when
// every row of A and B starts 32-byte aligned (a 128-byte box row then
// covers exactly four L2 sectors) and either
//   - K < 2048, rows 128-byte aligned, and fewer than 1.5 128x128 tiles per
//     SM: most CTAs would get one tile, which one consumer warpgroup runs
//     while the other idles; 64x128 tiles give both consumers a tile; or
//   - the 64x128 efficiency beats the 128x128 one by more than 0.12 (K <
//     2048; 0.09 at 256 <= K < 512 with 128-byte aligned rows, session 38)
//     or 0.2 (longer K, where the smaller tile's 1.5x operand reads per
//     flop cost more).
// NOTE: session 11, runs 114-116 (H200, bf16 TN, D row-major, layouts.sh
// with every Tessera run timed after a cuBLAS run as in `tessera bench`,
// median of 100), ratio to cuBLAS, 128x128 -> 64x128: 1536^2 x 512 / 768 /
// 1024 / 1536 0.771 -> 0.826, 0.727 -> 0.816, 0.719 -> 0.824, 0.672 ->
// 0.780; 2048x1024x512 0.896 -> 0.950; 2304^2 x 1024 0.880 -> 0.948;
// 1536x3072x512 / 1024 0.863 -> 0.892, 0.812 -> 0.854; 1000x1000x2000
// (rows of 4000 bytes, 32-byte aligned) 0.760 -> 0.895. Where the rule keeps
// 128x128: 2048^2 x 512 0.945 vs 0.898, 3072^2 x 512 0.967 vs 0.934,
// 4096x2048x512 1.010 vs 0.919, 2560^2 x 512 0.879 vs 0.870 (efficiency
// +0.108), 2048x1024x4096 0.937 vs 0.873 (K >= 2048: 128 tiles, the same
// efficiency), 1200^2 x 1040 0.878 vs 0.787 (run 116: 100 tiles, the same
// efficiency, rows of 2080 bytes: 32- but not 128-byte aligned, so the
// tile-count clause needs 128-byte rows). Rows only 16-byte aligned: 1000^3
// (2000-byte rows) 0.784 vs 0.745, 2000x1000x1000 0.735 vs 0.563,
// 1000x1000x3000 0.719 vs 0.644: the smaller tile reads five sectors per
// 128-byte box row there. Unclustered, such rows stay on 128x128 (768^2 x
// 1000, 36 tiles, was the one exception measured: 0.787 vs 0.660 for
// 64x128); since session 29 most of them take clusters of 2 first (the
// 16-byte-row rule in select_sm90_ws_variant). Before session 11 the rule
// was "128-byte aligned rows and an efficiency gain above 0.2", from
// comparisons (run 28) that
// timed each variant after whichever kernel ran before it; a kernel runs up
// to 2.5 us longer after another large kernel than after itself
// (scripts/gpu/driver_gate.cuh), which had penalised the 64x128 rows there.
// For a dimension in (64, 128], the untransposed 64x128 kernel also takes
// the TMA-store epilogue (run 28, 8192x128x8192 in kernel orientation: 1.01
// against 0.99 direct).
constexpr bool kDefaultTmaStore = true;

// The time model of the 128 x w rule in select_sm90_ws_variant (session 33,
// fitted to run 279): a wave whose b of sms SMs are busy runs each of them
// 1 + kPartWaveSpeedup (1 - b / sms) times faster than a full wave; 128 x w
// tiles run at narrow_rate(w) of 128x256's rate per busy SM; they must be
// predicted kNarrowMargin times faster to be taken.
constexpr double kPartWaveSpeedup = 0.3, kNarrowMargin = 1.03;
// The 128 x w tiles' rate per busy SM on full waves, relative to 128x256,
// both with the TMA-store epilogue (session 34, run 286: the width that
// makes the measured ratio to the 128x256 default on 3072^2 x 4096,
// 4096^3, 1536x3072x4096, 2560^2 x 2048 and 3072x3584x4096; 2-3% apart
// between shapes). With the direct epilogue (session 33) they ran at ~0.9.
constexpr double narrow_rate(int w) {
  return w == 160 ? 0.91 : w == 176 ? 0.89 : w == 192 ? 0.97 : w == 208 ? 0.95 : 0.97;
}
// Ping-pong 64x128 tiles' rate per busy SM relative to 128x256, for the
// short-K comparison with the wide tiles in select_sm90_ws_variant (session
// 35, runs 293-294: 1792^2 x 1024/1536, 392 tiles of 64x128 at efficiency
// 0.99, ran 0.95-0.97 x cuBLAS against 0.86-0.93 for one wave of 128 x
// 208/224; 1536x2048x1536, efficiency 0.97, ran 0.91 against 0.97-0.98 for
// 128x192). A value that separates those cases, not a measured rate.
constexpr double kPingPong64Rate = 0.92;

// Whether the last of `tiles`' waves on `sms` SMs keeps under 60% of them
// busy (or fills all of them).
bool last_wave_under_60(std::int64_t tiles, int sms) { return 5 * (tiles % sms) < 3 * std::int64_t(sms); }

// Whether `tiles` run in 2-4 waves on `sms` SMs, the last one partly
// filled: the launches balance_waves pays off for (measured per tiling in
// select_sm90_ws_variant).
bool two_to_four_partial_waves(std::int64_t tiles, int sms) {
  std::int64_t const waves = (tiles + sms - 1) / sms;
  return waves >= 2 && waves <= 4 && tiles % sms != 0;
}

// The skinny problems' ping-pong 64x128 tiles: the small dimension on M in
// D's own orientation, so that the TMA-store epilogue writes D.
void skinny_pingpong_64x128(Sm90WsVariant& v) {
  v.pingpong = true;
  v.tile_m = 64;
  v.tile_n = 128;
  v.transpose = false;
  v.tma_store = true;
  v.group_m = 8;
}

// The skinny problems' ping-pong 64x128 tiles with the large operand
// M/N-major (session 55): the small dimension on M, with D' column-major
// for m > n (`transpose`, stored by TMA through stmatrix .trans,
// WsGemmPingPong64x128TmaStoreTransConfig, 16-bit outputs), every wave full
// (balance_waves) where the `tiles` make two to four waves (the callers: at
// most three), the last one partly filled.
// NOTE: session 55, run 425 (H200, ab_onecall.sh, bf16, two alternations of
// 30 rounds, median ratio to cuBLAS; the previous default / this unbalanced
// / this balanced, in the same rounds). beta = 0, against ping-pong 64x256
// transposed with the direct epilogue: 28672x64x4096 (224 tiles) nn 0.885 /
// 0.927 / 0.968, nt 0.885 / 0.930 / 0.956; 24576x64x4096 nn (192) 0.823 /
// 0.799 / 0.871; 19968x64x4096 (156) nn 0.893 / 0.847 / 0.964, nt 0.849 /
// 0.792 / 0.900. beta = 1, against 128x224 transposed with the TMA store
// (session 53's clause): 28672x64x4096 nn 0.849 / 0.912 / 0.946, nt 0.859 /
// 0.907 / 0.940; 19968x64x4096 nn 0.821 / 0.829 / 0.941; 24576x64x4096 nn
// 0.792 / 0.790 / 0.853. Unbalanced, 40 of the 132 CTAs run one tile at 224
// tiles, and their second consumer idles; balanced, 112 CTAs run two, one
// per consumer, so that each one's epilogue overlaps the other's K loop.
// NOTE: session 55, run 426 (the same method, the previous default -> this
// pick, old and new builds alternating; beta = 0 / beta = 1):
// 28672x64x4096 nn 0.889 -> 0.960 / 0.871 -> 0.936, nt 0.873 -> 0.934 /
// 0.846 -> 0.925; 19968x64x4096 nn 0.879 -> 0.943 / 0.800 -> 0.921, nt 0.871
// -> 0.891 / 0.797 -> 0.897; 24576x64x4096 nn 0.816 -> 0.867 / 0.785 ->
// 0.857; 16896x64x4096 nn (132 tiles, one wave) 0.929 -> 1.089 / 0.874 ->
// 1.077; 28672x56x4096 nn 0.901 -> 0.956 / 0.835 -> 0.946; 28672x64x1024
// nn 0.778 -> 0.966 / 0.817 -> 0.932; 32768x64x4096 nn (256 tiles) 0.888 ->
// 0.942 / 0.704 -> 0.927.
// NOTE: session 55, run 426, the same call, explicit labels beside the
// defaults (the variant this pick returns, in the same rounds): three waves
// (m > n, outside the two-wave bound then): 40000x64x4096 nn (313 tiles)
// 0.779 / 0.670 (the default, ping-pong 64x256 transposed, beta = 0 / 1)
// against 0.909 / 0.913 balanced; m < n with B' N-major, the mirror
// (against ping-pong 64x256 at beta = 0, ping-pong 64x128 unbalanced at
// beta = 1): 64x28672x4096 nt 0.913 / 0.941 -> 0.976 / 0.952, tt 0.909 /
// 0.945 -> 0.974 / 0.953. Not measured as a default (run 427 ran out of
// device time after its tests): m < n at other tile counts, where the
// beta != 0 clause took one wave of cooperative 128x256 before (64x19968
// nt: its mirror 19968x64x4096 nt read 0.789 for one wave of 128x224
// against 0.902 balanced, run 425), and four waves.
void skinny_pingpong_64x128_balanced(Sm90WsVariant& v, std::int64_t tiles, int sms, bool transpose) {
  skinny_pingpong_64x128(v);
  v.transpose = transpose;
  v.balance_waves = two_to_four_partial_waves(tiles, sms);
}

// Skinny problems with beta != 0 and C loaded by TMA (c_by_tma): a
// TMA-store kernel, whose consumers load C' into shared memory by TMA at
// the tile's third K-block, in place of a direct-epilogue pick, whose
// consumers load C' only after the K loop. Within the window where
// cooperative 128x256 tiles (m < n) or 128x224 ones (m > n) fill at least
// half the SMs in one wave (select_sm90_ws_variant uses the pick only where
// its beta = 0 one has the direct epilogue):
// - m < n, an f32 output or B' (the large operand) N-major, and 64x128
//   tiles in two waves whose last is at least 60% full: ping-pong 64x128;
// - otherwise 16-bit outputs only: m > n with A' M-major, ping-pong
//   64x128 transposed and balanced (skinny_pingpong_64x128_balanced); else
//   one wave of cooperative 128x256 with the small dimension on M (m < n),
//   or 128x224 transposed (m > n: the small dimension on M again, D'
//   column-major); m > n needs the small dimension over 48.
// NOTE: session 53, runs 415-416 (H200, layouts.sh BETA=1, gated, no L2
// flush, three rotating copies of A and B, median of 40 / 60, bf16 -> bf16;
// the direct-epilogue default -> this): 64x28672x4096 tn 0.856 / 0.845 ->
// 0.989 / 0.980 (112 tiles of 128x256), nt 0.787 -> 0.901 (the default
// there: ping-pong 64x256), 64x32768x4096 0.840 -> 0.931 (128 tiles),
// 64x28672x8192 0.917 -> 0.961; 28672x64x4096 tn 0.930 / 0.930 -> 0.955 /
// 0.963 (128 tiles of 128x224), nn 0.729 -> 0.859, 20000x64x4096 (90
// tiles) 0.805 -> 0.836. At beta = 0 the same tiles run 1-4% under the
// default (64x28672x4096 1.008 against 1.017, 28672x64x4096 0.981 against
// 1.017: run 415): the C' loads, which the direct epilogue issues after the
// K loop and which queue behind the other CTAs' operand stream (session 51's
// timeline: ~7 us a tile against 1.5 us at beta = 0), are what they save.
// Lost, hence the conditions: two waves (40000x64x4096, 179 tiles of
// 128x224: 0.883 -> 0.767), m or n <= 32 (32x28672x4096 0.864 -> 0.838,
// 16x28672x4096 0.919 -> 0.786, 28672x32x4096 0.912 -> 0.806), fewer tiles
// than half the SMs (64x12288x4096, 48 of 128x256: the ping-pong 64x128
// default there, already TMA-stored, 0.952 against 0.667), and split-K
// shapes (16x4096x14336 0.961 against 0.706-0.752, 64x4096x14336 0.849
// against 0.759-0.804).
// NOTE: session 53, run 417 (H200, ab_onecall.sh: HEAD's default -> this
// rule's, two alternations of 30 rounds, same method as run 415, median
// ratio to cuBLAS): beta = 1 64x28672x4096 tn 0.814 -> 0.929, nt 0.756 ->
// 0.869, tt 0.752 -> 0.877, nn 0.821 -> 0.941; 28672x64x4096 tn 0.881 ->
// 0.929, nt 0.687 -> 0.864, tt 0.885 -> 0.939, nn 0.696 -> 0.856;
// 64x32768x4096 0.828 -> 0.929; 20000x64x4096 0.789 -> 0.817; short K:
// 64x28672x1024 0.587 -> 0.832, 28672x64x1024 0.721 -> 0.837; m = 48:
// 48x28672x4096 0.857 -> 0.883, but 28672x48x4096 (128x224 transposed)
// 0.903 -> 0.891, so the transposed tiles need the small dimension over
// 48; 64x20000x4096 nt (79 tiles) 0.646 -> 0.641, within the spread. The
// beta = 0 rows of the same call (the same kernels in both builds) moved
// -0.8% to +0.7%, 20000x64x4096 +4.4%.
// Ping-pong 64x128 (session 54, f32 outputs first): two tiles on most
// CTAs, so one consumer's epilogue (for f32, 32 KiB of C' read and 32 KiB
// of D written per 64x128 tile) runs under the other's K loop, where the
// cooperative kernel's single tile per CTA leaves its whole epilogue
// exposed.
// NOTE: session 54, run 420 (H200, layouts.sh TYPE=bf16f32 BETA=1, gated,
// no L2 flush, three rotating copies of A and B, median of 40; default ->
// cooperative 128x256 TMA store / ping-pong 64x128 TMA store / 128x224):
// 64x28672x4096 tn 0.837 -> 0.922 / 0.973 / 0.926, nt 0.693 -> 0.849 /
// 0.951 / 0.867; 64x32768x4096 tn 0.860 -> 0.917 (cooperative). m > n has
// no such tile: 28672x64x4096 tn 0.854 -> 0.747 (128x224 transposed), nn
// 0.733 -> 0.733. 64x20000x4096 tn (157 tiles of 64x128, balanced at beta
// = 0 already) 0.967 against 0.848 unbalanced. At beta = 0 the default
// stays ahead of every TMA-store tile (64x28672x4096 tn 0.992 against
// 0.964-0.966).
// NOTE: session 54, run 421 (H200, ab_onecall.sh TYPE=bf16f32 BETA=1:
// HEAD's default -> this clause's, two alternations of 30 rounds, median
// ratio to cuBLAS): 64x28672x4096 tn 0.846 -> 0.913, nt 0.692 -> 0.891;
// 64x32768x4096 tn 0.834 -> 0.925, tt 0.706 -> 0.883; 64x27136x4096 nt (212
// tiles) 0.696 -> 0.923; 64x28672x1024 tn 0.625 -> 0.845; 28672x64x4096 tn
// (unchanged kernel) 0.827 -> 0.837.
// 16-bit outputs with B' (the large operand) N-major take the same
// ping-pong 64x128 tiles (session 54), and m > n with A' (the large operand)
// M-major their transposed, balanced form over the whole window
// (skinny_pingpong_64x128_balanced, session 55).
// NOTE: session 54, run 421 (the same call, then the new build's layouts
// driver, bf16 -> bf16, BETA=1, median of 30; cooperative 128x256 -> ping-pong
// 64x128, both TMA-stored): 64x28672x4096 nt 0.853 -> 0.911, tt 0.843 ->
// 0.923. K-major, cooperative stays: run 415 read 64x28672x4096 tn at 0.989
// against 0.951.
// NOTE: session 54, run 422 (H200, ab_onecall.sh BETA=1, bf16 -> bf16, two
// alternations of 30 rounds, median ratio to cuBLAS; HEAD (cooperative
// 128x256) -> ping-pong 64x128): 64x28672x4096 nt 0.900 -> 0.940, tt 0.868
// -> 0.952; 64x32768x4096 nt 0.851 -> 0.911; 64x28672x1024 nt 0.793 ->
// 0.847; 64x27136x4096 tt (212 tiles, the last wave 61% full) 0.963 ->
// 0.958; tn (unchanged kernel) 0.941 -> 0.954.
// NOTE: session 55, run 424 (H200, ab_onecall.sh BETA=1, bf16, two
// alternations of 30 rounds, median ratio to cuBLAS; the default, 128x224
// transposed, against ping-pong 64x128 transposed with the TMA store,
// unbalanced, same build): 28672x64x4096 nn 0.839 / 0.923, nt 0.865 /
// 0.916; 20000x64x4096 nn (157 tiles of 64x128) 0.603 / 0.770. K-major A':
// tn 0.924 / 0.936, tt 0.950 / 0.938, within the spread, so 128x224 stays.
// The caller has m or n <= 64 and the other >= 1024; nullopt where the
// clause does not apply: 16-bit operands on 128-byte rows, 2- or 4-byte
// outputs, the small dimension over 32 (over 48 when it is n); for f32
// outputs, m < n and the two waves of 64x128 tiles. `out_bytes`: D's
// element size; `big_mn_major`: the large operand M/N-major.
std::optional<Sm90WsVariant> skinny_c_by_tma_pick(std::int64_t m, std::int64_t n, int sms, int elem_bytes,
                                                  int row_align, int out_bytes, bool big_mn_major) {
  bool const m_small = m < n;
  std::int64_t const big = m_small ? n : m, small = m_small ? m : n, w = m_small ? 256 : 224;
  if (elem_bytes != 2 || row_align < 128 || small <= (m_small ? 32 : 48)) return std::nullopt;
  if (out_bytes != 2 && out_bytes != 4) return std::nullopt;
  std::int64_t const tiles = (big + w - 1) / w;
  if (2 * tiles < sms || tiles > sms) return std::nullopt;
  Sm90WsVariant v;
  std::int64_t const tiles128 = (big + 127) / 128;
  bool const two_waves_60 = tiles128 > sms && (tiles128 % sms == 0 || !last_wave_under_60(tiles128, sms));
  if (m_small && two_waves_60 && (out_bytes == 4 || big_mn_major)) {
    skinny_pingpong_64x128(v);
    return v;
  }
  if (out_bytes == 4) return std::nullopt;
  if (!m_small && big_mn_major) {
    skinny_pingpong_64x128_balanced(v, tiles128, sms, true);
    return v;
  }
  v.tile_n = int(w);
  v.tma_store = true;
  v.transpose = !m_small;
  v.group_m = m_small ? 16 : 8;
  return v;
}

}  // namespace

Sm90WsVariant select_sm90_ws_variant(std::int64_t m, std::int64_t n, std::int64_t k, int sms, int elem_bytes,
                                     int row_align, bool a_k_major, bool b_k_major, bool c_by_tma, int out_bytes) {
  if (sms <= 0) sms = 1;
  if (elem_bytes <= 0) elem_bytes = 2;
  std::int64_t const k_blocks = (k * elem_bytes + 127) / 128;
  // Useful m x n over the tile area the SMs sweep, counting a split tail
  // wave as the fraction of a wave its slices take.
  // bm x bn tiles covering m x n.
  auto tile_count = [&](std::int64_t bm, std::int64_t bn) { return ((m + bm - 1) / bm) * ((n + bn - 1) / bn); };
  auto efficiency = [&](std::int64_t bm, std::int64_t bn, int tail_splits) {
    std::int64_t const tiles = tile_count(bm, bn);
    double waves = double((tiles + sms - 1) / sms);
    if (tail_splits > 1) waves = double(tiles / sms) + split_unit_cost(k_blocks, tail_splits) / split_unit_cost(k_blocks, 1);
    return double(m) * double(n) / (waves * double(sms) * double(bm * bn));
  };
  auto short_partial_waves = [sms](std::int64_t tiles) { return two_to_four_partial_waves(tiles, sms); };
  Sm90WsVariant v;
  v.tma_store = kDefaultTmaStore;
  if (m <= 0 || n <= 0) return v;
  std::int64_t const small = m < n ? m : n, big = m < n ? n : m;
  if (small <= 64 && big >= 1024) {
    // The large operand M/N-major (A' M-major when m is the large
    // dimension, B' N-major when n is): ping-pong 64x256 with the small
    // dimension on M, when its tiles keep at least half the SMs busy.
    // NOTE: run 64 (H100, 2026-11-22, bf16, D row-major, interleaved, L2
    // flushed, median of 200): 64x28672x4096 nt 0.968x / tt 0.969x cuBLAS
    // against 0.921 / 0.930 for the narrow 128x64 tiles below (transposed)
    // and 0.934 / 0.950 for cooperative 128x256; tn 0.999 against 0.994-1.001
    // (K-major: every tiling reads the same). A 64x256 tile reads 512
    // contiguous bytes of each K row of an N-major operand per K-block, where
    // 128x64 tiles read 256 (two boxes of 64 elements); cuBLAS itself ran
    // nt/tt 6% faster than tn on this shape.
    // tf32 with an MN-major A' (read through registers): the orientation is
    // fixed, the MN-major operand being the large one (tf32_mn_rule), so
    // the narrow tiles below, untransposed.
    bool const tf32_rs = elem_bytes == 4 && !a_k_major;
    bool const big_mn_major = m < n ? !b_k_major : !a_k_major;
    // beta != 0 with C by TMA: a TMA-store kernel instead of the
    // direct-epilogue picks below (skinny_c_by_tma_pick).
    std::optional<Sm90WsVariant> const c_tma_pick =
        c_by_tma ? skinny_c_by_tma_pick(m, n, sms, elem_bytes, row_align, out_bytes, big_mn_major) : std::nullopt;
    // Tiles 128 wide along the large dimension: ping-pong 64x128's count
    // here, and the narrow 128 x N tiles' below.
    std::int64_t const tiles = (big + 127) / 128;
    if (!tf32_rs && big_mn_major && small > 32 && 2 * ((big + 255) / 256) >= sms) {
      // 16-bit operands on 128-byte rows and a 16-bit output, the small
      // dimension over 48, at most three waves of 64x128 tiles (the most
      // measured: 313 tiles): ping-pong 64x128 with the TMA store,
      // transposed for m > n, balanced (skinny_pingpong_64x128_balanced,
      // runs 425-426). It loads C' by TMA itself, so before the beta != 0
      // clause.
      if (elem_bytes == 2 && row_align >= 128 && out_bytes == 2 && small > 48 && tiles <= 3 * sms) {
        skinny_pingpong_64x128_balanced(v, tiles, sms, m > n);
        return v;
      }
      if (c_tma_pick) return *c_tma_pick;
      v.pingpong = true;
      v.tile_n = 256;
      v.transpose = m > n;
      v.tma_store = false;
      v.group_m = 8;
      return v;
    }
    // 32 < m <= 64, 16-bit K-major operands, rows 128-byte aligned: ping-pong
    // 64x128 with the TMA store, the small dimension on M in D's own
    // orientation, where its tiles fill at least half the SMs in one wave,
    // or make 2-4 waves whose last one is under 60% full, run with every
    // wave full (balance_waves).
    // NOTE: session 38, run 319 (H200, layouts.sh, gated, no L2 flush, three
    // rotating copies of A and B as `tessera bench` rotates its inputs,
    // median of 30; the narrow default -> this): one wave, M = 64: 64x8192x8192
    // (64 tiles, the narrow tiles split 2 ways) 0.951 -> 1.000, 64x12288x4096
    // 0.946 -> 0.963, 64x12288x8192 0.923 -> 0.935, 64x16384x4096 0.936 ->
    // 0.935; balanced: 64x20000x4096 (157 tiles, 79 CTAs of two) 0.883 ->
    // 0.934, 64x25600x4096 (200) 0.969 -> 0.990, 64x36864x4096 (288) 0.888 ->
    // 0.907. Where the last wave is fuller (224 and 256 tiles) ping-pong
    // lost unbalanced: 64x28672x4096 0.964 -> 0.950, 48x28672x4096 0.970 ->
    // 0.939, 64x28672x2048 0.917 -> 0.906, 64x32768x4096 0.966 -> 0.960
    // (balanced it had lost to itself unbalanced, run 317), so the narrow
    // tiles keep them. Without the rotation (runs 316-317) those four had
    // read as gains of 0.5-6%: operands left in L2 by the run before favour
    // ping-pong. Not taken either: M = 32 (run 317: 0.948 -> 0.950) and 16
    // (0.955 -> 0.915), 32 tiles (64x4096x14336: 0.953 -> 0.707 against the
    // narrow tiles' 4-way split), and m > n (20000x64x4096 transposed,
    // balanced: 0.931 -> 0.922).
    bool const pp_waves_fit = tiles <= sms || (short_partial_waves(tiles) && last_wave_under_60(tiles, sms));
    if (elem_bytes == 2 && m < n && small > 32 && a_k_major && b_k_major && row_align >= 128 &&
        2 * tiles + 4 >= sms && pp_waves_fit) {
      skinny_pingpong_64x128(v);
      v.balance_waves = tiles > sms;
      return v;
    }
    if (c_tma_pick) return *c_tma_pick;
    // Narrow: the small dimension on the tile's N side, 128 x N tiles.
    v.transpose = m < n && !tf32_rs;
    v.tile_n = small <= 16 ? 16 : small <= 32 ? 32 : 64;
    v.tma_store = false;
    v.group_m = 8;
    v.splits = choose_splits(tiles, k_blocks, sms);
    // Unsplit, 2-4 waves, the last one partly filled: every wave full
    // (balance_waves), as for the cooperative tiles below; the 128x32 and
    // 128x16 tiles only where the last wave is under 60% full.
    // NOTE: session 28 (H200, layouts.sh without the L2 flush, gated, median
    // of 100-200, ratio to cuBLAS, 132 CTAs -> balanced): 64x28672x4096 tn
    // (224 tiles, 112 CTAs of two) 0.931 -> 0.968, 0.927 -> 0.965, 0.952 ->
    // 0.986, 0.940 -> 0.971; 28672x64x4096 0.935 -> 0.973; 64x20000x4096 (157
    // tiles, 79 CTAs) 0.827 -> 0.908; 64x40000x4096 (313 tiles, 105 CTAs of
    // three) 0.973 -> 1.011. The narrower tiles lost about 1%: 32x28672x4096
    // 0.963 -> 0.952, 0.960 -> 0.951; 16x28672x4096 0.971 -> 0.962; they stay
    // one CTA per SM. cuBLAS runs 112 CTAs at 64x28672x4096 too (256x64
    // tiles, clusters of 4). Ping-pong 64x256 (112 tiles) measured 0.962 /
    // 0.969; clusters of 2 sharing the small operand
    // (scripts/gpu/skinny_cluster_experiment.patch) 0.961 / 0.960, 0.948
    // balanced: not adopted.
    // NOTE: session 39, run 327 (H200, layouts.sh, gated, no L2 flush, three
    // rotating copies of A and B, median of 30, two runs; unbalanced ->
    // balanced): where the last wave is under 60% full the narrower tiles
    // gain too: 32x20000x4096 (157 tiles, 25 in the last wave) 0.856 /
    // 0.865 -> 0.946 / 0.943, 16x20000x4096 0.901 / 0.890 -> 0.985 / 0.968,
    // 32x22528x4096 (176, 44) 0.861 / 0.867 -> 0.920 / 0.938, 32x40000x4096
    // (313, 49) 0.936 / 0.923 -> 0.977 / 0.965. Fuller, they lose as session
    // 28 found: 224 tiles (92): 32x28672x4096 0.958 / 0.953 -> 0.943 /
    // 0.940, 16x28672x4096 0.953 / 0.962 -> 0.943 / 0.953, 32x28672x2048
    // 0.945 / 0.938 -> 0.931 / 0.925; 28672x32x4096 0.948 / 0.949 -> 0.951 /
    // 0.946.
    v.balance_waves =
        v.splits == 1 && short_partial_waves(tiles) && (v.tile_n == 64 || last_wave_under_60(tiles, sms));
    return v;
  }
  if (small <= 128 && big >= 1024) {
    // Between 64 and 128: ping-pong 64x128 tiles (128x8192x8192: 128 tiles
    // of 64x128 keep 128 SMs streaming, where 128x128 tiles keep 64), in the
    // problem's own orientation so that the TMA-store epilogue writes D.
    // NOTE: run 33 (H100, 2026-11-22, bf16, L2 flushed): 128x8192x8192 with
    // a row-major D ran 273.9 TFLOP/s transposed (large dimension on M,
    // direct epilogue; 0.98x cuBLAS) and 281.5 untransposed with the TMA
    // store (1.01x); with a column-major D (the large dimension on M either
    // way) 279.9, 1.00x.
    // 16-bit operands on 128-byte rows, either orientation, any order:
    // ping-pong 128x128 (the TMA store, D's orientation) where its tiles
    // sweep the SMs at least as efficiently as 64x128's (64x128 tiles read a
    // large B once per 64 rows of M, twice at m = 128); otherwise 64x128,
    // balanced where its tiles are alike (every row of tiles 64 high when m
    // is the small dimension) and its 2-4 waves end in one under 60% full.
    // NOTE: session 39, run 327 (H200, layouts.sh, gated, no L2 flush, three
    // rotating copies of A and B, median of 30, two runs; pp64 -> pp128,
    // efficiencies equal): 128x28672x4096 (448 / 224 tiles) 0.926 / 0.917 ->
    // 1.005 / 0.991, 128x12288x4096 (192 / 96) 0.822 / 0.836 -> 0.914 /
    // 0.922, 96x28672x4096 0.853 / 0.822 -> 0.859 / 0.879, 128x16384x4096
    // (256 / 128) 0.952 / 0.935 -> 0.948 / 0.958. Where pp128 sweeps less
    // efficiently it lost: 128x20000x4096 (314 / 157 tiles) 0.857 / 0.896
    // -> 0.740 / 0.763, 128x24576x4096 0.932 / 0.924 -> 0.816 / 0.821,
    // 128x40000x4096 0.944 / 0.942 -> 0.849 / 0.879, 128x8192x8192 0.961 /
    // 0.958 -> 0.698 / 0.725. pp64 balanced: 128x20000x4096 (last wave 50
    // of 132) -> 0.902 / 0.944; fuller last waves gain nothing (128x24576,
    // 120 of 132: 0.930 / 0.927; 128x16384, 124: 0.942 / 0.959); 96x20000
    // (tiles of 64 and 32 rows) lost, 0.832 / 0.832 -> 0.809 / 0.754.
    // Run 329 (the same method, one run): m > n, pp64 -> pp128:
    // 28672x128x4096 0.865 -> 0.928, 12288x128x4096 0.803 -> 0.909,
    // 10000x128x4096 0.719 -> 0.864; 20000x128x4096 pp64 balanced 0.830 ->
    // 0.894. Other orders, m < n: 128x28672x4096 nt 1.415 -> 1.491, tt 1.460
    // -> 1.551, nn 0.951 -> 0.998; 128x12288x4096 nt 0.808 -> 0.916, tt 0.800
    // -> 0.910, nn 0.817 -> 0.923; 128x20000x4096 balanced nt 0.812 -> 0.848,
    // nn 0.859 -> 0.902.
    bool const measured = elem_bytes == 2 && row_align >= 128;
    skinny_pingpong_64x128(v);
    if (measured && efficiency(128, 128, 1) >= efficiency(64, 128, 1)) {
      v.tile_m = 128;
      return v;
    }
    std::int64_t const tiles_64 = tile_count(64, 128);
    bool const alike = m > n || m % 64 == 0;
    v.balance_waves = measured && alike && short_partial_waves(tiles_64) && last_wave_under_60(tiles_64, sms);
    return v;
  }
  std::int64_t const coop_tiles = tile_count(128, 256);
  std::int64_t const tiles_128 = tile_count(128, 128);
  if (row_align < 32) {
    // Rows only 16-byte aligned (ld * element bytes an odd multiple of 16,
    // e.g. K = 1000 for K-major 16-bit operands, 996 for tf32): each
    // 128-byte box row the TMA loads straddles sectors, and the L2 serves the
    // kernel's loads in more than twice the requests (ncu, 2000^2 x 1000:
    // 2.73 M requests and 4.77 M sectors against 1.25 M and 2.89 M at K =
    // 1008, whose rows are 32-byte aligned; 28.3 us against 17.6, with the
    // L2 at 60% of its peak throughput and the SMs at 31%). The L2, not the
    // tensor cores, then bounds the kernel, so the default takes the tiles
    // that ask for the fewest rows per flop: clusters of 2 whose pair shares
    // B' multicast. Ping-pong 64x128 pairs where 128x128 tiles would fill at
    // most half the SMs; cooperative 128x256 pairs where their tiles fill at
    // least half; ping-pong 128x128 pairs in between (64 tiles of 128x256 at
    // 2000x1000x1000).
    // NOTE: session 29 (H200, layouts.sh, gated, L2 flushed, median of 100,
    // ratio to cuBLAS; former default -> clusters): 1000^3 0.787 -> 0.835
    // (64x128 pairs); 1000x1000x3000 0.724 -> 0.841; 2000^2x1000 0.590 ->
    // 0.884 (128x256 pairs); 3000^2x1000 0.527 -> 0.764; 1500^2x1000 1.53 ->
    // 1.79; 4000^2x3000 1.14 (unclustered 128x256: 0.81). 128x256 pairs
    // lost where they make 64 tiles: 2000x1000x1000 0.732 -> 0.690,
    // 1000x2000x1000 0.731 -> 0.701 (64x128 pairs 0.707 there), hence the
    // half-the-SMs condition (run 259: those two back at 0.727 / 0.724).
    // With the rows padded to 128 bytes (LD_PAD=64) the unclustered default
    // reads 0.91-0.98.
    // NOTE: session 30 (run 260, H200, same method), operands in other
    // orders and tf32, which the clusters first did not take (former default
    // pp128_tma -> clusters): 1000^3 nn 0.729 -> 0.787, nt 0.749 -> 0.850, tt
    // 0.784 -> 0.857; 1000x1000x3000 nn 0.633 -> 0.769, tt 0.684 -> 0.842;
    // 2000^2x1000 tt 0.695 -> 0.915; 3000^2x1000 nn 0.559 -> 0.777, tt 0.564
    // -> 0.785; 4000^2x3000 tt 0.956 (unclustered coop_tma) -> 0.947. tf32
    // tn: 996^3 0.870 -> 0.965, 2000^2x996 0.724 -> 1.179, 1000x1000x2996
    // 0.824 -> 0.919; run 261: tf32 tt (the M/N-major B flipped onto A',
    // transposed) 996^3 0.737 -> 0.928, 2000^2x996 0.832 -> 1.080; nn 0.858
    // -> 0.959, 0.717 -> 1.018; 4000^2x2996 tn 0.707 -> 0.994. Rows 32-byte
    // aligned stay unclustered: 2000^2x1008 tn 0.918 (pairs 0.902), 2016^2 x
    // 1000 nt 0.931 (0.904), 2048^2x1000 nt 0.983 (0.929); only 2000^2x1000
    // nt (M/N-major rows of 4000 bytes) gained in pairs, 0.830 -> 0.902, one
    // shape, not adopted.
    v.cluster = 2;
    if (2 * tiles_128 > sms && 2 * coop_tiles >= sms) {
      v.group_m = 16;  // cooperative 128x256 pairs
      return v;
    }
    // Ping-pong pairs: 64x128 where 128x128 tiles fill at most half the SMs;
    // 128x128 between the two bands, as cuBLAS runs there
    // (`nvjet_sm90_tst_128x128_64x6_2x1_v_bz_TNT` at 2000x1000x1000, run 262).
    // NOTE: run 263 (H200, layouts.sh, gated, L2 flushed, median of 100;
    // unclustered ping-pong 128x128 -> 128x128 pairs): 2000x1000x1000 tn
    // 0.727 -> 0.793, nn 0.780 -> 0.868; 1000x2000x1000 0.730 -> 0.792;
    // 1408x896x1000 (77 tiles) 0.802 -> 0.789, inside the run-to-run spread.
    // Outside this band the 128x128 pairs lost: 1000^3 0.762 (64x128 pairs
    // 0.837), 2000^2x1000 0.701 (128x256 pairs 0.902), 3000^2x1000 0.680
    // (0.771).
    v.pingpong = true;
    v.tile_m = 2 * tiles_128 <= sms ? 64 : 128;
    v.tile_n = 128;
    v.group_m = 8;
    return v;
  }
  int const tail = choose_tail_splits(coop_tiles, k_blocks, sms);
  double const coop = efficiency(128, 256, tail);
  double const pp = efficiency(128, 128, 1);
  // Cooperative 128 x w tiles, w in {160, 176, 192, 208, 224}
  // (WsGemmNarrowTmaConfig<w>: the TMA-store epilogue since session 34, in
  // either orientation), for 16-bit inputs, K >= 2048 (K < 2048: one wave
  // of them only, 128x160 only below K = 512, see the NOTE at wide_wins),
  // where their tile count fills the waves so much better than 128x256 that
  // a time model predicts them kNarrowMargin (3%) faster. The model, in K-block units: a
  // 128x256 tile costs split_unit_cost(K-blocks, 1) (the K-blocks + 3 for
  // fill and epilogue), a 128 x w tile w / 256 of that over narrow_rate(w)
  // (0.89-0.97: their rate per busy SM on full waves, run 286), and a wave
  // whose b of sms SMs are busy takes that cost over 1 + kPartWaveSpeedup
  // (1 - b / sms) (a part-filled wave runs each busy SM faster: 1536^2 x
  // 4096's 72 tiles of 128x256 ran at 1.19x the full-wave rate per SM, run
  // 278); the 128x256 launch it replaces keeps its tail split
  // (split_unit_cost) or balanced waves. Session 33, with the direct
  // epilogue, needed K >= 4096 where 128x256 tiles make several waves (at K
  // = 2048 the narrow tiles lost where the model gave them 2-19%, run 279);
  // with the TMA store they won there (run 286: 2560^2 x 2048 0.834 ->
  // 0.941 with 128x208, 1536x3072x2048 0.771 -> 0.836 with 128x160).
  // Orientation: an M/N-major operand goes on A' (an M/N-major B' is read
  // in boxes of 32 or 64 bytes: 176 and 208 lost half their rate there, 160
  // a sixth); with both operands M/N-major, 128x192 only, untransposed (its
  // 128-byte boxes). K-major operands take either orientation, whichever
  // the model prices lower, D's own on a tie: with the TMA store the two ran
  // within 1% of each other at equal tile counts (run 286; with the direct
  // epilogue the transposed one, whose stores are column-major, ran 0-4%
  // ahead, run 279), and 1024x3072x4096 makes 128 tiles of 128x192 in D's
  // orientation and 144 transposed (run 281).
  // NOTE: session 34 (run 287, H200, layouts.sh, gated, L2 flushed, median
  // of 20, the former default -> this rule with the TMA store, same run): on
  // the 29 of run 274's 100 tn shapes whose choice changed, geometric mean
  // 1.062: 3072^2 x 4096 0.903 -> 0.964 (tt 0.917 -> 0.975, nn 0.909 ->
  // 0.970), 3072x3584x4096 0.872 -> 0.958, 3584x3072x4096 0.894 -> 0.986,
  // 2048x3584x4096 0.993 -> 1.086, 1536x2048x4096 0.920 -> 0.972,
  // 2048x1536x4096 0.911 -> 0.980, 2560^2 x 4096 0.926 -> 0.971 (tt 1.094
  // -> 1.153), 2560^2 x 2048 0.821 -> 0.906, 1536x2048x2048 0.877 -> 0.983,
  // 1536x3072x2048 (ping-pong) 0.767 -> 0.838; 2560x2048x4096 0.912 ->
  // 0.906 (noise). 3584x5120x2048 lost in 128x224 (0.994 -> 0.977) and
  // stays ping-pong (run 288: 0.990).
  // NOTE: session 33 (run 279, H200, layouts.sh, gated, L2 flushed, median
  // of 15, tn, default -> best 128 x w transposed): 1536^2 x 4096 (128x192
  // default) 0.740 -> 0.861 (w 160), tt 0.808 -> 0.939; 1536^2 x 2048 0.707
  // -> 0.805; 2048x2560x4096 0.833 -> 0.899 (160); 2560x2048x4096 0.835 ->
  // 0.911; 2560^2 x 4096 0.858 -> 0.917 (208), tt 0.996 -> 1.059;
  // 1536x3584x4096 0.847 -> 0.862 (176). Losses the rule avoids:
  // 1536x3072x4096 0.821 -> 0.798 (model +1.5%), 2560^2 x 2048 0.841 ->
  // 0.816 and 1536x3072x2048 0.793 -> 0.790 (K = 2048), 2560x3072x4096
  // 0.991 -> 0.950, 4096^3 0.998 -> 0.895. Runs 280-281 (median of 30,
  // the former default -> this rule): 1536^2 x 4096 tn 0.730 -> 0.853, tt
  // 0.794 -> 0.930; 1536^2 x 2048 0.704 -> 0.821; 1536x2048x4096 0.904 ->
  // 0.935, nn 0.897 -> 0.895; 2048x2560x4096 0.851 -> 0.913, nn 0.855 ->
  // 0.903; 2560x2048x4096 0.838 -> 0.913; 2560^2 x 4096 0.863 -> 0.925, tt
  // 1.006 -> 1.081; 2560x1024x4096 0.793 -> 0.930, nn 0.790 -> 0.847;
  // 1024x2560x4096 0.835 -> 0.886; 1280x2048x4096 0.784 -> 0.932;
  // 1536x1792x4096 0.822 -> 0.889; 2304x1024x4096 0.737 -> 0.869;
  // 1792^2 x 4096 0.885 -> 0.940, tt 0.993 -> 1.059; 5120x1024x4096 0.842
  // -> 0.914; 5120x1280x4096 0.860 -> 0.935; 4096x1280x4096 0.854 -> 0.922.
  // NOTE: session 32 took 128x192 (untransposed) where one wave of 128x256
  // tiles became a fuller one of 128x192 (run 278, the unclustered 128x256
  // default -> 128x192, median of 30): 1536x2048x4096 tn 0.794 -> 0.898, nn
  // 0.791 -> 0.895, tt 0.791 -> 0.899; 2048x1536x4096 0.787 -> 0.892;
  // 1536^2 x 4096 0.647 -> 0.742; 1536^2 x 2048 0.685 -> 0.721. 128x192 lost
  // by up to 37% where it adds a wave (2048^2 x 4096 0.984 -> 0.632: 176
  // tiles, run 277), which the model's wave count prices in.
  struct Wide {
    int w = 0;  // 0: none
    bool transposed = false;
    // The tile over D (m x n): transposed, w rows of D.
    std::int64_t rows() const { return transposed ? w : 128; }
    std::int64_t cols() const { return transposed ? 128 : w; }
  };
  auto wide_tiles = [&]() -> Wide {
    if (elem_bytes != 2) return {};
    auto launch_time = [&](std::int64_t tiles, double tile_cost) {
      return wave_launch_cost(tiles, tile_cost, sms, kPartWaveSpeedup);
    };
    double const whole = split_unit_cost(k_blocks, 1);
    double coop_time = 0;
    if (tail > 1) {
      // Whole waves, then the last wave's tiles in `tail` K-slices each
      // (tail x slices <= sms: one part-filled wave of slices).
      coop_time = double(coop_tiles / sms) * whole +
                  launch_time((coop_tiles % sms) * tail, split_unit_cost(k_blocks, tail));
    } else if (short_partial_waves(coop_tiles)) {
      std::int64_t const waves = (coop_tiles + sms - 1) / sms;
      coop_time = double(waves) * launch_time((coop_tiles + waves - 1) / waves, whole);
    } else {
      coop_time = launch_time(coop_tiles, whole);
    }
    Wide best;
    double best_time = coop_time / kNarrowMargin;
    for (int tr = 0; tr < 2; ++tr) {
      // The M/N-major operand on A'; both K-major: either orientation, D's
      // own on a tie (tried first); both M/N-major: D's own.
      bool const allowed = tr ? a_k_major : b_k_major || !a_k_major;
      if (!allowed) continue;
      for (int w : {160, 176, 192, 208, 224}) {
        if (!a_k_major && !b_k_major && w != 192) continue;
        if (k < 512 && w != 160) continue;  // K < 512: 128x160 only (runs 304, 308-311)
        Wide const c{w, tr == 1};
        double const t = launch_time(tile_count(c.rows(), c.cols()), whole * w / 256.0 / narrow_rate(w));
        if (t < best_time) {
          best = c;
          best_time = t;
        }
      }
    }
    return best;
  };
  // Where ping-pong 128x128 would win on efficiency (K >= 2048), the 128 x
  // w tiles the model takes over 128x256 also replace it if their
  // efficiency times narrow_rate(w) is higher: 1536x3072x2048 (288 tiles of
  // 128x128, efficiency 0.73; 128x160: 0.87 x 0.91) ran 0.771 in ping-pong
  // and 0.836 in 128x160 tiles (run 286). 3584x5120x2048 (ping-pong 0.94;
  // 128x224: 0.97 x 0.97) ran 0.994 in ping-pong and 0.977 in 128x224
  // tiles (run 287), so it stays.
  Wide const wide = wide_tiles();
  auto wide_efficiency = [&]() { return efficiency(wide.rows(), wide.cols(), 1) * narrow_rate(wide.w); };
  // K < 2048, where ping-pong is the default: only a single wave of wide
  // tiles, and only where their efficiency times narrow_rate(w) beats that
  // of the ping-pong tiling the rule would take (pp_short below); below K =
  // 1024 only where that tiling is 64x128, below K = 512 128x160 only.
  // NOTE: session 35 (run 292, H200, layouts.sh, gated, L2 flushed, median
  // of 20, ratio to cuBLAS, the default -> the wide tile): one wave of them
  // won: 1536^3 (ping-pong 64x128) 0.771 -> 0.853 (128x160, 120 tiles), tt
  // 0.794 -> 0.867; 1536^2 x 1024 0.784 -> 0.875; 1536x2048x1536 0.921 ->
  // 0.973 (128x192, 132 tiles). Two waves lost: 2304^2 x 1024 0.965 ->
  // 0.836 (128x176), 1536x3072x1024 0.886 -> 0.839 (128x160), 2048^2 x 1024
  // 0.972 -> 0.762, 2560^2 x 1024 0.869 -> 0.832 (128x208), 3072x2048x1024
  // 0.997 -> 0.934; one gained, 2560^2 x 1536 0.852 -> 0.878 (128x208, 260
  // tiles), which the single-wave clause gives up.
  // The clause, same-run A/B on the 60 shapes of M, N 768-3072 and K 1024,
  // 1536 whose choice it changed (run 293, median of 20): geometric mean
  // +7.2%, 57 gains (768x3072x1536 0.789 -> 0.907, 1024x2560x1536 0.842 ->
  // 0.970); the loss, 1792^2 (0.976 -> 0.906), went back to 64x128 with
  // kPingPong64Rate (run 294); 20 further shapes up to 6144 all gained
  // (run 295: 5120x512x1536 0.792 -> 0.931).
  // 512 <= K < 1024 (session 36): the same clause, but only where the
  // incumbent is 64x128. NOTE: run 299 (H200, layouts.sh, gated, L2
  // flushed, median of 20, ratio to cuBLAS), the 58 shapes of M, N 768-3072
  // and K 512, 768 whose choice the clause would change: over 64x128 the
  // wide tiles gained on 40 of 42 (geometric mean +4.6%; 128x160 +6.6% at K
  // = 512, +7.8% at 768: 1536^2 x 512 0.790 -> 0.859, 1024x2304x768 0.801
  // -> 0.880; 128x192 +1.6-1.8%; worst 2816x1024x512 0.888 -> 0.883); over
  // 128x128 ping-pong 128x224 lost 6.2% at K = 512 (2304x1536x512 0.822 ->
  // 0.766) and 1.0% at 768, 128x208 +0.1% and +3.7% (2 shapes each), so
  // 128x128 stays. Run 302, 30 more shapes (M or N 512-6144, K 576 and 896)
  // against 64x128: 29 gains, geometric mean +4.6% (1024x2560x576 0.896 ->
  // 0.994; 4096x768x576 0.918 -> 0.911); run 306, nn/nt/tt on five of
  // them: 14 of 14 gains (1024x2560x768 nn 0.893 -> 0.985).
  // K < 512 (session 37): 128x160 only (wide_tiles). Run 304 (K 256 and
  // 384, the 42 shapes a bound of K = 128 would change) measured 128x160
  // +4.2-5.1% over 64x128 (22 of 22 gains) but 128x192 -0.4-0.8% (13 of 20
  // losses, to 0.963), which the efficiency comparison does not separate.
  // NOTE: runs 308-310 (H200, layouts.sh, gated, L2 flushed, median of 20,
  // pp64_tma -> 128x160 in the rule's orientation), on shapes whose pick
  // this clause changes (M, N 512-6144): K 256-480, 42 shapes, 41 gains,
  // geometric mean +4.1% (1024x2560x480 0.930 -> 0.997; 512x5120x448 0.977
  // -> 0.971 the loss); nn/tt 4 of 4 (2304x1024x384 nn 0.855 -> 0.934); K
  // 128 and 192, 32 of 32, +7.0%; K 32 and 64, 22 of 22, +6.1% (1280x1792x32
  // 0.785 -> 0.883); run 311, K 8 and 16, 10 of 10, +11% (4608x512x8 0.574
  // -> 0.722). One wave of 128x160 writes D in fewer, wider tiles. Where the
  // incumbent is 128x128, several waves of wide tiles lost 15-30% (run 311,
  // M, N 2048-8192, K 128-512).
  // The ping-pong tile the rule takes: 64x128 where 128x128 tiles would
  // leave a consumer of most CTAs idle or quantise badly, if rows are
  // sector-aligned (see the NOTE above); otherwise 128x128.
  double const pp_small = efficiency(64, 128, 1);
  bool const pp64 = [&]() {
    if (row_align < 32) return false;
    bool const one_tile_per_cta = row_align >= 128 && 2 * tiles_128 < 3 * std::int64_t(sms);
    double const gain = pp_small - pp;
    if (k >= 2048) return gain > 0.2;
    // NOTE: session 38 (run 316, H200, layouts.sh, gated, L2 flushed, median
    // of 20, pp128_tma -> pp64_tma): at 256 <= K < 512, 21 fresh M x N with
    // gains of 0.09-0.12 (rows 128-byte aligned; K 256, 384 transposed and
    // 448): 58 of 63 shapes gained, geometric mean +1.9% (+2.0 / +1.8 /
    // +1.9% per K; 1280x7424x256 0.951 -> 1.000, 2816x3328x256 0.910 ->
    // 0.951); the five losses 0.1-1.1% (2816x2560x384 0.875 -> 0.865). Run
    // 314 had found the same on 16 of 18 (3072^2 x 256 0.894 -> 0.937). Run
    // 319 (no flush, three rotating copies of A and B): 1280x7424x256 0.916
    // -> 0.945, 2816x3328x256 0.923 -> 0.956, 3072^2 x 256 0.904 -> 0.947,
    // 1792x5120x256 0.951 -> 0.984, 6912x1024x384 1.016 -> 1.012.
    // Gains of 0.04-0.09 lost there (-2.2% at K = 256, run 313), and at K =
    // 512 and below K = 256 the 0.09-0.12 band did not win (0 of 6, 6 of
    // 12), so 0.12 stays for them.
    double const threshold = k >= 256 && k < 512 && row_align >= 128 ? 0.09 : 0.12;
    return one_tile_per_cta || gain > threshold;
  }();
  // Short K: the incumbent is that ping-pong tiling, its efficiency times
  // kPingPong64Rate for 64x128 tiles.
  double const pp_short = pp64 ? pp_small * kPingPong64Rate : pp;
  bool const wide_wins =
      wide.w != 0 && (k < 2048 ? (k >= 1024 || pp64) && tile_count(wide.rows(), wide.cols()) <= sms &&
                                     wide_efficiency() > pp_short
                               : pp <= coop + 0.05 || wide_efficiency() > pp);
  if (wide_wins) {
    v.tile_n = wide.w;
    v.transpose = wide.transposed;
    v.group_m = 8;
  } else if (k < 2048 || pp > coop + 0.05) {
    v.pingpong = true;
    v.tile_n = 128;
    v.group_m = 8;
    if (pp64) v.tile_m = 64;
  } else {
    v.group_m = 16;
    // Cluster pairs of 128x256 tiles (two tile rows per pair).
    std::int64_t const pair_units = tile_count(256, 256);
    if (tail > 1) {
      v.splits = tail;
      v.split_tail = true;
    } else if (coop_tiles <= sms && 2 * coop_tiles > sms && 2 * pair_units + 4 <= sms) {
      // One wave of 128x256 tiles filling more than half the SMs: clusters of
      // 2 whose pair shares B' multicast, which halves B's L2 -> SM traffic
      // of a launch whose CTAs all start (and stream) at once. The pairs
      // must fit in one wave of clusters: GPCs of odd size host fewer pairs
      // than sms / 2 (hence the slack of 4 SMs; 2048^3's 64 pairs run in one
      // wave on 132 SMs).
      // NOTE: session 32 (runs 272-273, H200, layouts.sh, gated, L2 flushed,
      // median of 40, two runs each; unclustered -> pairs): 2048^3 tn 0.952
      // -> 0.967, 0.953 -> 0.967 (session 31: 0.954 -> 0.968), nn 0.956 ->
      // 0.969, 0.953 -> 0.967, nt 0.957 -> 0.970, 0.952 -> 0.966, tt 0.960 ->
      // 0.967, 0.955 -> 0.969; 2048^2x4096 0.975 -> 0.985, 0.973 -> 0.978;
      // 2048^2x8192 0.979 -> 0.987, 0.960 -> 0.982; 1024x4096x4096 0.968 ->
      // 0.997, 0.974 -> 0.980; 4096x1024x4096 0.975 -> 0.982, 0.972 ->
      // 0.981; 1792x2304x2048 0.960 -> 0.983, 0.948 -> 0.972; 2048x1536x3072
      // 0.786 -> 0.793, 0.786 -> 0.792; run 275: 1536x2048x4096 0.794 ->
      // 0.807, 2048x1536x4096 0.788 -> 0.799 (both 128x192 tiles since, see
      // below); run 278 (median of 30): 2048^3 tn 0.951 -> 0.964, nn 0.963
      // -> 0.966, 2560x1536x4096 0.972 -> 0.982, 2048^2x4096 0.973 -> 0.980.
      // Several waves lose in pairs (run 272): 4096^3 1.002 -> 0.990,
      // 5120^2x4096 (tail split unavailable in clusters) 0.998 -> 0.897;
      // 2560^2x2048 (two waves) 0.863 -> 0.848 (run 275).
      v.cluster = 2;
    } else {
      // Two to four waves, the last one partly filled: as many waves, each
      // of them full (`balance_waves`: 512 tiles run as 4 waves of 128 CTAs
      // instead of 3 of 132 and one of 116).
      // NOTE: 4096^3 measured +0.9% (run 42, H100), +1.2%, +0.5%, +1.1%
      // (runs 117-118, H200, waves.sh with the fair timing of
      // driver_gate.cuh; `tessera bench` 0.998 in run 119, 0.992 in run 103
      // before it on an H100); 4096x4096x14336 (also 4 waves) -0.1%, +0.1%, 0,
      // +0.1%. Longer runs gained nothing (8192^3, 16 waves: 0, -0.3%, -0.1%,
      // 0; 4096x6144x4096, 6 waves: -2.4% in run 42, +0.5%, +0.1%, +0.1%), so
      // they keep one CTA per SM. Cause not established: the CTAs' work is
      // the same four tiles either way.
      v.balance_waves = short_partial_waves(coop_tiles);
    }
  }
  return v;
}

}  // namespace tessera::detail
