#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 22's device check: builds (archs 80;90a, examples on) the TMA
# device tests the grid cut of a tile into boxes touches, the device print
# test and seed 002's hopper_cute example (which copies through TmaCopy),
# runs them, then compute-sanitizer memcheck / racecheck on the TMA copy
# test. Logs under $OUT.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-s22}
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
BUILD=build-s22
T="${T:-device_test_tma_copy_sm90 device_test_tma_tensor_sm90 device_test_hopper_tma_sm90 device_test_print_device}"
start=$(date +%s)
cmake -S . -B $BUILD -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="90a" \
  -DTESSERA_ENABLE_EXAMPLES=ON > "$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
# shellcheck disable=SC2086
cmake --build $BUILD -j "$(nproc)" --target $T hopper_cute -- -k 0 > "$OUT/build.log" 2>&1 ||
  { echo "build failed:"; grep -E "error" "$OUT/build.log" | head -30; }
echo "build took $(( $(date +%s) - start ))s"
for t in $T; do
  timeout 300 ./$BUILD/tests/$t > "$OUT/$t.log" 2>&1; rc=$?
  printf '%-40s rc=%d %s\n' "$t" "$rc" "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
  grep -E "Failure|FAILED  \]|error|differs" "$OUT/$t.log" | head -8
done
for tool in memcheck racecheck; do
  TESSERA_TEST_IN_PROCESS=1 timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 \
    ./$BUILD/tests/device_test_tma_copy_sm90 --gtest_filter='*TilesOfSeveralBoxes*' > "$OUT/tma_copy.$tool.log" 2>&1
  printf 'tma_copy TilesOfSeveralBoxes %s rc=%d %s\n' $tool $? "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/tma_copy.$tool.log" | tail -1)"
done
exe=$(find $BUILD -type f -name hopper_cute -perm -u+x | head -1)
[ -n "$exe" ] && timeout 200 "$exe" --sizes 4096,8192 --reps 10 --no-suite 2>&1 | tail -14
echo "total $(( $(date +%s) - start ))s"
