#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# On a GPU machine: builds every device test with CMake for the GPU's
# architecture, runs them through ctest (label `device`), then runs each device
# test binary under compute-sanitizer memcheck and racecheck, and prints one
# line per binary. Logs under $OUT.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-ctest}
mkdir -p "$OUT"
BUILD=${BUILD:-build-gpu}
export PATH="$PATH:/usr/local/cuda/bin"
GEN=(); command -v ninja >/dev/null && GEN=(-G Ninja)
start=$(date +%s)
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  -DTESSERA_ENABLE_EXAMPLES=OFF "${GEN[@]}" > "$OUT/configure.log" 2>&1 || { echo "configure failed"; tail -20 "$OUT/configure.log"; exit 1; }
targets=$(cmake --build "$BUILD" --target help 2>/dev/null | grep -oE 'device_test_[A-Za-z0-9_]+' | sort -u)
# shellcheck disable=SC2086
cmake --build "$BUILD" -j "$(nproc)" --target $targets -- -k 0 > "$OUT/build.log" 2>&1 || { echo "build failed:"; grep -E "error" "$OUT/build.log" | head -20; }
echo "build took $(( $(date +%s) - start ))s"
(cd "$BUILD" && ctest -L device --output-on-failure --timeout 240 > "$OUT/ctest.log" 2>&1)
grep -E "tests passed|tests failed|\*\*\*Failed|Not Run|\*\*\*Skipped|Passed" "$OUT/ctest.log" | tail -40
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# Sanitize every binary, four at a time (racecheck is slow on the large GEMM
# tests): SAN_LIMIT seconds per binary and tool; a timeout is reported as such.
sanitize() {
  local exe=$1 name tool rc line
  name=$(basename "$exe"); line="$name"
  for tool in memcheck racecheck; do
    timeout "${SAN_LIMIT:-120}" "$san" --tool "$tool" --error-exitcode 99 "$exe" > "$OUT/$name.$tool.log" 2>&1
    rc=$?
    case $rc in 0) line+="  $tool=clean" ;; 124) line+="  $tool=timeout" ;; *) line+="  $tool=rc$rc" ;; esac
  done
  echo "$line"
}
export -f sanitize; export san OUT
find "$BUILD" -type f -name 'device_test_*' -perm -u+x | sort | xargs -P 4 -I{} bash -c 'sanitize {}' | sort | tee "$OUT/sanitizer.txt"
echo "total $(( $(date +%s) - start ))s"
