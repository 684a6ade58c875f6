#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Builds the arch-layer device tests (tests/device/test_arch_*.cu) with nvcc,
# runs each, then runs each under compute-sanitizer memcheck and racecheck,
# checks the wrong-architecture compile_fail programs, and prints one summary
# line per binary. Logs go under $OUT (default /tmp/tessera-arch).
# Usage: scripts/gpu/arch.sh        (from anywhere; needs nvcc, a GPU for the runs)
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-arch}
BUILD=${BUILD:-/tmp/tessera-arch-build}
. scripts/gpu/nvcc_tests.sh  # NVCC, SANITIZER, GENCODE_*, build_tests, run_tests, report_logs

build_tests "" tests/device/test_arch_*.cu
run_tests 28

# Wrong-architecture programs must fail to build and name the requirement.
cf_pass=0
cf_fail=0
for src in tests/compile_fail/arch_*.cu; do
  expect=$(sed -n '3s#^// expect-error: ##p' "$src")
  flags=$(sed -n '4s#^// nvcc-flags: ##p' "$src")
  [ -z "$flags" ] && flags=$GENCODE_ALL
  # shellcheck disable=SC2086
  "$NVCC" -std=c++20 -Iinclude $flags -c "$src" -o /dev/null > "$OUT/cf_$(basename "$src" .cu).log" 2>&1
  rc=$?
  if [ $rc -ne 0 ] && grep -qF -- "$expect" "$OUT/cf_$(basename "$src" .cu).log"; then
    cf_pass=$((cf_pass + 1))
  else
    cf_fail=$((cf_fail + 1))
    echo "compile_fail $(basename "$src"): rc=$rc, expected '$expect'"
    overall=1
  fi
done
summary+=("$(printf '%-28s %d passed, %d failed' "compile_fail/arch_*" "$cf_pass" "$cf_fail")")

report_logs
echo "== arch summary"
printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
exit $overall
