#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 54, one device call: session 53's committed `BetaSkinny*` tests
# (memcheck on `BetaSkinnyDefault`), `tessera bench --suite skinny --beta 1`,
# and ncu on the skinny multicast question: does the cluster pair's B
# multicast cut the L2 -> SM traffic at 128x8192x8192 the way cuBLAS's 1x2
# clusters do (run 249 counted 363 MB for ours, 286 MB for cuBLAS)? Also
# cuBLAS's kernel at 64x28672x4096, β = 0 and 1, beside ours. Builds with
# session28.sh (tests, tool, layouts driver; split compilation). Logs under
# $OUT; prints a short summary.
# PHASE=f32 (the second call): the whole Hopper GEMM test binary, then
# layouts.sh with TYPE=bf16f32 (bf16 inputs, f32 C and D) at β = 1 and 0 on
# the skinny shapes, the variants session 53's β ≠ 0 rule picks for 16-bit
# outputs beside the default (that rule leaves f32 outputs out, unmeasured).
set -u
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/s54}; mkdir -p "$O"
export PATH="$PATH:/usr/local/cuda/bin"
t0=$(date +%s)
T=device_test_hopper_gemm_sm90
B=/tmp/s54b
if [ "${PHASE:-}" = f32 ]; then
  SPLIT_COMPILE=1 BUILD=$B OUT=$O/s28 T=$T HC_TARGET="" STEPS=build bash scripts/gpu/session28.sh
  timeout 240 $B/tests/$T > "$O/tests_all.log" 2>&1
  echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$O/tests_all.log" | tr '\n' ' ')"
  grep -E "Failure|FAILED  \]" "$O/tests_all.log" | head -10
  L=${L:-"64x28672x4096:tn,nt:default,coop_tma,pp64_tma,n224_tma 28672x64x4096:tn,nn:default,n224_tr_tma,pp64_tr 64x32768x4096:tn:default,coop_tma 64x20000x4096:tn:default,coop_tma,pp64_tma"}
  for b in 1 0; do
    # shellcheck disable=SC2086
    TYPE=bf16f32 BETA=$b SPLIT_COMPILE=1 BUILD=$B OUT=$O/lay$b FLUSH_MB=0 ROTATE=3 \
      timeout 200 bash scripts/gpu/layouts.sh "${ROUNDS:-40}" $L > "$O/layouts_b$b.log" 2>&1
    echo "== bf16 -> f32, beta $b (rc=$?)"; grep -vE "^\s*$|^(-- |\[)|^built|^NVIDIA" "$O/layouts_b$b.log"
  done
  echo "done in $(( $(date +%s) - t0 ))s"
  exit 0
fi
# L2 traffic by source and by operation, the xbar bytes into the SMs, DRAM.
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum
M=$M,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_op_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum
M=$M,lts__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y
SPLIT_COMPILE=1 BUILD=$B OUT=$O/s28 T=$T HC_TARGET="" STEPS="build layouts ncu" ROUNDS=30 \
  LAYOUTS="128x8192x8192:tn:default,pp64_tma,pp64_tma_c2" NCU_METRICS="$M" \
  NCU_SPEC="128x8192x8192:tn:default,pp64_tma,pp64_tma_c2 64x28672x4096:tn:default,coop_tma" \
  bash scripts/gpu/session28.sh
echo "== beta 1 ncu"
mkdir -p "$O/s28b1" && cp "$O/s28/layouts" "$O/s28b1/"  # the ncu step runs $OUT/layouts
BETA=1 SPLIT_COMPILE=1 BUILD=$B OUT=$O/s28b1 STEPS=ncu NCU_METRICS="$M" \
  NCU_SPEC="64x28672x4096:tn:default,coop_tma" bash scripts/gpu/session28.sh 2>&1 | grep -v "^session28" || true
echo "== tests"
timeout 120 $B/tests/$T --gtest_filter='HopperGemm.BetaSkinny*:HopperGemm.BetaCThroughTma' > "$O/tests.log" 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$O/tests.log" | tr '\n' ' ')"
grep -E "Failure|FAILED  \]" "$O/tests.log" | head -10
TESSERA_TEST_IN_PROCESS=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $B/tests/$T \
  --gtest_filter='HopperGemm.BetaSkinnyDefault' > "$O/memcheck.log" 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck.log" | tail -1)"
echo "== bench skinny beta 1"
timeout 200 $B/bin/tessera bench --suite skinny --beta 1 --csv "$O/bench_b1.csv" > "$O/bench_b1.txt" 2>&1
echo "bench rc=$?"; grep -vE "^\s*$|^#" "$O/bench_b1.txt" | tail -14
echo "done in $(( $(date +%s) - t0 ))s"
