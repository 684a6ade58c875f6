#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 21's device check: builds the runtime, the tool and the device tests
# the argument/architecture changes touch (gemm API, the sm_90a image probe in
# an 80;90a and a plain sm_90 TU, the Hopper GEMM that now asks the probe),
# runs them, then (STEP=sanitize) compute-sanitizer memcheck on them and a
# short bench row. Logs under $OUT.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-s21}
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
BUILD=build-s21
T="${T:-device_test_gemm_api device_test_arch_sm90a_image device_test_arch_sm90a_image_plain90 device_test_hopper_gemm_sm90}"
start=$(date +%s)
if [ "${STEP:-run}" = run ]; then
  cmake -S . -B $BUILD -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="80;90a" \
    -DTESSERA_ENABLE_EXAMPLES=OFF > "$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
  # shellcheck disable=SC2086
  cmake --build $BUILD -j "$(nproc)" --target tessera $T -- -k 0 > "$OUT/build.log" 2>&1 ||
    { echo "build failed:"; grep -E "error" "$OUT/build.log" | head -30; }
  echo "build took $(( $(date +%s) - start ))s"
  for t in $T; do
    timeout 300 ./$BUILD/tests/$t > "$OUT/$t.log" 2>&1; rc=$?
    printf '%-48s rc=%d %s\n' "$t" "$rc" "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
    grep -E "Failure|FAILED  \]|error" "$OUT/$t.log" | head -8
  done
  ./$BUILD/bin/tessera info --no-measure 2>&1 | grep -A8 "registered GEMM"
else
  for t in device_test_gemm_api device_test_arch_sm90a_image device_test_arch_sm90a_image_plain90; do
    timeout 400 compute-sanitizer --tool memcheck --error-exitcode 9 ./$BUILD/tests/$t > "$OUT/$t.memcheck.log" 2>&1; rc=$?
    printf '%-48s memcheck rc=%d %s\n' "$t" "$rc" "$(grep -E 'ERROR SUMMARY' "$OUT/$t.memcheck.log" | tail -1)"
  done
  ./$BUILD/bin/tessera bench --shapes 4096x4096x4096,8192x8192x8192 --types bf16 2>&1 | tail -8
fi
echo "total $(( $(date +%s) - start ))s"
