#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# On a GPU machine: builds every device test with CMake for the GPU's
# architecture, runs them through ctest (label `device`), then runs each device
# test binary under compute-sanitizer memcheck and racecheck, and prints one
# line per binary. Logs under $OUT.
# Environment: STEPS (default "build ctest sanitize": a device call of at most
# 10 minutes may not hold all three, so run e.g. STEPS="build ctest" and then
# STEPS=sanitize on the same warm machine), TOOLS (default "memcheck
# racecheck"), CTEST_J (ctest's parallel jobs, default 1), SAN_J (binaries
# sanitized at once, default 4), SAN_LIMIT (seconds per binary and tool),
# SPLIT_COMPILE (non-empty: nvcc -split-compile=0, cicc and ptxas of one
# unit on every core, as in runtime_build.sh; the Hopper GEMM unit alone
# takes ~7 minutes on one core since session 42).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-ctest}
mkdir -p "$OUT"
BUILD=${BUILD:-build-gpu}
export PATH="$PATH:/usr/local/cuda/bin"
GEN=(); command -v ninja >/dev/null && GEN=(-G Ninja)
start=$(date +%s)
STEPS=${STEPS:-build ctest sanitize}
step() { case " $STEPS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
if step build; then
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  -DCMAKE_CUDA_FLAGS="${SPLIT_COMPILE:+-split-compile=0}" \
  -DTESSERA_ENABLE_EXAMPLES=OFF "${GEN[@]}" > "$OUT/configure.log" 2>&1 || { echo "configure failed"; tail -20 "$OUT/configure.log"; exit 1; }
targets=$(cmake --build "$BUILD" --target help 2>/dev/null | grep -oE 'device_test_[A-Za-z0-9_]+' | sort -u)
# shellcheck disable=SC2086
cmake --build "$BUILD" -j "$(nproc)" --target $targets -- -k 0 > "$OUT/build.log" 2>&1 || { echo "build failed:"; grep -E "error" "$OUT/build.log" | head -20; }
echo "build took $(( $(date +%s) - start ))s"
fi
if step ctest; then
  (cd "$BUILD" && ctest -L device -j "${CTEST_J:-1}" --output-on-failure --timeout 240 > "$OUT/ctest.log" 2>&1)
  grep -E "tests passed|tests failed|\*\*\*Failed|Not Run|\*\*\*Skipped|Passed" "$OUT/ctest.log" | tail -40
fi
step sanitize || { echo "total $(( $(date +%s) - start ))s"; exit 0; }
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# Sanitize every binary, four at a time (racecheck is slow on the large GEMM
# tests): SAN_LIMIT seconds per binary and tool; a timeout is reported as such.
sanitize() {
  local exe=$1 name tool rc line
  name=$(basename "$exe"); line="$name"
  for tool in ${TOOLS:-memcheck racecheck}; do
    # In-process: the TMA test would otherwise run its cases in re-executed
    # children, which the sanitizer does not follow.
    TESSERA_TEST_IN_PROCESS=1 timeout "${SAN_LIMIT:-120}" "$san" --tool "$tool" --error-exitcode 99 "$exe" > "$OUT/$name.$tool.log" 2>&1
    rc=$?
    # A binary of host-side checks (no CUDA call) is reported as such.
    if [ $rc = 255 ] && grep -q "terminated before first instrumented API call" "$OUT/$name.$tool.log"; then
      line+="  $tool=no-cuda-calls"
      continue
    fi
    case $rc in 0) line+="  $tool=clean" ;; 124) line+="  $tool=timeout" ;; *) line+="  $tool=rc$rc" ;; esac
  done
  echo "$line"
}
export -f sanitize; export san OUT TOOLS
find "$BUILD" -type f -name 'device_test_*' -perm -u+x | sort | xargs -P "${SAN_J:-4}" -I{} bash -c 'sanitize {}' | sort | tee "$OUT/sanitizer.txt"
echo "total $(( $(date +%s) - start ))s"
