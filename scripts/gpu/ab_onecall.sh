#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# A kernel change measured in ONE device call (session 50). session45.sh
# splits the work into two calls. In run 400 the machine went back during
# the 30 s idle release between them, and the build went with it. This
# script builds, tests, times and sanitizes in one call, and each step
# after the build runs only in the time that is left ($LIMIT seconds from
# the start, default 585).
#
# Before the call, here: apply the change, then
#   rm -rf ab_old && mkdir ab_old && git archive HEAD | tar -x -C ab_old
# and pass ab_old in the run's carry (and ab_alt, a third build timed in
# the same rounds, where there is one: see ab_layouts.sh). On the device:
#   L="64x28672x4096:tn:default ..." BETAS="1 0" OUT=$OUT bash scripts/gpu/ab_onecall.sh
# Steps:
#  1. the layouts drivers (ab_old/, the working tree, ab_alt/ if any) and the working
#     tree's Hopper tests and tessera tool, at once (~240 s);
#  2. the tests ($TEST_FILTER, default all);
#  3. per beta in $BETAS: $AB_ROUNDS (3) alternations of $ROUNDS (40)
#     rounds on $L (ab_layouts.sh, rotating inputs, no flush);
#  4. memcheck on $SAN_FILTER, racecheck on $RACE_FILTER (where set);
#  5. `tessera bench $BENCH` (where set) from the working tree's build.
# Logs under $OUT: build_ab.log, build_t.log, tests.log, ab_b<beta>.txt (their
# medians: scripts/gpu/ab_medians.py), memcheck.log,
# racecheck.log, bench.txt / bench.csv.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ -d ab_old/scripts/gpu ] || { echo "ab_old/ missing: see the header of $0"; exit 2; }
O=${OUT:-/tmp/abo}; W=/tmp/abo_w; mkdir -p "$O" "$W"
export PATH="$PATH:/usr/local/cuda/bin"
t0=$(date +%s)
limit=${LIMIT:-585}
left() { local l=$(( limit - ($(date +%s) - t0) )); [ $l -gt 1 ] && echo $l || echo 1; }
T=device_test_hopper_gemm_sm90
OUT=$W KEEP=1 AB_STEP=build bash scripts/gpu/ab_layouts.sh > "$O/build_ab.log" 2>&1 &
ab_pid=$!
SPLIT_COMPILE=1 BUILD=/tmp/abo_t OUT=$W/t T=$T HC_TARGET="" STEPS=build bash scripts/gpu/session28.sh > "$O/build_t.log" 2>&1 &
# ab_layouts.sh's build step checks every driver it builds (ab_alt/'s too)
# and exits non-zero if one is missing.
wait "$ab_pid"
ab_rc=$?
wait
echo "built in $(( $(date +%s) - t0 ))s"
[ -x /tmp/abo_t/tests/$T ] || { echo "tests: build failed"; tail -20 "$O/build_t.log"; exit 1; }
[ "$ab_rc" = 0 ] || { echo "layouts: build failed"; tail -20 "$O/build_ab.log"; exit 1; }
timeout "$(left)" /tmp/abo_t/tests/$T --gtest_filter="${TEST_FILTER:-*}" > "$O/tests.log" 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$O/tests.log" | tr '\n' ' ')"
grep -E "Failure|FAILED  \]" "$O/tests.log" | head -10
for b in ${BETAS:-0}; do
  [ "$(left)" -gt 60 ] || { echo "beta $b: no time left"; break; }
  BETA=$b OUT=$W KEEP=1 AB_STEP=run ROTATE=3 FLUSH_MB=0 ROUNDS=${ROUNDS:-40} AB_ROUNDS=${AB_ROUNDS:-3} \
    LAYOUTS="$L" timeout "$(left)" bash scripts/gpu/ab_layouts.sh > "$O/ab_b$b.txt" 2>&1
  echo "ab beta $b rc=$? at $(( $(date +%s) - t0 ))s"
done
san() {  # tool filter log
  [ -n "$2" ] || return 0
  [ "$(left)" -gt 20 ] || { echo "$1: no time left"; return 0; }
  TESSERA_TEST_IN_PROCESS=1 timeout "$(left)" compute-sanitizer --tool "$1" --error-exitcode 99 \
    /tmp/abo_t/tests/$T --gtest_filter="$2" > "$O/$3" 2>&1
  echo "$1 rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/$3" | tail -1)"
}
san memcheck "${SAN_FILTER:-}" memcheck.log
san racecheck "${RACE_FILTER:-}" racecheck.log
if [ -n "${BENCH:-}" ] && [ "$(left)" -gt 40 ]; then
  # shellcheck disable=SC2086
  timeout "$(left)" /tmp/abo_t/bin/tessera bench $BENCH --csv "$O/bench.csv" > "$O/bench.txt" 2>&1
  echo "bench rc=$? $(tail -1 "$O/bench.txt" | cut -c1-100)"
fi
echo "done in $(( $(date +%s) - t0 ))s"
