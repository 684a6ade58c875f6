#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# One short device-machine call: CMake-builds the `tessera` tool and the named
# device tests (sm_90a on Hopper, sm_80 otherwise), runs each test (and, with
# SAN="filter", compute-sanitizer memcheck on that gtest filter of each), then
# `tessera bench` with the arguments after "--". Logs under $OUT.
# Usage: scripts/gpu/quick.sh [device_test_NAME ...] [-- tessera bench args]
# e.g.   scripts/gpu/quick.sh device_test_gemm_repack -- --shapes 4096x4096x4096 --types f32
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-quick}
mkdir -p "$OUT"
BUILD=${BUILD:-build-gpu}
export PATH="$PATH:/usr/local/cuda/bin"
tests=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do tests+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
case "$cc" in 90) ARCH=90a ;; "") ARCH=90a ;; *) ARCH=80 ;; esac
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv 2>&1 | tee "$OUT/device.txt"
start=$(date +%s)
GEN=(); command -v ninja >/dev/null && GEN=(-G Ninja)
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$ARCH" -DTESSERA_ENABLE_EXAMPLES=OFF \
  "${GEN[@]}" > "$OUT/configure.log" 2>&1 || { echo "configure failed"; tail -20 "$OUT/configure.log"; exit 1; }
cmake --build "$BUILD" -j "$(nproc)" --target tessera_tool "${tests[@]}" -- -k 0 > "$OUT/build.log" 2>&1 \
  || { echo "build failed:"; grep -E "error" "$OUT/build.log" | head -20; }
echo "build took $(( $(date +%s) - start ))s"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in "${tests[@]}"; do
  exe=$(find "$BUILD" -type f -name "$t" -perm -u+x | head -1)
  [ -n "$exe" ] || { echo "$t: not built"; continue; }
  timeout "${TEST_LIMIT:-200}" "$exe" > "$OUT/$t.log" 2>&1
  echo "$t rc=$? ($(grep -cE '^\[ +OK' "$OUT/$t.log") ok, $(grep -cE '^\[  SKIPPED' "$OUT/$t.log") skipped lines)"
  grep -E "^\[  FAILED|Failure|Expected|Which is|actual" "$OUT/$t.log" | head -20
  if [ -n "${SAN:-}" ]; then
    TESSERA_TEST_IN_PROCESS=1 timeout "${SAN_LIMIT:-150}" "$san" --tool memcheck --error-exitcode 99 "$exe" \
      --gtest_filter="$SAN" > "$OUT/$t.memcheck.log" 2>&1
    echo "  memcheck rc=$? $(grep -m1 'ERROR SUMMARY' "$OUT/$t.memcheck.log")"
  fi
done
if [ $# -gt 0 ]; then
  timeout "${BENCH_LIMIT:-300}" "$BUILD/bin/tessera" bench "$@" --csv "$OUT/bench.csv" > "$OUT/bench.txt" 2> "$OUT/bench.err"
  echo "bench rc=$?"
  cat "$OUT/bench.txt"
  grep -vE "^\[bench\] (problem|row)" "$OUT/bench.err" | tail -5
fi
echo "total $(( $(date +%s) - start ))s"
