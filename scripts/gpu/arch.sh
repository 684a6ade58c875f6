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
mkdir -p "$OUT"
BUILD=${BUILD:-/tmp/tessera-arch-build}
mkdir -p "$BUILD"

NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
SANITIZER=$(command -v compute-sanitizer || echo "$(dirname "$NVCC")/compute-sanitizer")
GENCODE_ALL="-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a"
GENCODE_90A="-gencode=arch=compute_90a,code=sm_90a"

{
  echo "nvcc: $NVCC"; "$NVCC" --version | tail -1
  nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader 2>&1 || echo "nvidia-smi failed"
} | tee "$OUT/env.txt"

# GoogleTest: the system static libraries, or a private build of the sources.
GTEST_FLAGS=""
if ls /usr/lib/x86_64-linux-gnu/libgtest.a /usr/lib/x86_64-linux-gnu/libgtest_main.a >/dev/null 2>&1; then
  GTEST_FLAGS="-lgtest -lgtest_main"
elif [ -f /tmp/tessera-gtest/lib/libgtest.a ]; then
  GTEST_FLAGS="-I/usr/src/googletest/googletest/include -L/tmp/tessera-gtest/lib -lgtest -lgtest_main"
elif [ -d /usr/src/googletest ]; then
  echo "building GoogleTest from /usr/src/googletest"
  cmake -S /usr/src/googletest -B /tmp/tessera-gtest-build -DCMAKE_BUILD_TYPE=Release -DBUILD_GMOCK=OFF \
    -DCMAKE_ARCHIVE_OUTPUT_DIRECTORY=/tmp/tessera-gtest/lib > "$OUT/gtest-build.log" 2>&1 &&
    cmake --build /tmp/tessera-gtest-build -j 8 >> "$OUT/gtest-build.log" 2>&1
  GTEST_FLAGS="-I/usr/src/googletest/googletest/include -L/tmp/tessera-gtest/lib -lgtest -lgtest_main"
else
  echo "no GoogleTest found" | tee -a "$OUT/env.txt"
fi

# Build every binary in parallel.
declare -A BUILD_RC
pids=()
names=()
for src in tests/device/test_arch_*.cu; do
  name=$(basename "$src" .cu)
  if [[ "$name" == *_sm90 ]]; then gencode=$GENCODE_90A; else gencode=$GENCODE_ALL; fi
  # shellcheck disable=SC2086
  ( "$NVCC" -std=c++20 -O2 -lineinfo -Iinclude $gencode "$src" -o "$BUILD/$name" $GTEST_FLAGS -Xcompiler -pthread \
      > "$OUT/$name.build.log" 2>&1 ) &
  pids+=($!)
  names+=("$name")
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  BUILD_RC[${names[$i]}]=$?
done

# "N passed, M skipped, K failed" from a GoogleTest log.
gtest_counts() {
  local log=$1 p s f
  p=$(grep -oE '^\[  PASSED  \] [0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  s=$(grep -oE '^\[  SKIPPED \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -1)
  f=$(grep -oE '^\[  FAILED  \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -1)
  echo "${p:-0} passed, ${s:-0} skipped, ${f:-0} failed"
}

summary=()
overall=0
for name in "${names[@]}"; do
  if [ "${BUILD_RC[$name]}" -ne 0 ]; then
    summary+=("$(printf '%-28s BUILD FAILED (see %s.build.log)' "$name" "$name")")
    tail -n 20 "$OUT/$name.build.log"
    overall=1
    continue
  fi
  bin="$BUILD/$name"
  "$bin" > "$OUT/$name.run.log" 2>&1
  run_rc=$?
  line=$(printf '%-28s run=%s (%s)' "$name" "$([ $run_rc -eq 0 ] && echo PASS || echo FAIL)" "$(gtest_counts "$OUT/$name.run.log")")
  [ $run_rc -ne 0 ] && overall=1
  for tool in memcheck racecheck; do
    if [ -x "$SANITIZER" ]; then
      "$SANITIZER" --tool "$tool" --error-exitcode 99 "$bin" > "$OUT/$name.$tool.log" 2>&1
      rc=$?
      errs=$(grep -oE 'ERROR SUMMARY: [0-9]+ error' "$OUT/$name.$tool.log" | grep -oE '[0-9]+' | tail -1)
      if [ $rc -eq 0 ]; then
        line+=" $tool=PASS"
      else
        line+=" $tool=FAIL(rc=$rc,errors=${errs:-?})"
        overall=1
      fi
    else
      line+=" $tool=n/a"
    fi
  done
  summary+=("$line")
done

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

for name in "${names[@]}"; do
  log="$OUT/$name.run.log"
  [ -f "$log" ] || continue
  if grep -q '^\[  FAILED  \]' "$log"; then
    echo "== $name: failures"
    grep -B1 -A6 'Failure$' "$log" | head -n 60
  fi
  if grep -q '^\[  SKIPPED \]' "$log"; then
    echo "== $name: skip reasons"
    grep -E 'needs sm_|no CUDA device|no kernel image' "$log" | sort | uniq -c
  fi
done
echo "== arch summary"
printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
exit $overall
