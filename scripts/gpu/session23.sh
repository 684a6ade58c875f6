#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 23's device check: the whole device suite (scripts/gpu/ctest.sh,
# STEPS="build ctest"), then compute-sanitizer memcheck and racecheck on the
# binaries this session added or changed ($SAN, default below), in process.
# STEPS=none skips the suite (sanitizers only, on a machine that built it).
# Logs under $OUT.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-s23}
mkdir -p "$OUT"
export OUT
BUILD=${BUILD:-build-gpu}
export BUILD
start=$(date +%s)
[ "${STEPS-build ctest}" = none ] || STEPS="${STEPS:-build ctest}" bash scripts/gpu/ctest.sh
SAN="${SAN:-device_test_cooperative_copy device_test_subbyte_device device_test_cluster_geometry_sm90 device_test_tma_copy_sm90 device_test_atom_mma device_test_arch_sm80_mma}"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in $SAN; do
  exe="$BUILD/tests/$t"
  [ -x "$exe" ] || { echo "$t: not built"; continue; }
  line="$t"
  for tool in memcheck racecheck; do
    filter='*'
    [ "$t" = device_test_tma_copy_sm90 ] && filter='*MakeTmaAtom*'
    TESSERA_TEST_IN_PROCESS=1 timeout 200 "$san" --tool $tool --error-exitcode 99 "$exe" --gtest_filter="$filter" \
      > "$OUT/$t.$tool.log" 2>&1
    line+="  $tool=rc$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$t.$tool.log" | tail -1 | sed 's/=========//')"
  done
  echo "$line"
done
echo "total $(( $(date +%s) - start ))s"
