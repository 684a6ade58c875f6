#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Builds the device tests named in $T (arch 90a, examples off), runs each,
# then compute-sanitizer memcheck and racecheck on each (in process). One
# line per binary and tool. Logs under $OUT.
# Optional: EXTRA (more targets to build, not run), SAN=0 (no sanitizers),
# NO_SAN (tests never sanitized, e.g. host-only simulations), SAN_FILTER
# ("target=gtest-filter ..." pairs: that target's sanitizer runs take the
# filter), TEST_TIMEOUT (seconds per test binary, default 300).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-targets}
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
BUILD=${BUILD:-build-gpu}
T="${T:?name the device test targets in T}"
start=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  -DTESSERA_ENABLE_EXAMPLES=OFF > "$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
# shellcheck disable=SC2086
cmake --build "$BUILD" -j "$(nproc)" --target $T ${EXTRA:-} -- -k 0 > "$OUT/build.log" 2>&1 ||
  { echo "build failed:"; grep -E "error" "$OUT/build.log" | head -30; }
echo "build took $(( $(date +%s) - start ))s"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in $T; do
  timeout "${TEST_TIMEOUT:-300}" "./$BUILD/tests/$t" > "$OUT/$t.log" 2>&1
  printf '%-36s rc=%d %s\n' "$t" $? "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
  grep -E "Failure|FAILED  \]|error" "$OUT/$t.log" | head -6
  [ "${SAN:-1}" = 0 ] && continue
  case " ${NO_SAN:-} " in *" $t "*) continue ;; esac
  filter='*'
  read -r -a pairs <<< "${SAN_FILTER:-}"  # no pathname expansion of the filters' '*'
  for pair in "${pairs[@]}"; do [ "${pair%%=*}" = "$t" ] && filter="${pair#*=}"; done
  for tool in memcheck racecheck; do
    TESSERA_TEST_IN_PROCESS=1 timeout 200 "$san" --tool $tool --error-exitcode 99 "./$BUILD/tests/$t" \
      --gtest_filter="$filter" > "$OUT/$t.$tool.log" 2>&1
    printf '  %-10s rc=%d %s\n' $tool $? "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$t.$tool.log" | tail -1 | sed 's/=========//')"
  done
done
echo "total $(( $(date +%s) - start ))s"
