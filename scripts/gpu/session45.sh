#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 45: the one-loop K loop (the operand majors chosen per K-block
# around the wgmma issue). PHASE=build (first call): SASS of any cubins in
# sass_tmp/ (built on the host: the deferred-store kernels before and after),
# the A/B pair of layouts drivers (ab_old/ against the working tree) and the
# Hopper device tests, all at once, then the tests. PHASE=ab (the next call,
# on the warm machine): the A/B rounds ($L, $ROUNDS; ab_layouts.sh with
# rotating inputs, no flush) and memcheck on the Hopper GEMM tests
# ($SAN_FILTER; racecheck too on $RACE_FILTER where set). Logs under $OUT.
# (Runs 372-373 ran this script's own copy of
# ab_layouts.sh's build and rounds; it calls that script now.) Outcome: the patch was
# slower (performance.md, "Session 45"). It serves any kernel change the same
# way (session 46's unit counts, runs 377-378): apply it, make ab_old/
# from HEAD (ab_layouts.sh's header), carry ab_old, run both phases.
set -u
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/s45}; B=/tmp/s45b; mkdir -p "$O" "$B"
export PATH="$PATH:/usr/local/cuda/bin"
t0=$(date +%s)
T=device_test_hopper_gemm_sm90
if [ "${PHASE:-build}" = build ]; then
  for c in sass_tmp/*.cubin; do
    [ -e "$c" ] || continue
    n=$(basename "$c" .cubin)
    cuobjdump -sass "$c" > "$B/$n.sass" 2>&1
    echo "$n:"; python3 scripts/gpu/sass_local.py -a < "$B/$n.sass"
    xz -c "$B/$n.sass" > "$O/$n.sass.xz"
  done
  OUT=$B KEEP=1 AB_STEP=build bash scripts/gpu/ab_layouts.sh > "$B/ab_build.log" 2>&1 &
  SPLIT_COMPILE=1 BUILD=/tmp/s45t OUT=$B/t T=$T HC_TARGET= STEPS=build bash scripts/gpu/session28.sh > "$B/t_build.log" 2>&1 &
  wait
  echo "built in $(( $(date +%s) - t0 ))s"; tail -1 "$B/t_build.log"; tail -2 "$B/ab_build.log"
  timeout $(( 580 - ($(date +%s) - t0) )) /tmp/s45t/tests/$T > "$O/tests.log" 2>&1
  echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$O/tests.log" | tr '\n' ' ')"
  grep -E "Failure|FAILED  \]" "$O/tests.log" | head -10
else
  L=${L:-"4096x4096x4096:tn,nt,nn,tt:default 8192x8192x8192:tn:default 4096x6144x4096:tn:default 128x8192x8192:tn:default 2048x2048x2048:tn:default,pp128_tma,pp64"}
  OUT=$B KEEP=1 AB_STEP=run ROTATE=3 FLUSH_MB=0 ROUNDS=${ROUNDS:-60} LAYOUTS="$L" \
    timeout 400 bash scripts/gpu/ab_layouts.sh > "$O/ab.txt" 2>&1
  echo "ab done in $(( $(date +%s) - t0 ))s"
  grep -v "^\s*$" "$O/ab.txt" | head -120
  TESSERA_TEST_IN_PROCESS=1 timeout $(( 590 - ($(date +%s) - t0) )) compute-sanitizer --tool memcheck --error-exitcode 99 \
    /tmp/s45t/tests/$T --gtest_filter="${SAN_FILTER:-HopperGemm.TmaStore*:HopperGemm.MnMajor*:HopperGemm.SplitK*:HopperGemm.F16Acc*}" > "$O/memcheck.log" 2>&1
  echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck.log" | tail -1)"
  # RACE_FILTER (session 49): racecheck on those tests too, in what time is left.
  if [ -n "${RACE_FILTER:-}" ]; then
    TESSERA_TEST_IN_PROCESS=1 timeout $(( 590 - ($(date +%s) - t0) )) compute-sanitizer --tool racecheck \
      --error-exitcode 99 /tmp/s45t/tests/$T --gtest_filter="$RACE_FILTER" > "$O/racecheck.log" 2>&1
    echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/racecheck.log" | tail -1)"
  fi
fi
echo "done in $(( $(date +%s) - t0 ))s"
